//! Bit helpers shared by the ranked encodings, packed arrays and the solver: binomials,
//! branch-free `pdep`/`pext` on 9-bit sets, a table popcount, and division by reciprocals.
//! Private: none of this is the contract of any public type.

/// `C(n, k)` for `n, k < 10`, as computed by Pascal's rule.
pub(crate) const BINOMIAL: [[u8; 10]; 10] = {
    let mut table = [[0u8; 10]; 10];
    let mut n = 0;
    while n < 10 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
};

/// `C(n, k)` as a `u32`, zero when `k > n`.
pub(crate) const fn binomial(n: u32, k: u32) -> u32 {
    if n < 10 && k < 10 {
        BINOMIAL[n as usize][k as usize] as u32
    } else {
        0
    }
}

/// Software `pdep`: the `i`-th lowest bit of `bits` goes to the `i`-th lowest set bit of `mask`.
pub(crate) const fn deposit(mut bits: u16, mut mask: u16) -> u16 {
    let mut out = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if bits & 1 != 0 {
            out |= low;
        }
        bits >>= 1;
        mask &= mask - 1;
    }
    out
}

/// `POPCOUNT3[s]`: the number of cells in the 3-bit set `s`, 8 bytes. The baseline x86-64
/// target has no `popcnt` instruction, and `count_ones` there is a dozen dependent operations.
const POPCOUNT3: [u8; 8] = [0, 1, 1, 2, 1, 2, 2, 3];

/// The number of cells in a 9-bit set: one lookup in [`POPCOUNT3`] per row.
#[inline]
pub(crate) const fn popcount9(set: u16) -> u32 {
    (POPCOUNT3[(set & 7) as usize]
        + POPCOUNT3[(set >> 3 & 7) as usize]
        + POPCOUNT3[(set >> 6 & 7) as usize]) as u32
}

/// `DEPOSIT3[mask][bits]`: [`deposit`] on 3-bit values, 64 bytes.
const DEPOSIT3: [[u8; 8]; 8] = {
    let mut table = [[0u8; 8]; 8];
    let mut mask = 0;
    while mask < 8 {
        let mut bits = 0;
        while bits < 8 {
            table[mask][bits] = deposit(bits as u16, mask as u16) as u8;
            bits += 1;
        }
        mask += 1;
    }
    table
};

/// [`deposit`] on 9-bit masks without a loop or a branch: three lookups in [`DEPOSIT3`], one
/// per row of the board, each consuming as many bits as its row of `mask` has cells.
#[inline]
pub(crate) const fn deposit9(bits: u16, mask: u16) -> u16 {
    let (m0, m1, m2) = (mask & 7, mask >> 3 & 7, mask >> 6 & 7);
    let low = DEPOSIT3[m0 as usize][(bits & 7) as usize] as u16;
    let bits = bits >> POPCOUNT3[m0 as usize];
    let middle = DEPOSIT3[m1 as usize][(bits & 7) as usize] as u16;
    let bits = bits >> POPCOUNT3[m1 as usize];
    let high = DEPOSIT3[m2 as usize][(bits & 7) as usize] as u16;
    low | middle << 3 | high << 6
}

/// `EXTRACT3[mask][bits]`: the bits of `bits` at the set bits of `mask`, packed to the
/// bottom, on 3-bit values: 64 bytes.
const EXTRACT3: [[u8; 8]; 8] = {
    let mut table = [[0u8; 8]; 8];
    let mut mask = 0;
    while mask < 8 {
        let mut bits = 0;
        while bits < 8 {
            // Inverse of deposit on its image: find the packed value that deposits to these bits.
            let mut packed = 0;
            while deposit(packed, mask as u16) != bits as u16 & mask as u16 {
                packed += 1;
            }
            table[mask][bits] = packed as u8;
            bits += 1;
        }
        mask += 1;
    }
    table
};

