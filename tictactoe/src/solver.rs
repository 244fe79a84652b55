//! Perfect play: the value of every reachable position, its distance to the end and its best
//! moves, from one table built at compile time.
//!
//! # Rules of perfect play
//!
//! The *value* of a position is who wins when both sides play perfectly (or a draw). Among
//! moves of equal value, the winner takes the fastest win and the loser the slowest loss; in a
//! drawn position nobody can win, so the game ends when the board is full. The *distance* is
//! the number of moves to the end under these rules (0 when the game is over), and the *best
//! moves* are all moves that keep both the value and the distance.
//!
//! # Construction
//!
//! Retrograde analysis over the 5,478 positions indexed by [`Rank`]. Ranks are ordered by the
//! number of marks, so walking the ranks from the top down meets every child before its
//! parent: each entry is one pass over the parent's empty cells, reading the children's
//! entries. Children are found by their base-3 code through a base-3-to-rank index that exists
//! only while the table is built (`RankIndex`, a `const fn`: the table is in the binary, built by the
//! compiler, and the same function runs at run time in the benchmark).
//!
//! | table | entries | bytes |
//! |---|---|---|
//! | one `u16` per rank: best moves (bits 0-8), value (9-10), distance (11-14) | 5,478 | 10,956 |
//!
//! A query ranks the position ([`Rank::from_position`]) and reads one entry.

use core::fmt;

/// A caller's eye on a long search ([`crate::mnk::AnySolver::set_watch`]): called every
/// [`WATCH_NODES`] nodes with the nodes the current search has taken so far; returning `false`
/// stops the search, which then answers as if its node budget had run out. A progress bar, a
/// clock or a check for Ctrl-C.
#[cfg(feature = "alloc")]
pub type Watch = alloc::boxed::Box<dyn FnMut(u64) -> bool + Send + Sync>;

/// How many nodes a search takes between two calls of its [`Watch`]: 2^16, a few hundredths
/// of a second on Connect Four (Ctrl-C in Python lands within 0.03-0.06 s there).
pub const WATCH_NODES: u64 = 1 << 16;

/// The watch a search holds (none when cloned: a watch belongs to one caller).
#[cfg(feature = "alloc")]
#[derive(Default)]
pub(crate) struct WatchSlot(pub(crate) Option<Watch>);

#[cfg(feature = "alloc")]
impl Clone for WatchSlot {
    fn clone(&self) -> WatchSlot {
        WatchSlot(None)
    }
}

/// The node limits of one search: a budget and a watch, checked at one node count
/// (`check_at`) so that the search loop pays one comparison per node for both.
#[cfg(feature = "alloc")]
#[derive(Clone, Default)]
pub(crate) struct Limits {
    /// The node count at which the search stops.
    pub(crate) limit: u64,
    /// The node count at which [`Limits::check`] runs next.
    pub(crate) check_at: u64,
    /// The node count when the search started.
    pub(crate) start: u64,
    /// The search was stopped: its answer is no answer.
    pub(crate) aborted: bool,
    pub(crate) watch: WatchSlot,
}

#[cfg(feature = "alloc")]
impl Limits {
    /// No limit and no search under way.
    pub(crate) const fn none() -> Limits {
        Limits {
            limit: u64::MAX,
            check_at: u64::MAX,
            start: 0,
            aborted: false,
            watch: WatchSlot(None),
        }
    }

    /// Starts a search at node count `nodes` with `budget` nodes.
    pub(crate) fn start(&mut self, nodes: u64, budget: u64) {
        self.start = nodes;
        self.limit = nodes.saturating_add(budget);
        self.aborted = false;
        self.schedule(nodes);
    }

    fn schedule(&mut self, nodes: u64) {
        self.check_at = if self.watch.0.is_some() {
            self.limit.min(nodes.saturating_add(WATCH_NODES))
        } else {
            self.limit
        };
    }

    /// Ends a search: whether it was stopped. The next search without a budget must not see
    /// this one's stop.
    pub(crate) fn finish(&mut self) -> bool {
        self.limit = u64::MAX;
        self.check_at = u64::MAX;
        core::mem::replace(&mut self.aborted, false)
    }

    /// At `check_at`: stops the search past its budget or when the watch says so, else
    /// schedules the next check. Out of line: it runs once per [`WATCH_NODES`] nodes.
    #[cold]
    #[inline(never)]
    pub(crate) fn check(&mut self, nodes: u64) {
        if nodes > self.limit {
            self.aborted = true;
        } else if let Some(watch) = self.watch.0.as_mut()
            && !watch(nodes - self.start)
        {
            self.aborted = true;
        }
        self.schedule(nodes);
    }
}

use crate::encoding::Rank;
use crate::encoding::rank::RankIndex;
use crate::{Bitboard, Player, Position, Status};

/// Who wins under perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// X wins.
    XWins,
    /// O wins.
    OWins,
    /// Nobody wins.
    Draw,
}

