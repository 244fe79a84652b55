//! Perfect play for the k-in-a-row family by search: the value of a position, its distance to
//! the end and its best moves, in the vocabulary of the 3 × 3 [`solver`](crate::solver)
//! ([`Value`], [`Outcome`], distance in plies).
//!
//! # What is searched
//!
//! Negamax with alpha-beta over an exact *score* for the side to move: with `e` the number of
//! marks on the board when the game ends and `cells` the board's size, a win scores
//! `cells + 1 - e`, a loss `-(cells + 1 - e)`, a draw 0. The score depends on the position
//! alone (not on where the search started), so a table entry is good for any search, and a
//! larger score is a faster win or a slower loss, the rules of perfect play of the 3 × 3
//! solver. The value comes first from two null-window searches (`> 0`? `< 0`?); the exact score
//! then from a bisection of null windows, as in Pons' Connect Four solver.
//!
//! At every node, before any move is tried:
//!
//! | rule | effect |
//! |---|---|
//! | the mover completes a line | a win now: no search |
//! | the opponent has two cells that complete a line | a loss in two plies |
//! | the opponent has one | the only move is to block it |
//! | with gravity, a cell under an opponent's completing cell | never played (it lets the opponent win) |
//! | a player has no `k`-window free of the other's marks | that player cannot win: the score is bounded by 0 |
//! | neither player has one | a draw: no search |
//! | no line before the mover's next move but one | the score is bounded by the earliest win and loss left |
//!
//! Moves are tried in this order: the table's move, then by the number of completing cells
//! the move makes for the mover (threats), then by the history of cut-offs, then by the number
//! of `k`-windows through the cell (central cells first).
//!
//! # What is stored
//!
//! A transposition table of two-entry buckets keyed by a *canonical* Zobrist hash: the least
//! of the hashes of the board's images under the rules' symmetries
//! ([`Rules::symmetries`]: 8 on a square board, 4 on a rectangle, 2 with gravity). The hash of
//! every image is kept up to date by one XOR per symmetry and move, from keys of the image
//! cells, so the canonical hash costs a minimum over at most 8 words. An entry holds the full
//! hash, a lower and an upper bound of the score (merged when the same position is stored
//! again), the best move found, mapped into the canonical image's frame (and back on a hit),
//! and the number of marks, which picks the entry to keep: one slot prefers positions near the
//! root, the other always takes the newest.
//!
//! | table | entry | default size |
//! |---|---|---|
//! | `2^bits` buckets of 2 entries | [`ENTRY_BYTES`] = 16 | `bits` = [`DEFAULT_TABLE_BITS`]: 32 MiB |
//!
//! ```
//! use tictactoe::mnk::{Position, Rules, solver::Solver};
//! use tictactoe::solver::Value;
//! let rules = Rules::new(4, 4, 3, false)?;
//! let mut solver = Solver::<1>::with_table_bits(rules, 16)?;
//! let solution = solver.solve(&Position::new(rules)?);
//! assert_eq!(solution.value, Value::XWins);
//! assert_eq!(solution.distance, 5); // X's third mark wins
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::vec;
use alloc::vec::Vec;

use super::bits::{Bits, cell_mask};
use super::board::WidthError;
use super::{Position, Rules, zobrist};
use crate::solver::{Limits, Outcome, Value, Watch};
use crate::{Player, Status};

/// Bytes of one table entry: the 64-bit hash, two 16-bit bounds, a 16-bit move and a 16-bit
/// count of marks.
pub const ENTRY_BYTES: usize = core::mem::size_of::<Entry>();

/// The table size [`Solver::new`] uses: `2^20` buckets of two entries (32 MiB).
pub const DEFAULT_TABLE_BITS: u32 = 20;

/// What perfect play makes of a position of the family.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    /// Who wins under perfect play.
    pub value: Value,
    /// The value for the side to move ([`Outcome::Draw`] when the game is over and drawn; a
    /// finished game won by the last mover is a [`Outcome::Loss`] for the side to move).
    pub outcome: Outcome,
    /// Moves to the end under perfect play: the winner takes the fastest win, the loser the
    /// slowest loss, and a drawn game ends when the board is full (so a draw's distance is the
    /// number of empty cells). 0 when the game is over.
    pub distance: u32,
    /// Every move (action) that keeps the value and the distance, ascending; empty when the
    /// game is over.
    pub best_moves: Vec<usize>,
    /// Nodes searched for this answer.
    pub nodes: u64,
}

