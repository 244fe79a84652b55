//! The raw board: any assignment of X, O or empty to the nine cells.

use core::fmt;
use core::str::FromStr;

use crate::{Bitboard, Cell, Line, Player};

/// Any of the 3^9 = 19,683 grids, reachable or not: one [`Bitboard`] per player, never
/// overlapping.
///
/// A `Board` is what text, codes and users hand in; a [`Position`](crate::Position) is a board
/// that passed validation.
///
/// ```
/// use tictactoe::{Board, Cell, Player};
/// let board: Board = "X.O/..O/.X.".parse()?;
/// assert_eq!(board.at(Cell::new(2).unwrap()), Some(Player::O));
/// assert_eq!(board.count(Player::X), 2);
/// assert_eq!(board.to_string(), "X.O..O.X.");
/// assert_eq!(format!("{board:#}"), "X . O\n. . O\n. X .");
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Board {
    x: Bitboard,
    o: Bitboard,
}

/// Two bitboards that claim the same cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("X and O both hold cell {cell}")]
pub struct OverlapError {
    /// The lowest cell claimed twice.
    pub cell: Cell,
}

/// Text that is not a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseBoardError {
    /// The text does not hold exactly nine cells.
    #[error("wrong length: {cells} cells, expected 9 (X, O or . each, `/` allowed between rows)")]
    WrongLength {
        /// How many cells the text holds.
        cells: usize,
    },
    /// A character that is not a cell, or a `/` that is not between rows.
    #[error("bad character {ch:?} at index {index}: expected X, O or . (and `/` between rows)")]
    BadChar {
        /// Index of the character in the text, counting characters from 0.
        index: usize,
        /// The character.
        ch: char,
    },
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board {
        x: Bitboard::EMPTY,
        o: Bitboard::EMPTY,
    };
    /// Number of grids, `3^9`.
    pub const COUNT: usize = 19_683;

    /// The board with these cells for X and O, or the lowest cell they share.
    ///
    /// # Errors
    /// [`OverlapError`] naming the lowest cell both sets hold.
    #[inline]
    pub const fn from_bitboards(x: Bitboard, o: Bitboard) -> Result<Board, OverlapError> {
        match (Bitboard::from_bits_truncate(x.bits() & o.bits())).first() {
            None => Ok(Board { x, o }),
            Some(cell) => Err(OverlapError { cell }),
        }
    }

    /// The board from two sets the caller knows to be disjoint.
    #[inline]
    pub(crate) const fn from_disjoint(x: Bitboard, o: Bitboard) -> Board {
        debug_assert!(x.bits() & o.bits() == 0);
        Board { x, o }
    }

    /// The cells of X.
    #[must_use]
    #[inline]
    pub const fn x(self) -> Bitboard {
        self.x
    }

    /// The cells of O.
    #[must_use]
    #[inline]
    pub const fn o(self) -> Bitboard {
        self.o
    }

    /// The cells of `player`.
    #[must_use]
    #[inline]
    pub const fn pieces(self, player: Player) -> Bitboard {
        match player {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    /// The cells holding a mark.
    #[must_use]
    #[inline]
    pub const fn occupied(self) -> Bitboard {
        Bitboard::from_bits_truncate(self.x.bits() | self.o.bits())
    }

    /// The empty cells.
    #[must_use]
    #[inline]
    pub const fn empty_cells(self) -> Bitboard {
        Bitboard::from_bits_truncate(!(self.x.bits() | self.o.bits()))
    }

    /// Who holds `cell`, if anyone.
    #[must_use]
    #[inline]
    pub const fn at(self, cell: Cell) -> Option<Player> {
        if self.x.contains(cell) {
            Some(Player::X)
        } else if self.o.contains(cell) {
            Some(Player::O)
        } else {
            None
        }
    }

    /// The board with `cell` set to `mark` (`None` empties it).
    #[must_use]
    #[inline]
    pub const fn with(self, cell: Cell, mark: Option<Player>) -> Board {
        let (x, o) = (self.x.without(cell), self.o.without(cell));
        match mark {
            None => Board { x, o },
            Some(Player::X) => Board { x: x.with(cell), o },
            Some(Player::O) => Board { x, o: o.with(cell) },
        }
    }

    /// Sets `cell` to `mark` (`None` empties it).
    #[inline]
    pub fn set(&mut self, cell: Cell, mark: Option<Player>) {
        *self = self.with(cell, mark);
    }

    /// Number of marks of `player`.
    #[must_use]
    #[inline]
    pub const fn count(self, player: Player) -> u32 {
        self.pieces(player).count()
    }

    /// Number of marks on the board.
    #[must_use]
    #[inline]
    pub const fn marks(self) -> u32 {
        // The sets are disjoint: one count of their union, not two.
        self.occupied().count()
    }

    /// Whether all nine cells are taken: a compare, not a count.
    #[must_use]
    #[inline]
    pub const fn is_full(self) -> bool {
        self.x.bits() | self.o.bits() == Bitboard::FULL.bits()
    }

    /// Whether `player` holds a complete line.
    #[must_use]
    #[inline]
    pub const fn has_line(self, player: Player) -> bool {
        self.pieces(player).has_line()
    }

    /// Every complete line on the board (of either player), in [`Line::ALL`] order.
    #[inline]
    pub fn lines(self) -> impl Iterator<Item = Line> {
        Line::ALL.into_iter().filter(move |line| {
            self.x.is_superset(line.cells()) || self.o.is_superset(line.cells())
        })
    }

    /// All 19,683 grids, in increasing order of their base-3 code.
    pub fn all() -> impl ExactSizeIterator<Item = Board> + Clone {
        (0..Board::COUNT as u16).map(from_base3_code)
    }

    /// The board as nine characters without separators: `X.O..O.X.`.
    ///
    /// Two table reads and a few adds, without a branch: `ttt unpack` and `ttt analyze` write
    /// millions of boards a second through it.
    #[must_use]
    #[inline]
    pub fn to_chars(self) -> [u8; 9] {
        let text = DOTS
            + SPREAD[self.x.bits() as usize] * u128::from(b'X' - b'.')
            + SPREAD[self.o.bits() as usize] * u128::from(b'O' - b'.');
        let bytes = text.to_le_bytes();
        let mut chars = [0; 9];
        chars.copy_from_slice(&bytes[..9]);
        chars
    }

    /// The board of nine plain cells (`X`, `O`, `.`, either case, no slashes), the inverse of
    /// [`to_chars`](Self::to_chars); `None` for any other bytes, which
    /// [`from_str`](core::str::FromStr::from_str) explains.
    ///
    /// ```
    /// use tictactoe::Board;
    /// let board = Board::from_chars(b"X.O..o.x.").unwrap();
    /// assert_eq!(&board.to_chars(), b"X.O..O.X.");
    /// assert_eq!(Board::from_chars(b"X.O..O.X?"), None);
    /// ```
    #[must_use]
    #[inline]
    pub fn from_chars(cells: &[u8; 9]) -> Option<Board> {
        // Branch-free: the characters of a file of random boards defeat branch prediction.
        let (mut x, mut o, mut bad) = (0u16, 0u16, false);
        for (i, &ch) in cells.iter().enumerate() {
            let (is_x, is_o) = (ch | 0x20 == b'x', ch | 0x20 == b'o');
            x |= u16::from(is_x) << i;
            o |= u16::from(is_o) << i;
            bad |= !(is_x | is_o | (ch == b'.'));
        }
        (!bad).then(|| {
            Board::from_disjoint(
                Bitboard::from_bits_truncate(x),
                Bitboard::from_bits_truncate(o),
            )
        })
    }
}

/// Nine `.` bytes, little-endian: the text of the empty board.
const DOTS: u128 = u128::from_le_bytes([
    b'.', b'.', b'.', b'.', b'.', b'.', b'.', b'.', b'.', 0, 0, 0, 0, 0, 0, 0,
]);

/// `SPREAD[set]`: byte `i` is 1 for each cell `i` of the 9-bit set, little-endian, so that a
/// multiple of it adds to the cells' bytes without carries (8 KiB).
static SPREAD: [u128; 512] = {
    let mut table = [0u128; 512];
    let mut set = 1;
    while set < 512 {
        // Cell 0's byte, under the bytes of the other cells: those of `set >> 1`, a byte up.
        table[set] = table[set >> 1] << 8 | (set & 1) as u128;
        set += 1;
    }
    table
};

#[inline]
const fn mark_char(mark: Option<Player>) -> char {
    match mark {
        None => '.',
        Some(player) => player.to_char(),
    }
}

/// Accepts nine cells `X`, `O`, `.` (lowercase `x`, `o` too), with an optional `/` after the
/// third and sixth cells.
impl FromStr for Board {
    type Err = ParseBoardError;

    fn from_str(text: &str) -> Result<Board, ParseBoardError> {
        // Nine plain cells, the usual form, without a branch per cell.
        match text.as_bytes().try_into().ok().and_then(Board::from_chars) {
            Some(board) => Ok(board),
            None => parse_cells(text),
        }
    }
}

/// [`Board::from_str`] character by character: every form, and the reason for an error.
fn parse_cells(text: &str) -> Result<Board, ParseBoardError> {
    let mut board = Board::EMPTY;
    let mut cells = 0usize;
    let mut last_was_slash = false;
    for (index, ch) in text.chars().enumerate() {
        let mark = match ch {
            'X' | 'x' => Some(Player::X),
            'O' | 'o' => Some(Player::O),
            '.' => None,
            '/' if (cells == 3 || cells == 6) && !last_was_slash => {
                last_was_slash = true;
                continue;
            }
            _ => return Err(ParseBoardError::BadChar { index, ch }),
        };
        last_was_slash = false;
        if let Some(cell) = Cell::ALL.get(cells) {
            board.set(*cell, mark);
        }
        cells += 1;
    }
    if cells == 9 {
        Ok(board)
    } else {
        Err(ParseBoardError::WrongLength { cells })
    }
}

/// `{}` prints the nine characters (`X.O..O.X.`); `{:#}` draws three rows separated by
/// spaces and newlines.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cell in Cell::ALL {
            if f.alternate() && cell.index() > 0 {
                f.write_str(if cell.column() == 0 { "\n" } else { " " })?;
            }
            write!(f, "{}", mark_char(self.at(cell)))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(")?;
        for cell in Cell::ALL {
            if cell.index() > 0 && cell.column() == 0 {
                f.write_str("/")?;
            }
            write!(f, "{}", mark_char(self.at(cell)))?;
        }
        f.write_str(")")
    }
}

