//! Counting the games of the family: distinct positions and move sequences (perft) by number
//! of plies, breadth first, and every grid of a small board classified.
//!
//! [`layers`] keeps one hash map per ply from each distinct position to the number of move
//! sequences that reach it, so the sequences of ply `n + 1` are summed from ply `n` without
//! walking every sequence: Connect Four's 12 plies hold about 1.4 × 10^10 sequences but only
//! 12.2 M positions. [`grids`] walks all `3^cells` assignments of a board of at most
//! [`MAX_GRID_CELLS`] cells.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::vec::Vec;

use super::any::AnyPosition;
use super::bits::{Bits, bottom_mask, cell_mask, wins_through};
use super::board::Board;
use super::position::Position;
use super::{Rules, Violation};
use crate::{Player, Status};

/// The largest board [`grids`] walks: 3^16 = 43,046,721 grids (4 × 4).
pub const MAX_GRID_CELLS: u32 = 16;

/// The distinct positions after one number of plies, by status, and the move sequences
/// (stopping at finished games) that reach them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Layer {
    /// Moves played.
    pub plies: u32,
    /// Distinct positions.
    pub positions: u64,
    /// Move sequences of this length from the empty board (perft).
    pub sequences: u64,
    /// Positions X has won.
    pub x_won: u64,
    /// Positions O has won.
    pub o_won: u64,
    /// Full boards without a line.
    pub draws: u64,
    /// Positions with a move to make.
    pub ongoing: u64,
}

impl Layer {
    fn add(&mut self, status: Status, sequences: u64) -> Result<(), CountError> {
        self.positions += 1;
        self.sequences = self
            .sequences
            .checked_add(sequences)
            .ok_or(CountError::Overflow { plies: self.plies })?;
        match status {
            Status::Won(Player::X) => self.x_won += 1,
            Status::Won(Player::O) => self.o_won += 1,
            Status::Draw => self.draws += 1,
            Status::Ongoing => self.ongoing += 1,
        }
        Ok(())
    }
}

/// Why a count was refused or stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CountError {
    /// A layer holds more distinct positions than the limit allows in memory.
    #[error(
        "{rules}: ply {plies} holds more than {limit} distinct positions, past the memory limit; count fewer plies"
    )]
    TooLarge {
        /// The rules.
        rules: Rules,
        /// The ply that outgrew the limit.
        plies: u32,
        /// The limit.
        limit: u64,
    },
    /// The board has too many cells to walk every grid.
    #[error(
        "{rules}: {cells} cells make 3^{cells} grids; every grid is walked only for boards of at most {MAX_GRID_CELLS} cells (count positions by plies instead)"
    )]
    TooManyGrids {
        /// The rules.
        rules: Rules,
        /// Its cells.
        cells: u32,
    },
    /// Building a layer would take more memory than the limit allows.
    #[error(
        "{rules}: ply {plies} would take more than {limit} bytes of memory, past the limit; count fewer plies"
    )]
    OutOfMemory {
        /// The rules.
        rules: Rules,
        /// The ply that outgrew the limit.
        plies: u32,
        /// The limit, in bytes.
        limit: u64,
    },
    /// A sequence count passed `u64::MAX`.
    #[error("the number of move sequences of {plies} plies passes 2^64")]
    Overflow {
        /// The ply.
        plies: u32,
    },
}

/// A fast hasher for bitboard keys (a multiply-rotate mix of each word).
#[derive(Default, Clone, Copy)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    #[inline]
    fn write_usize(&mut self, _len: usize) {
        // Array lengths are the same for every key of a map: nothing to mix in.
    }
}

type Map<const W: usize> = HashMap<Key<W>, (u64, Status), BuildHasherDefault<WordHasher>>;

/// The layers 0 to `max_plies` from the empty board (fewer when every game has ended), with
/// at most `limit` distinct positions in a layer.
///
/// ```
/// use tictactoe::mnk::{Rules, count};
/// let layers = count::layers(Rules::CONNECT_FOUR, 4, 1_000_000)?;
/// let positions: Vec<u64> = layers.iter().map(|l| l.positions).collect();
/// assert_eq!(positions, [1, 7, 49, 238, 1120]);
/// assert_eq!(layers[4].sequences, 7u64.pow(4));
/// # Ok::<(), tictactoe::mnk::count::CountError>(())
/// ```
///
/// # Errors
/// [`CountError::TooLarge`] when a layer would hold more than `limit` positions, and
/// [`CountError::Overflow`] when a sequence count passes `u64::MAX`.
pub fn layers(rules: Rules, max_plies: u32, limit: u64) -> Result<Vec<Layer>, CountError> {
    let guard = Guard {
        positions: limit,
        bytes: u64::MAX,
    };
    let counted = layers_guarded(rules, max_plies, guard, &mut |_| {});
    match counted.stopped {
        Some(error) => Err(error),
        None => Ok(counted.layers),
    }
}

