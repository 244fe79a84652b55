//! Eight line masks ANDed with native bitboards.
//!
//! | representation | check | state bytes | table bytes |
//! |---|---|---|---|
//! | [`Board`]: two 9-bit [`Bitboard`](crate::Bitboard)s | `pieces & mask == mask` for the 8 masks of [`Line::ALL`], folded with `\|` | 4 | 0 |
//!
//! The masks are constants in the code, not a table in memory: the compiler folds them into
//! immediate operands.

use super::Method;
use crate::{Board, Line, Player, Status};

/// The eight lines as masks, bit `i` = cell `i`.
pub const MASKS: [u16; 8] = {
    let mut masks = [0; 8];
    let mut l = 0;
    while l < 8 {
        masks[l] = Line::ALL[l].cells().bits();
        l += 1;
    }
    masks
};

/// Whether the 9-bit set `pieces` contains a line, without early exit.
#[must_use]
#[inline]
pub const fn has_line(pieces: u16) -> bool {
    let mut found = false;
    let mut l = 0;
    while l < 8 {
        found |= pieces & MASKS[l] == MASKS[l];
        l += 1;
    }
    found
}

/// The mask method.
///
/// ```
/// use tictactoe::{Board, Player, status::{Masks, Method}};
/// let board = Masks::prepare("XOO/OXX/XOX".parse::<Board>()?);
/// assert_eq!(Masks::winner(board), Some(Player::X));
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Masks;

impl Method for Masks {
    const NAME: &'static str = "masks";
    type State = Board;
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn prepare(board: Board) -> Board {
        board
    }

    // Branches, not a lookup: measured faster (`ttt bench`), as X's test alone decides most
    // won boards and the branch predictor learns the rest.
    #[inline]
    fn winner(board: Board) -> Option<Player> {
        if has_line(board.x().bits()) {
            Some(Player::X)
        } else if has_line(board.o().bits()) {
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
