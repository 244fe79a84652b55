//! Ultimate tic-tac-toe on the 3×3 core: nine small boards in a 3×3 meta-board, under
//! OpenSpiel's rules (`ultimate_tic_tac_toe`).
//!
//! The rules, with every edge case, are in `docs/ultimate.md`: a move in cell `c` of a small
//! board sends the opponent to small board `c`; when that board is won or full the opponent
//! may play in any open board; a small board is won by three in a row and is closed from then
//! on; a full small board without a line is closed and counts for nobody; three won boards in
//! a row win the game; all boards closed without that is a draw.
//!
//! | type | what it holds | size |
//! |---|---|---|
//! | [`Setup`] | any nine 3×3 [`Board`](crate::Board)s and a board to play: what text and codes hand in | 38 bytes |
//! | [`Position`] | a checked position: per player and small board a 9-bit set, won and open boards, the open boards' empty cells, the board to play | `Position::BYTES` = 64 bytes |
//! | [`Move`] | `9 * board + cell`, `0..81` (OpenSpiel's flat index) | 1 byte |
//! | [`Moves`] | a set of moves, bit `9 * board + cell` of a `u128` | 16 bytes |
//! | [`encoding`] | the 2-bit and base-3 codes of any setup, the exact-rank code of most positions | 139 to 166 bits, 115 bits |
//!
//! Players (features `alloc` and `rand`): `agents` (random, a heuristic, and `mcts:N`) and
//! `mcts`, a UCT search on the engine's fast random playouts, root-parallel on threads with
//! `std`; the ladder and the games against OpenSpiel's MCTS bot are in `docs/ultimate.md`.
//!
//! Small boards reuse the core's [`Bitboard`](crate::Bitboard) (its 64-byte line table is the
//! whole win check), [`Board`](crate::Board), [`Status`](crate::Status),
//! [`Symmetry`](crate::Symmetry) and [`Rank`](crate::encoding::Rank); the core knows nothing
//! of this module.
//!
//! ```
//! use tictactoe::ultimate::{Move, Position, Setup};
//! use tictactoe::Status;
//!
//! let mut position = Position::EMPTY;
//! for index in [40, 36, 4] {
//!     position.play(Move::try_from(index)?)?;
//! }
//! // X's centre, O's top-left of the centre board, X's top-right... O is sent to board 4.
//! assert_eq!(position.next_board().map(|b| b.index()), Some(4));
//! assert_eq!(position.status(), Status::Ongoing);
//! let text = position.to_string();
//! assert_eq!(text.parse::<Setup>()?.to_string(), text);
//! assert_eq!(Position::try_from(text.parse::<Setup>()?)?, position);
//! assert_eq!(Position::EMPTY.perft(2), 720);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(all(feature = "alloc", feature = "rand"))]
pub mod agents;
pub mod encoding;
#[cfg(all(feature = "alloc", feature = "rand"))]
pub mod mcts;
mod moves;
#[cfg(feature = "rand")]
mod playout;
mod position;
mod setup;
#[doc(hidden)]
pub mod slow;
mod symmetry;
mod validate;

pub use moves::{Move, MoveError, Moves, MovesIter};
pub use position::{PlayError, Position, Undo};
pub use setup::{ParseSetupError, Setup};
pub use validate::{InvalidSetup, Violation, Violations};

impl Position {
    /// The size of a [`Position`] in bytes.
    pub const BYTES: usize = core::mem::size_of::<Position>();
    /// Bytes of the tables [`play`](Position::play) and
    /// [`status_after`](Position::status_after) read besides the core's: the winning cells of
    /// each 9-bit set (1,024) and each move's board and cell as indices and one-bit sets (648).
    pub const PLAY_TABLE_BYTES: usize = position::PLAY_TABLE_BYTES;
}