/// What [`layers_within`] tells its caller as it counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tick {
    /// Ply `plies` is being built: `done` of the `of` positions of the ply before have been
    /// expanded (sent every [`TICK_PARENTS`] positions), and it holds `positions` so far.
    Parents {
        /// The ply being built.
        plies: u32,
        /// Positions of the ply before expanded so far.
        done: u64,
        /// Positions of the ply before.
        of: u64,
        /// Distinct positions of this ply found so far.
        positions: u64,
    },
    /// A ply is complete.
    Finished(Layer),
}

/// How many positions of the ply before [`layers_within`] expands between two
/// [`Tick::Parents`].
pub const TICK_PARENTS: u64 = 1 << 16;

/// What [`layers_within`] counted: every ply it finished, and why it stopped early if it did
/// (the layers are then the plies before the one that did not fit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// The finished plies, from 0.
    pub layers: Vec<Layer>,
    /// Why the count stopped before `max_plies`: [`CountError::OutOfMemory`] or
    /// [`CountError::Overflow`]; `None` when it finished.
    pub stopped: Option<CountError>,
}

/// [`layers`] under a memory limit instead of a limit on positions: the count stops, keeping
/// the plies it finished, before its tables would pass `max_bytes` (the sizes
/// [`peak_bytes`] models, checked before each table grows), and it calls `tick` as it goes.
///
/// ```
/// use tictactoe::mnk::{Rules, count};
/// let counted = count::layers_within(Rules::GOMOKU, 3, 64 << 20, &mut |_| {});
/// // Ply 3 (5,644,800 positions) needs more than 64 MiB: plies 0 to 2 are kept.
/// assert_eq!(counted.layers.len(), 3);
/// assert!(matches!(counted.stopped, Some(count::CountError::OutOfMemory { plies: 3, .. })));
/// ```
pub fn layers_within(
    rules: Rules,
    max_plies: u32,
    max_bytes: u64,
    tick: &mut dyn FnMut(Tick),
) -> Counted {
    let guard = Guard {
        positions: u64::MAX,
        bytes: max_bytes,
    };
    layers_guarded(rules, max_plies, guard, tick)
}

/// The limits of one count.
#[derive(Clone, Copy)]
struct Guard {
    positions: u64,
    bytes: u64,
}

fn layers_guarded(
    rules: Rules,
    max_plies: u32,
    guard: Guard,
    tick: &mut dyn FnMut(Tick),
) -> Counted {
    let start = AnyPosition::new(rules);
    crate::each_width!(AnyPosition, start, p => layers_of(p, max_plies, guard, tick))
}

/// X's and O's bits: the key of a position in a layer (the ply fixes the side to move).
type Key<const W: usize> = ([u64; W], [u64; W]);

/// Bytes of one slot of a layer's table, for boards of `W` words.
const fn slot_bytes<const W: usize>() -> u64 {
    size_of::<(Key<W>, (u64, Status))>() as u64
}

/// The slots of a hash table holding `positions` (the standard library's tables keep at
/// least one slot in eight free and round up to a power of two).
const fn buckets(positions: u64) -> u64 {
    if positions < 4 {
        4
    } else if positions < 8 {
        8
    } else {
        (positions.saturating_mul(8) / 7).next_power_of_two()
    }
}

/// Bytes of a table of `buckets` slots of `slot` bytes: the slots and one control byte
/// each, and one group of control bytes more.
const fn table_bytes(slot: u64, buckets: u64) -> u64 {
    buckets.saturating_mul(slot + 1).saturating_add(16)
}

/// The most bytes [`layers_within`] holds while it builds a ply of `positions` distinct
/// positions from a ply of `previous`: the table of the ply before, the new table, and, while
/// the new table grows for the last time, the half-size table it grows from.
///
/// ```
/// use tictactoe::mnk::{Rules, count};
/// // Gomoku's ply 3 from ply 2: 50,400 positions, then 5,644,800.
/// let bytes = count::peak_bytes(Rules::GOMOKU, 50_400, 5_644_800);
/// assert!(bytes > 500 << 20 && bytes < 1 << 30);
/// ```
#[must_use]
pub fn peak_bytes(rules: Rules, previous: u64, positions: u64) -> u64 {
    let slot = crate::for_width!(rules, W => slot_bytes::<W>());
    let new = buckets(positions);
    table_bytes(slot, buckets(previous))
        .saturating_add(table_bytes(slot, new))
        .saturating_add(table_bytes(slot, new / 2))
}