/// The value and distance of one move: see [`Solver::move_values`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveValue {
    /// The move (action).
    pub action: usize,
    /// Who wins under perfect play after it.
    pub value: Value,
    /// Moves to the end counting this one.
    pub distance: u32,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    lo: i16,
    hi: i16,
    /// The best move in the canonical image's frame, or [`NO_MOVE`].
    mv: u16,
    /// Marks on the board; [`EMPTY_SLOT`] for an unused entry.
    plies: u16,
}

const NO_MOVE: u16 = u16::MAX;
const EMPTY_SLOT: u16 = u16::MAX;
const UNUSED: Entry = Entry {
    key: 0,
    lo: i16::MIN,
    hi: i16::MAX,
    mv: NO_MOVE,
    plies: EMPTY_SLOT,
};

/// The transposition table: `2^bits` buckets of two entries.
#[derive(Clone)]
struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Table {
        let buckets = 1usize << bits;
        Table {
            entries: vec![UNUSED; 2 * buckets],
            mask: buckets - 1,
        }
    }

    fn clear(&mut self) {
        self.entries.fill(UNUSED);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        2 * (key as usize & self.mask)
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.entries[b..b + 2]
            .iter()
            .find(|e| e.plies != EMPTY_SLOT && e.key == key)
            .copied()
    }

    #[inline]
    fn store(&mut self, key: u64, lo: i32, hi: i32, mv: u16, plies: u16) {
        let b = self.bucket(key);
        let (lo, hi) = (lo as i16, hi as i16);
        for slot in &mut self.entries[b..b + 2] {
            if slot.plies != EMPTY_SLOT && slot.key == key {
                slot.lo = slot.lo.max(lo);
                slot.hi = slot.hi.min(hi);
                if mv != NO_MOVE {
                    slot.mv = mv;
                }
                return;
            }
        }
        let entry = Entry {
            key,
            lo,
            hi,
            mv,
            plies,
        };
        // Slot 0 keeps the position nearest the root (the most work to redo); slot 1 always
        // takes the newest.
        if plies <= self.entries[b].plies || self.entries[b].plies == EMPTY_SLOT {
            self.entries[b + 1] = self.entries[b];
            self.entries[b] = entry;
        } else {
            self.entries[b + 1] = entry;
        }
    }
}

/// A solver for the positions of one game of the family, with its transposition table
/// (kept between calls: a later position reuses what an earlier search stored).
///
/// ```
/// use tictactoe::mnk::{Position, Rules, solver::Solver};
/// use tictactoe::solver::{Outcome, Value};
/// let mut solver = Solver::<1>::with_table_bits(Rules::TIC_TAC_TOE, 12)?;
/// let solution = solver.solve(&Position::new(Rules::TIC_TAC_TOE)?);
/// assert_eq!((solution.value, solution.outcome, solution.distance), (Value::Draw, Outcome::Draw, 9));
/// assert_eq!(solution.best_moves, (0..9).collect::<Vec<_>>());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Solver<const W: usize> {
    rules: Rules,
    cells: Bits<W>,
    symmetries: usize,
    /// `map[s * bits + b]`: the image of bit `b` under symmetry `s`.
    map: Vec<u16>,
    /// `inverse[s * bits + b]`: the bit whose image under `s` is `b`.
    inverse: Vec<u16>,
    /// `keys[s * bits + b][p]`: the Zobrist key of a mark of `p` at the image of `b`.
    keys: Vec<[u64; 2]>,
    /// The number of `k`-windows through each bit (0 for guard bits).
    windows: Vec<u32>,
    history: Vec<u32>,
    table: Table,
    table_bits: u32,
    /// The position searched, moved by play and undo.
    position: Position<W>,
    /// The hash of each image of the position.
    hashes: [u64; 8],
    /// Candidate moves of every node on the path, as (order key, bit).
    stack: Vec<(u64, u16)>,
    nodes: u64,
    limits: Limits,
}

impl<const W: usize> Solver<W> {
    /// A solver for `rules` with the default table ([`DEFAULT_TABLE_BITS`]).
    ///
    /// # Errors
    /// [`WidthError`] when `W < rules.words()`.
    pub fn new(rules: Rules) -> Result<Solver<W>, WidthError> {
        Solver::with_table_bits(rules, DEFAULT_TABLE_BITS)
    }

