//! Compact tic-tac-toe: exact encodings, exhaustive validation and fast game-status analysis.
//!
//! The vocabulary is flat: [`Cell`], [`Player`], [`Bitboard`], [`Line`], the raw [`Board`]
//! (any of the 19,683 grids) and the validated [`Position`] (one of the 5,478 reachable
//! positions). Encodings live in [`encoding`], the eight symmetries of the square in
//! [`Symmetry`].
//!
//! ```
//! use tictactoe::{Board, Position, Status, encoding::{Base3, Rank}};
//!
//! let board: Board = "X.O/..O/.X.".parse()?;
//! let position = Position::try_from(board)?;
//! assert_eq!(position.status(), Status::Ongoing);
//! assert_eq!(Base3::from_board(board).code(), 2692);
//! let rank = Rank::from_position(position);
//! assert_eq!(rank.to_position(), position);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
// Two modules opt out, each for one call of a `#[target_feature]` function with its safety
// argument: `status::masks` (SSE2) and `status::batch` (AVX2, AVX-512BW).
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

#[cfg(feature = "rand")]
pub mod agents;
mod bitboard;
mod bits;
mod board;
mod cell;
pub mod encoding;
#[cfg(feature = "std")]
pub mod file;
pub mod game;
#[doc(hidden)]
pub mod lab;
mod line;
mod moves;
#[cfg(feature = "alloc")]
pub mod packed;
mod player;
mod position;
#[cfg(feature = "rand")]
pub mod selfplay;
pub mod solver;
pub mod status;
mod symmetry;

pub use bitboard::{Bitboard, Cells};
pub use board::{Board, OverlapError, ParseBoardError};
pub use cell::{Cell, CellError};
pub use game::{Game, MovesError, ParseGameError};
pub use line::Line;
pub use moves::PlayError;
pub use player::Player;
pub use position::{InvalidBoard, Position, Status, Violation, Violations};
pub use symmetry::{ParseSymmetryError, Symmetry};

// The Rust examples of the README and of docs/ are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
#[cfg(doctest)]
#[doc = include_str!("../../docs/encodings.md")]
struct EncodingsDoctests;
#[cfg(doctest)]
#[doc = include_str!("../../docs/paper.md")]
struct PaperDoctests;
#[cfg(doctest)]
#[doc = include_str!("../../docs/engine.md")]
struct EngineDoctests;
#[cfg(doctest)]
#[doc = include_str!("../../docs/storage.md")]
struct StorageDoctests;
