//! The hand-written split kernels for SSE2 (the x86-64 baseline, so the portable kernel there)
//! and AVX2, without `std`: the AVX2 one is called by [`super::x86`] after run-time detection,
//! and directly by the portable kernel when the build itself enables AVX2.
//!
//! Both work on bytes: a 9-bit set is split into its low 8 cells (a byte) and cell 8 (a 0/1
//! byte), so one 16-bit shift or one byte shuffle serves twice the sets of a 16-bit lane.
//!
//! - SSE2, per 16 boards: unsigned packs (`packuswb`) make byte vectors of the 16 X sets'
//!   cells 0-7, O's, and both players' cell 8; each byte vector is tested for lines with 16-bit
//!   shifts and byte masks (21 instructions, every used bit position below the byte's top, so
//!   nothing shifted in from the next byte is read); a byte min, a compare and adds build the
//!   16 verdicts in board order: 68 instructions as compiled (register copies aside), where
//!   the `shift` kernel compiled for SSE2 spends 98.
//! - AVX2, per 16 boards: two byte blends make one 16-bit lane per board holding X's cells
//!   0-7 in its low byte and O's in its high byte, so each step below tests both players:
//!   `vpshufb` looks up the low nibble (cells 0-3) and the high nibble (cells 4-7) in two
//!   16-byte tables, whose bit `i` says whether line `i`'s cells in that nibble are all
//!   there, and a third lookup on cell 8 clears the three lines through cell 8 when it is
//!   empty; the AND of the three is non-zero exactly when the player holds a line. A byte min
//!   and one `vpmaddubsw` give `x + 2o`, a compare adds "full": 41 instructions per 32 boards
//!   as compiled, where the `shift` kernel compiled for AVX2 spends 50 per 16. [`super::x86`]
//!   runs the same design at 512 bits on AVX-512BW (`Kernel::Avx512`, [`NIBBLE_TABLES`] shared):
//!   34 instructions per 64 boards.
//!
//! The loads and stores are unaligned vector accesses through raw pointers, each inside the
//! loop bound that makes it (see the `SAFETY` comments); the tail goes to the scalar kernel.
#![allow(unsafe_code)]

#[cfg(all(target_feature = "sse2", not(target_feature = "avx2")))]
use core::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_and_si128, _mm_cmpeq_epi8, _mm_min_epu8, _mm_or_si128,
    _mm_packus_epi16, _mm_set1_epi8, _mm_set1_epi16, _mm_slli_epi16, _mm_srli_epi16,
};
#[cfg(any(feature = "std", target_feature = "avx2"))]
use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_blendv_epi8, _mm256_broadcastsi128_si256,
    _mm256_castsi256_si128, _mm256_cmpeq_epi16, _mm256_loadu_si256, _mm256_maddubs_epi16,
    _mm256_min_epu8, _mm256_or_si256, _mm256_packus_epi16, _mm256_permute4x64_epi64,
    _mm256_set1_epi8, _mm256_set1_epi16, _mm256_shuffle_epi8, _mm256_slli_epi16, _mm256_srli_epi16,
    _mm256_storeu_si256,
};
use core::arch::x86_64::{_mm_loadu_si128, _mm_storeu_si128};

use super::{Verdict, split_kernel};
#[cfg(any(feature = "std", target_feature = "avx2"))]
use crate::Line;

/// The widest kernel here that the build itself enables (no run-time detection): AVX2, SSE2,
/// or the scalar kernel if the build disables SSE2.
#[inline]
pub(super) fn split_static(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    // SAFETY: the build enables AVX2, so every CPU it runs on has it.
    #[cfg(target_feature = "avx2")]
    return unsafe { split_avx2(xs, os, out) };
    // SAFETY: the build enables SSE2 (the x86-64 baseline), so every CPU it runs on has it.
    #[cfg(all(target_feature = "sse2", not(target_feature = "avx2")))]
    return unsafe { split_sse2(xs, os, out) };
    #[cfg(not(target_feature = "sse2"))]
    split_kernel(xs, os, out)
}

