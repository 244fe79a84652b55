//! Base-4: two bits per cell, for boards of any size, in twelve 64-bit words.
//!
//! | bits | meaning |
//! |---|---|
//! | `2j, 2j + 1` of word `i / 32`, `j = i % 32` | cell `i = row × cols + col` (row 0 at the top): `00` empty, `01` X, `10` O (`11` never decodes) |
//! | `2 · cells..768` | zero |
//!
//! Range: `4^cells` patterns of `2 · cells` bits (19×19: 722), of which the `3^cells` without a
//! `11` pair decode. On a (3,3,3) board word 0 is the 3×3 core's
//! [`crate::encoding::Base4`] code.
//!
//! Why `[u64; 12]`: 361 cells need 722 bits, and 12 words (768 bits, 96 bytes) are the fewest
//! 64-bit words that hold them. A cell's two bits never straddle a word (32 cells a word), so
//! get and set of a cell are one shift and mask of one word, as the 3×3 article's
//! `(code >> 2i) & 3`; a fixed array keeps the type `Copy`, comparable and free of
//! allocation; and `u64` words are the unit of the bitboards, of files and of numpy. (A
//! `[u128; 6]` would only split every operation into two 64-bit halves again.) Small boards
//! use only the low words: `⌈cells / 32⌉` of them, the rest are zero.
//!
//! Cost: from a board, one or-shift per mark, reading the marks off the bitboards; to a
//! board, per word one AND finds the X cells and one shift-AND the O cells, one check finds
//! any `11`, and each mark is set by a bit trick; get and set by shift and mask.

use super::{DecodeError, Fill, digit, for_each_mark, mark, on_any, put};
use crate::Player;
use crate::mnk::{AnyBoard, Board, Rules, Square, WidthError};

/// The low bit of every 2-bit cell of a word: the X bits.
const EVEN: u64 = 0x5555_5555_5555_5555;

/// A board as two bits per cell: cell `i` (text order) in bits `2(i % 32)` (X) and
/// `2(i % 32) + 1` (O) of word `i / 32`.
///
/// ```
/// use tictactoe::mnk::encoding::Base4;
/// use tictactoe::mnk::{AnyBoard, Rules, Square};
/// use tictactoe::Player;
/// let mut board = AnyBoard::empty(Rules::GOMOKU);
/// board.set(Square::new(7, 7), Some(Player::X)); // cell 112: word 3, bits 32 and 33
/// board.set(Square::new(0, 1), Some(Player::O)); // cell 1: word 0, bits 2 and 3
/// let code = Base4::from_any(&board);
/// assert_eq!(code.words()[..4], [0b10 << 2, 0, 0, 0b01 << 32]);
/// assert_eq!(code.cell(Square::new(7, 7)), Some(Player::X));
/// let code = code.with(Square::new(7, 7), Some(Player::O));
/// assert_eq!(code.words()[3], 0b10 << 32);
/// assert_eq!(Base4::try_from_words(Rules::GOMOKU, *code.words())?.to_any().at(Square::new(7, 7)), Some(Player::O));
/// assert!(Base4::try_from_words(Rules::GOMOKU, [0b11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Base4 {
    rules: Rules,
    words: [u64; Base4::WORDS],
}

impl Base4 {
    /// Words of a code: `⌈2 · 361 / 64⌉ = 12` for 19×19, the largest board.
    pub const WORDS: usize = 12;
    /// Cells a word holds: 64 bits, two a cell.
    pub const CELLS_PER_WORD: u32 = 32;

    /// Bits of the code of a `rules` board: `2 · cells`.
    #[must_use]
    pub const fn bits(rules: Rules) -> u32 {
        2 * rules.cells()
    }

    /// Words a `rules` board uses: `⌈cells / 32⌉`; the others are zero.
    #[must_use]
    pub const fn used_words(rules: Rules) -> usize {
        rules.cells().div_ceil(Self::CELLS_PER_WORD) as usize
    }

    /// The code of a board: one or-shift per mark.
    #[must_use]
    pub fn from_board<const W: usize>(board: &Board<W>) -> Base4 {
        let mut words = [0u64; Base4::WORDS];
        for_each_mark(board, |index, player| {
            let pattern = u64::from(digit(Some(player)));
            words[(index / 32) as usize] |= pattern << (2 * (index % 32));
        });
        Base4 {
            rules: board.rules(),
            words,
        }
    }

    /// The code of a board of any width.
    #[must_use]
    pub fn from_any(board: &AnyBoard) -> Base4 {
        on_any!(board, b => Base4::from_board(b))
    }