/// At most how many distinct positions of `plies` marks `rules` has: the ways to place X's
/// `⌈plies/2⌉` and O's `⌊plies/2⌋` marks on the board (with gravity: the ways to stack `plies`
/// stones in the columns, times the ways to colour them), saturating at `u64::MAX`. Exact
/// until a game can end (it counts boards past a win too).
///
/// ```
/// use tictactoe::mnk::{Rules, count};
/// assert_eq!(count::max_positions(Rules::GOMOKU, 3), 225 * 224 / 2 * 223);
/// // Connect Four has 1,120 positions of 4 stones: the bound is 12% above (a stone on
/// // another in one column is never O under X's first stone, which it counts too).
/// assert_eq!(count::max_positions(Rules::CONNECT_FOUR, 4), 1260);
/// ```
#[must_use]
pub fn max_positions(rules: Rules, plies: u32) -> u64 {
    let (x, o) = (plies.div_ceil(2), plies / 2);
    let count = if rules.gravity() {
        stackings(rules.rows(), rules.cols(), plies).saturating_mul(binomial(plies, x))
    } else {
        binomial(rules.cells(), x).saturating_mul(binomial(rules.cells().saturating_sub(x), o))
    };
    u64::try_from(count).unwrap_or(u64::MAX)
}

/// `n` choose `k`, saturating.
fn binomial(n: u32, k: u32) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // Exact at every step: c * (n - i) is divisible by i + 1.
        c = c.saturating_mul(u128::from(n - i)) / u128::from(i + 1);
    }
    c
}

/// The ways to stack `stones` stones in `cols` columns of `rows` cells.
fn stackings(rows: u32, cols: u32, stones: u32) -> u128 {
    // ways[s]: stackings of s stones in the columns seen so far.
    let mut ways = vec![0u128; stones as usize + 1];
    ways[0] = 1;
    for _ in 0..cols {
        let mut next = vec![0u128; stones as usize + 1];
        for (s, &w) in ways.iter().enumerate() {
            for h in 0..=rows as usize {
                if s + h > stones as usize {
                    break;
                }
                next[s + h] = next[s + h].saturating_add(w);
            }
        }
        ways = next;
    }
    ways[stones as usize]
}

