//! [`AnySolver`]: perfect play for a position of any game of the family, under a node budget,
//! with the one answer shape the command line and Python give: value, distance, score and
//! best moves.
//!
//! | game | searched by | budget |
//! |---|---|---|
//! | Connect Four (6,7,4,gravity), game not over | [`connect4::Solver`] with the shipped book ([`connect4::Book::shipped`]) | [`AnySolver::solve`]'s `budget` nodes |
//! | any other, or a finished Connect Four game | [`solver::Solver`] of the position's width | [`AnySolver::solve`]'s `budget` nodes |
//!
//! A [`Watch`] ([`AnySolver::set_watch`]) sees every search's node count as it goes, and may
//! stop it.
//!
//! The **score** generalises the Connect Four benchmark sets' convention to every game:
//! positive when the side to move wins, `(cells + 1) / 2 + 1` minus the winner's marks at the
//! win (22 minus the winner's stones on Connect Four: a win with the 4th stone scores 18), 0 for
//! a draw, negative for a loss. See [`score_of`].
//!
//! ```
//! use tictactoe::mnk::{AnyPosition, AnySolver, Rules};
//! use tictactoe::solver::Value;
//! let rules: Rules = "4,4,3".parse()?;
//! let mut solver = AnySolver::with_table_bits(16);
//! let solution = solver.solve(&AnyPosition::new(rules), u64::MAX).expect("4,4,3 is small");
//! assert_eq!((solution.value, solution.distance, solution.score), (Value::XWins, 5, 6));
//! assert_eq!(solution.best_moves, [5, 6, 9, 10]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::boxed::Box;
use alloc::vec::Vec;

use super::bits::bottom_mask;
use super::solver::{self, DEFAULT_TABLE_BITS, Solver};
use super::{AnyBoard, AnyPosition, InvalidAnyBoard, ParseBoardError, Pick, PlayError, Rules};
use crate::connect4;
use crate::each_width;
use crate::solver::{Outcome, Value, Watch};
use crate::{Player, Status};

/// What perfect play makes of a position: [`solver::Solution`] with the score.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AnySolution {
    /// Who wins under perfect play.
    pub value: Value,
    /// The value for the side to move.
    pub outcome: Outcome,
    /// Plies to the end under perfect play (a draw's distance is the number of empty cells).
    pub distance: u32,
    /// The score for the side to move (see [`score_of`]).
    pub score: i32,
    /// Every action that keeps the value and the distance, ascending; empty when the game is
    /// over.
    pub best_moves: Vec<usize>,
    /// Nodes searched for this answer.
    pub nodes: u64,
}

/// A solver for positions of any game of the family, one table per bitboard width (allocated
/// at its first position) and Connect Four's own solver, kept between positions.
pub struct AnySolver {
    table_bits: u32,
    /// The solvers of widths 1, 2, 4 and 6 ([`Pick`]).
    family: (Slot<1>, Slot<2>, Slot<4>, Slot<6>),
    connect4: Option<Box<connect4::Solver>>,
    nodes: u64,
    watch: Option<Watch>,
}

impl Default for AnySolver {
    fn default() -> AnySolver {
        AnySolver::new()
    }
}

/// The solver of width `W`, once made.
type Slot<const W: usize> = Option<Box<Solver<W>>>;

/// The solver of width `W` in `slot`, made for `rules` at first use.
fn family<const W: usize>(slot: &mut Slot<W>, rules: Rules, bits: u32) -> Option<&mut Solver<W>> {
    if slot.is_none() {
        // `None` only if `W` is too narrow for `rules`, which the caller's `Position<W>`
        // of these rules rules out.
        *slot = Some(Box::new(Solver::with_table_bits(rules, bits).ok()?));
    }
    slot.as_deref_mut()
}

/// `search`'s answer on `solver` and the nodes it took, with `watch` lent to the solver for
/// the search.
fn within<const W: usize, T>(
    solver: &mut Solver<W>,
    watch: &mut Option<Watch>,
    search: impl FnOnce(&mut Solver<W>) -> Option<T>,
) -> (Option<T>, u64) {
    let start = solver.nodes();
    solver.set_watch(watch.take());
    let answer = search(solver);
    *watch = solver.set_watch(None);
    (answer, solver.nodes() - start)
}

