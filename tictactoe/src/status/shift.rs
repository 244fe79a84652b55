//! Word-parallel shift-AND: both players' eight lines in one `u32`, no branch, no table.
//!
//! | representation | check | state bytes | table bytes |
//! |---|---|---|---|
//! | [`BoardWord`]: X in bits 0..9, O in bits 16..25 | 4 shift-AND terms, 4 masks, 2 compares | 4 | 0 |
//!
//! In the 9-bit layout (bit `i` = cell `i`, rows of three) a line is three bits at a fixed
//! stride from its first cell: rows stride 1 (first cells 0, 3, 6), columns stride 3 (0, 1,
//! 2), the diagonal stride 4 (0) and the anti-diagonal stride 2 (2). So
//! `w & w >> s & w >> 2s` has bit `c` set exactly when the line starting at `c` with stride
//! `s` is complete; a mask keeps the valid starting cells. No padding is needed: from every
//! kept start, `c + 2s <= 8`, so a term never reads across a row into the wrong cells, nor
//! from O's half into X's.

use super::{BoardWord, Check, Method};
use crate::{Board, Player, Status};

/// Starting cells of the rows, for X (low half) and O (high half).
const ROWS: u32 = 0b001_001_001 * 0x1_0001;
/// Starting cells of the columns.
const COLUMNS: u32 = 0b111 * 0x1_0001;
/// Starting cell of the diagonal `0-4-8`.
const DIAGONAL: u32 = 0x1_0001;
/// Starting cell of the anti-diagonal `2-4-6`.
const ANTI_DIAGONAL: u32 = 0b100 * 0x1_0001;

/// The starting cells of the complete lines: X's in bits 0..9, O's in bits 16..25.
#[must_use]
#[inline]
pub const fn line_starts(word: u32) -> u32 {
    let (s2, s4) = (word >> 2, word >> 4);
    let rows = word & word >> 1 & s2 & ROWS;
    let columns = word & word >> 3 & word >> 6 & COLUMNS;
    let diagonal = word & s4 & word >> 8 & DIAGONAL;
    let anti_diagonal = word & s2 & s4 & ANTI_DIAGONAL;
    rows | columns | diagonal | anti_diagonal
}

/// What a board's lines and fullness say, in 3 bits: bit 0 X holds a line, bit 1 O holds a
/// line, bit 2 all nine cells are taken.
///
/// ```
/// use tictactoe::{Board, Player, Status, status::{BoardWord, Verdict}};
/// let verdict = Verdict::of(BoardWord::from_board("XOX/XOO/OXX".parse::<Board>()?));
/// assert_eq!(verdict.status(), Status::Draw);
/// assert_eq!(verdict.winner(), None);
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Verdict(u8);

impl Verdict {
    /// The verdict on a packed board, branch-free.
    #[must_use]
    #[inline]
    pub const fn of(board: BoardWord) -> Verdict {
        let word = board.word();
        let starts = line_starts(word);
        // Comparisons written as carries, so a vectorised loop stays in 32-bit lanes and
        // narrows once: for v < 2^9, (v + 511) >> 9 is 1 exactly when v != 0, and
        // (v + 1) >> 9 is 1 exactly when v == 0x1ff.
        let x = ((starts & 0x1ff) + 0x1ff) >> 9;
        let o = ((starts >> 16) + 0x1ff) >> 9;
        let full = (((word | word >> 16) & 0x1ff) + 1) >> 9;
        Verdict((x | o << 1 | full << 2) as u8)
    }

    /// The verdict with these bits (only the low three are kept).
    #[must_use]
    #[inline]
    pub const fn from_bits(bits: u8) -> Verdict {
        Verdict(bits & 7)
    }

    /// The three bits.
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The player holding a line, X first when both do.
    #[must_use]
    #[inline]
    pub const fn winner(self) -> Option<Player> {
        super::winner_of(self.0 & 1 != 0, self.0 & 2 != 0)
    }

    /// Won, drawn (full, no line) or ongoing.
    #[must_use]
    #[inline]
    pub const fn status(self) -> Status {
        // The three bits are the status code: one lookup, no branch.
        super::status_from_code(self.0)
    }
}

/// The shift-AND method.
///
/// ```
/// use tictactoe::{Board, Player, lab::{Check, Shift}};
/// let board = Shift::prepare("XOO/OXX/XOX".parse::<Board>()?);
/// assert_eq!(Shift::winner(board), Some(Player::X));
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Shift;

impl Check for Shift {
    const METHOD: Method = Method::Shift;
    type State = BoardWord;
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn prepare(board: Board) -> BoardWord {
        BoardWord::from_board(board)
    }

    #[inline]
    fn winner(board: BoardWord) -> Option<Player> {
        let starts = line_starts(board.word());
        super::winner_of(starts & 0xffff != 0, starts >> 16 != 0)
    }

    #[inline]
    fn status(board: BoardWord) -> Option<Status> {
        Some(Verdict::of(board).status())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Line;

    #[test]
    fn line_starts_mark_exactly_the_complete_lines() {
        for board in Board::all() {
            let starts = line_starts(BoardWord::from_board(board).word());
            for (player, shift) in [(Player::X, 0), (Player::O, 16)] {
                let slow = Line::ALL
                    .iter()
                    .filter(|l| board.pieces(player).is_superset(l.cells()))
                    .count();
                // Lines of different strides can share a start bit, so compare emptiness.
                let fast = starts >> shift & 0x1ff;
                assert_eq!(fast == 0, slow == 0, "{board}");
            }
        }
    }
}
