//! The hand-written AVX-512BW and AVX-512 VBMI batch kernels, the packed kernel compiled with
//! AVX2 enabled, and the run-time check that the CPU has them (the hand-written AVX2 split
//! kernel lives in `simd`, which needs no `std`).
//!
//! Calling a `#[target_feature]` function is `unsafe` because running AVX2 instructions on a
//! CPU without AVX2 is undefined behaviour. Each call below is made only after
//! `is_x86_feature_detected!` has confirmed the features the callee enables. The packed AVX2
//! function contains no `unsafe`: it calls the scalar kernel, inlined and compiled at the wider
//! vector width. The AVX-512 kernels load and store whole vectors through raw pointers, each
//! access bounds-checked by the loop that makes it (see the `SAFETY` comments), and run the
//! scalar kernel on the tail.
//!
//! The AVX-512BW split kernel (`Kernel::Avx512`, no VBMI) is `simd`'s AVX2 design at 512 bits,
//! 32 boards per vector and two vectors per step: one 16-bit lane per board holds X's cells 0-7
//! in its low byte and O's in its high byte (a shift and a ternary-logic op; cell 8 of each the
//! same way), `vpshufb` looks up the low nibbles, the high nibbles and cell 8 in
//! `simd::NIBBLE_TABLES`, one ternary-logic op ANDs the three, a byte min and `vpmaddubsw` give
//! `x + 2o`, a compare into a mask register and a masked add give "full", and one pack and one
//! `vpermq` put 64 verdicts in board order: 34 instructions per 64 boards as compiled (17 per 32,
//! loads, stores and loop control aside), where the scalar kernel auto-vectorised for AVX-512BW
//! spent 40 per 32. The packed AVX-512BW kernel first splits 32 [`BoardWord`]s into X's and O's
//! sets with two `vpermt2w` (a word permute of two vectors, AVX-512BW), then runs the same step:
//! 38 per 64 boards, where the auto-vectorised [`Verdict::of`] spent 27 per 16.
//!
//! The VBMI kernel, per 32 boards (one 16-bit lane per set): `vpermb` with the set itself as
//! the index picks byte `set & 63` of [`LINE_TABLE`], a variable shift by `set >> 6` brings
//! the set's bit to bit 0; the same for O, a ternary-logic op joins them, a compare sets the
//! "full" bit, and one narrowing store writes 32 verdicts: 17 instructions, where the shift
//! kernel compiled for AVX-512 spends 48.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m512i, _mm_loadu_si128, _mm256_storeu_si256, _mm512_and_si512, _mm512_broadcast_i32x4,
    _mm512_cmpeq_epi16_mask, _mm512_cmpeq_epi32_mask, _mm512_cvtepi16_epi8, _mm512_cvtepi32_epi8,
    _mm512_loadu_si512, _mm512_maddubs_epi16, _mm512_mask_add_epi16, _mm512_mask_or_epi32,
    _mm512_min_epu8, _mm512_or_si512, _mm512_packus_epi16, _mm512_permutex2var_epi16,
    _mm512_permutexvar_epi8, _mm512_permutexvar_epi64, _mm512_set_epi64, _mm512_set1_epi8,
    _mm512_set1_epi16, _mm512_set1_epi32, _mm512_shuffle_epi8, _mm512_slli_epi16,
    _mm512_srli_epi16, _mm512_srli_epi32, _mm512_srlv_epi16, _mm512_storeu_si512,
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

/// The packed kernel `kernel` names, or the portable one ([`packed_kernel`]) if the CPU lacks
/// it.
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

/// A 16-byte table in each 128-bit quarter of a vector (`vpshufb` looks up within each).
#[inline]
#[target_feature(enable = "avx512f")]
fn nibble_table(bytes: &[u8; 16]) -> __m512i {
    // SAFETY: `bytes` is 16 bytes, exactly one unaligned 128-bit load.
    _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) })
}

/// The AVX-512BW kernels' registers: the tables ([`simd::NIBBLE_TABLES`]) and two
/// constants LLVM must not see.
#[derive(Clone, Copy)]
struct NibbleTables {
    low: __m512i,
    high: __m512i,
    cell_8: __m512i,
    /// 1 in every byte.
    one: __m512i,
    /// 4 in every 16-bit lane.
    four: __m512i,
}

