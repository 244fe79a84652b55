//! Base-4: two bits per cell, 18 bits in all (González, in C in Barrick's note).
//!
//! | bits | meaning |
//! |---|---|
//! | `2i..2i+1` | cell `i`: `00` empty, `01` X, `10` O (`11` is never a code) |
//!
//! Range: `0..2^18`, of which the 19,683 codes without a `11` pair decode. The empty board is 0.
//!
//! Cost: from a board, two lookups in a 2 KiB table of spread 9-bit sets; to a board, two
//! lookups in a 2 KiB table of five-cell groups; get and set of one cell by shift and mask.
//! The bit-interleaving `spread` and `gather` build the tables and are their slow twins.
//! Medians in docs/benchmarks.md (`cargo bench -p tictactoe-kit --bench encodings`).

use super::{DecodeError, DecodeReason};
use crate::{Bitboard, Board, Cell, Player};

/// A grid as a base-4 number: cell `i` in bits `2i` (X) and `2i + 1` (O).
///
/// ```
/// use tictactoe::{Board, Cell, Player, encoding::Base4};
/// let code = Base4::from_board("....X....".parse::<Board>()?);
/// assert_eq!(code.code(), 256);
/// assert_eq!(code.cell(Cell::new(4)?), Some(Player::X));
/// let code = code.with(Cell::new(0)?, Some(Player::O));
/// assert_eq!(code.to_board().to_string(), "O...X....");
/// assert!(Base4::try_from(0b11).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Base4(u32);

/// The even bits of an 18-bit word: the X bit of every cell.
const EVEN: u32 = 0x15555;

/// Spreads 9 bits to the even positions of 18 (bit `i` to bit `2i`).
#[inline]
pub(crate) const fn spread(bits: u16) -> u32 {
    let mut v = bits as u32;
    v = (v | v << 8) & 0x00ff_00ff;
    v = (v | v << 4) & 0x0f0f_0f0f;
    v = (v | v << 2) & 0x3333_3333;
    (v | v << 1) & 0x5555_5555
}

/// Gathers the even bits of 18 into 9 (bit `2i` to bit `i`): the inverse of [`spread`].
const fn gather(word: u32) -> u16 {
    let mut v = word & 0x5555_5555;
    v = (v | v >> 1) & 0x3333_3333;
    v = (v | v >> 2) & 0x0f0f_0f0f;
    v = (v | v >> 4) & 0x00ff_00ff;
    ((v | v >> 8) & 0xffff) as u16
}

/// `SPREAD[s]` is [`spread`] of the 9-bit set `s`: 2 KiB.
static SPREAD: [u32; 512] = {
    let mut table = [0u32; 512];
    let mut set = 0;
    while set < 512 {
        table[set] = spread(set as u16);
        set += 1;
    }
    table
};

/// `GATHER10[v]` for a 10-bit value `v` (five cells) holds [`gather`] of `v` (the X cells) in
/// bits 0..5 and of `v >> 1` (the O cells) in bits 8..13: 2 KiB.
static GATHER10: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut v = 0;
    while v < 1024 {
        table[v] = gather(v as u32) | gather(v as u32 >> 1) << 8;
        v += 1;
    }
    table
};

/// Bytes of static tables used by [`Base4`].
pub(crate) const TABLE_BYTES: usize =
    core::mem::size_of_val(&SPREAD) + core::mem::size_of_val(&GATHER10);

impl Base4 {
    /// Two bits for each of nine cells.
    pub const BITS: u32 = 18;
    /// Codes lie below `2^18`.
    pub const LIMIT: u32 = 1 << 18;
    /// Three usable patterns per cell: `3^9` codes decode.
    pub const COUNT: u32 = 19_683;

    /// The code of a board.
    #[must_use]
    pub const fn from_board(board: Board) -> Base4 {
        let (x, o) = (board.x().bits() as usize, board.o().bits() as usize);
        Base4(SPREAD[x] | SPREAD[o] << 1)
    }

    /// The board of the code: cells 0..5 and 5..9 looked up in one table.
    #[must_use]
    pub const fn to_board(self) -> Board {
        let low = GATHER10[(self.0 & 0x3ff) as usize];
        let high = GATHER10[(self.0 >> 10 & 0x3ff) as usize];
        let x = Bitboard::from_bits_truncate((low & 0x1f) | (high & 0x1f) << 5);
        let o = Bitboard::from_bits_truncate((low >> 8) | (high >> 8) << 5);
        Board::from_disjoint(x, o)
    }

