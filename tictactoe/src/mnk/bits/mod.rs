//! The family's bitboards and their kernels: [`Bits`], a set of bits in `W` 64-bit words (one
//! player's cells, or any set of cells), the masks of a board's cells, and the line kernels
//! ([`run_starts`], [`has_line`], [`wins_through`]) that [`Board`](super::Board) and
//! [`Position`](super::Position) run. For code that works on the bits directly (a search of its
//! own, a benchmark); the positions and boards are the domain API.

use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

use super::Rules;

mod line;

pub(crate) use line::c4_has_line;
#[cfg(feature = "rand")]
pub(crate) use line::c4_has_line_scalar;
#[cfg(all(feature = "rand", target_arch = "x86_64", not(target_feature = "avx2")))]
pub(crate) use line::c4_has_line_sse2;
pub(crate) use line::wins_by_playing;
pub use line::{has_line, run_starts, wins_through};

/// A set of bits `0..64 × W`: the cells of one player, or any set of cells, in the layout of
/// [`Rules::bit`](super::Rules::bit) (column-major, a guard bit above each column).
///
/// `W` is 1 for boards of up to 64 bits (Connect Four: 7 × 7 = 49), 2 up to 128, 4 up to 256
/// (gomoku: 15 × 16 = 240) and 6 up to 384 (19 × 19: 19 × 20 = 380). The shifts move bits
/// across words, so the line checks are the same code for every width.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> core::fmt::Debug for Bits<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Bits(")?;
        for (i, word) in self.0.iter().enumerate().rev() {
            if i + 1 < W {
                f.write_str("_")?;
            }
            write!(f, "{word:016x}")?;
        }
        f.write_str(")")
    }
}

impl<const W: usize> Bits<W> {
    /// No bit.
    pub const EMPTY: Bits<W> = Bits([0; W]);
    /// How many bits the set can hold.
    pub const CAPACITY: u32 = 64 * W as u32;

    /// The bits `0..n` (all of them when `n ≥ CAPACITY`).
    #[must_use]
    #[inline]
    pub const fn low(n: u32) -> Bits<W> {
        let mut words = [0u64; W];
        let mut i = 0;
        while i < W {
            let start = 64 * i as u32;
            words[i] = if n >= start + 64 {
                u64::MAX
            } else if n <= start {
                0
            } else {
                (1u64 << (n - start)) - 1
            };
            i += 1;
        }
        Bits(words)
    }

    /// The set holding only `bit` (empty when `bit ≥ CAPACITY`).
    #[must_use]
    #[inline]
    pub const fn single(bit: u32) -> Bits<W> {
        let mut words = [0u64; W];
        if bit < Self::CAPACITY {
            words[(bit / 64) as usize] = 1 << (bit % 64);
        }
        Bits(words)
    }

    /// Whether `bit` is in the set (false past the end).
    #[must_use]
    #[inline]
    pub const fn contains(&self, bit: u32) -> bool {
        bit < Self::CAPACITY && (self.0[(bit / 64) as usize] >> (bit % 64)) & 1 == 1
    }

    /// Adds `bit` (which must be below `CAPACITY`).
    #[inline]
    pub fn insert(&mut self, bit: u32) {
        // One word: no index, so no bounds check on the fast paths (`bit < 64` is the caller's).
        let word = if W == 1 { 0 } else { (bit / 64) as usize };
        self.0[word] |= 1 << (bit % 64);
    }

    /// Removes `bit` (which must be below `CAPACITY`).
    #[inline]
    pub fn remove(&mut self, bit: u32) {
        let word = if W == 1 { 0 } else { (bit / 64) as usize };
        self.0[word] &= !(1 << (bit % 64));
    }

    /// Toggles `bit` (which must be below `CAPACITY`).
    #[inline]
    pub fn toggle(&mut self, bit: u32) {
        self.0[(bit / 64) as usize] ^= 1 << (bit % 64);
    }