/// Software `pext` on 9-bit masks without a loop or a branch: three lookups in [`EXTRACT3`],
/// one per row of the board, each placed after the cells of `mask` in the rows before it.
#[inline]
pub(crate) const fn extract9(bits: u16, mask: u16) -> u16 {
    let (m0, m1, m2) = (mask & 7, mask >> 3 & 7, mask >> 6 & 7);
    let low = EXTRACT3[m0 as usize][(bits & 7) as usize] as u16;
    let middle = EXTRACT3[m1 as usize][(bits >> 3 & 7) as usize] as u16;
    let high = EXTRACT3[m2 as usize][(bits >> 6 & 7) as usize] as u16;
    let (n0, n1) = (POPCOUNT3[m0 as usize], POPCOUNT3[m1 as usize]);
    low | middle << n0 | high << (n0 + n1)
}

/// Bytes of the tables shared by the ranked encodings: 3-bit popcounts (8 bytes) and the 3-bit
/// deposit and extract tables (64 bytes each) behind branch-free `pdep` and `pext`.
pub(crate) const SHARED_TABLE_BYTES: usize = core::mem::size_of_val(&POPCOUNT3)
    + core::mem::size_of_val(&DEPOSIT3)
    + core::mem::size_of_val(&EXTRACT3);

/// The mark count `n` of a code, given the first code of each mark count (`offsets[n]`, with
/// `offsets[0] = 0` and `offsets[10]` the end): how many of `offsets[1..10]` it has reached.
/// Counted without a branch, since the mark count of consecutive codes is unpredictable.
#[inline]
pub(crate) const fn block_of(code: u16, offsets: &[u16; 11]) -> usize {
    let mut n = 0;
    let mut i = 1;
    while i < 10 {
        n += (offsets[i] <= code) as usize;
        i += 1;
    }
    n
}

/// Shift for [`Reciprocals`]: quotients are exact for dividends below 2^11 and divisors up
/// to 126 since `2^11 * 126 < 2^20` (and checked exhaustively where the tables are built).
const RECIPROCAL_SHIFT: u32 = 20;

/// `ceil(2^20 / d)` for small divisors, so that `n / d` is a multiply and a shift.
#[derive(Clone, Copy)]
pub(crate) struct Reciprocals<const N: usize>([u32; N]);

impl<const N: usize> Reciprocals<N> {
    /// The reciprocals of `divisors`, each checked against `/` and `%` for every dividend
    /// below `limit` (at compile time when used in a `const`).
    pub(crate) const fn new(divisors: [u16; N], limit: u32) -> Reciprocals<N> {
        assert!(limit <= 1 << 11);
        let mut table = [0u32; N];
        let mut i = 0;
        while i < N {
            let d = divisors[i] as u32;
            table[i] = (1u32 << RECIPROCAL_SHIFT).div_ceil(d);
            let mut n = 0;
            while n < limit {
                assert!((n * table[i]) >> RECIPROCAL_SHIFT == n / d);
                n += 1;
            }
            i += 1;
        }
        Reciprocals(table)
    }

    /// `(n / d, n % d)` for the divisor `d` at `index`.
    #[inline]
    pub(crate) const fn div_rem(&self, n: u32, index: usize, d: u32) -> (u32, u32) {
        let q = (n * self.0[index]) >> RECIPROCAL_SHIFT;
        (q, n - q * d)
    }
}

#[cfg(test)]
/// Software `pext`: the bits of `bits` at the set bits of `mask`, packed to the bottom.
pub(crate) const fn extract(bits: u16, mut mask: u16) -> u16 {
    let mut out = 0;
    let mut i = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if bits & low != 0 {
            out |= 1 << i;
        }
        i += 1;
        mask &= mask - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_match_the_factorial_formula() {
        let factorial = |n: u32| (1..=n).product::<u32>();
        for n in 0..10 {
            for k in 0..=n {
                assert_eq!(
                    binomial(n, k),
                    factorial(n) / factorial(k) / factorial(n - k)
                );
            }
            assert_eq!(binomial(n, n + 1), 0);
        }
    }

    #[test]
    fn deposit_and_extract_are_inverse_on_every_mask() {
        for mask in 0..512u16 {
            assert_eq!(popcount9(mask), mask.count_ones());
            for bits in 0..1u16 << mask.count_ones() {
                let spread = deposit(bits, mask);
                assert_eq!(deposit9(bits, mask), spread);
                assert_eq!(extract9(spread, mask), bits);
                assert_eq!(extract9(spread | !mask & 0x1ff, mask), bits);
                assert_eq!(spread & !mask, 0);
                assert_eq!(extract(spread, mask), bits);
            }
        }
    }
}