    /// The integer, below `2^18`.
    #[must_use]
    pub const fn code(self) -> u32 {
        self.0
    }

    /// Decodes, rejecting codes of 18 bits or more and any cell with pattern `11`.
    ///
    /// # Errors
    /// [`DecodeReason::OutOfRange`] past 18 bits, [`DecodeReason::CellPattern11`] for the lowest cell whose two bits are both set.
    pub const fn try_from_code(code: u32) -> Result<Base4, DecodeError> {
        if code >= 1 << Self::BITS {
            return Err(DecodeError::out_of_range(
                Self::KIND,
                code as u64,
                1 << Self::BITS,
            ));
        }
        let both = code & code >> 1 & EVEN;
        if both != 0 {
            let cell = Cell::ALL[(both.trailing_zeros() / 2) as usize];
            return Err(DecodeError::new(
                Self::KIND,
                code as u64,
                DecodeReason::CellPattern11 { cell },
            ));
        }
        Ok(Base4(code))
    }

    /// The mark in `cell`, read from the code by shift and mask.
    #[must_use]
    pub const fn cell(self, cell: Cell) -> Option<Player> {
        match self.0 >> (2 * cell.index()) & 3 {
            0 => None,
            1 => Some(Player::X),
            _ => Some(Player::O),
        }
    }

    /// The code with `cell` set to `mark`, computed on the code itself.
    #[must_use]
    pub const fn with(self, cell: Cell, mark: Option<Player>) -> Base4 {
        let shift = 2 * cell.index();
        let value = match mark {
            None => 0,
            Some(Player::X) => 1,
            Some(Player::O) => 2,
        };
        Base4(self.0 & !(3 << shift) | value << shift)
    }

    /// Sets `cell` to `mark` in place.
    pub fn set(&mut self, cell: Cell, mark: Option<Player>) {
        *self = self.with(cell, mark);
    }
}

super::impl_encoding!(Base4, Base4, u32, total);

#[cfg(test)]
mod tests {
    use super::*;

    /// The obvious definition: sum of `digit(i) * 4^i`.
    fn slow_code(board: Board) -> u32 {
        Cell::ALL.iter().rev().fold(0, |code, &cell| {
            code * 4
                + match board.at(cell) {
                    None => 0,
                    Some(Player::X) => 1,
                    Some(Player::O) => 2,
                }
        })
    }

    #[test]
    fn every_grid_matches_the_slow_code_and_round_trips() {
        for board in Board::all() {
            let code = Base4::from_board(board);
            assert_eq!(code.code(), slow_code(board));
            // The table-free twins: spread and gather.
            let (x, o) = (board.x().bits(), board.o().bits());
            assert_eq!(code.code(), spread(x) | spread(o) << 1);
            let (x, o) = (gather(code.code()), gather(code.code() >> 1));
            assert_eq!((x, o), (board.x().bits(), board.o().bits()));
            assert_eq!(code.to_board(), board);
            for cell in Cell::ALL {
                assert_eq!(code.cell(cell), board.at(cell));
                for mark in [None, Some(Player::X), Some(Player::O)] {
                    let set = code.with(cell, mark);
                    assert_eq!(set, Base4::from_board(board.with(cell, mark)));
                }
            }
        }
    }

    #[test]
    fn every_code_decodes_to_itself_or_names_the_bad_cell() {
        let mut valid = 0;
        for code in 0..1u32 << 19 {
            match Base4::try_from_code(code) {
                Ok(decoded) => {
                    valid += 1;
                    assert_eq!(Base4::from_board(decoded.to_board()).code(), code);
                }
                Err(DecodeError {
                    reason: DecodeReason::OutOfRange { limit },
                    ..
                }) => {
                    assert!(code >= 1 << 18 && limit == 1 << 18);
                }
                Err(DecodeError {
                    reason: DecodeReason::CellPattern11 { cell },
                    ..
                }) => {
                    let i = cell.index();
                    assert_eq!(code >> (2 * i) & 3, 3);
                    assert!((0..i).all(|j| code >> (2 * j) & 3 != 3));
                }
                Err(other) => panic!("unexpected {other}"),
            }
        }
        assert_eq!(valid, 19_683);
    }

    #[test]
    fn public_vectors() {
        for (text, code) in [
            (".........", 0),
            ("X........", 1),
            ("....X....", 256),
            ("XXXXXXXXX", 87381),
            ("OOOOOOOOO", 174762),
            (".X./OX./.O.", 33156),
        ] {
            assert_eq!(
                Base4::from_board(text.parse().unwrap()).code(),
                code,
                "{text}"
            );
        }
    }
}