    /// A solver for `rules` with `2^bits` buckets of two entries (`bits` at most 30).
    ///
    /// # Errors
    /// [`WidthError`] when `W < rules.words()`.
    pub fn with_table_bits(rules: Rules, bits: u32) -> Result<Solver<W>, WidthError> {
        let position = Position::new(rules)?;
        let bits = bits.min(30);
        let mut solver = Solver {
            rules,
            cells: Bits::EMPTY,
            symmetries: 0,
            map: Vec::new(),
            inverse: Vec::new(),
            keys: Vec::new(),
            windows: Vec::new(),
            history: Vec::new(),
            table: Table::new(bits),
            table_bits: bits,
            position,
            hashes: [0; 8],
            stack: Vec::new(),
            nodes: 0,
            limits: Limits::none(),
        };
        solver.set_rules(rules);
        Ok(solver)
    }

    fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        self.cells = cell_mask(rules);
        let symmetries = rules.symmetries();
        self.symmetries = symmetries.len();
        let span = rules.bits() as usize;
        self.map = vec![0; symmetries.len() * span];
        self.inverse = vec![0; symmetries.len() * span];
        self.keys = vec![[0; 2]; symmetries.len() * span];
        for (s, &symmetry) in symmetries.iter().enumerate() {
            for bit in 0..span as u32 {
                let image = rules
                    .square_of_bit(bit)
                    .and_then(|square| rules.map_square(symmetry, square))
                    .map_or(bit, |square| rules.bit(square));
                self.map[s * span + bit as usize] = image as u16;
                self.inverse[s * span + image as usize] = bit as u16;
                self.keys[s * span + bit as usize] = [
                    zobrist::key(Player::X, image),
                    zobrist::key(Player::O, image),
                ];
            }
        }
        self.windows = vec![0; span];
        for d in rules.directions() {
            let starts = super::bits::run_starts(self.cells, d, rules.k());
            for start in starts.iter() {
                for i in 0..rules.k() {
                    self.windows[(start + i * d) as usize] += 1;
                }
            }
        }
        self.history = vec![0; span];
        self.table.clear();
    }

    /// The rules this solver is set up for (it sets itself up again for a position of other
    /// rules).
    #[must_use]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// Bytes of the transposition table.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.entries.len() * ENTRY_BYTES
    }

    /// Nodes searched since the solver was made (or [`clear`](Solver::clear)ed).
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Empties the table and the move history and resets the node count.
    pub fn clear(&mut self) {
        self.table.clear();
        self.history.fill(0);
        self.nodes = 0;
    }

    /// The value, distance and best moves of `position`.
    #[must_use]
    pub fn solve(&mut self, position: &Position<W>) -> Solution {
        self.solve_within(position, u64::MAX)
            .unwrap_or_else(|| unreachable!("an unlimited search finishes"))
    }

    /// [`solve`](Solver::solve) with at most `budget` nodes: `None` when the search needs
    /// more. What it stored before stopping stays in the table and is correct.
    #[must_use]
    pub fn solve_within(&mut self, position: &Position<W>, budget: u64) -> Option<Solution> {
        let start = self.nodes;
        self.limits.start(start, budget);
        let result = self.solve_inner(position);
        let aborted = self.limits.finish();
        let mut solution = result.filter(|_| !aborted)?;
        solution.nodes = self.nodes - start;
        Some(solution)
    }

    fn solve_inner(&mut self, position: &Position<W>) -> Option<Solution> {
        let rules = position.rules();
        let cells = rules.cells() as i32;
        let score = self.score(position)?;
        let mover = position.side_to_move();
        let (value, outcome, distance) = describe(score, mover, cells, position.plies());
        let mut best_moves = Vec::new();
        if position.status() == Status::Ongoing {
            for action in position.legal_actions() {
                let mut child = *position;
                let _ = child.play(action);
                // The move is best when the child's score is at most `-score` (it is never less).
                if self.child_at_most(&child, -score)? {
                    best_moves.push(action);
                }
            }
        }
        Some(Solution {
            value,
            outcome,
            distance,
            best_moves,
            nodes: 0,
        })
    }

    /// The value for the side to move only (win, draw or loss): the two null-window searches,
    /// without the distance or the best moves.
    #[must_use]
    pub fn outcome(&mut self, position: &Position<W>) -> Outcome {
        if let Some(score) = self.terminal_score(position) {
            return outcome_of(score);
        }
        self.load(position);
        let r = self.search(0, 1);
        if r > 0 {
            return Outcome::Win;
        }
        let r = self.search(-1, 0);
        if r < 0 { Outcome::Loss } else { Outcome::Draw }
    }

    /// [`outcome`](Solver::outcome) with at most `budget` nodes: `None` when the search needs
    /// more. What it stored before stopping stays in the table and is correct.
    #[must_use]
    pub fn outcome_within(&mut self, position: &Position<W>, budget: u64) -> Option<Outcome> {
        self.limits.start(self.nodes, budget);
        let outcome = self.outcome(position);
        let aborted = self.limits.finish();
        (!aborted).then_some(outcome)
    }

    /// Gives the searches of this solver a [`Watch`] (or takes it away with `None`), and
    /// returns the one it had.
    pub fn set_watch(&mut self, watch: Option<Watch>) -> Option<Watch> {
        core::mem::replace(&mut self.limits.watch.0, watch)
    }

    /// The value and distance after each legal move of `position`, in the order of the
    /// actions.
    #[must_use]
    pub fn move_values(&mut self, position: &Position<W>) -> Vec<MoveValue> {
        let cells = position.rules().cells() as i32;
        position
            .legal_actions()
            .map(|action| {
                let mut child = *position;
                let _ = child.play(action);
                let score = self.score(&child).unwrap_or(0);
                let (value, _, distance) =
                    describe(score, child.side_to_move(), cells, child.plies());
                MoveValue {
                    action,
                    value,
                    distance: distance + 1,
                }
            })
            .collect()
    }

    /// The exact score of `position` for the side to move (see the module documentation):
    /// `None` when the node budget ran out.
    fn score(&mut self, position: &Position<W>) -> Option<i32> {
        if let Some(score) = self.terminal_score(position) {
            return Some(score);
        }
        self.load(position);
        let cells = position.rules().cells() as i32;
        let plies = position.plies() as i32;
        // The value first: a win, a loss or a draw.
        let (mut lo, mut hi) = (-(cells - plies), cells - plies);
        let r = self.search(0, 1);
        if r > 0 {
            lo = r;
        } else {
            let r = self.search(-1, 0);
            if r < 0 {
                hi = r;
            } else {
                return (!self.limits.aborted).then_some(0);
            }
        }
        // Then the distance, by null windows.
        while lo < hi && !self.limits.aborted {
            let mid = lo + (hi - lo).div_euclid(2);
            let r = self.search(mid, mid + 1);
            if r <= mid {
                hi = r.min(hi);
            } else {
                lo = r.max(lo);
            }
        }
        (!self.limits.aborted).then_some(lo)
    }

    /// Whether the score of `child` (for its side to move) is at most `bound`.
    fn child_at_most(&mut self, child: &Position<W>, bound: i32) -> Option<bool> {
        if let Some(score) = self.terminal_score(child) {
            return Some(score <= bound);
        }
        self.load(child);
        let r = self.search(bound, bound + 1);
        (!self.limits.aborted).then_some(r <= bound)
    }

    /// The score of a finished game, for the side to move.
    fn terminal_score(&self, position: &Position<W>) -> Option<i32> {
        let cells = position.rules().cells() as i32;
        match position.status() {
            Status::Ongoing => None,
            Status::Draw => Some(0),
            // The last mover won with the `plies`-th mark.
            Status::Won(_) => Some(-(cells + 1 - position.plies() as i32)),
        }
    }

    /// Sets the searched position and its image hashes (and the rules, if they changed).
    fn load(&mut self, position: &Position<W>) {
        if position.rules() != self.rules {
            self.set_rules(position.rules());
        }
        self.position = *position;
        let span = self.rules.bits() as usize;
        let board = position.board();
        for s in 0..self.symmetries {
            let mut h = 0;
            for (p, player) in Player::BOTH.into_iter().enumerate() {
                for bit in board.pieces(player).iter() {
                    h ^= self.keys[s * span + bit as usize][p];
                }
            }
            self.hashes[s] = h;
        }
    }

    #[inline]
    fn play(&mut self, bit: u32) {
        let p = self.position.side_to_move() as usize;
        let span = self.rules.bits() as usize;
        for s in 0..self.symmetries {
            self.hashes[s] ^= self.keys[s * span + bit as usize][p];
        }
        self.position.play_bit(bit);
    }

    #[inline]
    fn undo(&mut self, bit: u32) {
        self.position.undo_bit(bit);
        let p = self.position.side_to_move() as usize;
        let span = self.rules.bits() as usize;
        for s in 0..self.symmetries {
            self.hashes[s] ^= self.keys[s * span + bit as usize][p];
        }
    }

    /// The least image hash and the symmetry that gives it.
    #[inline]
    fn canonical(&self) -> (u64, usize) {
        let mut best = (self.hashes[0], 0);
        for s in 1..self.symmetries {
            if self.hashes[s] < best.0 {
                best = (self.hashes[s], s);
            }
        }
        best
    }

    /// Whether `player`'s opponent has left some `k`-window free, so `player` can still win.
    #[inline]
    fn alive(&self, opponent: Bits<W>) -> bool {
        let free = self.cells.and_not(opponent);
        let k = self.rules.k();
        self.rules
            .directions()
            .into_iter()
            .any(|d| !super::bits::run_starts(free, d, k).is_empty())
    }

    /// Negamax with alpha-beta over the score, fail-soft: the result `r` is the exact score
    /// when `alpha < r < beta`, an upper bound when `r <= alpha`, a lower bound when
    /// `r >= beta`. The position is ongoing.
    fn search(&mut self, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes > self.limits.check_at {
            self.limits.check(self.nodes);
        }
        if self.limits.aborted {
            return 0;
        }
        let rules = self.rules;
        let cells = rules.cells() as i32;
        let plies = self.position.plies() as i32;
        let board = self.position.board();
        let mover = self.position.side_to_move();
        let me = board.pieces(mover);
        let opp = board.pieces(mover.opponent());
        let empty = self.cells.and_not(me | opp);
        let playable = self.position.playable();
        if !(threats(me, empty, rules) & playable).is_empty() {
            return cells - plies;
        }
        let theirs = threats(opp, empty, rules);
        let forced = theirs & playable;
        let lose_next = -(cells - plies - 1);
        let mut moves = playable;
        if !forced.is_empty() {
            if forced.count() > 1 {
                return lose_next;
            }
            moves = forced;
        }
        if rules.gravity() {
            moves = moves.and_not(theirs.shr(1));
            if moves.is_empty() {
                return lose_next;
            }
        }
        // The earliest win left is on the mover's next move but one, the earliest loss on the
        // opponent's next move but one; a player without a free window cannot win at all.
        let mut max = (cells - plies - 2).max(0);
        let mut min = (-(cells - plies - 3)).min(0);
        if !self.alive(opp) {
            max = max.min(0);
        }
        if !self.alive(me) {
            min = min.max(0);
        }
        if max <= min {
            return max;
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let (key, sym) = self.canonical();
        let span = rules.bits() as usize;
        let mut tt_move = NO_MOVE;
        if let Some(entry) = self.table.probe(key) {
            let (lo, hi) = (i32::from(entry.lo), i32::from(entry.hi));
            if lo > alpha {
                alpha = lo;
                if alpha >= beta {
                    return alpha;
                }
            }
            if hi < beta {
                beta = hi;
                if alpha >= beta {
                    return beta;
                }
            }
            if entry.mv != NO_MOVE {
                tt_move = self.inverse[sym * span + entry.mv as usize];
            }
        }
        let alpha0 = alpha;

        // Order the moves: the table's move, then threats made, history, windows.
        let base = self.stack.len();
        for bit in moves.iter() {
            let order = if bit as u16 == tt_move {
                u64::MAX
            } else {
                let mut after = me;
                after.insert(bit);
                let mut rest = empty;
                rest.remove(bit);
                let made = u64::from(threats(after, rest, rules).count());
                (made << 40)
                    | (u64::from(self.history[bit as usize]) << 8)
                    | u64::from(self.windows[bit as usize].min(255))
            };
            self.stack.push((order, bit as u16));
        }
        self.stack[base..].sort_unstable_by_key(|b| core::cmp::Reverse(b.0));

        let mut best = i32::MIN;
        let mut best_bit = NO_MOVE;
        for i in base..self.stack.len() {
            let bit = u32::from(self.stack[i].1);
            self.play(bit);
            let v = if self.position.status() == Status::Draw {
                0
            } else {
                -self.search(-beta, -alpha)
            };
            self.undo(bit);
            if v > best {
                best = v;
                best_bit = bit as u16;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        let bonus = ((cells - plies) * (cells - plies)) as u32;
                        let h = &mut self.history[bit as usize];
                        *h = h.saturating_add(bonus).min(u32::MAX >> 8);
                        break;
                    }
                }
            }
        }
        self.stack.truncate(base);
        if self.limits.aborted {
            return 0;
        }
        let mv = self.map[sym * span + best_bit as usize];
        let (lo, hi) = if best <= alpha0 {
            (min, best)
        } else if best >= beta {
            (best, max)
        } else {
            (best, best)
        };
        self.table.store(key, lo, hi, mv, plies as u16);
        best
    }
}

