//! The block number of a block from its CRC: CRC-32C is affine over GF(2), so for a fixed
//! message length the CRC changes by a linear function of the number's bits, which can be
//! inverted. Salvage uses this to name a block wherever it sits, instead of trying every
//! number.

/// The reflected CRC-32C polynomial.
const POLY: u32 = 0x82F6_3B78;

/// A linear map on 32-bit CRC states: entry `i` is the image of bit `i`.
type Op = [u32; 32];

fn apply(op: &Op, mut v: u32) -> u32 {
    let mut out = 0;
    while v != 0 {
        out ^= op[v.trailing_zeros() as usize];
        v &= v - 1;
    }
    out
}

/// `a` after `b`.
fn compose(a: &Op, b: &Op) -> Op {
    core::array::from_fn(|i| apply(a, b[i]))
}

/// `Z^(2^i)` for `i` in `0..64`, where `Z` is one zero bit (a reflected CRC step is
/// `s >> 1`, xor the polynomial when the bit shifted out is set); computed once.
fn powers() -> &'static [Op; 64] {
    static POWERS: std::sync::OnceLock<[Op; 64]> = std::sync::OnceLock::new();
    POWERS.get_or_init(|| {
        let mut table = [[0u32; 32]; 64];
        table[0] = core::array::from_fn(|i| if i == 0 { POLY } else { 1 << (i - 1) });
        for i in 1..64 {
            table[i] = compose(&table[i - 1], &table[i - 1]);
        }
        table
    })
}

/// The state change of `bits` zero bits.
fn zeros(bits: u64) -> Op {
    let mut result: Op = core::array::from_fn(|i| 1 << i);
    for (i, power) in powers().iter().enumerate() {
        if bits >> i & 1 == 1 {
            result = compose(power, &result);
        }
    }
    result
}

/// For messages `number: u64 || rest` with `rest` of a fixed length, the number (below
/// `2^32`) whose CRC is a given value.
#[derive(Clone, Debug)]
pub(super) struct NumberSolver {
    /// Bytes after the number.
    rest: usize,
    /// Number bits to CRC change.
    #[cfg(test)]
    forward: Op,
    /// CRC change to number bits.
    inverse: Op,
}

impl NumberSolver {
    /// The solver for numbers followed by `rest` bytes.
    pub(super) fn new(rest: usize) -> NumberSolver {
        // Byte `i` of a message of `t` bytes changes the CRC by `Z^(8 (t - i))` of itself, where
        // `Z` is one zero bit; here `t = 8 + rest` and only bytes 0 to 3 (a number below 2^32)
        // vary: `Z^(8 (rest + 4))` after `Z^(8 (4 - i))`.
        let outer = zeros(8 * (rest as u64 + 4));
        let inner: [Op; 4] = core::array::from_fn(|i| zeros(8 * (4 - i as u64)));
        let forward: Op =
            core::array::from_fn(|j| apply(&outer, apply(&inner[j / 8], 1 << (j % 8))));
        // Gauss-Jordan elimination over GF(2): pairs (image, preimage).
        let mut rows: [(u32, u32); 32] = core::array::from_fn(|j| (forward[j], 1 << j));
        for bit in 0..32 {
            // The 32 bits of a number fill a CRC state one to one (a CRC of four bytes is a
            // bijection), so a pivot always exists.
            if let Some(pivot) = (bit..32).find(|&r| rows[r].0 >> bit & 1 == 1) {
                rows.swap(bit, pivot);
                let (image, pre) = rows[bit];
                for (r, row) in rows.iter_mut().enumerate() {
                    if r != bit && row.0 >> bit & 1 == 1 {
                        row.0 ^= image;
                        row.1 ^= pre;
                    }
                }
            }
        }
        NumberSolver {
            rest,
            #[cfg(test)]
            forward,
            inverse: core::array::from_fn(|i| rows[i].1),
        }
    }

    /// Bytes after the number.
    pub(super) fn rest(&self) -> usize {
        self.rest
    }

    /// The number `k` with `crc(k || rest) = crc(0 || rest) ^ change`.
    pub(super) fn solve(&self, change: u32) -> u32 {
        apply(&self.inverse, change)
    }

    /// `crc(k || rest) ^ crc(0 || rest)`.
    #[cfg(test)]
    pub(super) fn change(&self, number: u32) -> u32 {
        apply(&self.forward, number)
    }
}

#[cfg(test)]
mod tests {
    use super::super::crc32c;
    use super::*;

    #[test]
    fn solves_the_number_of_any_message() {
        let mut next = crate::testing::xorshift(0x1234_5678_9abc_def1u64);
        for rest in [0, 1, 4, 12, 13, 100, 4_104, 65_528 + 4] {
            let solver = NumberSolver::new(rest);
            assert_eq!(solver.rest(), rest);
            for _ in 0..20 {
                let bytes: Vec<u8> = (0..rest).map(|_| next() as u8).collect();
                let number = next() as u32;
                let crc = crc32c(&[&u64::from(number).to_le_bytes(), &bytes]);
                let zero = crc32c(&[&0u64.to_le_bytes(), &bytes]);
                assert_eq!(solver.change(number), crc ^ zero, "{rest}");
                assert_eq!(solver.solve(crc ^ zero), number, "{rest}");
            }
            for number in [0, 1, 2, 0x8000_0000, u32::MAX] {
                assert_eq!(solver.solve(solver.change(number)), number);
            }
        }
    }
}