/// `search`'s answer on Connect Four's `solver` and the nodes it took, with `watch` lent to
/// the solver for the search.
fn within_connect4<T>(
    solver: &mut connect4::Solver,
    watch: &mut Option<Watch>,
    search: impl FnOnce(&mut connect4::Solver) -> Option<T>,
) -> (Option<T>, u64) {
    let start = solver.nodes();
    solver.set_watch(watch.take());
    let answer = search(solver);
    *watch = solver.set_watch(None);
    (answer, solver.nodes() - start)
}

impl AnySolver {
    /// A solver with the default family table ([`DEFAULT_TABLE_BITS`]: 32 MiB per width used)
    /// and, for Connect Four, [`connect4::TABLE_BYTES`].
    #[must_use]
    pub const fn new() -> AnySolver {
        AnySolver::with_table_bits(DEFAULT_TABLE_BITS)
    }

    /// A solver whose family tables have `2^bits` buckets of two entries (`bits` at most 30).
    #[must_use]
    pub const fn with_table_bits(bits: u32) -> AnySolver {
        AnySolver {
            table_bits: bits,
            family: (None, None, None, None),
            connect4: None,
            nodes: 0,
            watch: None,
        }
    }

    /// Nodes searched since the solver was made, budgets that ran out included.
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Gives every later search a [`Watch`] (or takes it away with `None`), and returns the
    /// one it had.
    pub fn set_watch(&mut self, watch: Option<Watch>) -> Option<Watch> {
        core::mem::replace(&mut self.watch, watch)
    }

    /// Value, distance, score and best moves of `position`; `None` when the search needs
    /// more than `budget` nodes, or the [`Watch`] stops it.
    pub fn solve(&mut self, position: &AnyPosition, budget: u64) -> Option<AnySolution> {
        if let Some(c4) = connect4_position(position) {
            let solver = self.connect4.get_or_insert_with(connect4_solver);
            let (solution, nodes) =
                within_connect4(solver, &mut self.watch, |s| s.solve_within(c4, budget));
            self.nodes += nodes;
            let solution = solution?;
            return Some(AnySolution {
                value: solution.value,
                outcome: solution.outcome,
                distance: solution.distance,
                score: solution.score,
                best_moves: solution
                    .best_moves
                    .iter()
                    .map(connect4::Column::index)
                    .collect(),
                nodes,
            });
        }
        let (rules, bits) = (position.rules(), self.table_bits);
        let watch = &mut self.watch;
        let (solution, nodes) = each_width!(AnyPosition, position, p, W => {
                within(family(Pick::<W>::pick(&mut self.family), rules, bits)?, watch, |s| s.solve_within(p, budget))
        });
        self.nodes += nodes;
        let solution: solver::Solution = solution?;
        Some(AnySolution {
            score: score_of(rules, position.plies(), solution.outcome, solution.distance),
            value: solution.value,
            outcome: solution.outcome,
            distance: solution.distance,
            best_moves: solution.best_moves,
            nodes: solution.nodes,
        })
    }

    /// Only who wins under perfect play (the weak mode, faster); `None` when the search needs
    /// more than `budget` nodes, or the [`Watch`] stops it.
    pub fn value(&mut self, position: &AnyPosition, budget: u64) -> Option<Value> {
        let (outcome, nodes) = if let Some(c4) = connect4_position(position) {
            let solver = self.connect4.get_or_insert_with(connect4_solver);
            within_connect4(solver, &mut self.watch, |s| s.solve_weak_within(c4, budget))
        } else {
            let (rules, bits) = (position.rules(), self.table_bits);
            let watch = &mut self.watch;
            each_width!(AnyPosition, position, p, W => {
                    within(family(Pick::<W>::pick(&mut self.family), rules, bits)?, watch, |s| s.outcome_within(p, budget))
            })
        };
        self.nodes += nodes;
        Some(value_of(outcome?, position.side_to_move()))
    }
}

