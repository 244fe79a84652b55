//! The per-item kernels of the vectorised API, free of Python: codes of any integer type
//! turned into grid indices and answered from the tables ([`map_grids`]), `bitboards` codes
//! answered from their two sets ([`answer_by_sets`]), grid indices into cells
//! ([`boards_of_grids`]). The Python module (`python/src/grid.rs`) runs them on numpy arrays;
//! the Polars plugin (`extensions/polars/`) on Arrow arrays.

use crate::tables::{BySets, INVALID, Kind, Tables};

/// An integer that may or may not fit a code: negative and huge values become `u32::MAX`,
/// which no encoding accepts.
pub trait Code: Copy + Send + Sync {
    /// The value as a `u32`, or `u32::MAX` when it does not fit.
    fn to_code(self) -> u32;

    /// The value's bits, sign-extended to 64 (`as u64`): a negative value has bit 63 set, so
    /// a range check on the low bits needs no separate sign test.
    fn to_bits(self) -> u64;

    /// The value as an `i8`, or `i8::MIN` (not a cell, a player or a move) when it does not fit.
    fn to_i8(self) -> i8;
}

macro_rules! signed_code {
    ($($t:ty),*) => {$(
        impl Code for $t {
            #[inline]
            fn to_code(self) -> u32 {
                u32::try_from(self).unwrap_or(u32::MAX)
            }

            #[inline]
            fn to_bits(self) -> u64 {
                self as u64
            }

            #[inline]
            fn to_i8(self) -> i8 {
                i8::try_from(self).unwrap_or(i8::MIN)
            }
        }
    )*};
}
signed_code!(i8, i16, i32, i64, u64);

macro_rules! unsigned_code {
    ($($t:ty),*) => {$(
        impl Code for $t {
            #[inline]
            fn to_code(self) -> u32 {
                u32::from(self)
            }

            #[inline]
            fn to_bits(self) -> u64 {
                u64::from(self)
            }

            #[inline]
            fn to_i8(self) -> i8 {
                i8::try_from(self).unwrap_or(i8::MIN)
            }
        }
    )*};
}
unsigned_code!(u8, u16, u32);

/// Marks a partial grid index as not a grid: any sum with it is at least [`INVALID`].
const NOT_A_GRID: u32 = 1 << 16;

/// `BASE4_PART[p][bits]`: the base-3 value of the 2-bit cells in `bits` (part `p`: cells 0-4
/// from the low 10 bits of a base-4 code, or cells 5-8 from its high 8 bits, scaled by
/// `3^5`), or [`NOT_A_GRID`] when a cell has pattern `11`: 5 KiB.
static BASE4_PART: [[u32; 1024]; 2] = {
    let mut table = [[0u32; 1024]; 2];
    let mut part = 0;
    while part < 2 {
        let (cells, scale) = if part == 0 { (5, 1) } else { (4, 243) };
        let mut bits = 0;
        while bits < 1 << (2 * cells) {
            let (mut value, mut place, mut i, mut bad) = (0, scale, 0, false);
            while i < cells {
                let cell = bits >> (2 * i) & 3;
                bad |= cell == 3;
                value += cell * place;
                place *= 3;
                i += 1;
            }
            table[part][bits] = if bad { NOT_A_GRID } else { value as u32 };
            bits += 1;
        }
        part += 1;
    }
    table
};

/// The grid index of a base-4 code, from its bits (sign-extended, as [`Code::to_bits`]): two
/// lookups in [`BASE4_PART`], no 2^18-entry table.
#[inline]
fn grid_of_base4(bits: u64) -> u32 {
    let grid = BASE4_PART[0][bits as usize & 0x3ff] + BASE4_PART[1][(bits >> 10) as usize & 0xff];
    // Past 18 bits (or negative), or a pattern 11, is not a grid.
    std::hint::select_unpredictable(bits >> 18 != 0, INVALID, grid.min(INVALID))
}

