//! BitboardPair: one 9-bit set per player, side by side in 18 bits.
//!
//! | bits | meaning |
//! |---|---|
//! | `0..9` | cells of X (bit `i` is cell `i`) |
//! | `9..18` | cells of O |
//!
//! Range: `0..2^18`; the 19,683 codes whose two halves are disjoint decode.
//!
//! Cost: a shift and an or each way, get and set of one cell by shift and mask; this is the
//! layout the status methods work on.

use super::{DecodeError, DecodeReason};
use crate::{Bitboard, Board, Cell, Player};

/// A grid as `x | o << 9`.
///
/// ```
/// use tictactoe::{Board, encoding::BitboardPair};
/// let code = BitboardPair::from_board("XO./.../...".parse::<Board>()?);
/// assert_eq!(code.code(), 1 | 2 << 9);
/// assert!(BitboardPair::try_from(1 | 1 << 9).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BitboardPair(u32);

impl BitboardPair {
    /// Nine bits per player.
    pub const BITS: u32 = 18;
    /// Codes lie below `2^18`.
    pub const LIMIT: u32 = 1 << 18;
    /// The codes whose halves are disjoint: `3^9`.
    pub const COUNT: u32 = 19_683;

    /// The code of a board.
    #[must_use]
    pub const fn from_board(board: Board) -> BitboardPair {
        BitboardPair(board.x().bits() as u32 | (board.o().bits() as u32) << 9)
    }

    /// The board of the code.
    #[must_use]
    pub const fn to_board(self) -> Board {
        let x = Bitboard::from_bits_truncate(self.0 as u16);
        let o = Bitboard::from_bits_truncate((self.0 >> 9) as u16);
        Board::from_disjoint(x, o)
    }

    /// The integer, below `2^18`.
    #[must_use]
    pub const fn code(self) -> u32 {
        self.0
    }

    /// The mark in `cell`, read from the code by two shifts and masks.
    ///
    /// ```
    /// use tictactoe::{Board, Cell, Player, encoding::BitboardPair};
    /// let code = BitboardPair::from_board("XO./.../...".parse::<Board>()?);
    /// assert_eq!(code.cell(Cell::new(1)?), Some(Player::O));
    /// let code = code.with(Cell::new(1)?, Some(Player::X));
    /// assert_eq!(code.to_board().to_string(), "XX.......");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn cell(self, cell: Cell) -> Option<Player> {
        // Bit 0: X holds the cell; bit 1: O holds it (never both in a decoded code).
        match (self.0 >> cell.index() & 1) | (self.0 >> (cell.index() + 9) & 1) << 1 {
            0 => None,
            1 => Some(Player::X),
            _ => Some(Player::O),
        }
    }

    /// The code with `cell` set to `mark`, computed on the code itself.
    #[must_use]
    pub const fn with(self, cell: Cell, mark: Option<Player>) -> BitboardPair {
        let i = cell.index();
        let cleared = self.0 & !(1 << i | 1 << (i + 9));
        let bit = match mark {
            None => 0,
            Some(Player::X) => 1 << i,
            Some(Player::O) => 1 << (i + 9),
        };
        BitboardPair(cleared | bit)
    }

    /// Sets `cell` to `mark` in place.
    pub fn set(&mut self, cell: Cell, mark: Option<Player>) {
        *self = self.with(cell, mark);
    }

    /// Decodes, rejecting codes of 18 bits or more and overlapping halves.
    ///
    /// # Errors
    /// [`DecodeReason::OutOfRange`] past 18 bits, [`DecodeReason::Overlap`] for the lowest cell both halves hold.
    pub const fn try_from_code(code: u32) -> Result<BitboardPair, DecodeError> {
        if code >= 1 << Self::BITS {
            return Err(DecodeError::out_of_range(
                Self::KIND,
                code as u64,
                1 << Self::BITS,
            ));
        }
        // The cells both halves claim, checked on the code itself.
        let both = code & code >> 9 & 0x1ff;
        if both == 0 {
            Ok(BitboardPair(code))
        } else {
            let cell = Cell::ALL[both.trailing_zeros() as usize];
            Err(DecodeError::new(
                Self::KIND,
                code as u64,
                DecodeReason::Overlap { cell },
            ))
        }
    }
}

super::impl_encoding!(BitboardPair, BitboardPair, u32, total);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_decodes_to_itself_or_is_rejected() {
        let mut valid = 0;
        for code in 0..1 << 19 {
            if let Ok(decoded) = BitboardPair::try_from_code(code) {
                valid += 1;
                assert_eq!(BitboardPair::from_board(decoded.to_board()).code(), code);
            } else {
                // The slow twin of the overlap check: the board constructor.
                let x = Bitboard::from_bits_truncate(code as u16);
                let o = Bitboard::from_bits_truncate((code >> 9) as u16);
                assert!(code >= 1 << 18 || Board::from_bitboards(x, o).is_err());
            }
        }
        assert_eq!(valid, 19_683);
        for board in Board::all() {
            let code = BitboardPair::from_board(board);
            assert_eq!(code.to_board(), board);
            for cell in Cell::ALL {
                assert_eq!(code.cell(cell), board.at(cell));
                for mark in [None, Some(Player::X), Some(Player::O)] {
                    assert_eq!(code.with(cell, mark).to_board(), board.with(cell, mark));
                }
            }
        }
    }
}
