//! Codes for boards of the family, each with get and set of one cell on the code itself.
//!
//! | type | code | holds | bits | codes that decode | get / set of cell `i` |
//! |---|---|---|---|---|---|
//! | [`Base3`] | `u64` | any board of up to 40 cells | `⌈cells · log2 3⌉`: 3×3 15, 4×4 26, 5×5 40, 6×6 58 | `3^cells`, all of `0..3^cells` | `code / 3^i % 3`; `code + (new − old) · 3^i` |
//! | [`Base3Wide`] | `u128` | any board of up to 80 cells | Connect Four (42 cells) 67, 8×8 102 | `3^cells`, all of `0..3^cells` | the same in `u128` |
//! | [`Base4`] | `[u64; 12]` | any board (up to 361 cells) | `2 · cells`: 19×19 722 | `3^cells` of `4^cells` | `words[i / 32] >> 2(i % 32) & 3`; clear and or |
//! | [`BitboardPair<W>`] | two `[u64; W]` | any board | `2 · cols · (rows + 1)`: Connect Four 98 | `3^cells` (no overlap, no guard bit) | one bit of each word array |
//! | [`HeightKey<W>`] | `[u64; W]`, a `u64` when `W = 1` | gravity boards without a floating mark | `cols · (rows + 1)`: Connect Four 49 | `(2^(rows + 1) − 1)^cols`: Connect Four 127^7 | the bit under the column's marker |
//!
//! Cells are numbered as in the text form and [`Rules::square_at`]: index `i = row × cols +
//! col`, row 0 at the top. Marks are the digits of the 3×3 core's
//! [`encoding`](crate::encoding): 0 empty, 1 X, 2 O (base 4: `00`, `01`, `10`), so on a
//! (3,3,3) board [`Base3`] and [`Base4`] give the same numbers as
//! [`crate::encoding::Base3`] and [`crate::encoding::Base4`] (tested on all 19,683 grids).
//!
//! A code does not carry its rules: every decoder takes the [`Rules`] and checks the code
//! against them, and each code type keeps its rules beside the number so that its cell get
//! and set are checked too. Decoders name what is wrong with a code ([`DecodeError`]);
//! encoders refuse the boards a code cannot hold ([`EncodeError`]). Nothing allocates.
//!
//! ```
//! use tictactoe::mnk::encoding::{Base3, Base3Wide, Base4, BitboardPair, HeightKey};
//! use tictactoe::mnk::{AnyBoard, Rules};
//! use tictactoe::Player;
//! let board = AnyBoard::parse(Rules::CONNECT_FOUR, "......./......./......./......./...O.../..XX...")?;
//! assert!(Base3::from_any(&board).is_err()); // 42 cells: past the u64 code
//! let wide = Base3Wide::from_any(&board)?;
//! assert_eq!(wide.to_any(), board);
//! assert_eq!(Base4::from_any(&board).to_any(), board);
//! assert_eq!(BitboardPair::<1>::from_any(&board)?.to_any(), board);
//! let key = HeightKey::<1>::from_any(&board)?;
//! // Per column of 7 bits, bottom up: X = 1, O = 0, then the marker bit.
//! assert_eq!(key.code(), 1 | 1 << 7 | 0b11 << 14 | 0b101 << 21 | 1 << 28 | 1 << 35 | 1 << 42);
//! assert_eq!(key.height(3), Some(2));
//! assert_eq!(HeightKey::<1>::try_from_code(Rules::CONNECT_FOUR, key.code())?.to_any(), board);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod base3;
mod base4;
mod bitboard_pair;
mod heights;

pub use base3::{Base3, Base3Wide, TABLE_BYTES as BASE3_TABLE_BYTES};
pub use base4::Base4;
pub use bitboard_pair::BitboardPair;
pub use heights::HeightKey;

use super::bits::Bits;
use super::{AnyBoard, Board, Rules, Square, WidthError};
use crate::Player;