/// `3^i` for `i` in `0..9`.
const POW3: [u16; 9] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/// The base-3 code of a board, digit by digit: the one board-to-base-3 conversion of the
/// compile-time tables (the solver's, the packed arrays', the base-3 status table's).
/// Run-time code uses `encoding::Base3::from_board`; a test holds the two equal on every grid.
#[inline]
pub(crate) const fn base3_code(board: Board) -> u16 {
    let (x, o) = (board.x().bits(), board.o().bits());
    let (mut code, mut i) = (0, 0);
    while i < 9 {
        code += ((x >> i & 1) + 2 * (o >> i & 1)) * POW3[i];
        i += 1;
    }
    code
}

/// The board of a base-3 code below `3^9`, digit by digit (digit 1 is X, 2 is O): the
/// compile-time twin of [`Base3::to_board`](crate::encoding::Base3::to_board), tested equal on every code.
pub(crate) const fn from_base3_code(code: u16) -> Board {
    let (mut rest, mut x, mut o, mut i) = (code, 0u16, 0u16, 0);
    while i < 9 {
        match rest % 3 {
            1 => x |= 1 << i,
            2 => o |= 1 << i,
            _ => {}
        }
        rest /= 3;
        i += 1;
    }
    Board::from_disjoint(
        Bitboard::from_bits_truncate(x),
        Bitboard::from_bits_truncate(o),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grid_prints_and_parses_back() {
        let mut seen = std::collections::HashSet::new();
        for board in Board::all() {
            assert!(seen.insert(board));
            let text = board.to_string();
            assert_eq!(text.parse::<Board>(), Ok(board));
            assert_eq!(text.to_lowercase().parse::<Board>(), Ok(board));
            let slashed = format!("{}/{}/{}", &text[..3], &text[3..6], &text[6..]);
            assert_eq!(slashed.parse::<Board>(), Ok(board));
            assert_eq!(text.as_bytes(), board.to_chars());
        }
        assert_eq!(seen.len(), 19_683);
    }

    /// The branch-free parse of nine plain cells is the character-by-character parser's answer
    /// on every grid in each case, and on every byte in every place of one.
    #[test]
    fn plain_cells_parse_as_the_parser_does() {
        for board in Board::all() {
            let upper = board.to_chars();
            let lower = upper.map(|ch| ch.to_ascii_lowercase());
            for cells in [upper, lower] {
                assert_eq!(Board::from_chars(&cells), Some(board));
                let text = core::str::from_utf8(&cells).unwrap();
                assert_eq!(parse_cells(text), Ok(board));
            }
        }
        for at in 0..9 {
            for byte in 0..=u8::MAX {
                let mut cells = *b"X.O..O.X.";
                cells[at] = byte;
                let slow = core::str::from_utf8(&cells).ok().map(parse_cells);
                assert_eq!(
                    Board::from_chars(&cells).map(Ok),
                    slow.filter(Result::is_ok)
                );
                if let Some(slow) = slow {
                    let text = core::str::from_utf8(&cells).unwrap();
                    assert_eq!(text.parse(), slow, "{cells:?}");
                }
            }
        }
    }

    #[test]
    fn parse_errors_name_the_character_or_the_length() {
        use ParseBoardError::*;
        assert_eq!("X.O..O.X".parse::<Board>(), Err(WrongLength { cells: 8 }));
        assert_eq!(
            "X.O..O.X..".parse::<Board>(),
            Err(WrongLength { cells: 10 })
        );
        assert_eq!("".parse::<Board>(), Err(WrongLength { cells: 0 }));
        assert_eq!(
            "X.O.Z.O.X".parse::<Board>(),
            Err(BadChar { index: 4, ch: 'Z' })
        );
        assert_eq!(
            "X./O..O.X.".parse::<Board>(),
            Err(BadChar { index: 2, ch: '/' })
        );
        assert_eq!(
            "X.O//..O.X.".parse::<Board>(),
            Err(BadChar { index: 4, ch: '/' })
        );
        assert_eq!(
            "X.O..O.X./".parse::<Board>(),
            Err(BadChar { index: 9, ch: '/' })
        );
        assert_eq!(
            " X.O..O.X.".parse::<Board>(),
            Err(BadChar { index: 0, ch: ' ' })
        );
        assert_eq!(
            "X.O..O.Xé".parse::<Board>(),
            Err(BadChar { index: 8, ch: 'é' })
        );
    }

    #[test]
    fn overlapping_bitboards_are_rejected() {
        let x = Bitboard::from_bits(0b11).unwrap();
        let o = Bitboard::from_bits(0b110).unwrap();
        assert_eq!(
            Board::from_bitboards(x, o),
            Err(OverlapError {
                cell: Cell::new(1).unwrap()
            })
        );
    }
}
