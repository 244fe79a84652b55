//! The batch kernels compiled with AVX2 and with AVX-512BW enabled, the hand-written AVX-512
//! VBMI kernels, and the run-time check that the CPU has them (the hand-written AVX2 split
//! kernel lives in `simd`, which needs no `std`).
//!
//! Calling a `#[target_feature]` function is `unsafe` because running AVX2 instructions on a
//! CPU without AVX2 is undefined behaviour. Each call below is made only after
//! `is_x86_feature_detected!` has confirmed the features the callee enables. The packed AVX2
//! and AVX-512 functions and the split AVX-512 one contain no `unsafe`: they call the scalar
//! kernels, inlined and compiled at the wider vector width. The VBMI kernels load and store
//! whole vectors through raw pointers, each access bounds-checked by the loop that makes it
//! (see the `SAFETY` comments).
//!
//! The VBMI kernel, per 32 boards (one 16-bit lane per set): `vpermb` with the set itself as
//! the index picks byte `set & 63` of [`LINE_TABLE`], a variable shift by `set >> 6` brings
//! the set's bit to bit 0; the same for O, a ternary-logic op joins them, a compare sets the
//! "full" bit, and one narrowing store writes 32 verdicts: 17 instructions, where the shift
//! kernel compiled for AVX-512 spends 48.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_cmpeq_epi16_mask, _mm512_cmpeq_epi32_mask,
    _mm512_cvtepi16_epi8, _mm512_cvtepi32_epi8, _mm512_loadu_si512, _mm512_mask_add_epi16,
    _mm512_mask_or_epi32, _mm512_or_si512, _mm512_permutexvar_epi8, _mm512_set1_epi16,
    _mm512_set1_epi32, _mm512_slli_epi16, _mm512_srli_epi16, _mm512_srli_epi32, _mm512_srlv_epi16,
    _mm512_ternarylogic_epi32,
};

use super::{
    BoardWord, Kernel, LINE_TABLE, Verdict, packed_kernel, simd, split_kernel, split_portable,
};

/// Whether the CPU has every feature `kernel`'s build enables.
pub(super) fn is_available(kernel: Kernel) -> bool {
    match kernel {
        Kernel::Portable => true,
        Kernel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
        Kernel::Avx512 => {
            std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
        }
        Kernel::Avx512Vbmi => {
            is_available(Kernel::Avx512) && std::arch::is_x86_feature_detected!("avx512vbmi")
        }
    }
}

/// The split kernel `kernel` names, or the portable one if the CPU lacks it.
pub(super) fn split(kernel: Kernel, xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    match kernel {
        // SAFETY: the guard checked `is_available(Kernel::Avx2)`: the CPU has AVX2.
        Kernel::Avx2 if is_available(kernel) => unsafe { simd::split_avx2(xs, os, out) },
        // SAFETY: the guard checked that the CPU has AVX-512F and AVX-512BW.
        Kernel::Avx512 if is_available(kernel) => unsafe { split_avx512(xs, os, out) },
        // SAFETY: the guard checked that the CPU has AVX-512F, AVX-512BW and AVX-512 VBMI.
        Kernel::Avx512Vbmi if is_available(kernel) => unsafe { split_vbmi(xs, os, out) },
        _ => split_portable(xs, os, out),
    }
}

/// [`packed_kernel`] at `kernel`'s width, or the portable build if the CPU lacks it.
pub(super) fn packed(kernel: Kernel, boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    match kernel {
        // SAFETY: as in `split`.
        Kernel::Avx2 if is_available(kernel) => unsafe { packed_avx2(boards, out) },
        // SAFETY: as in `split`.
        Kernel::Avx512 if is_available(kernel) => unsafe { packed_avx512(boards, out) },
        // SAFETY: as in `split`.
        Kernel::Avx512Vbmi if is_available(kernel) => unsafe { packed_vbmi(boards, out) },
        _ => packed_kernel(boards, out),
    }
}

#[target_feature(enable = "avx512f,avx512bw")]
fn split_avx512(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    split_kernel(xs, os, out)
}

#[target_feature(enable = "avx2")]
fn packed_avx2(boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    packed_kernel(boards, out)
}

#[target_feature(enable = "avx512f,avx512bw")]
fn packed_avx512(boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    packed_kernel(boards, out)
}

/// [`LINE_TABLE`] in a register.
#[inline]
#[target_feature(enable = "avx512f")]
fn line_table() -> __m512i {
    // SAFETY: `LINE_TABLE` is 64 bytes, exactly one unaligned 512-bit load.
    unsafe { _mm512_loadu_si512(LINE_TABLE.as_ptr().cast()) }
}