/// Why a number (or array of words) is not a code of a family encoding for the given rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The board has more cells than the code type can number.
    #[error("a {rules} board has {} cells, this code holds at most {max}", .rules.cells())]
    TooManyCells {
        /// The rules.
        rules: Rules,
        /// The most cells the code holds.
        max: u32,
    },
    /// A base-3 code of `3^cells` or more.
    #[error("base-3 code is 3^{cells} or more (codes are below 3^{cells})")]
    OutOfRange {
        /// Cells of the board.
        cells: u32,
    },
    /// Two bits of a cell of a base-4 code set: the digit 3.
    #[error("cell {square} has the bit pattern 11 (digit 3)")]
    Pattern11 {
        /// The first such cell.
        square: Square,
    },
    /// A bit past the board's last cell (base 4) or column (height key) is set.
    #[error("bit {bit} is set, past the board's {bits} bits")]
    PastTheBoard {
        /// The lowest such bit.
        bit: u32,
        /// The bits the board uses.
        bits: u32,
    },
    /// X and O both hold a cell.
    #[error("X and O both hold {square}")]
    Overlap {
        /// The first such cell in bit order.
        square: Square,
    },
    /// A bitboard holds a bit that is not a cell: a guard bit above a column or past the
    /// last column.
    #[error("{player}'s bitboard has bit {bit}, which is not a cell")]
    NotACell {
        /// Whose bitboard.
        player: Player,
        /// The lowest such bit.
        bit: u32,
    },
    /// A height key for rules without gravity.
    #[error("a height key needs gravity, {rules} has none")]
    NotGravity {
        /// The rules.
        rules: Rules,
    },
    /// A column of a height key without its marker bit.
    #[error("column {col} of the height key has no marker bit")]
    MissingMarker {
        /// The column, 0 at the left.
        col: u32,
    },
    /// The board type is too narrow for the rules.
    #[error(transparent)]
    Width(#[from] WidthError),
}

/// Why a board has no code in a family encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The board has more cells than the code type can number.
    #[error("a {rules} board has {} cells, this code holds at most {max}", .rules.cells())]
    TooManyCells {
        /// The rules.
        rules: Rules,
        /// The most cells the code holds.
        max: u32,
    },
    /// A height key for rules without gravity.
    #[error("a height key needs gravity, {rules} has none")]
    NotGravity {
        /// The rules.
        rules: Rules,
    },
    /// A mark above an empty cell, which a height key cannot hold (or, for a set on the key,
    /// would leave or make one).
    #[error("column {col} has a mark above an empty cell")]
    Floating {
        /// The column, 0 at the left.
        col: u32,
    },
    /// A square off the board.
    #[error("{square} is off the {rules} board")]
    OffBoard {
        /// The square.
        square: Square,
        /// The rules.
        rules: Rules,
    },
    /// The code type is too narrow for the rules.
    #[error(transparent)]
    Width(#[from] WidthError),
}

/// The digit of a mark: 0 empty, 1 X, 2 O.
#[inline]
const fn digit(mark: Option<Player>) -> u32 {
    match mark {
        None => 0,
        Some(Player::X) => 1,
        Some(Player::O) => 2,
    }
}

/// The mark of a digit 0, 1 or 2 (3 reads as O; callers never pass it).
#[inline]
const fn mark(digit: u32) -> Option<Player> {
    match digit {
        0 => None,
        1 => Some(Player::X),
        _ => Some(Player::O),
    }
}

/// A code that can write its board into an empty board of any width.
trait Fill {
    /// The rules of the code.
    fn rules(&self) -> Rules;
    /// Writes the marks into `board`, an empty board of the same rules.
    fn fill<const W: usize>(&self, board: &mut Board<W>);

    /// The board, in a board type of `W` words.
    fn board<const W: usize>(&self) -> Result<Board<W>, WidthError> {
        let mut board = Board::empty(self.rules())?;
        self.fill(&mut board);
        Ok(board)
    }

    /// The board, in the narrowest width.
    fn any(&self) -> AnyBoard {
        let mut any = AnyBoard::empty(self.rules());
        on_any!(&mut any, b => self.fill(b));
        any
    }
}

/// `$body` with `$b` bound to the [`Board`] inside an [`AnyBoard`].
macro_rules! on_any {
    ($any:expr, $b:ident => $body:expr) => {
        crate::each_width!(AnyBoard, $any, $b => $body)
    };
}
use on_any;