    /// Whether no bit is set.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |acc, w| acc | w) == 0
    }

    /// How many bits are set.
    #[must_use]
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The bits of `self` not in `other`.
    #[must_use]
    #[inline]
    pub fn and_not(self, other: Bits<W>) -> Bits<W> {
        let mut out = self;
        for (a, b) in out.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
        out
    }

    /// Every bit moved down by `s` (toward bit 0); bits below 0 drop off.
    #[must_use]
    #[inline]
    #[allow(clippy::should_implement_trait)] // `a.shr(s)` reads as the bit step it is
    pub fn shr(self, s: u32) -> Bits<W> {
        if W == 1 {
            return Bits(core::array::from_fn(|_| {
                self.0[0].checked_shr(s).unwrap_or(0)
            }));
        }
        if s < 64 {
            // The line checks' shifts are all below 64: each word takes the bits of the word
            // above as a 128-bit funnel shift, one `shrd` on x86-64 and no branch for s = 0.
            return Bits(core::array::from_fn(|i| {
                let hi = if i + 1 < W { self.0[i + 1] } else { 0 };
                ((u128::from(hi) << 64 | u128::from(self.0[i])) >> s) as u64
            }));
        }
        let (q, r) = ((s / 64) as usize, s % 64);
        Bits(core::array::from_fn(|i| {
            let lo = self.0.get(i + q).copied().unwrap_or(0);
            let hi = self.0.get(i + q + 1).copied().unwrap_or(0);
            if r == 0 {
                lo
            } else {
                (lo >> r) | (hi << (64 - r))
            }
        }))
    }

    /// The 64 bits from `start` up as one word (bits past the capacity read as clear): a
    /// column of any board is its low `rows` bits. One shift on one word, a funnel of two
    /// words on wider sets, where [`shr`](Bits::shr) would move all of them.
    #[must_use]
    #[inline]
    pub(crate) fn word_at(&self, start: u32) -> u64 {
        if W == 1 {
            return self.0[0].checked_shr(start).unwrap_or(0);
        }
        let (q, r) = ((start / 64) as usize, start % 64);
        let lo = self.0.get(q).copied().unwrap_or(0);
        let hi = self.0.get(q + 1).copied().unwrap_or(0);
        ((u128::from(hi) << 64 | u128::from(lo)) >> r) as u64
    }

    /// [`shr`](Bits::shr) for `s < 64`, the shifts of the line checks: no test of the amount.
    #[must_use]
    #[inline]
    pub(crate) fn shr_short(self, s: u32) -> Bits<W> {
        debug_assert!(s < 64);
        Bits(core::array::from_fn(|i| {
            let hi = if i + 1 < W { self.0[i + 1] } else { 0 };
            ((u128::from(hi) << 64 | u128::from(self.0[i])) >> (s & 63)) as u64
        }))
    }

    /// Every bit moved up by `s`; bits past the capacity drop off.
    #[must_use]
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn shl(self, s: u32) -> Bits<W> {
        if W == 1 {
            return Bits(core::array::from_fn(|_| {
                self.0[0].checked_shl(s).unwrap_or(0)
            }));
        }
        if s < 64 {
            return Bits(core::array::from_fn(|i| {
                let lo = if i > 0 { self.0[i - 1] } else { 0 };
                ((u128::from(self.0[i]) << 64 | u128::from(lo)) << s >> 64) as u64
            }));
        }
        let (q, r) = ((s / 64) as usize, s % 64);
        Bits(core::array::from_fn(|i| {
            let lo = i.checked_sub(q).map_or(0, |j| self.0[j]);
            let below = i.checked_sub(q + 1).map_or(0, |j| self.0[j]);
            if r == 0 {
                lo
            } else {
                (lo << r) | (below >> (64 - r))
            }
        }))
    }

    /// The lowest set bit, if any.
    #[must_use]
    #[inline]
    pub fn first(&self) -> Option<u32> {
        for (i, word) in self.0.iter().enumerate() {
            if *word != 0 {
                return Some(64 * i as u32 + word.trailing_zeros());
            }
        }
        None
    }

    /// The `n`-th set bit counting from 0 at the lowest, if there are more than `n`.
    #[must_use]
    #[inline]
    pub fn nth(&self, mut n: u32) -> Option<u32> {
        if W == 1 {
            // One word: no word to find, and `select` needs no count when `n` is in range.
            let word = self.0[0];
            return (n < word.count_ones()).then(|| select(word, n));
        }
        for (i, &word) in self.0.iter().enumerate() {
            let ones = word.count_ones();
            if n < ones {
                return Some(64 * i as u32 + select(word, n));
            }
            n -= ones;
        }
        None
    }

    /// [`nth`](Bits::nth) for an `n` known to be below [`count`](Bits::count): on one word,
    /// no count at all.
    #[must_use]
    #[inline]
    #[cfg_attr(not(feature = "rand"), allow(dead_code))] // random playouts use it
    pub(crate) fn nth_in_range(&self, n: u32) -> u32 {
        debug_assert!(n < self.count());
        if W == 1 {
            select(self.0[0], n)
        } else {
            self.nth(n).unwrap_or(0)
        }
    }

    /// The set bits, lowest first.
    #[inline]
    pub fn iter(self) -> BitIter<W> {
        BitIter(self)
    }
}

