//! The k-in-a-row family: m,n,k-games on boards up to 19 × 19, with or without gravity, so
//! tic-tac-toe, 4 × 4, Connect Four and gomoku in one engine.
//!
//! | type | what it is |
//! |---|---|
//! | [`Rules`] | rows and columns (1-19), `k`, gravity; presets and spec parsing |
//! | [`Board`] | any assignment of marks; text form, lines, [`violations`](Board::violations) |
//! | [`Position`] | a reachable board: play, undo, legal moves, status, Zobrist hash |
//! | [`ConnectFour`] | a Connect Four position with its rules known at compile time: the same per-move API, in registers |
//! | [`AnyPosition`], [`AnyBoard`] | the same with the bitboard width picked from the rules |
//! | [`AnySolver`] | perfect play (value, distance, score, best moves) for any game, under a node budget |
//! | [`encoding`] | base-3 codes, 2 bits a cell, bitboard pairs, the column-height key |
//! | [`solver`] | the exact solver behind [`AnySolver`], one bitboard width at a time |
//! | [`players`] | computer players: random, heuristic, MCTS, alpha-beta, the budgeted solver |
//! | [`agents`] | the players by name, as the CLI and the environments choose them |
//! | [`count`] | positions reachable at each ply (perft), with a memory estimate |
//! | [`bits`] | the bitboards ([`Bits`](bits::Bits)) and their line kernels |
//! | [`width`] | the width a game runs at, and the one dispatch to it ([`for_width!`](crate::for_width), [`each_width!`](crate::each_width)) |
//!
//! The slow, obviously correct twin of this engine, which the tests compare it with, is
//! [`lab::mnk`](crate::lab::mnk).
//!
//! Each player's cells are a bitboard, [`Bits<W>`](bits::Bits): `W` 64-bit words, column by column from
//! the left, each column bottom to top with one empty *guard* bit above it (Connect Four:
//! 7 columns × 7 bits = 49 bits, `W = 1`; gomoku 15 × 16 = 240 bits, `W = 4`; 19 × 19 needs
//! 380 bits, `W = 6`). A line of `k` in a direction is a run of bits `d` apart, with `d` = 1
//! (vertical), `rows + 1` (horizontal), `rows + 2` and `rows` (the diagonals); the guard
//! bits stop a run at the edge of a column. [`Board::has_line`] finds runs by shift-and-AND
//! with doubling shifts; [`Position::play`] checks only the lines through the new mark.
//!
//! ```
//! use tictactoe::mnk::{AnyPosition, Rules};
//! use tictactoe::{Player, Status};
//! let rules: Rules = "gomoku".parse()?;
//! let mut game = AnyPosition::new(rules);
//! for (x, o) in [(112, 0), (113, 1), (114, 2), (115, 3)] {
//!     game.play(x)?;
//!     game.play(o)?;
//! }
//! game.play(116)?; // five in a row along row 7
//! assert_eq!(game.status(), Status::Won(Player::X));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(all(feature = "std", feature = "rand"))]
pub mod agents;
mod any;
#[cfg(feature = "alloc")]
mod any_solver;
pub mod bits;
mod board;
pub(crate) mod connect_four;
#[cfg(feature = "std")]
pub mod count;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod cpu;
pub mod encoding;
pub(crate) mod gomoku;
#[cfg(all(feature = "std", feature = "rand"))]
pub mod players;
mod position;
mod rules;
#[cfg(feature = "alloc")]
pub mod solver;
mod symmetry;
mod validate;
mod width;
pub mod zobrist;

use core::fmt;

pub use any::{AnyBoard, AnyLines, AnyPosition, InvalidAnyBoard};
#[cfg(feature = "alloc")]
pub use any_solver::{
    AnySolution, AnySolver, ParsePositionError, parse_position, score_of, value_of,
};
pub use board::{Board, Direction, Line, Lines, ParseBoardError, WidthError};
pub use connect_four::{ConnectFour, NotConnectFour};
pub use position::{Move, MoveIter, Moves, PlayError, Position, UndoError};
pub use rules::{MAX_SIDE, Preset, Rules, RulesError};
pub use validate::{InvalidBoard, Violation, Violations};
pub use width::{Pick, WIDTHS, width};

/// A cell of a family board: `row` from 0 at the top, `col` from 0 at the left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    row: u8,
    col: u8,
}

impl Square {
    /// The square at `row` and `col` (checked against a board by [`Rules::square`]).
    #[must_use]
    #[inline]
    pub const fn new(row: u8, col: u8) -> Square {
        Square { row, col }
    }

    /// Its row, 0 at the top.
    #[must_use]
    #[inline]
    pub const fn row(self) -> u32 {
        self.row as u32
    }

    /// Its column, 0 at the left.
    #[must_use]
    #[inline]
    pub const fn col(self) -> u32 {
        self.col as u32
    }
}

/// `r3c4`: row and column from 0.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row, self.col)
    }
}
