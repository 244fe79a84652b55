//! One lookup per player in the 512-bit table of sets that contain a line.
//!
//! | representation | check | state bytes | table bytes |
//! |---|---|---|---|
//! | [`Board`]: two 9-bit [`Bitboard`]s | [`Bitboard::has_line`] for X, then O | 4 | 64 |

use super::Method;
use crate::{Bitboard, Board, Player, Status};

/// The table method.
///
/// ```
/// use tictactoe::{Board, Player, status::{Method, Table}};
/// let board = Table::prepare("XO./XO./X..".parse::<Board>()?);
/// assert_eq!(Table::winner(board), Some(Player::X));
/// assert_eq!(Table::TABLE_BYTES, 64);
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Table;

impl Method for Table {
    const NAME: &'static str = "table";
    type State = Board;
    const TABLE_BYTES: usize = Bitboard::HAS_LINE_TABLE_BYTES;

    #[inline]
    fn prepare(board: Board) -> Board {
        board
    }

    // Branches, not a lookup: measured faster (`ttt bench`), as X's test alone decides most
    // won boards and the branch predictor learns the rest.
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

    #[inline]
    fn status(board: Board) -> Option<Status> {
        Some(super::status_of(Self::winner(board), board))
    }
}