    /// Decodes the words of a code of `rules`.
    ///
    /// # Errors
    /// [`DecodeError::Pattern11`] naming the first cell whose bits are `11`,
    /// [`DecodeError::PastTheBoard`] for a bit at `2 · cells` or above.
    pub fn try_from_words(rules: Rules, words: [u64; Base4::WORDS]) -> Result<Base4, DecodeError> {
        let bits = Self::bits(rules);
        for (i, &word) in words.iter().enumerate() {
            let start = 64 * i as u32;
            let past = if bits >= start + 64 {
                0
            } else if bits <= start {
                word
            } else {
                word >> (bits - start) << (bits - start)
            };
            if past != 0 {
                return Err(DecodeError::PastTheBoard {
                    bit: start + past.trailing_zeros(),
                    bits,
                });
            }
            let both = word & (word >> 1) & EVEN;
            if both != 0 {
                let index = 32 * i as u32 + both.trailing_zeros() / 2;
                return Err(DecodeError::Pattern11 {
                    square: square_at(rules, index),
                });
            }
        }
        Ok(Base4 { rules, words })
    }

    /// The words, cell `i` in bits `2(i % 32)..` of word `i / 32`.
    #[must_use]
    #[inline]
    pub const fn words(&self) -> &[u64; Base4::WORDS] {
        &self.words
    }

    /// The rules of the board.
    #[must_use]
    #[inline]
    pub const fn rules(&self) -> Rules {
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

    /// The mark at `square`: `words[i / 32] >> 2(i % 32) & 3` (`None` when empty or off the
    /// board).
    #[must_use]
    #[inline]
    pub const fn cell(&self, square: Square) -> Option<Player> {
        if !self.rules.contains(square) {
            return None;
        }
        let index = self.rules.index(square);
        mark((self.words[(index / 32) as usize] >> (2 * (index % 32)) & 3) as u32)
    }

    /// The code with `square` set to `mark`: the cell's two bits cleared and the new pattern
    /// or-ed in (unchanged when the square is off the board).
    #[must_use]
    #[inline]
    pub const fn with(mut self, square: Square, mark: Option<Player>) -> Base4 {
        if !self.rules.contains(square) {
            return self;
        }
        let index = self.rules.index(square);
        let (word, shift) = ((index / 32) as usize, 2 * (index % 32));
        self.words[word] = self.words[word] & !(3 << shift) | (digit(mark) as u64) << shift;
        self
    }

    /// Sets `square` to `mark` on the code; `false` (and no change) when the square is off
    /// the board.
    #[inline]
    pub fn set(&mut self, square: Square, mark: Option<Player>) -> bool {
        *self = self.with(square, mark);
        self.rules.contains(square)
    }
}

/// The square of cell index `index`, which the caller knows is on the board.
fn square_at(rules: Rules, index: u32) -> Square {
    match rules.square_at(index) {
        Some(square) => square,
        // Bits past the board are rejected before any cell pattern is read.
        None => unreachable!("cell {index} of a {rules} board"),
    }
}

impl Fill for Base4 {
    fn rules(&self) -> Rules {
        self.rules
    }

    fn fill<const W: usize>(&self, board: &mut Board<W>) {
        // Row by row: a row's 2 · cols ≤ 38 bits, read across at most two words, give its X
        // and O cells by one AND each; no division per mark.
        let rules = self.rules;
        let width = 2 * rules.cols();
        for row in 0..rules.rows() {
            let start = row * width;
            let (word, shift) = ((start / 64) as usize, start % 64);
            let mut window = self.words[word] >> shift;
            if shift + width > 64 {
                window |= self.words[word + 1] << (64 - shift);
            }
            window &= (1 << width) - 1;
            let up = rules.rows() - 1 - row;
            for (player, mut cells) in [(Player::X, window & EVEN), (Player::O, window >> 1 & EVEN)]
            {
                while cells != 0 {
                    put(
                        board,
                        cells.trailing_zeros() / 2 * rules.stride() + up,
                        player,
                    );
                    cells &= cells - 1;
                }
            }
        }
    }
}

impl TryFrom<(Rules, [u64; Base4::WORDS])> for Base4 {
    type Error = DecodeError;

    /// [`Base4::try_from_words`].
    fn try_from((rules, words): (Rules, [u64; Base4::WORDS])) -> Result<Base4, DecodeError> {
        Base4::try_from_words(rules, words)
    }
}
