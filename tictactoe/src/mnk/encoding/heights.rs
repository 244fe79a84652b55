//! The column-height key of a gravity board: per column its stones below a marker bit.
//!
//! | bits of column `col`: `col × (rows + 1) + up` | meaning |
//! |---|---|
//! | `up < h` | the stone `up` rows above the bottom: 1 X, 0 O |
//! | `up = h` | the marker: the column holds `h` stones (`0 ≤ h ≤ rows`) |
//! | `up > h` | zero |
//! | `cols × (rows + 1)..64 W` | zero |
//!
//! The key is `X + (X | O) + bottom`, the Connect Four key of Pons's solver with X in place of
//! the side to move (so the key does not depend on whose turn it is), and it uses the bitboard
//! layout of [`Rules::bit`]: the marker of a full column is its guard bit. For Connect Four
//! that layout is the solver's (`connect4`; the family's Connect Four room derives its bottom
//! row from [`Rules::CONNECT_FOUR`] and checks it equal to the solver's), so the key is
//! `connect4::Position::key` whenever X is to move (tested below), in
//! [`Rules::bits`]` = 49` bits of a `u64` ([`HeightKey<1>::code`]); any gravity board with
//! `cols × (rows + 1) ≤ 64` fits a `u64`, and larger ones take `W` words, up to 19 × 20 = 380
//! bits.
//!
//! Range: each column has `2^0 + 2^1 + … + 2^rows = 2^(rows + 1) − 1` keys, one per height
//! and stone pattern, so `(2^(rows + 1) − 1)^cols` keys decode (Connect Four: `127^7 ≈ 5.3 ×
//! 10^14` of `2^49 ≈ 5.6 × 10^14`). It holds exactly the boards without a floating mark: the
//! gravity boards a move sequence can stack, reachable or not.
//!
//! Cost: from a board, three shifts, ors and ANDs over the `W` words (no per-cell loop); to a
//! board, one shift and mask per column and one insert per stone; get and set of a cell read
//! the column's height from its highest bit (one leading-zero count) and change one or two bits.

use super::{DecodeError, EncodeError, Fill, on_any};
use crate::Player;
use crate::mnk::bits::{Bits, bottom_mask};
use crate::mnk::{AnyBoard, Board, Rules, Square, WidthError};

/// A gravity board as its column-height key: in each column of `rows + 1` bits, the stones
/// bottom up (1 X, 0 O) and a marker bit above them. `W = 1` is the `u64` key of boards with
/// `cols × (rows + 1) ≤ 64`, Connect Four among them.
///
/// ```
/// use tictactoe::mnk::encoding::{EncodeError, HeightKey};
/// use tictactoe::mnk::{Position, Rules, Square};
/// use tictactoe::Player;
/// let mut game = Position::<1>::new(Rules::CONNECT_FOUR)?;
/// for column in [3, 3, 4] {
///     game.play(column)?;
/// }
/// let mut key = HeightKey::from_board(&game.board())?;
/// // Columns of `stride` = rows + 1 = 7 bits: X, O, marker in column 3; X, marker in column 4;
/// // markers elsewhere.
/// let column = |col: u32, bits: u64| bits << (col * Rules::CONNECT_FOUR.stride());
/// let markers = [0, 1, 2, 5, 6].map(|col| column(col, 1)).iter().sum::<u64>();
/// assert_eq!(key.code(), markers | column(3, 0b101) | column(4, 0b11));
/// assert_eq!((key.height(3), key.cell(Square::new(4, 3))), (Some(2), Some(Player::O)));
/// key.set(Square::new(5, 0), Some(Player::O))?; // a stone into column 0
/// assert_eq!(key.height(0), Some(1));
/// assert_eq!(key.set(Square::new(0, 6), Some(Player::X)), Err(EncodeError::Floating { col: 6 }));
/// game.play(0)?;
/// assert_eq!(key.to_board()?, game.board());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct HeightKey<const W: usize> {
    rules: Rules,
    key: Bits<W>,
}

impl<const W: usize> HeightKey<W> {
    /// Bits of the key of a `rules` board: `cols × (rows + 1)`.
    #[must_use]
    pub const fn bits(rules: Rules) -> u32 {
        rules.bits()
    }

    /// How many keys decode: `(2^(rows + 1) − 1)^cols`, if it fits a `u128`.
    #[must_use]
    pub const fn count(rules: Rules) -> Option<u128> {
        let per_column = (1u128 << rules.stride()) - 1;
        per_column.checked_pow(rules.cols())
    }