impl<const W: usize> core::fmt::Debug for Solver<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Solver")
            .field("rules", &self.rules)
            .field("table_bits", &self.table_bits)
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

/// The empty cells where one more mark of `pieces` completes a line of `k` (or more): for
/// each direction, a cell with `j` marks before it and `k - 1 - j` after it, for some `j`.
#[must_use]
#[inline]
pub(crate) fn threats<const W: usize>(pieces: Bits<W>, empty: Bits<W>, rules: Rules) -> Bits<W> {
    let k = rules.k();
    let mut out = Bits::EMPTY;
    if k == 0 {
        return out;
    }
    for d in rules.directions() {
        // before[j]: cells with marks at the j cells before them (in the direction).
        let mut before = [Bits::<W>(core::array::from_fn(|_| u64::MAX)); 20];
        for j in 1..k as usize {
            before[j] = before[j - 1] & pieces.shl(j as u32 * d);
        }
        let mut after = Bits::<W>(core::array::from_fn(|_| u64::MAX));
        for j in 0..k as usize {
            // `after` holds the cells with marks at the j cells after them.
            out |= before[k as usize - 1 - j] & after;
            after &= pieces.shr((j as u32 + 1) * d);
        }
    }
    out & empty
}

fn outcome_of(score: i32) -> Outcome {
    match score.signum() {
        1 => Outcome::Win,
        -1 => Outcome::Loss,
        _ => Outcome::Draw,
    }
}