/// Why a text is not a position of the given rules (see [`parse_position`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// A digit that names no column.
    #[error("move {number} is column {column}: the game has columns 1 to {cols}")]
    NoColumn {
        /// The move, counted from 1.
        number: usize,
        /// The column named, from 1.
        column: u32,
        /// The columns of the game.
        cols: u32,
    },
    /// A move into a full column.
    #[error("move {number} plays column {column}, which is full")]
    ColumnFull {
        /// The move, counted from 1.
        number: usize,
        /// The column, from 1.
        column: u32,
    },
    /// A move after the game ended.
    #[error("move {number} comes after the end of the game (move {} ended it)", number - 1)]
    AfterEnd {
        /// The move, counted from 1.
        number: usize,
    },
    /// Text that is no board of the rules.
    #[error("{0}")]
    Board(ParseBoardError),
    /// A board no legal game reaches.
    #[error("not a reachable position ({}): {}", codes(&.0.violations), .0.violations)]
    Unreachable(InvalidAnyBoard),
}

/// Violation codes joined by `, `.
fn codes(violations: &super::Violations) -> alloc::string::String {
    let codes: Vec<&str> = violations.iter().map(super::Violation::code).collect();
    codes.join(", ")
}

/// The position a text names: with gravity, a sequence of column digits 1-9 played from the
/// empty board (`"4453"`, the convention of the Connect Four benchmark sets); otherwise, or
/// when the text is not all digits, a board (rows top to bottom separated by `/`, cells `X`,
/// `O`, `.`), checked for reachability.
///
/// ```
/// use tictactoe::mnk::{ParsePositionError, Rules, parse_position};
/// let c4 = Rules::CONNECT_FOUR;
/// assert_eq!(parse_position(c4, "4453")?.plies(), 4);
/// assert_eq!(
///     parse_position(c4, "448").unwrap_err().to_string(),
///     "move 3 is column 8: the game has columns 1 to 7"
/// );
/// assert_eq!(parse_position(c4, "1111111"), Err(ParsePositionError::ColumnFull { number: 7, column: 1 }));
/// # Ok::<(), ParsePositionError>(())
/// ```
///
/// # Errors
/// The first bad move, or what is wrong with the board.
pub fn parse_position(rules: Rules, text: &str) -> Result<AnyPosition, ParsePositionError> {
    if rules.gravity() && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return play_columns(rules, text);
    }
    let board = AnyBoard::parse(rules, text).map_err(ParsePositionError::Board)?;
    AnyPosition::from_board(board).map_err(ParsePositionError::Unreachable)
}

fn play_columns(rules: Rules, text: &str) -> Result<AnyPosition, ParsePositionError> {
    let mut position = AnyPosition::new(rules);
    for (index, byte) in text.bytes().enumerate() {
        let number = index + 1;
        let column = u32::from(byte - b'0');
        if column == 0 || column > rules.cols() {
            let cols = rules.cols();
            return Err(ParsePositionError::NoColumn {
                number,
                column,
                cols,
            });
        }
        if position.status() != Status::Ongoing {
            return Err(ParsePositionError::AfterEnd { number });
        }
        if let Err(PlayError::ColumnFull { .. }) = position.play(column as usize - 1) {
            return Err(ParsePositionError::ColumnFull { number, column });
        }
    }
    Ok(position)
}

/// Who wins when `mover`, to move, has `outcome`.
#[must_use]
pub const fn value_of(outcome: Outcome, mover: Player) -> Value {
    match outcome {
        Outcome::Win => Value::win_for(mover),
        Outcome::Loss => Value::win_for(mover.opponent()),
        Outcome::Draw => Value::Draw,
    }
}

