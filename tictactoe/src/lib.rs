#![doc = include_str!("../README.md")]
// `no_std` unless the `std` feature is on; the unit tests always link `std` (for their
// collections and `vec!`), so they run with any set of features.
#![cfg_attr(not(any(feature = "std", test)), no_std)]
// Four modules opt out, each for calls of a `#[target_feature]` function with their safety
// argument: `status::masks` (SSE2), `status::batch` (AVX2, AVX-512BW), `mnk::gomoku`
// (AVX-512F, VL, VBMI2, BITALG) and `mnk::position` (x86-64-v3, Connect Four's playouts).
#![deny(unsafe_code)]
#![warn(missing_docs)]
// On docs.rs (nightly, `--cfg docsrs`), every item behind a feature is labelled with it.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;

#[cfg(feature = "rand")]
pub mod agents;
mod bitboard;
mod bits;
mod board;
mod cell;
mod choice;
#[cfg(feature = "alloc")]
pub mod connect4;
pub mod encoding;
#[cfg(feature = "std")]
pub mod file;
pub mod game;
#[doc(hidden)]
pub mod lab;
mod line;
pub mod mnk;
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
#[cfg(test)]
mod testing;
pub mod ultimate;

pub use bitboard::{Bitboard, Cells};
pub use board::{Board, OverlapError, ParseBoardError};
pub use cell::{Cell, CellError};
pub use game::{Game, MovesError, ParseGameError};
pub use line::Line;
pub use moves::PlayError;
pub use player::Player;
pub use position::{InvalidBoard, Position, Status, Violation, Violations};
pub use symmetry::{ParseSymmetryError, Symmetry};