/// Value, outcome for the side to move and distance of a score.
pub(crate) fn describe(score: i32, mover: Player, cells: i32, plies: u32) -> (Value, Outcome, u32) {
    let outcome = outcome_of(score);
    let end = match outcome {
        Outcome::Win => cells + 1 - score,
        Outcome::Loss => cells + 1 + score,
        Outcome::Draw => cells,
    };
    let value = match outcome {
        Outcome::Win => Value::win_for(mover),
        Outcome::Loss => Value::win_for(mover.opponent()),
        Outcome::Draw => Value::Draw,
    };
    (value, outcome, (end - plies as i32).max(0) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_threats<const W: usize>(pieces: Bits<W>, empty: Bits<W>, rules: Rules) -> Bits<W> {
        let mut out = Bits::EMPTY;
        for bit in empty.iter() {
            let mut with = pieces;
            with.insert(bit);
            if super::super::bits::wins_through(with, bit, rules) {
                out.insert(bit);
            }
        }
        out
    }

    #[test]
    fn threats_match_a_cell_by_cell_twin() {
        let mut next = crate::testing::xorshift(0x1234_5678_9abc_def1_u64);
        for spec in [
            "3,3,3",
            "4,4,4",
            "5,5,4",
            "6,7,4,gravity",
            "4,3,3",
            "2,5,2",
            "5,5,1",
        ] {
            let rules: Rules = spec.parse().unwrap();
            let cells = cell_mask::<1>(rules);
            for _ in 0..2000 {
                let a = Bits::<1>([next() & next()]) & cells;
                let b = Bits::<1>([next() & next()]) & cells.and_not(a);
                let empty = cells.and_not(a | b);
                assert_eq!(
                    threats(a, empty, rules),
                    slow_threats(a, empty, rules),
                    "{spec}"
                );
            }
        }
        let rules = Rules::GOMOKU;
        let cells = cell_mask::<4>(rules);
        for _ in 0..500 {
            let a = Bits::<4>(core::array::from_fn(|_| next() | next())) & cells;
            let empty = cells.and_not(a);
            assert_eq!(threats(a, empty, rules), slow_threats(a, empty, rules));
        }
    }
}