/// A value seen by one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// The player loses.
    Loss,
    /// Nobody wins.
    Draw,
    /// The player wins.
    Win,
}

impl Value {
    /// `x-wins`, `o-wins` or `draw`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Value::XWins => "x-wins",
            Value::OWins => "o-wins",
            Value::Draw => "draw",
        }
    }

    /// The value in which `player` wins.
    #[must_use]
    pub const fn win_for(player: Player) -> Value {
        match player {
            Player::X => Value::XWins,
            Player::O => Value::OWins,
        }
    }

    /// The winner, if any.
    #[must_use]
    pub const fn winner(self) -> Option<Player> {
        match self {
            Value::XWins => Some(Player::X),
            Value::OWins => Some(Player::O),
            Value::Draw => None,
        }
    }

    /// The value as `player` sees it.
    #[must_use]
    pub const fn for_player(self, player: Player) -> Outcome {
        match self.winner() {
            None => Outcome::Draw,
            Some(winner) if winner as u8 == player as u8 => Outcome::Win,
            Some(_) => Outcome::Loss,
        }
    }

    const fn to_bits(self) -> u16 {
        match self {
            Value::Draw => 0,
            Value::XWins => 1,
            Value::OWins => 2,
        }
    }

    const fn from_bits(bits: u16) -> Value {
        match bits {
            1 => Value::XWins,
            2 => Value::OWins,
            _ => Value::Draw,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Outcome {
    /// `win`, `draw` or `loss`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Draw => "draw",
            Outcome::Loss => "loss",
        }
    }
}

/// What perfect play makes of a position.
///
/// ```
/// use tictactoe::{Board, Position, solver::{self, Value}};
/// let position = Position::try_from("XX./OO./...".parse::<Board>()?)?;
/// let solution = solver::solve(position);
/// assert_eq!(solution.value, Value::XWins);
/// assert_eq!(solution.distance, 1);
/// assert_eq!(solution.best_moves.iter().map(|c| c.index()).collect::<Vec<_>>(), [2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Solution {
    /// Who wins under perfect play.
    pub value: Value,
    /// Moves to the end under perfect play; 0 when the game is over.
    pub distance: u8,
    /// Every move that keeps the value and the distance; empty when the game is over.
    pub best_moves: Bitboard,
}

impl Solution {
    const fn pack(self) -> u16 {
        self.best_moves.bits() | self.value.to_bits() << 9 | (self.distance as u16) << 11
    }

    const fn unpack(entry: u16) -> Solution {
        Solution {
            best_moves: Bitboard::from_bits_truncate(entry),
            value: Value::from_bits(entry >> 9 & 3),
            distance: (entry >> 11) as u8,
        }
    }

    /// The solution of a finished game.
    const fn ended(value: Value) -> Solution {
        Solution {
            value,
            distance: 0,
            best_moves: Bitboard::EMPTY,
        }
    }
}

/// The solution of every position, indexed by [`Rank`].
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Table([u16; Rank::COUNT as usize]);

/// Bytes of the solver's static table.
pub(crate) const TABLE_BYTES: usize = core::mem::size_of::<Table>();

/// The table, built by the compiler.
static TABLE: Table = Table::build();

/// How good `solution` is for `player`, as one byte: wins (faster is better, 11 to 20) above
/// draws (10) above losses (slower is better, 0 to 9).
const fn score(solution: Solution, player: Player) -> u8 {
    match solution.value.for_player(player) {
        Outcome::Win => 20 - solution.distance,
        Outcome::Draw => 10,
        Outcome::Loss => solution.distance,
    }
}

/// The solution of the position of `rank` from its children's, already in `entries`, and
/// their [`score`]s for the side to move here, already in `scores` (kept beside the table so
/// that choosing is a maximum over bytes).
const fn solve_from_children(
    rank: usize,
    index: &RankIndex,
    entries: &[u16; Rank::COUNT as usize],
    scores: &[u8; Rank::COUNT as usize],
) -> Solution {
    let board = index.boards[rank];
    let mover = if board.marks().is_multiple_of(2) {
        Player::X
    } else {
        Player::O
    };
    if board.has_line(mover.opponent()) {
        return Solution::ended(Value::win_for(mover.opponent()));
    }
    if board.marks() == 9 {
        return Solution::ended(Value::Draw);
    }
    let ranks = index.child_ranks(rank);
    // Scores shifted by one so that 0 marks an occupied cell.
    let mut by_cell = [0u8; 9];
    let mut best_score = 0;
    let mut cell = 0;
    while cell < 9 {
        if ranks[cell] != u16::MAX {
            by_cell[cell] = scores[ranks[cell] as usize] + 1;
            if by_cell[cell] > best_score {
                best_score = by_cell[cell];
            }
        }
        cell += 1;
    }
    let (mut best_moves, mut best_rank) = (0u16, 0);
    cell = 0;
    while cell < 9 {
        if by_cell[cell] == best_score {
            best_moves |= 1 << cell;
            best_rank = ranks[cell];
        }
        cell += 1;
    }
    let child = Solution::unpack(entries[best_rank as usize]);
    Solution {
        value: child.value,
        distance: child.distance + 1,
        best_moves: Bitboard::from_bits_truncate(best_moves),
    }
}