/// The position of the `n`-th set bit of `word` (which has more than `n`), without a branch:
/// the bytes' running popcounts (one multiply) locate the byte, [`SELECT_IN_BYTE`] the bit in
/// it. (BMI2's `pdep` would do it in one instruction, but only through `unsafe`.)
#[inline]
fn select(word: u64, n: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let s = word - ((word >> 1) & 0x5555_5555_5555_5555);
    let s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    let s = (s + (s >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte j of `before_or_at` is the number of set bits in bytes 0..=j (at most 64).
    let before_or_at = s.wrapping_mul(ONES);
    // The bytes whose running count is at most n lie below the byte holding the bit.
    let at_most_n = ((u64::from(n) | 0x80) * ONES - before_or_at) & (0x80 * ONES);
    let byte = ((at_most_n >> 7).wrapping_mul(ONES) >> 56) as u32;
    let below = ((before_or_at << 8) >> (8 * byte)) as u32 & 0xff;
    let in_byte = (word >> (8 * byte)) as usize & 0xff;
    8 * byte + u32::from(SELECT_IN_BYTE[(n - below) as usize & 7][in_byte])
}

/// `SELECT_IN_BYTE[r][b]`: the position of the `r`-th set bit of byte `b` (8 when it has
/// none), 2,048 bytes computed at compile time.
static SELECT_IN_BYTE: [[u8; 256]; 8] = {
    let mut table = [[8u8; 256]; 8];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut r) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                table[r][b] = bit as u8;
                r += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// The set bits of a [`Bits`], lowest first.
#[derive(Clone, Debug)]
pub struct BitIter<const W: usize>(Bits<W>);

impl<const W: usize> Iterator for BitIter<W> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        for (i, word) in self.0.0.iter_mut().enumerate() {
            if *word != 0 {
                let bit = word.trailing_zeros();
                *word &= *word - 1;
                return Some(64 * i as u32 + bit);
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<const W: usize> ExactSizeIterator for BitIter<W> {}

macro_rules! word_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl<const W: usize> $tr for Bits<W> {
            type Output = Bits<W>;
            #[inline]
            fn $f(self, rhs: Bits<W>) -> Bits<W> {
                Bits(core::array::from_fn(|i| self.0[i] $op rhs.0[i]))
            }
        }
        impl<const W: usize> $atr for Bits<W> {
            #[inline]
            fn $af(&mut self, rhs: Bits<W>) {
                *self = *self $op rhs;
            }
        }
    };
}

word_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
word_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl<const W: usize> BitXor for Bits<W> {
    type Output = Bits<W>;
    #[inline]
    fn bitxor(self, rhs: Bits<W>) -> Bits<W> {
        Bits(core::array::from_fn(|i| self.0[i] ^ rhs.0[i]))
    }
}

impl<const W: usize> Not for Bits<W> {
    type Output = Bits<W>;
    /// Every bit of the capacity flipped (mask with a board's cells to stay on it).
    #[inline]
    fn not(self) -> Bits<W> {
        Bits(core::array::from_fn(|i| !self.0[i]))
    }
}

/// The bits that are cells of a `rules` board: `rows` bits in each column, no guard bits.
#[must_use]
pub fn cell_mask<const W: usize>(rules: Rules) -> Bits<W> {
    let column = Bits::<W>::low(rules.rows());
    let mut mask = Bits::EMPTY;
    for col in 0..rules.cols() {
        mask |= column.shl(col * rules.stride());
    }
    mask
}

/// The bits of the bottom row.
#[must_use]
pub(crate) fn bottom_mask<const W: usize>(rules: Rules) -> Bits<W> {
    let mut mask = Bits::EMPTY;
    for col in 0..rules.cols() {
        mask.insert(col * rules.stride());
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_shr<const W: usize>(b: Bits<W>, s: u32) -> Bits<W> {
        let mut out = Bits::<W>::EMPTY;
        for bit in b.iter() {
            if bit >= s {
                out.insert(bit - s);
            }
        }
        out
    }

    fn naive_shl<const W: usize>(b: Bits<W>, s: u32) -> Bits<W> {
        let mut out = Bits::<W>::EMPTY;
        for bit in b.iter() {
            if bit + s < Bits::<W>::CAPACITY {
                out.insert(bit + s);
            }
        }
        out
    }

    fn check<const W: usize>(seed: u64) {
        let mut next = crate::testing::xorshift(seed);
        for _ in 0..200 {
            let b = Bits::<W>(core::array::from_fn(|_| next() & next()));
            for s in 0..Bits::<W>::CAPACITY + 3 {
                assert_eq!(b.shr(s), naive_shr(b, s), "shr {s}");
                assert_eq!(b.shl(s), naive_shl(b, s), "shl {s}");
            }
            let bits: Vec<u32> = b.iter().collect();
            assert_eq!(bits.len() as u32, b.count());
            for (n, bit) in bits.iter().enumerate() {
                assert_eq!(b.nth(n as u32), Some(*bit));
                assert!(b.contains(*bit));
            }
            assert_eq!(b.nth(b.count()), None);
            assert_eq!(b.first(), bits.first().copied());
        }
    }

    #[test]
    fn shifts_and_selection_match_a_bit_by_bit_twin() {
        check::<1>(1);
        check::<2>(2);
        check::<4>(3);
        check::<6>(4);
    }

    /// `word_at(start)` is the low word of `shr(start)`, on every width and start.
    fn word_at_is_the_low_word_of_shr<const W: usize>(words: [u64; W]) {
        let bits = Bits(words);
        for start in 0..64 * W as u32 + 70 {
            assert_eq!(
                bits.word_at(start),
                bits.shr(start).0[0],
                "{bits:?} from {start}"
            );
        }
    }

    #[test]
    fn word_at_reads_any_64_bits() {
        let mut next = crate::testing::xorshift(0x9e37_79b9_7f4a_7c15_u64);
        for _ in 0..20 {
            word_at_is_the_low_word_of_shr([next()]);
            word_at_is_the_low_word_of_shr([next(), next()]);
            word_at_is_the_low_word_of_shr([next(), next(), next(), next()]);
            word_at_is_the_low_word_of_shr(core::array::from_fn::<u64, 6, _>(|_| next()));
        }
    }

    #[test]
    fn low_and_single() {
        assert_eq!(Bits::<2>::low(70).count(), 70);
        assert_eq!(Bits::<2>::low(200).count(), 128);
        assert_eq!(Bits::<1>::low(64).count(), 64);
        assert_eq!(Bits::<1>::low(0).count(), 0);
        assert!(Bits::<1>::single(64).is_empty());
        assert!(Bits::<2>::single(65).contains(65));
    }
}