/// `answer(grid index)` for each code of one encoding: the grid index is the code itself for
/// `base3`; for `base4`, two lookups in 5 KiB of tables (measured faster than one in its
/// 512 KiB code-indexed table: 1.02 against 0.90 x 10^9 statuses per second); one lookup in a
/// code-indexed table for the others. For `bitboards` the 512 KiB table measured faster than
/// two set lookups and an overlap test as a first pass (0.80-0.85 against 0.72 x 10^9); the
/// answers that depend only on counts and lines (`FactTables`) and the conversions to
/// `base3`, `base4` and `bitboards` skip the grid index altogether ([`by_sets`]). The same
/// direct path for `base4` codes (a 2 KiB table giving each half's X and O cells, the halves
/// ORed into a `bitboards` code: four lookups in all, where this path has three) measured
/// slower than this one, even before [`by_grid`] fused it: 0.55 against 0.76 x 10^9 statuses
/// per second, 0.52 against 0.84 x 10^9 conversions to `base3`.
#[inline]
pub fn map_grids<C: Code, O>(
    t: &Tables,
    kind: Kind,
    codes: &[C],
    out: &mut [O],
    answer: impl Fn(u32) -> O,
) {
    if kind == Kind::Base3 {
        map_unrolled(codes, out, |c| answer(c.to_code().min(INVALID)));
    } else if kind == Kind::Base4 {
        map_unrolled(codes, out, |c| answer(grid_of_base4(c.to_bits())));
    } else {
        let table = &*t.grid_of_code[kind as usize];
        let limit = kind.limit();
        map_unrolled(codes, out, |c| {
            answer(u32::from(table[c.to_code().min(limit) as usize]))
        });
    }
}

/// `answer(x[X's set] + o[O's set])` for each `bitboards` code, read from the code's two 9-bit
/// sets with no grid index (`sets` is one of [`BySets`]); `invalid` for a value that is not a
/// code (bits past 18, a negative value, or a cell both players hold).
#[inline]
pub fn answer_by_sets<C: Code, P: Copy + Into<u32>, O: Copy>(
    codes: &[C],
    sets: &BySets<P>,
    out: &mut [O],
    answer: impl Fn(u32) -> O,
    invalid: O,
) {
    let one = |c: C| {
        let code = c.to_bits();
        let high = code >> 9;
        let (x, o) = (sets.x[code as usize & 0x1ff], sets.o[high as usize & 0x1ff]);
        let value = answer(x.into() + o.into());
        // Not a code: a bit of `high` past O's set (18 bits or more, or negative), or one of
        // O's cells that X holds too; one AND tests both.
        let bad = high & (code | !0x1ff) != 0;
        // A select, not a branch: codes mixed with non-codes cost no mispredictions.
        std::hint::select_unpredictable(bad, invalid, value)
    };
    map_unrolled(codes, out, one);
}

/// `out[i] = f(src[i])`, four items per iteration: the loop's own increment and test are
/// amortised, and a short loop body is less at the mercy of where it lands in the code (a
/// one-item loop of lookups by grid index measured 25% slower in a build where an unrelated
/// change had moved it across a 32-byte boundary).
#[inline]
pub fn map_unrolled<I: Copy, O>(src: &[I], out: &mut [O], f: impl Fn(I) -> O) {
    let (mut outs, mut ins) = (out.chunks_exact_mut(4), src.chunks_exact(4));
    for (dst, src) in (&mut outs).zip(&mut ins) {
        for (slot, &item) in dst.iter_mut().zip(src) {
            *slot = f(item);
        }
    }
    for (slot, &item) in outs.into_remainder().iter_mut().zip(ins.remainder()) {
        *slot = f(item);
    }
}

/// Boards of grid indices (rows of -1 for [`INVALID`]): one `u64` and one byte per row.
pub fn boards_of_grids(t: &Tables, grids: &[u32], rows: &mut [i8]) {
    for (row, &g) in rows.chunks_exact_mut(9).zip(grids) {
        for (cell, byte) in row.iter_mut().zip(t.head[g as usize].to_le_bytes()) {
            *cell = byte as i8;
        }
        row[8] = t.last[g as usize];
    }
}
