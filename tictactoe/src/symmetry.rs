//! The eight symmetries of the square (the dihedral group D4) acting on cells, sets and boards.

use crate::choice::choice_enum;
use crate::{Bitboard, Board, Cell};

choice_enum! {
/// A symmetry of the square.
///
/// | symmetry | maps cell (row, column) to | fixed cells |
/// |---|---|---|
/// | `identity` | (r, c) | all |
/// | `rot90` (clockwise) | (c, 2 - r) | 4 |
/// | `rot180` | (2 - r, 2 - c) | 4 |
/// | `rot270` (clockwise) | (2 - c, r) | 4 |
/// | `flip-h` (mirror left-right) | (r, 2 - c) | 1, 4, 7 |
/// | `flip-v` (mirror top-bottom) | (2 - r, c) | 3, 4, 5 |
/// | `transpose` (across 0-4-8) | (c, r) | 0, 4, 8 |
/// | `anti-transpose` (across 2-4-6) | (2 - c, 2 - r) | 2, 4, 6 |
///
/// ```
/// use tictactoe::{Board, Symmetry};
/// let board: Board = "X../.../...".parse()?;
/// assert_eq!(Symmetry::Rot90.apply(board).to_string(), "..X......");
/// assert_eq!(Symmetry::Rot90.inverse(), Symmetry::Rot270);
/// assert_eq!("flip-h".parse::<Symmetry>(), Ok(Symmetry::FlipH));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Symmetry {
    /// Leaves every cell in place.
    Identity = "identity",
    /// Quarter turn clockwise.
    Rot90 = "rot90",
    /// Half turn.
    Rot180 = "rot180",
    /// Three quarter turns clockwise.
    Rot270 = "rot270",
    /// Mirror left-right.
    FlipH = "flip-h",
    /// Mirror top-bottom.
    FlipV = "flip-v",
    /// Mirror across the 0-4-8 diagonal.
    Transpose = "transpose",
    /// Mirror across the 2-4-6 diagonal.
    AntiTranspose = "anti-transpose",
}
parse_error: |_text| -> ParseSymmetryError { ParseSymmetryError }
}

/// A name that is not one of the eight symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown symmetry: expected identity, rot90, rot180, rot270, flip-h, flip-v, transpose or anti-transpose"
)]
pub struct ParseSymmetryError;

/// `PERMUTATION[s][i]` is the image of cell `i` under symmetry `s`.
const PERMUTATION: [[u8; 9]; 8] = {
    let mut table = [[0u8; 9]; 8];
    let mut s = 0;
    while s < 8 {
        let mut i = 0;
        while i < 9 {
            let (r, c) = (i / 3, i % 3);
            let (r2, c2) = match s {
                0 => (r, c),
                1 => (c, 2 - r),
                2 => (2 - r, 2 - c),
                3 => (2 - c, r),
                4 => (r, 2 - c),
                5 => (2 - r, c),
                6 => (c, r),
                _ => (2 - c, 2 - r),
            };
            table[s][i] = (r2 * 3 + c2) as u8;
            i += 1;
        }
        s += 1;
    }
    table
};

/// `IMAGE[s][set]` is the image of the 9-bit set under symmetry `s`: 8 x 512 x 2 = 8 KiB.
static IMAGE: [[u16; 512]; 8] = {
    let mut table = [[0u16; 512]; 8];
    let mut s = 0;
    while s < 8 {
        let mut set = 0;
        while set < 512 {
            table[s][set] = image_slow(s, set as u16);
            set += 1;
        }
        s += 1;
    }
    table
};

const fn image_slow(s: usize, set: u16) -> u16 {
    let mut image = 0;
    let mut i = 0;
    while i < 9 {
        if set >> i & 1 != 0 {
            image |= 1 << PERMUTATION[s][i];
        }
        i += 1;
    }
    image
}

