//! The nine cells of the board.

use core::fmt;

/// One of the nine cells, numbered row-major from the top left:
///
/// ```text
/// 0 1 2
/// 3 4 5
/// 6 7 8
/// ```
///
/// ```
/// use tictactoe::Cell;
/// let centre = Cell::new(4)?;
/// assert_eq!((centre.row(), centre.column()), (1, 1));
/// assert!(Cell::new(9).is_err());
/// # Ok::<(), tictactoe::CellError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

/// A cell index outside `0..9`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no such cell {0}: cells are 0 to 8")]
pub struct CellError(pub usize);

impl Cell {
    /// All nine cells in index order.
    pub const ALL: [Cell; 9] = {
        let mut all = [Cell(0); 9];
        let mut i = 0;
        while i < 9 {
            all[i] = Cell(i as u8);
            i += 1;
        }
        all
    };

    /// The cell with this index, or an error if `index >= 9`.
    ///
    /// # Errors
    /// [`CellError`] when `index` is 9 or more.
    #[inline]
    pub const fn new(index: u8) -> Result<Cell, CellError> {
        if index < 9 {
            Ok(Cell(index))
        } else {
            Err(CellError(index as usize))
        }
    }

    /// The cell of an index the caller knows to be below 9 (debug builds check).
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Cell {
        debug_assert!(index < 9);
        Cell(index)
    }

    /// The cell at `row` and `column` (both `0..3`).
    ///
    /// # Errors
    /// [`CellError`] when `row` or `column` is 3 or more.
    #[inline]
    pub const fn at(row: u8, column: u8) -> Result<Cell, CellError> {
        if row < 3 && column < 3 {
            Ok(Cell(row * 3 + column))
        } else {
            Err(CellError(row as usize * 3 + column as usize))
        }
    }

    /// The cell's index, `0..9`.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The row, `0..3`, top first.
    #[must_use]
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 3
    }

    /// The column, `0..3`, left first.
    #[must_use]
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 % 3
    }
}

impl TryFrom<usize> for Cell {
    type Error = CellError;
    #[inline]
    fn try_from(index: usize) -> Result<Cell, CellError> {
        if index < 9 {
            Ok(Cell(index as u8))
        } else {
            Err(CellError(index))
        }
    }
}

impl TryFrom<u8> for Cell {
    type Error = CellError;
    #[inline]
    fn try_from(index: u8) -> Result<Cell, CellError> {
        Cell::new(index)
    }
}

impl From<Cell> for usize {
    #[inline]
    fn from(cell: Cell) -> usize {
        cell.index()
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cell({})", self.0)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_rows_and_columns_agree() {
        for (i, cell) in Cell::ALL.into_iter().enumerate() {
            assert_eq!(cell.index(), i);
            assert_eq!(Cell::at(cell.row(), cell.column()), Ok(cell));
        }
        assert_eq!(Cell::try_from(9usize), Err(CellError(9)));
        assert!(Cell::at(3, 0).is_err());
    }
}