impl NibbleTables {
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn new() -> NibbleTables {
        NibbleTables {
            low: nibble_table(&simd::NIBBLE_TABLES[0]),
            high: nibble_table(&simd::NIBBLE_TABLES[1]),
            cell_8: nibble_table(&simd::NIBBLE_TABLES[2]),
            // Opaque (`black_box`, once per call, outside the loop): knowing them, LLVM turns
            // `min(lines, 1)` into a byte test and a masked move, and the masked add of 4 into
            // an OR and a blend, two instructions each where one does (16 per 32 boards, not
            // 18; about 9% faster measured). Only speed depends on this, never the result.
            one: core::hint::black_box(_mm512_set1_epi8(1)),
            four: core::hint::black_box(_mm512_set1_epi16(4)),
        }
    }
}

/// The verdicts of 32 boards, one per 16-bit lane (values 0 to 7), from their X and O sets:
/// `simd::verdicts_avx2` at twice the width, with ternary-logic ops for its blends and its
/// three-way AND, and a compare into a mask register and a masked add for "full".
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn verdicts_bw(t: NibbleTables, x: __m512i, o: __m512i) -> __m512i {
    let low_byte = _mm512_set1_epi16(0x00ff);
    let high_byte = _mm512_set1_epi16(0xff00_u16 as i16);
    // In the 0xF0/0xCC/0xAA convention, 0xEC = (A & C) | B: X's cells 0-7 in the low byte of
    // each board's lane, O's in the high byte (`o << 8` has a clear low byte).
    let cells = _mm512_ternarylogic_epi32::<0xEC>(x, _mm512_slli_epi16::<8>(o), low_byte);
    // 0xF8 = A | (B & C): cell 8 of each, 0 or 1 per byte (bits 9-15 of a set are clear).
    let cell_8 = _mm512_ternarylogic_epi32::<0xF8>(_mm512_srli_epi16::<8>(x), o, high_byte);
    // `vpshufb` looks up bits 0-3 of an index byte in the 16-byte table of its 128-bit
    // quarter (bit 7 set gives 0): both players' low nibbles, high nibbles, cells 8.
    let nibble = _mm512_set1_epi8(0x0f);
    let low = _mm512_shuffle_epi8(t.low, _mm512_and_si512(cells, nibble));
    let high = _mm512_shuffle_epi8(
        t.high,
        _mm512_and_si512(_mm512_srli_epi16::<4>(cells), nibble),
    );
    // 0x80 = A & B & C: non-zero in each byte exactly when that player holds a line.
    let lines = _mm512_ternarylogic_epi32::<0x80>(low, high, _mm512_shuffle_epi8(t.cell_8, cell_8));
    // 1 in each byte holding a line; then X's byte + 2 * O's byte.
    let held = _mm512_min_epu8(lines, t.one);
    let winners = _mm512_maddubs_epi16(held, _mm512_set1_epi16(0x0201));
    let full = _mm512_cmpeq_epi16_mask(_mm512_or_si512(x, o), _mm512_set1_epi16(0x1ff));
    // Adding 4 to lanes holding 0 to 3 sets bit 2 (AVX-512BW has no masked 16-bit OR).
    _mm512_mask_add_epi16(winners, full, winners, t.four)
}

/// The split kernel on AVX-512BW: 64 boards per step, then 32, then the scalar kernel on the
/// tail.
#[target_feature(enable = "avx512f,avx512bw")]
fn split_avx512(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    let n = xs.len().min(os.len()).min(out.len());
    let t = NibbleTables::new();
    // The pack interleaves 64-bit quarters (boards 0-7, 32-39, 8-15, 40-47, ...); this
    // permute puts them back in board order.
    let order = _mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0);
    let (x, o, out_ptr) = (xs.as_ptr(), os.as_ptr(), out.as_mut_ptr());
    let mut i = 0;
    while i + 64 <= n {
        // SAFETY: `i + 64 <= n`, and `n` is at most the length of `xs`, `os` and `out`: the
        // loads read 64 `u16`s inside `xs` and `os`, and the store writes 64 bytes inside
        // `out` (`Verdict` is `repr(transparent)` over `u8`). Unaligned loads and stores.
        unsafe {
            let first = verdicts_bw(
                t,
                _mm512_loadu_si512(x.add(i).cast()),
                _mm512_loadu_si512(o.add(i).cast()),
            );
            let second = verdicts_bw(
                t,
                _mm512_loadu_si512(x.add(i + 32).cast()),
                _mm512_loadu_si512(o.add(i + 32).cast()),
            );
            let bytes = _mm512_permutexvar_epi64(order, _mm512_packus_epi16(first, second));
            _mm512_storeu_si512(out_ptr.add(i).cast(), bytes);
        }
        i += 64;
    }
    if i + 32 <= n {
        // SAFETY: as above, with 32 `u16`s read from each of `xs` and `os` and 32 bytes
        // written to `out`.
        unsafe {
            let v = verdicts_bw(
                t,
                _mm512_loadu_si512(x.add(i).cast()),
                _mm512_loadu_si512(o.add(i).cast()),
            );
            _mm256_storeu_si256(out_ptr.add(i).cast(), _mm512_cvtepi16_epi8(v));
        }
        i += 32;
    }
    i + split_kernel(&xs[i..n], &os[i..n], &mut out[i..n])
}