/// The image of a board, cell by cell (for tables built at compile time).
pub(crate) const fn apply_const(s: Symmetry, board: Board) -> Board {
    let x = Bitboard::from_bits_truncate(image_slow(s as usize, board.x().bits()));
    let o = Bitboard::from_bits_truncate(image_slow(s as usize, board.o().bits()));
    Board::from_disjoint(x, o)
}

impl Symmetry {
    /// Bytes of static tables behind [`Symmetry::apply_bitboard`].
    pub const TABLE_BYTES: usize = core::mem::size_of::<[[u16; 512]; 8]>();

    /// The symmetry with this index in [`Symmetry::ALL`].
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Symmetry> {
        if index < 8 {
            Some(Symmetry::ALL[index])
        } else {
            None
        }
    }

    /// The index in [`Symmetry::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The image of a cell.
    #[must_use]
    pub const fn apply_cell(self, cell: Cell) -> Cell {
        Cell::ALL[PERMUTATION[self as usize][cell.index()] as usize]
    }

    /// The image of a set of cells (one table lookup).
    #[must_use]
    pub fn apply_bitboard(self, set: Bitboard) -> Bitboard {
        Bitboard::from_bits_truncate(IMAGE[self as usize][set.bits() as usize])
    }

    /// The image of a board.
    #[must_use]
    pub fn apply(self, board: Board) -> Board {
        // A permutation of the cells keeps the two sets disjoint.
        Board::from_disjoint(
            self.apply_bitboard(board.x()),
            self.apply_bitboard(board.o()),
        )
    }

    /// `self` after `first`: `self.compose(first).apply(b) == self.apply(first.apply(b))`.
    #[must_use]
    pub const fn compose(self, first: Symmetry) -> Symmetry {
        let (a, b) = (&PERMUTATION[self as usize], &PERMUTATION[first as usize]);
        let mut s = 0;
        while s < 8 {
            let mut same = true;
            let mut i = 0;
            while i < 9 {
                same &= PERMUTATION[s][i] == a[b[i] as usize];
                i += 1;
            }
            if same {
                return Symmetry::ALL[s];
            }
            s += 1;
        }
        panic!("D4 is closed under composition")
    }

    /// The symmetry that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rot90 => Symmetry::Rot270,
            Symmetry::Rot270 => Symmetry::Rot90,
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_laws_hold() {
        for a in Symmetry::ALL {
            assert_eq!(a.compose(a.inverse()), Symmetry::Identity);
            assert_eq!(a.to_string().parse::<Symmetry>(), Ok(a));
            for b in Symmetry::ALL {
                for board in Board::all().step_by(7) {
                    assert_eq!(a.compose(b).apply(board), a.apply(b.apply(board)));
                }
            }
        }
    }

    #[test]
    fn symmetries_are_distinct_and_keep_lines() {
        let corner = Board::EMPTY
            .with(Cell::ALL[1], Some(crate::Player::X))
            .with(Cell::ALL[0], Some(crate::Player::O));
        let images: std::collections::HashSet<_> = Symmetry::ALL.map(|s| s.apply(corner)).into();
        assert_eq!(images.len(), 8);
        for s in Symmetry::ALL {
            for line in crate::Line::ALL {
                assert!(s.apply_bitboard(line.cells()).has_line());
            }
            for set in 0..512 {
                let set = Bitboard::from_bits_truncate(set);
                let slow: Bitboard = set.iter().map(|c| s.apply_cell(c)).collect();
                assert_eq!(s.apply_bitboard(set), slow);
            }
        }
        assert_eq!(Symmetry::Rot90.apply_cell(Cell::ALL[0]), Cell::ALL[2]);
        assert_eq!(Symmetry::FlipH.apply_cell(Cell::ALL[0]), Cell::ALL[2]);
        assert_eq!(Symmetry::FlipV.apply_cell(Cell::ALL[0]), Cell::ALL[6]);
        assert_eq!(Symmetry::Transpose.apply_cell(Cell::ALL[1]), Cell::ALL[3]);
        assert_eq!(
            Symmetry::AntiTranspose.apply_cell(Cell::ALL[0]),
            Cell::ALL[8]
        );
    }
}