impl Table {
    /// Builds the table by retrograde analysis (see the module documentation). The library's
    /// own table is built by the compiler; this is public to measure the build.
    ///
    #[must_use]
    pub(crate) const fn build() -> Table {
        let index = RankIndex::build();
        let mut entries = [0u16; Rank::COUNT as usize];
        // `scores[r]`: how good position `r` is for the player who moved into it.
        let mut scores = [0u8; Rank::COUNT as usize];
        let mut rank = Rank::COUNT as usize;
        while rank > 0 {
            rank -= 1;
            let solution = solve_from_children(rank, &index, &entries, &scores);
            entries[rank] = solution.pack();
            let last_mover = index.boards[rank].marks() % 2 == 1;
            scores[rank] = score(solution, if last_mover { Player::X } else { Player::O });
        }
        Table(entries)
    }

    /// The solution of `position` in this table.
    #[must_use]
    pub(crate) fn solve(&self, position: Position) -> Solution {
        Solution::unpack(self.0[Rank::from_position(position).code() as usize])
    }
}

/// The solution of a position: value, distance to the end and best moves. One rank and one
/// table lookup.
///
/// ```
/// use tictactoe::{Position, solver::{self, Value}};
/// let solution = solver::solve(Position::EMPTY);
/// assert_eq!((solution.value, solution.distance), (Value::Draw, 9));
/// assert_eq!(solution.best_moves, tictactoe::Bitboard::FULL);
/// ```
#[must_use]
pub fn solve(position: Position) -> Solution {
    TABLE.solve(position)
}

/// The best moves of a position (see [`Solution::best_moves`]).
///
/// ```
/// use tictactoe::{Board, Position, solver};
/// // O to move wins at once rather than block X's row.
/// let position = Position::try_from("OO./XX./X..".parse::<Board>()?)?;
/// assert_eq!(solver::best_moves(position).iter().map(|c| c.index()).collect::<Vec<_>>(), [2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn best_moves(position: Position) -> Bitboard {
    solve(position).best_moves
}

/// The slow twin of [`solve`]: plain minimax over the game tree below `position`, no table,
/// no memo. Returns the value and the distance (public as `lab::minimax`).
#[must_use]
pub(crate) fn minimax(position: Position) -> (Value, u8) {
    let mover = match position.status() {
        Status::Won(winner) => return (Value::win_for(winner), 0),
        Status::Draw => return (Value::Draw, 0),
        Status::Ongoing => position.side_to_move(),
    };
    let mut best: Option<(Value, u8)> = None;
    for (_, child) in position.children() {
        let (value, distance) = minimax(child);
        let candidate = (value, distance + 1);
        if best.is_none_or(|best| better_for(mover, candidate, best)) {
            best = Some(candidate);
        }
    }
    best.unwrap_or((Value::Draw, 0))
}

/// Whether `a` is better than `b` for `player`: a better outcome, or the same with a faster
/// win or a slower loss.
fn better_for(player: Player, a: (Value, u8), b: (Value, u8)) -> bool {
    let (oa, ob) = (a.0.for_player(player), b.0.for_player(player));
    if oa != ob {
        return oa > ob;
    }
    match oa {
        Outcome::Win => a.1 < b.1,
        Outcome::Loss => a.1 > b.1,
        Outcome::Draw => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_agrees_with_minimax_on_every_position() {
        for position in Position::all() {
            let solution = solve(position);
            assert_eq!(
                (solution.value, solution.distance),
                minimax(position),
                "{position}"
            );
            let best: Bitboard = position
                .children()
                .filter(|(_, child)| {
                    let c = solve(*child);
                    c.value == solution.value && c.distance + 1 == solution.distance
                })
                .map(|(cell, _)| cell)
                .collect();
            assert_eq!(solution.best_moves, best, "{position}");
            assert_eq!(best.is_empty(), position.status().is_finished());
            if solution.value == Value::Draw {
                assert_eq!(u32::from(solution.distance), 9 - position.board().marks());
            }
        }
    }

    #[test]
    fn the_empty_board_is_a_draw_and_the_runtime_build_matches() {
        assert_eq!(solve(Position::EMPTY).value, Value::Draw);
        assert!(Table::build() == TABLE);
        assert_eq!(TABLE_BYTES, 10_956);
        let values = Position::all().map(|p| solve(p).value);
        let x_wins = values.clone().filter(|v| *v == Value::XWins).count();
        let o_wins = values.filter(|v| *v == Value::OWins).count();
        assert!(x_wins > o_wins && o_wins > 0);
    }
}