/// Bit `i` set when every cell of line `i` inside `part` (a set of cells) is in `set`.
#[cfg(any(feature = "std", target_feature = "avx2"))]
const fn lines_within(part: u16, set: u16) -> u8 {
    let mut lines = 0;
    let mut i = 0;
    while i < 8 {
        if Line::ALL[i].cells().bits() & part & !set == 0 {
            lines |= 1 << i;
        }
        i += 1;
    }
    lines
}

/// A `vpshufb` table over the 4 cells from `shift`: entry `n` holds [`lines_within`] those
/// cells, of the set `n << shift`. Cell 8's table (`shift` 8) uses entries 0 and 1 only.
#[cfg(any(feature = "std", target_feature = "avx2"))]
const fn nibble_table(shift: u32) -> [u8; 16] {
    let mut table = [0u8; 16];
    let mut n = 0;
    while n < 16 {
        table[n] = lines_within(0xf << shift & 0x1ff, (n as u16) << shift);
        n += 1;
    }
    table
}

/// The AVX2 and AVX-512BW kernels' tables: cells 0-3, cells 4-7, cell 8. Only bit 0 of
/// an index into cell 8's table matters (`lines_within` reads bit 8 of `n << 8` alone).
#[cfg(any(feature = "std", target_feature = "avx2"))]
pub(super) const NIBBLE_TABLES: [[u8; 16]; 3] = [nibble_table(0), nibble_table(4), nibble_table(8)];

/// A 16-byte table in both 128-bit halves of a vector (`vpshufb` looks up within each half).
#[cfg(any(feature = "std", target_feature = "avx2"))]
#[inline]
#[target_feature(enable = "avx2")]
fn table(bytes: &[u8; 16]) -> __m256i {
    // SAFETY: `bytes` is 16 bytes, exactly one unaligned 128-bit load.
    _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) })
}

/// The AVX2 kernel's tables in registers.
#[cfg(any(feature = "std", target_feature = "avx2"))]
#[derive(Clone, Copy)]
struct Tables {
    low: __m256i,
    high: __m256i,
    cell_8: __m256i,
}

/// The verdicts of 16 boards, one per 16-bit lane (values 0 to 7), from their X and O sets.
#[cfg(any(feature = "std", target_feature = "avx2"))]
#[inline]
#[target_feature(enable = "avx2")]
fn verdicts_avx2(t: Tables, x: __m256i, o: __m256i) -> __m256i {
    let high_byte = _mm256_set1_epi16(0xff00_u16 as i16);
    // Per board: X's cells 0-7 in the low byte, O's in the high byte; then cell 8 of each
    // (bits 9-15 of a set are clear, so `x >> 8` and `o`'s high byte are 0 or 1).
    let cells = _mm256_blendv_epi8(x, _mm256_slli_epi16::<8>(o), high_byte);
    let cell_8 = _mm256_blendv_epi8(_mm256_srli_epi16::<8>(x), o, high_byte);
    let nibble = _mm256_set1_epi8(0x0f);
    let low = _mm256_shuffle_epi8(t.low, _mm256_and_si256(cells, nibble));
    let high = _mm256_shuffle_epi8(
        t.high,
        _mm256_and_si256(_mm256_srli_epi16::<4>(cells), nibble),
    );
    let lines = _mm256_and_si256(
        _mm256_and_si256(low, high),
        _mm256_shuffle_epi8(t.cell_8, cell_8),
    );
    // 1 in each byte holding a line; then X's byte + 2 * O's byte.
    let held = _mm256_min_epu8(lines, _mm256_set1_epi8(1));
    let winners = _mm256_maddubs_epi16(held, _mm256_set1_epi16(0x0201));
    let full = _mm256_cmpeq_epi16(_mm256_or_si256(x, o), _mm256_set1_epi16(0x1ff));
    _mm256_or_si256(winners, _mm256_and_si256(full, _mm256_set1_epi16(4)))
}

