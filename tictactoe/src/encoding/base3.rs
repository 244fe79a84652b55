//! Base-3: one base-3 digit per cell, 15 bits in all (Barrick, "Encoding tic-tac-toe in 15 bits").
//!
//! | digit | meaning |
//! |---|---|
//! | `d_i` of `code = sum d_i * 3^i` | cell `i`: 0 empty, 1 X, 2 O |
//!
//! Range: `0..19,683` (`3^9`); every code in range decodes. 15 bits hold it since
//! `2^14 < 3^9 <= 2^15`.
//!
//! Cost: no hardware division anywhere. From a board: two lookups in a 1 KiB table of
//! `sum 3^i` over each 9-bit set. To a board: one multiply-shift splits the code into
//! 5 + 4 digits, each looked up in a 486-byte digit table. Get: one multiply by a per-cell
//! fixed-point reciprocal of `3^(i + 1)` gives the fraction whose first base-3 digit is the
//! cell (times 3 and a shift read it). Set: get, then add
//! `(new - old) * 3^i`. `lab::divmod` keeps Barrick's plain `/` and `%` version as the slow twin
//! and the benchmark baseline. Medians: docs/benchmarks.md (`cargo bench --bench encodings`).
#![allow(
    clippy::cast_lossless,
    reason = "bit twiddling in const fns, where `From` cannot be called"
)]

use crate::{Bitboard, Board, Cell, Player};

/// A grid as a base-3 number: cell `i` is digit `i` (0 empty, 1 X, 2 O).
///
/// ```
/// use tictactoe::{Board, Cell, Player, encoding::Base3};
/// let code = Base3::from_board("X.O/..O/.X.".parse::<Board>()?);
/// assert_eq!(code.code(), 2692);
/// assert_eq!(code.cell(Cell::new(2)?), Some(Player::O));
/// assert_eq!(code.with(Cell::new(4)?, Some(Player::X)).code(), 2692 + 81);
/// assert!(Base3::try_from(19_683).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Base3(u16);

/// `3^i` for `i` in `0..10`.
pub(crate) const POW3: [u16; 10] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

/// `SET_VALUE[s]` is `sum 3^i` over the cells `i` of the 9-bit set `s`: 1 KiB.
static SET_VALUE: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut set = 0;
    while set < 512 {
        let mut i = 0;
        while i < 9 {
            if set >> i & 1 != 0 {
                table[set] += POW3[i];
            }
            i += 1;
        }
        set += 1;
    }
    table
};

/// `DIGITS[v]` for `v < 3^5` holds the X cells of the 5-digit number `v` in bits 0..5 and its
/// O cells in bits 8..13: 486 bytes.
static DIGITS: [u16; 243] = {
    let mut table = [0u16; 243];
    let mut v = 0;
    while v < 243 {
        let (mut rest, mut i, mut entry) = (v, 0, 0u16);
        while i < 5 {
            match rest % 3 {
                1 => entry |= 1 << i,
                2 => entry |= 1 << (i + 8),
                _ => {}
            }
            rest /= 3;
            i += 1;
        }
        table[v] = entry;
        v += 1;
    }
    table
};

/// Bytes of static tables used by [`Base3`].
pub(crate) const TABLE_BYTES: usize =
    core::mem::size_of::<[u16; 512]>() + core::mem::size_of::<[u16; 243]>();

/// `floor(n / 243)` for `n < 3^9`, as multiply and shift: `ceil(2^22 / 243) = 17261`.
const fn div243(n: u32) -> u32 {
    (n * 17_261) >> 22
}

/// `FRACTION[i] = ceil(2^32 / 3^(i + 1))`: the low 32 bits of `n * FRACTION[i]` are the
/// fractional part of `n / 3^(i + 1)` in fixed point, and three times that fraction, rounded
/// down, is digit `i`. The rounding error, below `3^9 / 2^32`, is far less than the gap
/// `1 / 3^9` to the next digit boundary (checked exhaustively at compile time below).
const FRACTION: [u64; 9] = {
    let mut table = [0u64; 9];
    let mut i = 0;
    while i < 9 {
        table[i] = (1u64 << 32).div_ceil(POW3[i + 1] as u64);
        i += 1;
    }
    table
};

/// Digit `i` of `n < 3^9`, `n / 3^i % 3`, by one multiply: no division, no second multiply
/// (times 3 is an add).
const fn digit_at(n: u16, i: usize) -> u16 {
    let fraction = (n as u64 * FRACTION[i]) as u32 as u64;
    ((fraction * 3) >> 32) as u16
}

const _: () = {
    let mut n = 0u32;
    while n < 19_683 {
        assert!(div243(n) == n / 243);
        let mut i = 0;
        while i < 9 {
            assert!(digit_at(n as u16, i) as u32 == n / POW3[i] as u32 % 3);
            i += 1;
        }
        n += 1;
    }
};

const fn digit(mark: Option<Player>) -> u16 {
    match mark {
        None => 0,
        Some(Player::X) => 1,
        Some(Player::O) => 2,
    }
}