/// The score for the side to move of a position of `rules` with `plies` marks, `outcome` and
/// `distance`: with `end = plies + distance` the marks when the game ends and the winner's
/// marks `(end + 1) / 2` (the winner made the last one), a win scores
/// `(cells + 1) / 2 + 1 - (end + 1) / 2`, a loss the negation, a draw 0. On Connect Four it
/// is the benchmark sets' score (`22 - ` the winner's stones).
///
/// ```
/// use tictactoe::mnk::{Rules, score_of};
/// use tictactoe::solver::Outcome;
/// // The first player wins with its 4th stone, the 7th of the game, 3 plies after 4 stones.
/// assert_eq!(score_of(Rules::CONNECT_FOUR, 4, Outcome::Win, 3), 18);
/// assert_eq!(score_of(Rules::CONNECT_FOUR, 5, Outcome::Loss, 2), -18);
/// ```
#[must_use]
pub const fn score_of(rules: Rules, plies: u32, outcome: Outcome, distance: u32) -> i32 {
    let end = plies + distance;
    let margin = (rules.cells().div_ceil(2) + 1) as i32 - end.div_ceil(2) as i32;
    match outcome {
        Outcome::Win => margin,
        Outcome::Loss => -margin,
        Outcome::Draw => 0,
    }
}

/// The Connect Four solver, with the book the crate ships ([`connect4::Book::shipped`]).
fn connect4_solver() -> Box<connect4::Solver> {
    Box::new(connect4::Solver::with_book(connect4::Book::shipped()))
}

/// The Connect Four position of an ongoing game of 6,7,4,gravity (`None` for any other game,
/// or a finished one: the family solver answers those at once).
///
/// Both engines lay the board out in 7 bits a column, bottom to top with a guard bit on top,
/// so the solver's key (`connect4::Position::key`: the mover's stones and, per column, the
/// bit above its stones) is two words of the family's board and one add: the occupied cells
/// plus the bottom row carry into the first empty cell of each column, never further.
pub(crate) fn connect4_position(position: &AnyPosition) -> Option<connect4::Position> {
    let AnyPosition::W1(p) = position else {
        return None;
    };
    if p.rules() != Rules::CONNECT_FOUR || p.status() != Status::Ongoing {
        return None;
    }
    let board = p.board();
    let mine = board.pieces(p.side_to_move()).0[0];
    let occupied = board.occupied().0[0];
    let bottom = bottom_mask::<1>(Rules::CONNECT_FOUR).0[0];
    connect4::Position::from_key(mine | (occupied + bottom))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect_four_boards_and_moves_give_the_same_position() {
        let mut position = AnyPosition::new(Rules::CONNECT_FOUR);
        for column in [3, 3, 4, 2, 6, 0, 3] {
            let _ = position.play(column);
        }
        let c4: connect4::Position = "4453714".parse().ok().unwrap_or_default();
        assert_eq!(connect4_position(&position), Some(c4));
        assert_ne!(c4, connect4::Position::EMPTY);
    }

    #[test]
    fn every_position_of_random_games_passes_to_the_solver_as_its_moves_give_it() {
        let mut next = crate::testing::xorshift(34);
        for _ in 0..300 {
            let mut position = AnyPosition::new(Rules::CONNECT_FOUR);
            let mut moves = alloc::string::String::new();
            while position.status() == Status::Ongoing {
                let c4: connect4::Position = moves.parse().ok().unwrap_or_default();
                assert_eq!(connect4_position(&position), Some(c4), "{moves}");
                let legal: Vec<usize> = position.legal_actions().collect();
                let column = legal[(next() % legal.len() as u64) as usize];
                let _ = position.play(column);
                moves.push(char::from(b'1' + column as u8));
            }
            assert_eq!(connect4_position(&position), None, "{moves}: over");
        }
    }

    #[test]
    fn the_score_of_the_family_solver_is_connect_fours_on_connect_four() {
        // A finished game: the family solver answers, with the same score convention.
        let mut solver = AnySolver::with_table_bits(10);
        let mut position = AnyPosition::new(Rules::CONNECT_FOUR);
        for column in [0, 1, 0, 1, 0, 1, 0] {
            let _ = position.play(column);
        }
        let solution = solver
            .solve(&position, 10)
            .unwrap_or_else(|| unreachable!());
        assert_eq!(
            (solution.value, solution.distance, solution.score),
            (Value::XWins, 0, -18)
        );
        assert_eq!(solver.value(&position, 10), Some(Value::XWins));
    }
}