/// The split kernel on AVX2: 32 boards per step, then 16, then the scalar kernel on the tail.
#[cfg(any(feature = "std", target_feature = "avx2"))]
#[target_feature(enable = "avx2")]
pub(super) fn split_avx2(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    let n = xs.len().min(os.len()).min(out.len());
    let t = Tables {
        low: table(&NIBBLE_TABLES[0]),
        high: table(&NIBBLE_TABLES[1]),
        cell_8: table(&NIBBLE_TABLES[2]),
    };
    let (x, o, out_ptr) = (xs.as_ptr(), os.as_ptr(), out.as_mut_ptr());
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: `i + 32 <= n`, and `n` is at most the length of `xs`, `os` and `out`: the
        // loads read 32 `u16`s inside `xs` and `os`, and the store writes 32 bytes inside
        // `out` (`Verdict` is `repr(transparent)` over `u8`). Unaligned loads and stores.
        unsafe {
            let first = verdicts_avx2(
                t,
                _mm256_loadu_si256(x.add(i).cast()),
                _mm256_loadu_si256(o.add(i).cast()),
            );
            let second = verdicts_avx2(
                t,
                _mm256_loadu_si256(x.add(i + 16).cast()),
                _mm256_loadu_si256(o.add(i + 16).cast()),
            );
            // The pack interleaves the 128-bit halves (boards 0-7, 16-23, 8-15, 24-31); the
            // permute puts the four 64-bit quarters back in board order.
            let bytes =
                _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(first, second));
            _mm256_storeu_si256(out_ptr.add(i).cast(), bytes);
        }
        i += 32;
    }
    if i + 16 <= n {
        // SAFETY: as above, with 16 `u16`s read from each of `xs` and `os` and 16 bytes
        // written to `out`.
        unsafe {
            let v = verdicts_avx2(
                t,
                _mm256_loadu_si256(x.add(i).cast()),
                _mm256_loadu_si256(o.add(i).cast()),
            );
            let bytes = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(v, v));
            _mm_storeu_si128(out_ptr.add(i).cast(), _mm256_castsi256_si128(bytes));
        }
        i += 16;
    }
    i + split_kernel(&xs[i..n], &os[i..n], &mut out[i..n])
}

/// One byte per set in `cells` (cells 0-7) and `cell_8` (0 or 1): non-zero exactly when the
/// set holds a line. 16-bit shifts move the next byte's low bits into a byte's top bits; each
/// bit read below sits low enough that its shifted inputs all come from its own byte.
#[cfg(all(target_feature = "sse2", not(target_feature = "avx2")))]
#[inline]
#[target_feature(enable = "sse2")]
fn lines_sse2(cells: __m128i, cell_8: __m128i) -> __m128i {
    let bytes = _mm_set1_epi8;
    let (s1, s2, s3, s4) = (
        _mm_srli_epi16::<1>(cells),
        _mm_srli_epi16::<2>(cells),
        _mm_srli_epi16::<3>(cells),
        _mm_srli_epi16::<4>(cells),
    );
    // Bit i of `pair1`: cells i and i+1; `pair3`: i and i+3; `pair4`: i and i+4.
    let (pair1, pair3, pair4) = (
        _mm_and_si128(cells, s1),
        _mm_and_si128(cells, s3),
        _mm_and_si128(cells, s4),
    );
    // Rows 0-2 and 3-5 (bits 0 and 3 of pair1 & s2), the anti-diagonal 2-4-6 (bit 2 of
    // pair4 & s2).
    let rows = _mm_and_si128(
        s2,
        _mm_or_si128(
            _mm_and_si128(pair1, bytes(0b1001)),
            _mm_and_si128(pair4, bytes(0b100)),
        ),
    );
    // Columns 0-3-6 and 1-4-7: bits 0 and 1 of pair3 & pair3 >> 3.
    let columns = _mm_and_si128(
        _mm_and_si128(pair3, _mm_srli_epi16::<3>(pair3)),
        bytes(0b11),
    );
    // The lines through cell 8: 6-7 (bit 6 of pair1), 2-5 (bit 2 of pair3), 0-4 (bit 0 of
    // pair4), moved to bit 0 and kept where cell 8 is there.
    let through_8 = _mm_and_si128(
        _mm_or_si128(
            _mm_or_si128(_mm_srli_epi16::<6>(pair1), _mm_srli_epi16::<2>(pair3)),
            pair4,
        ),
        cell_8,
    );
    _mm_or_si128(_mm_or_si128(rows, columns), through_8)
}