impl Base3 {
    /// `3^9 = 19,683 <= 2^15`.
    pub const BITS: u32 = 15;
    /// Codes lie below `3^9`.
    pub const LIMIT: u32 = 19_683;
    /// Every code below [`Self::LIMIT`] decodes.
    pub const COUNT: u32 = 19_683;

    /// The code of a board: two table lookups.
    #[must_use]
    pub fn from_board(board: Board) -> Base3 {
        Base3(SET_VALUE[board.x().bits() as usize] + 2 * SET_VALUE[board.o().bits() as usize])
    }

    /// The board of the code: one multiply-shift and two digit-table lookups.
    #[must_use]
    pub fn to_board(self) -> Board {
        let high = div243(self.0 as u32);
        let low = self.0 as u32 - high * 243;
        let (lo, hi) = (DIGITS[low as usize], DIGITS[high as usize]);
        let x = (lo & 0x1f) | (hi & 0x1f) << 5;
        let o = (lo >> 8) | (hi >> 8) << 5;
        Board::from_disjoint(
            Bitboard::from_bits_truncate(x),
            Bitboard::from_bits_truncate(o),
        )
    }

    /// The mark in `cell`, read from the code by one multiply and a shift.
    #[must_use]
    pub const fn cell(self, cell: Cell) -> Option<Player> {
        match digit_at(self.0, cell.index()) {
            0 => None,
            1 => Some(Player::X),
            _ => Some(Player::O),
        }
    }

    /// The code with `cell` set to `mark`, computed on the code itself.
    #[must_use]
    pub const fn with(self, cell: Cell, mark: Option<Player>) -> Base3 {
        let old = digit_at(self.0, cell.index());
        let place = POW3[cell.index()];
        Base3(self.0 - old * place + digit(mark) * place)
    }

    /// Sets `cell` to `mark` in place.
    pub fn set(&mut self, cell: Cell, mark: Option<Player>) {
        *self = self.with(cell, mark);
    }
}

/// Barrick's get and set, with plain `/` and `%` by `3^i`: the slow twin and the baseline.
///
/// ```
/// use tictactoe::lab::divmod;
/// let mut code = 0u16;
/// divmod::set_cell(&mut code, 4, 1);
/// assert_eq!((code, divmod::get_cell(code, 4)), (81, 1));
/// ```
pub(crate) mod divmod {
    /// `3^i`, or 1 outside `0..9`, as in Barrick's helper (docs/encodings.md#the-encodings).
    #[must_use]
    pub fn pow3(i: usize) -> u16 {
        super::POW3.get(i).filter(|_| i < 9).copied().unwrap_or(1)
    }

    /// The digit of cell `i`: `(s / 3^i) % 3`.
    #[must_use]
    pub fn get_cell(s: u16, i: usize) -> u16 {
        s / pow3(i) % 3
    }

    /// Sets the digit of cell `i` to `value` (0, 1 or 2).
    pub fn set_cell(s: &mut u16, i: usize, value: u16) {
        let div = pow3(i);
        let old = *s / div % 3;
        *s -= old * div;
        *s += value * div;
    }
}

super::impl_range_code!(Base3, "`3^9`");
super::impl_encoding!(Base3, Base3, u16, total);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn const_conversions_match_the_fast_ones_on_every_grid() {
        for code in 0..19_683u16 {
            let board = crate::board::from_base3_code(code);
            assert_eq!(Base3::try_from(u32::from(code)).unwrap().to_board(), board);
            assert_eq!(crate::board::base3_code(board), code);
            assert_eq!(Base3::from_board(board).code(), code);
        }
    }

    #[test]
    fn every_code_round_trips_and_agrees_with_divmod() {
        // Board::all() enumerates grids in base-3 order by plain division.
        for (code, board) in Board::all().enumerate() {
            let code = code as u16;
            assert_eq!(Base3::from_board(board).code(), code);
            assert_eq!(Base3(code).to_board(), board);
            for cell in Cell::ALL {
                let i = cell.index();
                assert_eq!(digit(Base3(code).cell(cell)), divmod::get_cell(code, i));
                for value in 0..3 {
                    let mut slow = code;
                    divmod::set_cell(&mut slow, i, value);
                    let mark = [None, Some(Player::X), Some(Player::O)][value as usize];
                    assert_eq!(Base3(code).with(cell, mark).code(), slow);
                }
            }
        }
        for code in 19_683..1 << 16 {
            assert!(Base3::try_from_code(code).is_err());
        }
    }

    #[test]
    fn public_vectors() {
        for (text, code) in [
            (".........", 0),
            ("X........", 1),
            ("....X....", 81),
            ("XXXXXXXXX", 9841),
            ("OOOOOOOOO", 19682),
            (".X./OX./.O.", 4512),
        ] {
            assert_eq!(
                Base3::from_board(text.parse().unwrap()).code(),
                code,
                "{text}"
            );
        }
    }
}
