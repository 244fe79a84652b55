//! Sets of cells as 9-bit masks.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

use crate::Cell;

mod nine;

use nine::Nine;

/// A set of cells: bit `i` is cell `i`, so `0b111` is the top row.
///
/// Only the low 9 bits are ever set; every constructor and operator keeps it that way, and the
/// type says so to the compiler (a 512-variant enum inside), so a lookup by a set in a
/// 512-entry table compiles to one load, with no mask and no bounds check.
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
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Bitboard(Nine);

impl Bitboard {
    /// No cell.
    pub const EMPTY: Bitboard = Bitboard::raw(0);
    /// All nine cells.
    pub const FULL: Bitboard = Bitboard::raw(0x1ff);
    /// Number of distinct bitboards, `2^9`.
    pub const COUNT: usize = 512;
    /// Bytes of static tables behind [`Bitboard::has_line`].
    pub(crate) const HAS_LINE_TABLE_BYTES: usize = core::mem::size_of_val(&HAS_LINE);
    /// Bytes of the per-set count table behind [`Bitboard::count`] (on targets without a
    /// `popcnt` instruction).
    pub(crate) const COUNTS_TABLE_BYTES: usize = core::mem::size_of_val(&COUNTS);
    /// Bytes of the select table behind [`Bitboard::nth`].
    pub(crate) const SELECT_TABLE_BYTES: usize = core::mem::size_of_val(&SELECT);

    /// The set of the low nine bits of `bits`: the one way in, so every set is nine bits.
    #[inline(always)]
    const fn raw(bits: u16) -> Bitboard {
        Bitboard(Nine::new(bits))
    }

    /// The set with these bits, or `None` if a bit above 8 is set.
    #[must_use]
    #[inline]
    pub const fn from_bits(bits: u16) -> Option<Bitboard> {
        if bits <= 0x1ff {
            Some(Bitboard::raw(bits))
        } else {
            None
        }
    }

    /// The set with these bits, bits above 8 dropped.
    #[must_use]
    #[inline]
    pub const fn from_bits_truncate(bits: u16) -> Bitboard {
        Bitboard::raw(bits)
    }

    /// The set holding just `cell`.
    #[must_use]
    #[inline]
    pub const fn from_cell(cell: Cell) -> Bitboard {
        Bitboard::raw(1 << cell.index())
    }

