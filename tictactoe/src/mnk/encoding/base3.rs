//! Base-3 codes: one base-3 digit per cell, in a `u64` up to 40 cells and a `u128` up to 80.
//!
//! | digit | meaning |
//! |---|---|
//! | `d_i` of `code = Σ d_i · 3^i` | cell `i = row × cols + col` (row 0 at the top): 0 empty, 1 X, 2 O |
//!
//! | type | integer | cells | why that many |
//! |---|---|---|---|
//! | [`Base3`] | `u64` | up to 40 (5×5, 4×10, 6×6 = 36) | `3^40 ≈ 1.22 × 10^19 < 2^64 ≈ 1.84 × 10^19 < 3^41` |
//! | [`Base3Wide`] | `u128` | up to 80 (Connect Four's 42, 8×8, 8×10) | `3^80 ≈ 1.48 × 10^38 < 2^128 ≈ 3.40 × 10^38 < 3^81` |
//!
//! Range: `0..3^cells`; every code in range decodes. On a (3,3,3) board the code is the 3×3
//! core's [`crate::encoding::Base3`] code: same cell order, same digits.
//!
//! Cost: from a board, one table add of `3^i` (X) or `2 · 3^i` (O) per mark, reading the
//! marks off the bitboards (tables of 41 `u64` and 81 `u128` powers, 328 and 1,296 bytes).
//! To a board, one digit per cell by a division by the constant 3 (a multiply); [`Base3Wide`]
//! first splits the code by `3^40` into two halves that fit a `u64`, so the per-cell work stays
//! in 64 bits. Get of cell `i` is the articles' `code / 3^i % 3` (one division by a table
//! power); set is get and one multiply-add, `code + (new − old) · 3^i`.

use super::{DecodeError, EncodeError, Fill, Walk, digit, for_each_mark, mark, on_any, put};
use crate::Player;
use crate::mnk::{AnyBoard, Board, Rules, Square, WidthError};

/// `3^i` for `i` in `0..=40`.
const POW3_64: [u64; 41] = {
    let mut table = [1u64; 41];
    let mut i = 1;
    while i < 41 {
        table[i] = table[i - 1] * 3;
        i += 1;
    }
    table
};

/// `3^i` for `i` in `0..=80`.
const POW3_128: [u128; 81] = {
    let mut table = [1u128; 81];
    let mut i = 1;
    while i < 81 {
        table[i] = table[i - 1] * 3;
        i += 1;
    }
    table
};

/// Bytes of the power tables of [`Base3`] and [`Base3Wide`].
pub const TABLE_BYTES: usize =
    core::mem::size_of::<[u64; 41]>() + core::mem::size_of::<[u128; 81]>();

/// Writes the `to - from` base-3 digits of `rest` into cells `from..to` of `board`.
#[inline]
fn fill_digits<const W: usize>(board: &mut Board<W>, mut rest: u64, from: u32, to: u32) {
    let mut walk = Walk::from(board.rules(), from);
    for _ in from..to {
        match rest % 3 {
            1 => put(board, walk.bit(), Player::X),
            2 => put(board, walk.bit(), Player::O),
            _ => {}
        }
        rest /= 3;
        walk.advance();
    }
}