/// Cells 0-7 of 16 sets (two vectors of 8), one byte each.
#[cfg(all(target_feature = "sse2", not(target_feature = "avx2")))]
#[inline]
#[target_feature(enable = "sse2")]
fn low_cells(a: __m128i, b: __m128i) -> __m128i {
    let low_byte = _mm_set1_epi16(0xff);
    _mm_packus_epi16(_mm_and_si128(a, low_byte), _mm_and_si128(b, low_byte))
}

/// Cell 8 of 16 sets, one byte each: bits 9-15 of a set are clear, so `set >> 8` is 0 or 1.
#[cfg(all(target_feature = "sse2", not(target_feature = "avx2")))]
#[inline]
#[target_feature(enable = "sse2")]
fn cell_8(a: __m128i, b: __m128i) -> __m128i {
    _mm_packus_epi16(_mm_srli_epi16::<8>(a), _mm_srli_epi16::<8>(b))
}

/// The split kernel on SSE2: 16 boards per step, then the scalar kernel on the tail.
#[cfg(all(target_feature = "sse2", not(target_feature = "avx2")))]
#[target_feature(enable = "sse2")]
pub(super) fn split_sse2(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    let n = xs.len().min(os.len()).min(out.len());
    let (x, o, out_ptr) = (xs.as_ptr(), os.as_ptr(), out.as_mut_ptr());
    let one = _mm_set1_epi8(1);
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: `i + 16 <= n`, and `n` is at most the length of `xs`, `os` and `out`: the
        // loads read 16 `u16`s inside `xs` and `os`, and the store writes 16 bytes inside
        // `out` (`Verdict` is `repr(transparent)` over `u8`). Unaligned loads and stores.
        let (xa, xb, oa, ob) = unsafe {
            (
                _mm_loadu_si128(x.add(i).cast()),
                _mm_loadu_si128(x.add(i + 8).cast()),
                _mm_loadu_si128(o.add(i).cast()),
                _mm_loadu_si128(o.add(i + 8).cast()),
            )
        };
        let (x_cells, o_cells) = (low_cells(xa, xb), low_cells(oa, ob));
        let (x_8, o_8) = (cell_8(xa, xb), cell_8(oa, ob));
        let x_line = _mm_min_epu8(lines_sse2(x_cells, x_8), one);
        let o_line = _mm_min_epu8(lines_sse2(o_cells, o_8), one);
        // Full: cells 0-7 all taken (0xff) and cell 8 taken (1), as 0 or 1 per byte.
        let full = _mm_and_si128(
            _mm_cmpeq_epi8(_mm_or_si128(x_cells, o_cells), _mm_set1_epi8(-1)),
            _mm_or_si128(x_8, o_8),
        );
        // x + 2 * (o + 2 * full): every byte stays below 8, so no shift crosses a byte.
        let o_full = _mm_add_epi8(o_line, _mm_slli_epi16::<1>(full));
        let verdicts = _mm_add_epi8(x_line, _mm_add_epi8(o_full, o_full));
        // SAFETY: as above.
        unsafe { _mm_storeu_si128(out_ptr.add(i).cast(), verdicts) };
        i += 16;
    }
    i + split_kernel(&xs[i..n], &os[i..n], &mut out[i..n])
}