#[target_feature(enable = "avx2")]
fn packed_avx2(boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    packed_kernel(boards, out)
}

/// The X and O sets of the 32 boards at `words`, one per 16-bit lane each: two vectors of 16
/// [`BoardWord`]s (X's set in the low half of each, O's in the high half), of which `vpermt2w`
/// (AVX-512BW) gathers the even words, then the odd ones, in board order.
///
/// # Safety
/// `words` points to 32 readable `BoardWord`s (unaligned loads).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn sets_at(evens: __m512i, odds: __m512i, words: *const BoardWord) -> (__m512i, __m512i) {
    // SAFETY: the caller's contract: 32 `BoardWord`s (`repr(transparent)` over `u32`), two
    // 512-bit loads.
    let (a, b) = unsafe {
        (
            _mm512_loadu_si512(words.cast()),
            _mm512_loadu_si512(words.add(16).cast()),
        )
    };
    (
        _mm512_permutex2var_epi16(a, evens, b),
        _mm512_permutex2var_epi16(a, odds, b),
    )
}

/// Word indices `2 i + first` for `i` in 0..32: `vpermt2w` reads bits 0-4 as the word and bit 5
/// as the vector (0 the first, 1 the second).
const fn gather_index(first: u16) -> [u16; 32] {
    let mut index = [0u16; 32];
    let mut i = 0;
    while i < 32 {
        index[i] = 2 * i as u16 + first;
        i += 1;
    }
    index
}

/// The packed kernel on AVX-512BW: the boards' words split into X's and O's sets, then the split
/// kernel's step; 64 boards per step, then 32, then the scalar kernel on the tail.
#[target_feature(enable = "avx512f,avx512bw")]
fn packed_avx512(boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    static EVENS: [u16; 32] = gather_index(0);
    static ODDS: [u16; 32] = gather_index(1);
    let n = boards.len().min(out.len());
    let t = NibbleTables::new();
    // SAFETY: each index array is 64 bytes, exactly one unaligned 512-bit load.
    let (evens, odds) = unsafe {
        (
            _mm512_loadu_si512(EVENS.as_ptr().cast()),
            _mm512_loadu_si512(ODDS.as_ptr().cast()),
        )
    };
    // As in `split_avx512`.
    let order = _mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0);
    let (words, out_ptr) = (boards.as_ptr(), out.as_mut_ptr());
    let mut i = 0;
    while i + 64 <= n {
        // SAFETY: `i + 64 <= n`, and `n` is at most the length of `boards` and `out`: the loads
        // read 64 `BoardWord`s (`repr(transparent)` over `u32`) inside `boards`, the store
        // writes 64 bytes inside `out` (`Verdict` is `repr(transparent)` over `u8`). Unaligned
        // loads and stores.
        unsafe {
            let (x, o) = sets_at(evens, odds, words.add(i));
            let first = verdicts_bw(t, x, o);
            let (x, o) = sets_at(evens, odds, words.add(i + 32));
            let second = verdicts_bw(t, x, o);
            let bytes = _mm512_permutexvar_epi64(order, _mm512_packus_epi16(first, second));
            _mm512_storeu_si512(out_ptr.add(i).cast(), bytes);
        }
        i += 64;
    }
    if i + 32 <= n {
        // SAFETY: as above, with 32 `BoardWord`s read and 32 bytes written.
        unsafe {
            let (x, o) = sets_at(evens, odds, words.add(i));
            let v = verdicts_bw(t, x, o);
            _mm256_storeu_si256(out_ptr.add(i).cast(), _mm512_cvtepi16_epi8(v));
        }
        i += 32;
    }
    i + packed_kernel(&boards[i..n], &mut out[i..n])
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