macro_rules! base3 {
    ($(#[$doc:meta])* $name:ident, $int:ty, $max:literal, $pow:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct $name {
            rules: Rules,
            code: $int,
        }

        impl $name {
            #[doc = concat!("The most cells a code holds: `3^", stringify!($max), "` fits a `",
                stringify!($int), "`, one more power does not.")]
            pub const MAX_CELLS: u32 = $max;

            /// `3^cells`, the first number past the codes of `rules`, if the board fits.
            #[must_use]
            pub const fn limit(rules: Rules) -> Option<$int> {
                if rules.cells() <= Self::MAX_CELLS {
                    Some($pow[rules.cells() as usize])
                } else {
                    None
                }
            }

            /// Bits that hold every code of `rules` (`⌈cells · log2 3⌉`), if the board fits.
            #[must_use]
            pub const fn bits(rules: Rules) -> Option<u32> {
                match Self::limit(rules) {
                    Some(limit) => Some(<$int>::BITS - (limit - 1).leading_zeros()),
                    None => None,
                }
            }

            const fn check(rules: Rules) -> Result<(), EncodeError> {
                if rules.cells() <= Self::MAX_CELLS {
                    Ok(())
                } else {
                    Err(EncodeError::TooManyCells {
                        rules,
                        max: Self::MAX_CELLS,
                    })
                }
            }

            /// The code of a board: `3^i` per X and `2 · 3^i` per O, added from a table.
            ///
            /// # Errors
            /// [`EncodeError::TooManyCells`] when the board has more than
            /// [`MAX_CELLS`](Self::MAX_CELLS) cells.
            pub fn from_board<const W: usize>(board: &Board<W>) -> Result<$name, EncodeError> {
                let rules = board.rules();
                Self::check(rules)?;
                let mut code: $int = 0;
                for_each_mark(board, |index, player| {
                    let place = $pow[index as usize];
                    code += match player {
                        Player::X => place,
                        Player::O => 2 * place,
                    };
                });
                Ok($name { rules, code })
            }

            /// The code of a board of any width (see [`from_board`](Self::from_board)).
            ///
            /// # Errors
            /// [`EncodeError::TooManyCells`] when the board has more than
            /// [`MAX_CELLS`](Self::MAX_CELLS) cells.
            pub fn from_any(board: &AnyBoard) -> Result<$name, EncodeError> {
                on_any!(board, b => Self::from_board(b))
            }

            /// Decodes a code of `rules`.
            ///
            /// # Errors
            /// [`DecodeError::TooManyCells`] when the rules have more than
            /// [`MAX_CELLS`](Self::MAX_CELLS) cells, [`DecodeError::OutOfRange`] for a code of
            /// `3^cells` or more.
            pub const fn try_from_code(rules: Rules, code: $int) -> Result<$name, DecodeError> {
                match Self::limit(rules) {
                    None => Err(DecodeError::TooManyCells {
                        rules,
                        max: Self::MAX_CELLS,
                    }),
                    Some(limit) if code >= limit => Err(DecodeError::OutOfRange {
                        cells: rules.cells(),
                    }),
                    Some(_) => Ok($name { rules, code }),
                }
            }

            /// The number, below `3^cells`.
            #[must_use]
            #[inline]
            pub const fn code(self) -> $int {
                self.code
            }

            /// The rules of the board.
            #[must_use]
            #[inline]
            pub const fn rules(self) -> Rules {
                self.rules
            }

            /// The board, in a board type of `W` words.
            ///
            /// # Errors
            /// [`WidthError`] when `W` is too narrow for the rules.
            pub fn to_board<const W: usize>(&self) -> Result<Board<W>, WidthError> {
                self.board()
            }

            /// The board, in the narrowest width.
            #[must_use]
            pub fn to_any(&self) -> AnyBoard {
                self.any()
            }

            /// The mark at `square`, read from the code as `code / 3^i % 3` (`None` when empty
            /// or off the board).
            #[must_use]
            #[inline]
            pub const fn cell(self, square: Square) -> Option<Player> {
                if !self.rules.contains(square) {
                    return None;
                }
                let place = $pow[self.rules.index(square) as usize];
                mark((self.code / place % 3) as u32)
            }

            /// The code with `square` set to `mark`, computed on the code as
            /// `code + (new − old) · 3^i` (unchanged when the square is off the board).
            #[must_use]
            #[inline]
            pub const fn with(self, square: Square, mark: Option<Player>) -> $name {
                if !self.rules.contains(square) {
                    return self;
                }
                let place = $pow[self.rules.index(square) as usize];
                let old = self.code / place % 3;
                $name {
                    rules: self.rules,
                    code: self.code - old * place + digit(mark) as $int * place,
                }
            }

            /// Sets `square` to `mark` on the code; `false` (and no change) when the square is
            /// off the board.
            #[inline]
            pub fn set(&mut self, square: Square, mark: Option<Player>) -> bool {
                *self = self.with(square, mark);
                self.rules.contains(square)
            }
        }

        impl TryFrom<(Rules, $int)> for $name {
            type Error = DecodeError;

            /// [`try_from_code`](Self::try_from_code).
            fn try_from((rules, code): (Rules, $int)) -> Result<$name, DecodeError> {
                $name::try_from_code(rules, code)
            }
        }

        impl From<$name> for $int {
            fn from(code: $name) -> $int {
                code.code
            }
        }
    };
}

base3!(
    /// A board of up to 40 cells as a base-3 number in a `u64`: cell `i` (text order) is digit
    /// `i`, 0 empty, 1 X, 2 O.
    ///
    /// ```
    /// use tictactoe::mnk::encoding::Base3;
    /// use tictactoe::mnk::{Board, Rules, Square};
    /// use tictactoe::Player;
    /// let board = Board::<1>::parse(Rules::FOUR_BY_FOUR, "X.../..O./..../...X")?;
    /// let code = Base3::from_board(&board)?;
    /// assert_eq!(code.code(), 1 + 2 * 3u64.pow(6) + 3u64.pow(15));
    /// assert_eq!(code.cell(Square::new(1, 2)), Some(Player::O));
    /// let code = code.with(Square::new(0, 0), None);
    /// assert_eq!(code.code(), 2 * 3u64.pow(6) + 3u64.pow(15));
    /// assert_eq!(code.to_board::<1>()?, board.with(Square::new(0, 0), None));
    /// assert!(Base3::try_from_code(Rules::FOUR_BY_FOUR, 3u64.pow(16)).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Base3,
    u64,
    40,
    POW3_64
);

base3!(
    /// A board of up to 80 cells as a base-3 number in a `u128` (Connect Four: 42 cells,
    /// 67 bits): cell `i` (text order) is digit `i`, 0 empty, 1 X, 2 O.
    ///
    /// ```
    /// use tictactoe::mnk::encoding::Base3Wide;
    /// use tictactoe::mnk::{AnyBoard, Rules, Square};
    /// use tictactoe::Player;
    /// let board = AnyBoard::parse(Rules::CONNECT_FOUR, "......./......./......./......./......./...X...")?;
    /// let code = Base3Wide::from_any(&board)?;
    /// assert_eq!(code.code(), 3u128.pow(38));
    /// assert_eq!(Base3Wide::bits(Rules::CONNECT_FOUR), Some(67));
    /// assert_eq!(code.cell(Square::new(5, 3)), Some(Player::X));
    /// assert_eq!(code.to_any(), board);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    Base3Wide,
    u128,
    80,
    POW3_128
);

impl Fill for Base3 {
    fn rules(&self) -> Rules {
        self.rules
    }

    fn fill<const W: usize>(&self, board: &mut Board<W>) {
        fill_digits(board, self.code, 0, self.rules.cells());
    }
}

impl Fill for Base3Wide {
    fn rules(&self) -> Rules {
        self.rules
    }

    fn fill<const W: usize>(&self, board: &mut Board<W>) {
        // Both halves are below 3^40 < 2^64: one u128 division, then 64-bit digits.
        let split = POW3_128[40];
        let (low, high) = ((self.code % split) as u64, (self.code / split) as u64);
        let cells = self.rules.cells();
        fill_digits(board, low, 0, cells.min(40));
        if cells > 40 {
            fill_digits(board, high, 40, cells);
        }
    }
}