fn layers_of<const W: usize>(
    root: Position<W>,
    max_plies: u32,
    guard: Guard,
    tick: &mut dyn FnMut(Tick),
) -> Counted {
    let rules = root.rules();
    let cells = cell_mask::<W>(rules);
    let bottom = bottom_mask::<W>(rules);
    let slot = slot_bytes::<W>();
    let mut out = Counted {
        layers: Vec::new(),
        stopped: None,
    };
    let mut first = Layer::default();
    // One sequence cannot overflow.
    let _ = first.add(root.status(), 1);
    tick(Tick::Finished(first));
    out.layers.push(first);
    let root_key = (
        root.board().pieces(Player::X).0,
        root.board().pieces(Player::O).0,
    );
    let mut frontier: Map<W> = Map::default();
    frontier.insert(root_key, (1, root.status()));
    for plies in 1..=max_plies {
        let mover = if plies % 2 == 1 { Player::X } else { Player::O };
        let mut next: Map<W> = Map::default();
        let held = table_bytes(slot, buckets(frontier.len() as u64));
        let of = frontier.len() as u64;
        for (done, (&(x, o), &(sequences, status))) in frontier.iter().enumerate() {
            if (done as u64).is_multiple_of(TICK_PARENTS) && done > 0 {
                tick(Tick::Parents {
                    plies,
                    done: done as u64,
                    of,
                    positions: next.len() as u64,
                });
            }
            if status != Status::Ongoing {
                continue;
            }
            let (x, o) = (Bits(x), Bits(o));
            let occupied = x | o;
            let mut playable = cells.and_not(occupied);
            if rules.gravity() {
                playable &= occupied.shl(1) | bottom;
            }
            for bit in playable.iter() {
                let (mut cx, mut co) = (x, o);
                let pieces = match mover {
                    Player::X => &mut cx,
                    Player::O => &mut co,
                };
                pieces.insert(bit);
                let status = if wins_through(*pieces, bit, rules) {
                    Status::Won(mover)
                } else if plies == rules.cells() {
                    Status::Draw
                } else {
                    Status::Ongoing
                };
                let len = next.len() as u64;
                let key = (cx.0, co.0);
                if len == next.capacity() as u64 && !next.contains_key(&key) {
                    // The table is full and must grow: the old and the new table are both
                    // held while it does.
                    let now = buckets(len);
                    let grown = held
                        .saturating_add(table_bytes(slot, now))
                        .saturating_add(table_bytes(slot, buckets(len + 1)));
                    if grown > guard.bytes {
                        out.stopped = Some(CountError::OutOfMemory {
                            rules,
                            plies,
                            limit: guard.bytes,
                        });
                        return out;
                    }
                }
                let entry = next.entry(key).or_insert((0, status));
                if entry.0 == 0 && len >= guard.positions {
                    out.stopped = Some(CountError::TooLarge {
                        rules,
                        plies,
                        limit: guard.positions,
                    });
                    return out;
                }
                match entry.0.checked_add(sequences) {
                    Some(sum) => entry.0 = sum,
                    None => {
                        out.stopped = Some(CountError::Overflow { plies });
                        return out;
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        let mut layer = Layer {
            plies,
            ..Layer::default()
        };
        for &(sequences, status) in next.values() {
            if let Err(error) = layer.add(status, sequences) {
                out.stopped = Some(error);
                return out;
            }
        }
        tick(Tick::Finished(layer));
        out.layers.push(layer);
        frontier = next;
    }
    out
}

/// Every grid of a small board by number of marks: how many there are, how many have mark
/// counts a game allows, and how many are reachable positions, by status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GridCounts {
    /// All grids: `3^cells`.
    pub grids: u64,
    /// Grids whose counts a game allows (`#X = #O` or `#X = #O + 1`).
    pub legal_counts: u64,
    /// Reachable positions, by number of marks (`positions` and the statuses; `sequences`
    /// is 0 here).
    pub by_marks: Vec<Layer>,
}

impl GridCounts {
    /// Reachable positions in all.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.by_marks.iter().map(|l| l.positions).sum()
    }
}

/// Every `3^cells` grid of `rules` classified by [`Board::violations`], for boards of at most
/// [`MAX_GRID_CELLS`] cells.
///
/// ```
/// use tictactoe::mnk::{Rules, count};
/// let counts = count::grids(Rules::TIC_TAC_TOE)?;
/// assert_eq!((counts.grids, counts.positions()), (19_683, 5_478));
/// # Ok::<(), tictactoe::mnk::count::CountError>(())
/// ```
///
/// # Errors
/// [`CountError::TooManyGrids`] for a board of more cells.
pub fn grids(rules: Rules) -> Result<GridCounts, CountError> {
    grids_each(rules, &mut |_, _| {})
}

/// [`grids`], calling `tick(done, of)` as it goes: `done` of the `of = 2^cells` sets of X's
/// cells walked (every 256 of them).
///
/// # Errors
/// [`CountError::TooManyGrids`] for a board of more cells.
pub fn grids_each(rules: Rules, tick: &mut dyn FnMut(u64, u64)) -> Result<GridCounts, CountError> {
    if rules.cells() > MAX_GRID_CELLS {
        return Err(CountError::TooManyGrids {
            rules,
            cells: rules.cells(),
        });
    }
    // 16 cells with their guard bits fit in one word.
    let board = Board::<1>::empty(rules).map_err(|_| CountError::TooManyGrids {
        rules,
        cells: rules.cells(),
    })?;
    Ok(grids_of(board, tick))
}

fn grids_of(empty: Board<1>, tick: &mut dyn FnMut(u64, u64)) -> GridCounts {
    let rules = empty.rules();
    let cells = rules.cells();
    let bit_of: Vec<u32> = (0..cells)
        .filter_map(|i| rules.square_at(i).map(|s| rules.bit(s)))
        .collect();
    let to_bits = |mask: u32| -> Bits<1> {
        let mut bits = Bits::EMPTY;
        let mut m = mask;
        while m != 0 {
            bits.insert(bit_of[m.trailing_zeros() as usize]);
            m &= m - 1;
        }
        bits
    };
    let mut counts = GridCounts {
        grids: 3u64.pow(cells),
        by_marks: (0..=cells)
            .map(|plies| Layer {
                plies,
                ..Layer::default()
            })
            .collect(),
        ..GridCounts::default()
    };
    let all = (1u32 << cells) - 1;
    for x_mask in 0..=all {
        if x_mask.is_multiple_of(256) {
            tick(u64::from(x_mask), u64::from(all) + 1);
        }
        let xs = x_mask.count_ones();
        let x = to_bits(x_mask);
        let free = all & !x_mask;
        // Every subset of the free cells, the empty one included.
        let mut o_mask = free;
        loop {
            let os = o_mask.count_ones();
            if xs == os || xs == os + 1 {
                counts.legal_counts += 1;
                if let Some(board) = Board::from_bits(rules, x, to_bits(o_mask)) {
                    let violations = board.violations();
                    if violations.is_empty() {
                        let status =
                            Position::from_board(board).map_or(Status::Ongoing, |p| p.status());
                        // `add` fails only past 2^64 sequences; here it adds none.
                        let _ = counts.by_marks[(xs + os) as usize].add(status, 0);
                    } else {
                        debug_assert!(!violations.contains(Violation::OStarted));
                    }
                }
            }
            if o_mask == 0 {
                break;
            }
            o_mask = (o_mask - 1) & free;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_holds_every_ply_and_is_exact_without_gravity_before_a_game_can_end() {
        let games = [
            ("3,3,3", 9),
            ("4,4,4", 16),
            ("6,7,4,gravity", 9),
            ("5,4,3,gravity", 20),
        ];
        for (spec, plies) in games {
            let rules: Rules = spec.parse().unwrap();
            let layers = layers(rules, plies, 10_000_000).unwrap();
            for layer in &layers {
                let bound = max_positions(rules, layer.plies);
                assert!(layer.positions <= bound, "{spec} ply {}", layer.plies);
                if !rules.gravity() && layer.plies < 2 * rules.k() - 1 {
                    assert_eq!(layer.positions, bound, "{spec} ply {}", layer.plies);
                }
            }
        }
        assert_eq!(max_positions(Rules::GOMOKU, 0), 1);
        assert_eq!(max_positions("19,19,5".parse().unwrap(), 400), 0);
        assert_eq!(max_positions("19,19,5".parse().unwrap(), 180), u64::MAX);
    }

    #[test]
    fn a_count_out_of_memory_keeps_its_finished_plies_and_says_them() {
        let mut ticks = Vec::new();
        let counted = layers_within(Rules::CONNECT_FOUR, 9, 4 << 20, &mut |t| ticks.push(t));
        let full = layers(Rules::CONNECT_FOUR, 9, 10_000_000).unwrap();
        let kept = counted.layers.len();
        assert!((5..9).contains(&kept), "{kept}");
        assert_eq!(counted.layers[..], full[..kept]);
        assert_eq!(
            counted.stopped,
            Some(CountError::OutOfMemory {
                rules: Rules::CONNECT_FOUR,
                plies: kept as u32,
                limit: 4 << 20
            })
        );
        // The model says the ply that stopped needed more than the limit.
        let needed = peak_bytes(
            Rules::CONNECT_FOUR,
            full[kept - 1].positions,
            full[kept].positions,
        );
        assert!(needed > 4 << 20, "{needed}");
        let finished: Vec<Layer> = ticks
            .iter()
            .filter_map(|t| match t {
                Tick::Finished(layer) => Some(*layer),
                Tick::Parents { .. } => None,
            })
            .collect();
        assert_eq!(finished, counted.layers);
        // Enough memory: the same count as `layers`, with progress inside the plies of more
        // than `TICK_PARENTS` parents.
        let mut parents = 0;
        let all = layers_within(Rules::CONNECT_FOUR, 9, 1 << 30, &mut |t| {
            if let Tick::Parents {
                plies: 9,
                done,
                of: 184_275,
                ..
            } = t
            {
                assert_eq!(done % TICK_PARENTS, 0);
                parents += 1;
            }
        });
        assert_eq!((all.layers, all.stopped), (full, None));
        assert_eq!(parents, 184_275 / TICK_PARENTS);
    }

    #[test]
    fn table_sizes_follow_the_standard_library() {
        for n in [1u64, 3, 4, 7, 8, 13, 14, 15, 28, 29, 100, 1000, 100_000] {
            let mut map: HashMap<u64, u64> = HashMap::new();
            map.reserve(n as usize);
            let expected = buckets(n);
            // The standard library gives capacity 7/8 of the buckets (3 of 4, 7 of 8).
            let capacity = if expected < 8 {
                expected - 1
            } else {
                expected / 8 * 7
            };
            assert_eq!(map.capacity() as u64, capacity, "{n}");
        }
    }
}