    /// The key of a board: `X + (X | O) + bottom`, computed as `X | marker` with the marker
    /// the lowest empty cell of each column (or its guard bit when full).
    ///
    /// # Errors
    /// [`EncodeError::NotGravity`] for rules without gravity, [`EncodeError::Floating`] naming
    /// the first column with a mark above an empty cell.
    pub fn from_board(board: &Board<W>) -> Result<HeightKey<W>, EncodeError> {
        let rules = board.rules();
        if !rules.gravity() {
            return Err(EncodeError::NotGravity { rules });
        }
        let occupied = board.occupied();
        let supported = occupied.shl(1) | bottom_mask::<W>(rules);
        if let Some(bit) = occupied.and_not(supported).first() {
            return Err(EncodeError::Floating {
                col: bit / rules.stride(),
            });
        }
        Ok(HeightKey {
            rules,
            key: board.pieces(Player::X) | supported.and_not(occupied),
        })
    }

    /// The key of a board of any width, in `W` words.
    ///
    /// # Errors
    /// As [`from_board`](Self::from_board), and [`EncodeError::Width`] when `W` is too narrow
    /// for the rules.
    pub fn from_any(board: &AnyBoard) -> Result<HeightKey<W>, EncodeError> {
        HeightKey::from_board(&on_any!(board, b => b.widen::<W>()?))
    }

    /// Decodes a key of `rules`.
    ///
    /// # Errors
    /// [`DecodeError::Width`] when `W` is too narrow for the rules,
    /// [`DecodeError::NotGravity`] for rules without gravity, [`DecodeError::PastTheBoard`]
    /// for a bit past the last column, [`DecodeError::MissingMarker`] for a column without
    /// any bit set.
    pub fn try_from_words(rules: Rules, words: [u64; W]) -> Result<HeightKey<W>, DecodeError> {
        Board::<W>::empty(rules)?;
        if !rules.gravity() {
            return Err(DecodeError::NotGravity { rules });
        }
        let key = Bits(words);
        if let Some(bit) = key.and_not(Bits::low(rules.bits())).first() {
            return Err(DecodeError::PastTheBoard {
                bit,
                bits: rules.bits(),
            });
        }
        let key = HeightKey { rules, key };
        for col in 0..rules.cols() {
            if key.column(col) == 0 {
                return Err(DecodeError::MissingMarker { col });
            }
        }
        Ok(key)
    }

    /// The key's words.
    #[must_use]
    #[inline]
    pub const fn words(&self) -> [u64; W] {
        self.key.0
    }

    /// The key as a set of bits.
    #[must_use]
    #[inline]
    pub const fn key(&self) -> Bits<W> {
        self.key
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
    /// [`WidthError`] never for the `W` of the key; the signature matches the other codes.
    pub fn to_board(&self) -> Result<Board<W>, WidthError> {
        self.board()
    }

    /// The board, in the narrowest width.
    #[must_use]
    pub fn to_any(&self) -> AnyBoard {
        self.any()
    }

    /// The `rows + 1` bits of column `col`, in the low bits of a word.
    #[inline]
    fn column(&self, col: u32) -> u64 {
        let stride = self.rules.stride();
        (self.key.shr(col * stride) & Bits::low(stride)).0[0]
    }

    /// Stones in column `col` (0 at the left), from the marker; `None` past the last column.
    #[must_use]
    #[inline]
    pub fn height(&self, col: u32) -> Option<u32> {
        (col < self.rules.cols()).then(|| 63 - self.column(col).leading_zeros())
    }

    /// The mark at `square`: below the column's marker, its bit (1 X, 0 O); at or above it,
    /// `None`, as off the board.
    #[must_use]
    #[inline]
    pub fn cell(&self, square: Square) -> Option<Player> {
        if !self.rules.contains(square) {
            return None;
        }
        let column = self.column(square.col());
        let up = self.rules.rows() - 1 - square.row();
        if column >> up > 1 {
            Some(if column >> up & 1 == 1 {
                Player::X
            } else {
                Player::O
            })
        } else {
            None
        }
    }

    /// Sets `square` to `mark` on the key: a stone on top of its column moves the marker up,
    /// emptying the top stone moves it down, a stone below the top changes its bit.
    ///
    /// # Errors
    /// [`EncodeError::Floating`] (and no change) for a mark above the lowest empty cell or for
    /// emptying a cell below the top stone, [`EncodeError::OffBoard`] for a square off the
    /// board.
    pub fn set(&mut self, square: Square, mark: Option<Player>) -> Result<(), EncodeError> {
        let rules = self.rules;
        if !rules.contains(square) {
            return Err(EncodeError::OffBoard { square, rules });
        }
        let col = square.col();
        let column = self.column(col);
        let height = 63 - column.leading_zeros();
        let up = rules.rows() - 1 - square.row();
        let below = column & ((1 << up) - 1);
        let stone = |player| u64::from(player == Player::X) << up;
        let new = match mark {
            Some(player) if up < height => column & !(1 << up) | stone(player),
            Some(player) if up == height => below | stone(player) | 1 << (up + 1),
            None if up + 1 == height => below | 1 << up,
            None if up >= height => column,
            _ => return Err(EncodeError::Floating { col }),
        };
        let shift = col * rules.stride();
        let mut word = Bits::<W>::EMPTY;
        word.0[0] = new;
        self.key = self.key.and_not(Bits::low(rules.stride()).shl(shift)) | word.shl(shift);
        Ok(())
    }

    /// The key with `square` set to `mark` (see [`set`](Self::set)).
    ///
    /// # Errors
    /// As [`set`](Self::set).
    pub fn with(
        mut self,
        square: Square,
        mark: Option<Player>,
    ) -> Result<HeightKey<W>, EncodeError> {
        self.set(square, mark)?;
        Ok(self)
    }
}

impl HeightKey<1> {
    /// The key as a `u64` (Connect Four: below `2^49`).
    #[must_use]
    #[inline]
    pub const fn code(&self) -> u64 {
        self.key.0[0]
    }

