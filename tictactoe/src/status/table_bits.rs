//! One lookup per player in the 512-bit table of sets that contain a line: 64 bytes, one cache
//! line.
//!
//! | representation | check | state bytes | table bytes |
//! |---|---|---|---|
//! | [`Board`]: two 9-bit [`Bitboard`](crate::Bitboard)s | [`Bitboard::has_line`](crate::Bitboard::has_line) for X, then O | 4 | 64 |
//!
//! The smallest table, at the price of a shift and a bit test per player on top of the load:
//! [`Table`](super::Table) spends a byte per set instead.

use super::{Check, Method};
use crate::{Board, Player, Status};

/// The 64-byte table method.
///
/// ```
/// use tictactoe::{Board, Player, lab::{Check, TableBits}};
/// let board = TableBits::prepare("XO./XO./X..".parse::<Board>()?);
/// assert_eq!(TableBits::winner(board), Some(Player::X));
/// assert_eq!(TableBits::TABLE_BYTES, 64);
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct TableBits;

impl Check for TableBits {
    const METHOD: Method = Method::TableBits;
    type State = Board;
    const TABLE_BYTES: usize = crate::Bitboard::HAS_LINE_TABLE_BYTES;

    #[inline]
    fn prepare(board: Board) -> Board {
        board
    }

    // Branches, as in `Table`.
    #[inline]
    fn winner(board: Board) -> Option<Player> {
        if board.x().has_line() {
            Some(Player::X)
        } else if board.o().has_line() {
            Some(Player::O)
        } else {
            None
        }
    }

    // Branch-free: both lookups, then the 8-entry status table.
    #[inline]
    fn status(board: Board) -> Option<Status> {
        Some(super::status_from_lines(
            board.x().has_line(),
            board.o().has_line(),
            board,
        ))
    }
}