/// For each 16-bit lane holding a 9-bit set: bit 0 says whether the set holds a line; bits
/// 1..16 are garbage (the caller masks them).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn line_bits(table: __m512i, sets: __m512i) -> __m512i {
    // `vpermb` reads the low 6 bits of each index byte: the low byte of a lane picks byte
    // `set & 63`, the high byte (`set >> 8`, 0 or 1) some byte that the shift below moves
    // above bit 7, out of the way.
    let bytes = _mm512_permutexvar_epi8(sets, table);
    _mm512_srlv_epi16(bytes, _mm512_srli_epi16::<6>(sets))
}

/// The split kernel on AVX-512 VBMI: 32 boards per step, then the portable kernel on the tail.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn split_vbmi(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    const LANES: usize = 32;
    let n = xs.len().min(os.len()).min(out.len());
    let table = line_table();
    let (nine, two, four) = (
        _mm512_set1_epi16(0x1ff),
        _mm512_set1_epi16(2),
        _mm512_set1_epi16(4),
    );
    let mut i = 0;
    while i + LANES <= n {
        // SAFETY: `i + 32 <= n`, and `n` is at most the length of `xs`, `os` and `out`: the
        // loads read 32 `u16`s inside `xs` and `os`, and the store writes 32 bytes inside
        // `out` (`Verdict` is `repr(transparent)` over `u8`). Unaligned loads and stores.
        let (x, o) = unsafe {
            (
                _mm512_loadu_si512(xs.as_ptr().add(i).cast()),
                _mm512_loadu_si512(os.as_ptr().add(i).cast()),
            )
        };
        let x_line = line_bits(table, x);
        let o_line = _mm512_slli_epi16::<1>(line_bits(table, o));
        // 0xF8 = A | (B & C) in the 0xF0/0xCC/0xAA convention: (x_line & 1) | (o_line & 2).
        let lines = _mm512_ternarylogic_epi32::<0xF8>(
            _mm512_and_si512(x_line, _mm512_set1_epi16(1)),
            o_line,
            two,
        );
        let full = _mm512_cmpeq_epi16_mask(_mm512_and_si512(_mm512_or_si512(x, o), nine), nine);
        // Adding 4 to lanes holding 0 to 3 sets bit 2 (AVX-512BW has no masked 16-bit OR).
        let verdicts = _mm512_cvtepi16_epi8(_mm512_mask_add_epi16(lines, full, lines, four));
        // SAFETY: as above.
        unsafe {
            core::arch::x86_64::_mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), verdicts);
        }
        i += LANES;
    }
    i + split_kernel(&xs[i..n], &os[i..n], &mut out[i..n])
}

/// The packed kernel on AVX-512 VBMI: a [`BoardWord`] is two 16-bit lanes (X's set, O's
/// set), so the same lookup serves both players of 16 boards per step.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn packed_vbmi(boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    const LANES: usize = 16;
    let n = boards.len().min(out.len());
    let table = line_table();
    let (nine, four) = (_mm512_set1_epi32(0x1ff), _mm512_set1_epi32(4));
    let mut i = 0;
    while i + LANES <= n {
        // SAFETY: `i + 16 <= n <= boards.len()`: 16 `BoardWord`s (`repr(transparent)` over
        // `u32`) inside `boards`. Unaligned load.
        let words = unsafe { _mm512_loadu_si512(boards.as_ptr().add(i).cast()) };
        // Bit 0 of each half: X's line (bit 0), O's line (bit 16).
        let halves = _mm512_and_si512(line_bits(table, words), _mm512_set1_epi32(0x1_0001));
        let lines = _mm512_or_si512(halves, _mm512_srli_epi32::<15>(halves));
        let occupied = _mm512_or_si512(words, _mm512_srli_epi32::<16>(words));
        let full = _mm512_cmpeq_epi32_mask(_mm512_and_si512(occupied, nine), nine);
        // Narrowing keeps the low byte of each lane: bits 0..3, the verdict.
        let verdicts = _mm512_cvtepi32_epi8(_mm512_mask_or_epi32(lines, full, lines, four));
        // SAFETY: `i + 16 <= n <= out.len()`: 16 bytes inside `out` (`Verdict` is
        // `repr(transparent)` over `u8`). Unaligned store.
        unsafe {
            core::arch::x86_64::_mm_storeu_si128(out.as_mut_ptr().add(i).cast(), verdicts);
        }
        i += LANES;
    }
    i + packed_kernel(&boards[i..n], &mut out[i..n])
}