    /// The mask, `0..512`.
    #[must_use]
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0.get()
    }

    /// Whether `cell` is in the set.
    #[must_use]
    #[inline]
    pub const fn contains(self, cell: Cell) -> bool {
        self.bits() >> cell.index() & 1 != 0
    }

    /// The set with `cell` added.
    #[must_use]
    #[inline]
    pub const fn with(self, cell: Cell) -> Bitboard {
        Bitboard::raw(self.bits() | 1 << cell.index())
    }

    /// The set with `cell` removed.
    #[must_use]
    #[inline]
    pub const fn without(self, cell: Cell) -> Bitboard {
        Bitboard::raw(self.bits() & !(1 << cell.index()))
    }

    /// Number of cells in the set.
    ///
    /// One instruction where the target has `popcnt`; elsewhere (baseline x86-64 has none, and
    /// `count_ones` becomes a dozen operations) one byte of a 512-byte table.
    #[must_use]
    #[inline]
    pub const fn count(self) -> u32 {
        if cfg!(target_feature = "popcnt") {
            self.bits().count_ones()
        } else {
            COUNTS[self.bits() as usize] as u32
        }
    }

    /// The `k`-th lowest cell of the set (`k` from 0), or `None` when it has `k` cells or
    /// fewer. One lookup in a 4,096-byte select table: the fast way to turn a random index
    /// among the legal moves into a move.
    ///
    /// ```
    /// use tictactoe::{Bitboard, Cell};
    /// let corners = Bitboard::from_bits(0b101_000_101).unwrap();
    /// assert_eq!(corners.nth(2), Some(Cell::new(6)?));
    /// assert_eq!(corners.nth(4), None);
    /// # Ok::<(), tictactoe::CellError>(())
    /// ```
    #[must_use]
    #[inline]
    pub const fn nth(self, k: u32) -> Option<Cell> {
        let entry = self.select();
        if k < (entry >> SELECT_COUNT_SHIFT) as u32 {
            Some(select_cell(entry, k))
        } else {
            None
        }
    }

    /// A cell of the set chosen by 32 random bits, uniformly when the bits are (the
    /// multiply-shift of Lemire's "Fast Random Integer Generation in an Interval", without the
    /// rejection step: a bias below `9 / 2^32`), or `None` for the empty set.
    ///
    /// The fast way to play a random legal move with any generator:
    /// `position.legal_moves().pick(rng.next_u32())`.
    ///
    /// ```
    /// use tictactoe::Bitboard;
    /// let set = Bitboard::from_bits(0b101).unwrap();
    /// assert_eq!(set.pick(0).map(|c| c.index()), Some(0));
    /// assert_eq!(set.pick(u32::MAX).map(|c| c.index()), Some(2));
    /// assert_eq!(Bitboard::EMPTY.pick(7), None);
    /// ```
    #[must_use]
    #[inline]
    pub const fn pick(self, random: u32) -> Option<Cell> {
        // The count by `count`, not from the select entry: `popcnt` where the target has it,
        // else a load that runs beside the select load instead of before the multiply. A
        // playout waits on this chain at every move.
        // The test is on that count, and the cell is the entry's nibble as it stands: `nth`'s
        // bound test and a test of the nibble would add four instructions to every move.
        let count = self.count();
        if count == 0 {
            return None;
        }
        let k = (random as u64 * count as u64) >> 32;
        Some(select_cell(self.select(), k as u32))
    }

    /// This set's entry of [`SELECT`].
    #[inline]
    const fn select(self) -> u64 {
        SELECT[self.bits() as usize]
    }

    /// Whether the set is empty.
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.bits() == 0
    }

    /// Whether every cell of `other` is in `self`.
    #[must_use]
    #[inline]
    pub const fn is_superset(self, other: Bitboard) -> bool {
        self.bits() & other.bits() == other.bits()
    }

    /// The lowest cell of the set, if any.
    #[must_use]
    #[inline]
    pub const fn first(self) -> Option<Cell> {
        if self.bits() == 0 {
            None
        } else {
            Some(Cell::ALL[self.bits().trailing_zeros() as usize])
        }
    }

    /// Whether the set contains all three cells of some line.
    ///
    /// One lookup in [`HAS_LINE`](crate::Bitboard::has_line): a 512-bit table, 64 bytes.
    #[must_use]
    #[inline]
    pub const fn has_line(self) -> bool {
        HAS_LINE[(self.bits() >> 6) as usize] >> (self.bits() & 63) & 1 != 0
    }

    /// The lines whose three cells are all in the set, as a mask over
    /// [`Line::ALL`](crate::Line::ALL) (bit `l` is
    /// line `l`).
    #[must_use]
    #[inline]
    pub const fn line_mask(self) -> u8 {
        let mut mask = 0;
        let mut l = 0;
        while l < 8 {
            if self.bits() & LINE_MASKS[l] == LINE_MASKS[l] {
                mask |= 1 << l;
            }
            l += 1;
        }
        mask
    }

    /// The cells in ascending order.
    #[must_use]
    #[inline]
    pub const fn iter(self) -> Cells {
        Cells(self.bits())
    }
}

/// The eight lines as sets, in [`Line::ALL`](crate::Line::ALL) order: written out here so that
/// the set type does not depend on the line type (a test in `line` holds the two equal).
pub(crate) const LINE_MASKS: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// Bit `b` of word `w` says whether the 9-bit set `64 * w + b` contains a line.
const HAS_LINE: [u64; 8] = {
    let mut table = [0u64; 8];
    let mut set = 0u16;
    while set < 512 {
        if Bitboard::raw(set).line_mask() != 0 {
            table[(set >> 6) as usize] |= 1 << (set & 63);
        }
        set += 1;
    }
    table
};

/// For each 9-bit set, its number of cells: [`Bitboard::count`] on targets without a
/// `popcnt` instruction, one load instead of a dozen operations.
const COUNTS: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut set = 0u16;
    while set < 512 {
        table[set as usize] = set.count_ones() as u8;
        set += 1;
    }
    table
};

