//! Sets of cells as 9-bit masks.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

use crate::Cell;

/// A set of cells: bit `i` is cell `i`, so `0b111` is the top row.
///
/// Only the low 9 bits are ever set; every constructor and operator keeps it that way.
///
/// ```
/// use tictactoe::{Bitboard, Cell};
/// let corners = Bitboard::from_bits(0b101_000_101).unwrap();
/// assert_eq!(corners.count(), 4);
/// assert!(corners.contains(Cell::new(8)?));
/// assert_eq!((!corners).count(), 5);
/// assert!(Bitboard::from_bits(0b111).unwrap().has_line());
/// # Ok::<(), tictactoe::CellError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bitboard(u16);

impl Bitboard {
    /// No cell.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All nine cells.
    pub const FULL: Bitboard = Bitboard(0x1ff);
    /// Number of distinct bitboards, `2^9`.
    pub const COUNT: usize = 512;

    /// The set with these bits, or `None` if a bit above 8 is set.
    #[must_use]
    pub const fn from_bits(bits: u16) -> Option<Bitboard> {
        if bits <= 0x1ff {
            Some(Bitboard(bits))
        } else {
            None
        }
    }

    /// The set with these bits, bits above 8 dropped.
    #[must_use]
    pub const fn from_bits_truncate(bits: u16) -> Bitboard {
        Bitboard(bits & 0x1ff)
    }

    /// The set holding just `cell`.
    #[must_use]
    pub const fn from_cell(cell: Cell) -> Bitboard {
        Bitboard(1 << cell.index())
    }

    /// The mask, `0..512`.
    #[must_use]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Whether `cell` is in the set.
    #[must_use]
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 >> cell.index() & 1 != 0
    }

    /// The set with `cell` added.
    #[must_use]
    pub const fn with(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 | 1 << cell.index())
    }

    /// The set with `cell` removed.
    #[must_use]
    pub const fn without(self, cell: Cell) -> Bitboard {
        Bitboard(self.0 & !(1 << cell.index()))
    }

    /// Number of cells in the set.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every cell of `other` is in `self`.
    #[must_use]
    pub const fn is_superset(self, other: Bitboard) -> bool {
        self.0 & other.0 == other.0
    }

    /// The lowest cell of the set, if any.
    #[must_use]
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::ALL[self.0.trailing_zeros() as usize])
        }
    }

    /// The cells in ascending order.
    #[must_use]
    pub const fn iter(self) -> Cells {
        Cells(self.0)
    }
}

/// The cells of a [`Bitboard`], ascending.
#[derive(Clone, Debug)]
pub struct Cells(u16);

impl Iterator for Cells {
    type Item = Cell;
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let cell = Cell::ALL[self.0.trailing_zeros() as usize];
        self.0 &= self.0 - 1;
        Some(cell)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cells {}

impl IntoIterator for Bitboard {
    type Item = Cell;
    type IntoIter = Cells;
    fn into_iter(self) -> Cells {
        self.iter()
    }
}

impl FromIterator<Cell> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Cell>>(cells: I) -> Bitboard {
        cells.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Cell> for Bitboard {
    fn from(cell: Cell) -> Bitboard {
        Bitboard::from_cell(cell)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & 0x1ff)
    }
}

/// Draws the set as a 3x3 grid of `#` and `.`.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#011b}", self.0)?;
        for row in 0..3 {
            f.write_str(if row == 0 { ": " } else { "/" })?;
            for column in 0..3 {
                let on = self.0 >> (row * 3 + column) & 1 != 0;
                f.write_str(if on { "#" } else { "." })?;
            }
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_line_matches_the_line_loop_on_every_set() {
        use crate::Line;
        for bits in 0..512u16 {
            let set = Bitboard(bits);
            let slow = Line::ALL.iter().any(|line| set.is_superset(line.cells()));
            assert_eq!(set.has_line(), slow, "{set:?}");
        }
    }

    #[test]
    fn iteration_and_collection_are_inverse() {
        for bits in 0..512u16 {
            let set = Bitboard(bits);
            assert_eq!(set.iter().len(), set.count() as usize);
            assert_eq!(set.iter().collect::<Bitboard>(), set);
            assert!(set.iter().all(|cell| set.contains(cell)));
            assert_eq!(!!set, set);
            assert_eq!((set | !set), Bitboard::FULL);
        }
        assert_eq!(Bitboard::from_bits(512), None);
        assert_eq!(Bitboard::from_bits_truncate(0xffff), Bitboard::FULL);
    }
}
