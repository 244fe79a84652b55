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
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The three cells as a set.
    #[must_use]
    pub const fn cells(self) -> Bitboard {
        let [a, b, c] = LINE_CELLS[self.0 as usize];
        Bitboard::from_bits_truncate(1 << a | 1 << b | 1 << c)
    }

    /// The three cells, ascending.
    #[must_use]
    pub const fn to_cells(self) -> [Cell; 3] {
        let [a, b, c] = LINE_CELLS[self.0 as usize];
        [
            Cell::ALL[a as usize],
            Cell::ALL[b as usize],
            Cell::ALL[c as usize],
        ]
    }
}

// `Bitboard`'s line queries live here, beside the lines, so that the set type does not depend
// on the lines it is tested against.
impl Bitboard {
    /// Whether the set contains all three cells of some line.
    ///
    /// One lookup in [`HAS_LINE`](Bitboard::has_line): a 512-bit table, 64 bytes.
    #[must_use]
    pub const fn has_line(self) -> bool {
        // `& 7` changes nothing (a set is 9 bits) but proves the index in bounds, so the
        // lookup compiles without a bounds check.
        HAS_LINE[(self.bits() >> 6) as usize & 7] >> (self.bits() & 63) & 1 != 0
    }

    /// The lines whose three cells are all in the set, as a mask over [`Line::ALL`] (bit `l` is
    /// line `l`).
    #[must_use]
    pub const fn line_mask(self) -> u8 {
        let mut mask = 0;
        let mut l = 0;
        while l < 8 {
            if self.is_superset(Line::ALL[l].cells()) {
                mask |= 1 << l;
            }
            l += 1;
        }
        mask
    }
}

/// Bytes of static tables behind [`Bitboard::has_line`].
pub(crate) const HAS_LINE_TABLE_BYTES: usize = core::mem::size_of_val(&HAS_LINE);

/// Bit `b` of word `w` says whether the 9-bit set `64 * w + b` contains a line.
const HAS_LINE: [u64; 8] = {
    let mut table = [0u64; 8];
    let mut set = 0u16;
    while set < 512 {
        if Bitboard::from_bits_truncate(set).line_mask() != 0 {
            table[(set >> 6) as usize] |= 1 << (set & 63);
        }
        set += 1;
    }
    table
};
