//! Connect Four solved: the exact score of any position, strong or weak, with an optional
//! opening book. Checked against Pascal Pons' solver (the public reference) on 3,000 random
//! positions; it searches fewer nodes than his, in less time (`docs/solver.md`).
//!
//! The board is 6 rows by 7 columns; a [`Position`] is two `u64` bitboards with 7 bits per
//! column (6 cells and an empty sentinel, 49 bits), parsed from a move sequence of column digits
//! 1-7 as in the well-known benchmark sets. A [`Solver`] searches with negamax and alpha-beta
//! on null windows, and keeps a transposition table between positions.
//!
//! | structure | size |
//! |---|---|
//! | [`Position`] | two `u64` and a stone count |
//! | the transposition table | 64 KiB to [`TABLE_BYTES`] (64 MiB), by the empty cells of the position solved: buckets of two `u64` entries (key, both bounds, best move, stones) |
//! | a [`Book`] | 16 bytes a position |
//!
//! Scores follow the benchmark sets: positive when the player to move wins (22 minus the
//! number of its stones at the win: 18 for a win with the 4th stone), 0 for a draw, negative
//! for a loss. The design, the verification against Pons' solver and the benchmark are in
//! `docs/solver.md`.
//!
//! ```no_run
//! use tictactoe::connect4::{Position, Solver};
//! use tictactoe::solver::Outcome;
//!
//! let mut solver = Solver::new();
//! // The first player has stones in columns 4 and 5 on the bottom row: 3 or 6 makes two threats.
//! let solution = solver.solve("4455".parse()?);
//! assert_eq!(solution.score, 18);
//! assert_eq!((solution.outcome, solution.distance), (Outcome::Win, 3));
//! assert_eq!(solution.best_moves.to_string(), "36");
//! # Ok::<(), tictactoe::connect4::ParseMovesError>(())
//! ```
//!
//! This is one of two Connect Four engines. [`mnk::Position`](crate::mnk::Position) under
//! [`Rules::CONNECT_FOUR`](crate::mnk::Rules::CONNECT_FOUR) is the family's: X's and O's bits,
//! status, undo and hash kept, in the shape every game of the family has (the environments,
//! players and CLI use it). This one is the solver's: the mover's stones and the occupied
//! cells, a move one add, the key the board itself, nothing kept that a search of 10^8 nodes
//! does not need. Both lay a column out in 7 bits, bottom to top with a guard bit on top
//! ([`HEIGHT`] + 1), so positions pass between them word by word. `docs/solver.md` says more.

mod book;
mod position;
mod solver;
mod table;

pub use book::{Book, BookError, positions_of, positions_up_to};
pub use position::{
    CELLS, Column, Columns, HEIGHT, MAX_SCORE, MIN_SCORE, ParseMovesError, PlayError, Position,
    WIDTH,
};
pub use solver::{Solution, Solver, distance_of, outcome_of};
pub use table::TABLE_BYTES;
