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
use super::bits::Bits;
use super::board::{Board, bottom_mask, cell_mask};
use super::line::wins_through;
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
    /// A sequence count passed `u64::MAX`.
    #[error("the number of move sequences of {plies} plies passes 2^64")]
    Overflow {
        /// The ply.
        plies: u32,
    },
}

/// A fast hasher for bitboard keys (a multiply-rotate mix of each word).
#[derive(Default, Clone, Copy)]
pub struct WordHasher(u64);

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
    match AnyPosition::new(rules) {
        AnyPosition::W1(p) => layers_of(p, max_plies, limit),
        AnyPosition::W2(p) => layers_of(p, max_plies, limit),
        AnyPosition::W4(p) => layers_of(p, max_plies, limit),
        AnyPosition::W6(p) => layers_of(p, max_plies, limit),
    }
}

/// X's and O's bits: the key of a position in a layer (the ply fixes the side to move).
type Key<const W: usize> = ([u64; W], [u64; W]);

fn layers_of<const W: usize>(
    root: Position<W>,
    max_plies: u32,
    limit: u64,
) -> Result<Vec<Layer>, CountError> {
    let rules = root.rules();
    let cells = cell_mask::<W>(rules);
    let bottom = bottom_mask::<W>(rules);
    let mut out = Vec::new();
    let mut first = Layer::default();
    first.add(root.status(), 1)?;
    out.push(first);
    let root_key = (
        root.board().pieces(Player::X).0,
        root.board().pieces(Player::O).0,
    );
    let mut frontier: Vec<(Key<W>, (u64, Status))> = vec![(root_key, (1, root.status()))];
    for plies in 1..=max_plies {
        let mover = if plies % 2 == 1 { Player::X } else { Player::O };
        let mut next: Map<W> = Map::default();
        next.reserve(frontier.len().saturating_mul(2));
        for &((x, o), (sequences, status)) in &frontier {
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
                let entry = next.entry((cx.0, co.0)).or_insert((0, status));
                if entry.0 == 0 && len >= limit {
                    return Err(CountError::TooLarge {
                        rules,
                        plies,
                        limit,
                    });
                }
                entry.0 = entry
                    .0
                    .checked_add(sequences)
                    .ok_or(CountError::Overflow { plies })?;
            }
        }
        if next.is_empty() {
            break;
        }
        let mut layer = Layer {
            plies,
            ..Layer::default()
        };
        frontier = next.into_iter().collect();
        for &(_, (sequences, status)) in &frontier {
            layer.add(status, sequences)?;
        }
        out.push(layer);
    }
    Ok(out)
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
    Ok(grids_of(board))
}

fn grids_of(empty: Board<1>) -> GridCounts {
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
