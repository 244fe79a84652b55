//! The eight winning lines.

use crate::{Bitboard, Cell};

/// One of the eight lines: rows top to bottom, columns left to right, then the diagonals
/// `0-4-8` and `2-4-6`.
///
/// ```
/// use tictactoe::Line;
/// assert_eq!(Line::ALL[0].cells().bits(), 0b111);
/// assert_eq!(Line::ALL[7].to_cells().map(|c| c.index()), [2, 4, 6]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Line(u8);

const LINE_CELLS: [[u8; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl Line {
    /// All eight lines: rows, columns, diagonals.
    pub const ALL: [Line; 8] = [
        Line(0),
        Line(1),
        Line(2),
        Line(3),
        Line(4),
        Line(5),
        Line(6),
        Line(7),
    ];

    /// The line's index in [`Line::ALL`].
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The three cells as a set.
    #[must_use]
    #[inline]
    pub const fn cells(self) -> Bitboard {
        let [a, b, c] = LINE_CELLS[self.0 as usize];
        Bitboard::from_bits_truncate(1 << a | 1 << b | 1 << c)
    }

    /// The three cells, ascending.
    #[must_use]
    #[inline]
    pub const fn to_cells(self) -> [Cell; 3] {
        let [a, b, c] = LINE_CELLS[self.0 as usize];
        [
            Cell::ALL[a as usize],
            Cell::ALL[b as usize],
            Cell::ALL[c as usize],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_masks_of_bitboard_are_the_lines() {
        for (line, mask) in Line::ALL.iter().zip(crate::bitboard::LINE_MASKS) {
            assert_eq!(line.cells().bits(), mask);
        }
    }
}