/// The `k`-th cell of a [`SELECT`] entry, for `k` below the set's count: the nibble is then a
/// cell index below 9 by the table's construction (a test checks every set and every `k`), so
/// it becomes a [`Cell`] without a test.
#[inline]
const fn select_cell(entry: u64, k: u32) -> Cell {
    let index = (entry >> (4 * (k & 15))) as u8 & 15;
    debug_assert!(index < 9);
    Cell::from_index_unchecked(index)
}

/// Where a [`SELECT`] entry keeps the set's number of cells.
const SELECT_COUNT_SHIFT: u32 = 60;

/// For each 9-bit set, one `u64`: its cells in ascending order, 4 bits each (the `k`-th
/// lowest at bits `4k..4k + 4`), and its number of cells in bits 60..64 (4 KiB).
const SELECT: [u64; 512] = {
    let mut table = [0u64; 512];
    let mut set = 0;
    while set < 512 {
        let (mut k, mut cell, mut entry) = (0u64, 0u64, 0u64);
        while cell < 9 {
            if set >> cell & 1 != 0 {
                entry |= cell << (4 * k);
                k += 1;
            }
            cell += 1;
        }
        table[set] = entry | k << SELECT_COUNT_SHIFT;
        set += 1;
    }
    table
};

/// The cells of a [`Bitboard`], ascending.
#[derive(Clone, Debug)]
pub struct Cells(u16);

impl Iterator for Cells {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            return None;
        }
        let cell = Cell::ALL[self.0.trailing_zeros() as usize];
        self.0 &= self.0 - 1;
        Some(cell)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = Bitboard::raw(self.0).count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cells {}

impl IntoIterator for Bitboard {
    type Item = Cell;
    type IntoIter = Cells;
    #[inline]
    fn into_iter(self) -> Cells {
        self.iter()
    }
}

impl FromIterator<Cell> for Bitboard {
    #[inline]
    fn from_iter<I: IntoIterator<Item = Cell>>(cells: I) -> Bitboard {
        cells.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

/// Hashes the bits, as the `u16` it once was.
impl core::hash::Hash for Bitboard {
    #[inline]
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.bits().hash(state);
    }
}

impl From<Cell> for Bitboard {
    #[inline]
    fn from(cell: Cell) -> Bitboard {
        Bitboard::from_cell(cell)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard::raw(self.bits() | rhs.bits())
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        *self = *self | rhs;
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard::raw(self.bits() & rhs.bits())
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        *self = *self & rhs;
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard::raw(self.bits() ^ rhs.bits())
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard::raw(!self.bits())
    }
}

/// Draws the set as a 3x3 grid of `#` and `.`.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#011b}", self.bits())?;
        for row in 0..3 {
            f.write_str(if row == 0 { ": " } else { "/" })?;
            for column in 0..3 {
                let on = self.bits() >> (row * 3 + column) & 1 != 0;
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
    fn count_nth_and_pick_match_iteration_on_every_set() {
        for bits in 0..512u16 {
            let set = Bitboard::raw(bits);
            assert_eq!(set.count(), bits.count_ones());
            assert_eq!(u32::from(COUNTS[bits as usize]), bits.count_ones());
            for k in 0..10 {
                assert_eq!(set.nth(k), set.iter().nth(k as usize), "{set:?} {k}");
            }
            for random in [0, 1, u32::MAX / 3, u32::MAX / 2, u32::MAX - 1, u32::MAX] {
                let k = (u64::from(random) * u64::from(bits.count_ones())) >> 32;
                assert_eq!(set.pick(random), set.iter().nth(k as usize));
            }
        }
    }

    #[test]
    fn has_line_matches_the_line_loop_on_every_set() {
        for bits in 0..512u16 {
            let set = Bitboard::raw(bits);
            let slow = crate::Line::ALL
                .iter()
                .any(|line| set.is_superset(line.cells()));
            assert_eq!(set.has_line(), slow, "{set:?}");
        }
    }

    #[test]
    fn iteration_and_collection_are_inverse() {
        for bits in 0..512u16 {
            let set = Bitboard::raw(bits);
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