/// Calls `f(index, player)` for every mark of `board`, with its cell index (text order),
/// column by column: one shift per column and a multiply per mark, no division.
#[inline]
fn for_each_mark<const W: usize>(board: &Board<W>, mut f: impl FnMut(u32, Player)) {
    let rules = board.rules();
    let (rows, cols, stride) = (rules.rows(), rules.cols(), rules.stride());
    let column = Bits::<W>::low(rows);
    for player in Player::BOTH {
        let pieces = board.pieces(player);
        for col in 0..cols {
            let mut ups = (pieces.shr(col * stride) & column).0[0];
            while ups != 0 {
                let up = ups.trailing_zeros();
                f((rows - 1 - up) * cols + col, player);
                ups &= ups - 1;
            }
        }
    }
}

/// Cells in text order with their bitboard bits, by counting rather than dividing.
#[derive(Clone, Copy)]
struct Walk {
    rules: Rules,
    row: u32,
    col: u32,
}

impl Walk {
    /// From cell index `index` (one division, at the start).
    fn from(rules: Rules, index: u32) -> Walk {
        Walk {
            rules,
            row: index / rules.cols(),
            col: index % rules.cols(),
        }
    }

    /// The bitboard bit of the current cell ([`Rules::bit`]).
    #[inline]
    fn bit(&self) -> u32 {
        self.col * self.rules.stride() + (self.rules.rows() - 1 - self.row)
    }

    /// On to the next cell.
    #[inline]
    fn advance(&mut self) {
        self.col += 1;
        if self.col == self.rules.cols() {
            self.col = 0;
            self.row += 1;
        }
    }
}

/// Adds bitboard bit `bit` to `player`'s marks on `board`.
#[inline]
fn put<const W: usize>(board: &mut Board<W>, bit: u32, player: Player) {
    match player {
        Player::X => board.x_mut().insert(bit),
        Player::O => board.o_mut().insert(bit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn some_rules() -> impl Iterator<Item = Rules> {
        [
            (1, 1),
            (1, 19),
            (19, 1),
            (3, 3),
            (6, 7),
            (4, 10),
            (15, 15),
            (19, 19),
        ]
        .into_iter()
        .map(|(rows, cols)| Rules::new(rows, cols, 1, false).unwrap())
    }

    #[test]
    fn the_walk_matches_square_at_and_bit() {
        for rules in some_rules() {
            for from in [0, rules.cells() / 2, rules.cells() - 1] {
                let mut walk = Walk::from(rules, from);
                for index in from..rules.cells() {
                    let square = rules.square_at(index).unwrap();
                    assert_eq!(walk.bit(), rules.bit(square), "{rules} {index}");
                    walk.advance();
                }
            }
        }
    }

    #[test]
    fn for_each_mark_matches_a_cell_by_cell_twin() {
        for rules in some_rules() {
            let mut board = Board::<6>::empty(rules).unwrap();
            for index in (0..rules.cells()).filter(|i| i % 3 != 0) {
                let player = if index % 7 < 3 { Player::X } else { Player::O };
                board.set(rules.square_at(index).unwrap(), Some(player));
            }
            let mut seen = [None; 361];
            for_each_mark(&board, |index, player| {
                assert_eq!(seen[index as usize], None);
                seen[index as usize] = Some(player);
            });
            for index in 0..rules.cells() {
                let square = rules.square_at(index).unwrap();
                assert_eq!(seen[index as usize], board.at(square), "{rules} {index}");
            }
        }
    }

    #[test]
    fn code_widths_are_the_largest_that_fit() {
        assert!(3u128.pow(Base3::MAX_CELLS) <= 1 << 64);
        assert!(3u128.pow(Base3::MAX_CELLS + 1) > 1 << 64);
        assert!(3u128.checked_pow(Base3Wide::MAX_CELLS).is_some());
        assert!(3u128.checked_pow(Base3Wide::MAX_CELLS + 1).is_none());
        assert!(Base4::WORDS as u32 * 64 >= 2 * 19 * 19);
        assert!((Base4::WORDS as u32 - 1) * 64 < 2 * 19 * 19);
        assert_eq!(BASE3_TABLE_BYTES, 41 * 8 + 81 * 16);
    }
}
