//! The per-player bitboard pair: X's and O's [`Bits`] exported as words.
//!
//! | bits of each `[u64; W]` | meaning |
//! |---|---|
//! | `col × (rows + 1) + up` | the cell `up` rows above the bottom of column `col` ([`Rules::bit`]) |
//! | `col × (rows + 1) + rows` | the guard bit above column `col`: zero |
//! | `cols × (rows + 1)..64 W` | zero |
//!
//! Range: `2 · cols · (rows + 1)` significant bits (Connect Four 2 × 49, gomoku 2 × 240,
//! 19×19 2 × 380); the `3^cells` pairs that do not overlap and hold only cells decode. This is
//! the layout the line checks work on, so the code is the board itself: encoding and decoding
//! copy words and decoding checks three masks; get and set are one bit of each array.

use super::{DecodeError, EncodeError, Fill, on_any};
use crate::Player;
use crate::mnk::bits::{Bits, cell_mask};
use crate::mnk::{AnyBoard, Board, Rules, Square};

/// A board as one bitboard per player, in `W` 64-bit words each, in the layout of
/// [`Rules::bit`] (column-major from the left, each column bottom to top, a guard bit above).
///
/// ```
/// use tictactoe::mnk::encoding::{BitboardPair, DecodeError};
/// use tictactoe::mnk::{Board, Rules, Square};
/// use tictactoe::Player;
/// let board = Board::<1>::parse(Rules::TIC_TAC_TOE, "X../.../..O")?;
/// let pair = BitboardPair::from_board(&board);
/// // Column 0 is bits 0..3 bottom up, its guard bit 3; column 2 starts at bit 8.
/// assert_eq!(pair.words(), ([1 << 2], [1 << 8]));
/// assert_eq!(pair.cell(Square::new(2, 2)), Some(Player::O));
/// assert_eq!(BitboardPair::try_from_words(Rules::TIC_TAC_TOE, [1 << 2], [1 << 8])?.to_board(), board);
/// assert_eq!(
///     BitboardPair::<1>::try_from_words(Rules::TIC_TAC_TOE, [1 << 3], [0]),
///     Err(DecodeError::NotACell { player: Player::X, bit: 3 }),
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitboardPair<const W: usize> {
    board: Board<W>,
}

impl<const W: usize> BitboardPair<W> {
    /// Bits of the code of a `rules` board: two bitboards of `cols × (rows + 1)` bits.
    #[must_use]
    pub const fn bits(rules: Rules) -> u32 {
        2 * rules.bits()
    }

    /// The pair of a board: its two bitboards.
    #[must_use]
    #[inline]
    pub const fn from_board(board: &Board<W>) -> BitboardPair<W> {
        BitboardPair { board: *board }
    }

    /// The pair of a board of any width, in `W` words.
    ///
    /// # Errors
    /// [`EncodeError::Width`] when `W` is too narrow for the rules.
    pub fn from_any(board: &AnyBoard) -> Result<BitboardPair<W>, EncodeError> {
        Ok(BitboardPair {
            board: on_any!(board, b => b.widen::<W>()?),
        })
    }

    /// Decodes X's and O's words for `rules`.
    ///
    /// # Errors
    /// [`DecodeError::Width`] when `W` is too narrow for the rules, [`DecodeError::NotACell`]
    /// for a guard bit or a bit past the last column, [`DecodeError::Overlap`] naming the
    /// first cell both hold.
    pub fn try_from_words(
        rules: Rules,
        x: [u64; W],
        o: [u64; W],
    ) -> Result<BitboardPair<W>, DecodeError> {
        let empty = Board::<W>::empty(rules)?;
        let (x, o) = (Bits(x), Bits(o));
        let cells = cell_mask::<W>(rules);
        for (player, bits) in [(Player::X, x), (Player::O, o)] {
            if let Some(bit) = bits.and_not(cells).first() {
                return Err(DecodeError::NotACell { player, bit });
            }
        }
        if let Some(bit) = (x & o).first() {
            return Err(DecodeError::Overlap {
                square: square_of_bit(rules, bit),
            });
        }
        let mut board = empty;
        *board.x_mut() = x;
        *board.o_mut() = o;
        Ok(BitboardPair { board })
    }

    /// X's and O's words.
    #[must_use]
    #[inline]
    pub const fn words(&self) -> ([u64; W], [u64; W]) {
        (
            self.board.pieces(Player::X).0,
            self.board.pieces(Player::O).0,
        )
    }

    /// The cells of `player`.
    #[must_use]
    #[inline]
    pub const fn pieces(&self, player: Player) -> Bits<W> {
        self.board.pieces(player)
    }

    /// The rules of the board.
    #[must_use]
    #[inline]
    pub const fn rules(&self) -> Rules {
        self.board.rules()
    }

    /// The board.
    #[must_use]
    #[inline]
    pub const fn to_board(&self) -> Board<W> {
        self.board
    }

    /// The board, in the narrowest width.
    #[must_use]
    pub fn to_any(&self) -> AnyBoard {
        self.any()
    }

    /// The mark at `square`: bit [`Rules::bit`] of X's words, else of O's (`None` when
    /// empty or off the board).
    #[must_use]
    #[inline]
    pub fn cell(&self, square: Square) -> Option<Player> {
        self.board.at(square)
    }

    /// The pair with `square` set to `mark`: its bit cleared in both and set in `mark`'s
    /// (unchanged when the square is off the board).
    #[must_use]
    #[inline]
    pub fn with(mut self, square: Square, mark: Option<Player>) -> BitboardPair<W> {
        self.set(square, mark);
        self
    }

    /// Sets `square` to `mark`; `false` (and no change) when the square is off the board.
    #[inline]
    pub fn set(&mut self, square: Square, mark: Option<Player>) -> bool {
        self.board.set(square, mark)
    }
}

/// The square of bit `bit`, which the caller knows is a cell.
fn square_of_bit(rules: Rules, bit: u32) -> Square {
    match rules.square_of_bit(bit) {
        Some(square) => square,
        // Bits that are not cells are rejected before overlaps are looked for.
        None => unreachable!("bit {bit} of a {rules} board"),
    }
}

impl<const W: usize> Fill for BitboardPair<W> {
    fn rules(&self) -> Rules {
        self.board.rules()
    }

    fn fill<const V: usize>(&self, board: &mut Board<V>) {
        for (player, bits) in [
            (Player::X, self.board.pieces(Player::X)),
            (Player::O, self.board.pieces(Player::O)),
        ] {
            for bit in bits.iter() {
                match player {
                    Player::X => board.x_mut().insert(bit),
                    Player::O => board.o_mut().insert(bit),
                }
            }
        }
    }
}

impl<const W: usize> From<Board<W>> for BitboardPair<W> {
    fn from(board: Board<W>) -> BitboardPair<W> {
        BitboardPair::from_board(&board)
    }
}

impl<const W: usize> TryFrom<(Rules, [u64; W], [u64; W])> for BitboardPair<W> {
    type Error = DecodeError;

    /// [`BitboardPair::try_from_words`].
    fn try_from(
        (rules, x, o): (Rules, [u64; W], [u64; W]),
    ) -> Result<BitboardPair<W>, DecodeError> {
        BitboardPair::try_from_words(rules, x, o)
    }
}