    /// Decodes a `u64` key of `rules` (see [`try_from_words`](Self::try_from_words)).
    ///
    /// # Errors
    /// As [`try_from_words`](Self::try_from_words); [`DecodeError::Width`] when
    /// `cols × (rows + 1) > 64`.
    pub fn try_from_code(rules: Rules, code: u64) -> Result<HeightKey<1>, DecodeError> {
        HeightKey::try_from_words(rules, [code])
    }
}

impl<const W: usize> Fill for HeightKey<W> {
    fn rules(&self) -> Rules {
        self.rules
    }

    fn fill<const V: usize>(&self, board: &mut Board<V>) {
        let stride = self.rules.stride();
        for col in 0..self.rules.cols() {
            let column = self.column(col);
            let height = 63 - column.leading_zeros();
            for up in 0..height {
                let bit = col * stride + up;
                if column >> up & 1 == 1 {
                    board.x_mut().insert(bit);
                } else {
                    board.o_mut().insert(bit);
                }
            }
        }
    }
}

impl<const W: usize> TryFrom<(Rules, [u64; W])> for HeightKey<W> {
    type Error = DecodeError;

    /// [`HeightKey::try_from_words`].
    fn try_from((rules, words): (Rules, [u64; W])) -> Result<HeightKey<W>, DecodeError> {
        HeightKey::try_from_words(rules, words)
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::HeightKey;
    use crate::connect4::{self, Column};
    use crate::mnk::connect_four::BOTTOM;
    use crate::mnk::{Position, Rules};

    /// Every Connect Four game of up to 6 plies, played on both engines: the family's key is
    /// the solver's key when X is to move, and when O is the solver's key read on the same bits
    /// (X's stones the occupied cells that are not the mover's); the empty board's key is the
    /// bottom row of the shared layout.
    #[test]
    fn connect_four_keys_are_the_solvers_on_the_shared_layout() {
        let family = Position::<1>::new(Rules::CONNECT_FOUR).unwrap();
        let key = HeightKey::from_board(&family.board()).unwrap();
        assert_eq!(key.code(), BOTTOM);
        let mut stack = vec![(family, connect4::Position::default())];
        let mut checked = 0;
        while let Some((family, solver)) = stack.pop() {
            let key = HeightKey::from_board(&family.board()).unwrap().code();
            // The solver's key is `mover + occupied + BOTTOM`, read back on the family's
            // occupied word: it agrees only if both engines put every stone on the same bit.
            let occupied = family.board().occupied().0[0];
            let mover = solver.key() - occupied - BOTTOM;
            let x = if solver.moves() % 2 == 0 {
                mover
            } else {
                occupied ^ mover
            };
            assert_eq!(x & !occupied, 0, "{solver:?}");
            assert_eq!(key, x + occupied + BOTTOM, "{solver:?}");
            if solver.moves() % 2 == 0 {
                assert_eq!(key, solver.key());
            }
            checked += 1;
            if solver.moves() == 6 {
                continue;
            }
            for col in 0..7 {
                let column = Column::new(col).unwrap();
                if solver.can_play(column) {
                    let mut next = family;
                    next.play(col).unwrap();
                    stack.push((next, solver.play(column).unwrap()));
                }
            }
        }
        assert_eq!(checked, 1 + 7 + 49 + 343 + 2401 + 16807 + 117_649);
    }
}
