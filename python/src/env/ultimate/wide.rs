//! The ultimate kernel's loops compiled for AVX2, BMI1, BMI2, POPCNT and LZCNT, and for
//! AVX-512 F, BW and VL on top, chosen at run time: the reason for every `unsafe` of the
//! environments, each block with its own comment (the 32- and 64-byte loads and stores here,
//! and calls of this module's `#[target_feature]` functions after the CPU was checked, here
//! and in `rules.rs`).
//!
//! The extension is built for baseline x86-64 (the abi3 wheel runs everywhere), so the loops
//! of the default options (flat actions, `planes`: `Core<'_, true, _>`) are compiled three
//! times: as they are; inside [`step_all`] and [`sample_all`], where the CPU has AVX2 and BMI2
//! ([`detected`]; `Core::wide` makes the kernel that uses them only then); and inside
//! [`step_all_512`], where it has AVX-512 too ([`detected_512`], `Core::wide_512`). With AVX2
//! the two swapped mark planes move in 32-byte words, [`store81`] writes the legal plane and
//! the mask from the 81-bit legal set in three 32-byte stores each (a broadcast, a byte
//! shuffle, an AND and a minimum per 32 bytes) instead of eleven table lookups and twenty-two
//! stores, and [`pick`] draws a random move with two population counts and a `pdep`. With
//! AVX-512 [`swap81_512`] swaps the mark planes in a 64- and a 32-byte word each and
//! [`store81_512`] writes each 81 bytes in two stores of masked moves of ones. The test
//! `the_wide_loops_sample_and_write_what_the_plain_one_does` in `rules.rs` plays the same
//! random games through the plain, the fixed and the two wide kernels and compares the
//! actions drawn, every field and the games after every step.

#![allow(unsafe_code)]

use super::super::shared::{self, After, Out, Steps};

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_loadu_si256, _mm256_maskz_mov_epi8, _mm256_min_epu8,
    _mm256_set1_epi8, _mm256_set1_epi32, _mm256_setr_epi8, _mm256_shuffle_epi8,
    _mm256_storeu_si256, _mm512_loadu_si512, _mm512_maskz_mov_epi8, _mm512_set1_epi8,
    _mm512_storeu_si512, _pdep_u64,
};

/// The levels of a kernel's compilation (`Core`'s `WIDE`): baseline x86-64 (or another
/// architecture), the AVX2 loop ([`step_all`]), the AVX-512 one ([`step_all_512`]).
pub const PORTABLE: u8 = 0;
pub const AVX2: u8 = 1;
pub const AVX512: u8 = 2;

/// Whether this CPU has the features of [`step_all_512`], [`store81_512`] and [`swap81_512`]
/// (AVX-512 F, BW and VL, and those of [`detected`]).
pub fn detected_512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        detected()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether this CPU has the features of [`step_all`], [`store81`] and [`pick`].
pub fn detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A kernel's sampling of one game, for [`sample_all`].
pub trait Sampler {
    type Game;
    /// A uniformly random legal action of `game`, from its own stream.
    fn sample(&self, game: &mut Self::Game) -> i64;
}

/// [`shared::step_all_then`], compiled with AVX2, BMI1, BMI2, POPCNT and LZCNT where the CPU
/// has them (the kernel with [`store81`] and, in `after`, [`pick`] inlined), as it is
/// elsewhere.
pub fn step_all<S: Steps>(
    s: &mut S,
    games: &mut [S::Game],
    actions: &[usize],
    out: &mut Out<'_>,
    after: &mut impl After<S>,
) {
    #[cfg(target_arch = "x86_64")]
    if detected() {
        // SAFETY: the CPU has the features (checked just above), the only requirement of a
        // `#[target_feature]` function.
        return unsafe { step_all_wide(s, games, actions, out, after) };
    }
    shared::step_all_then(s, games, actions, out, after);
}

/// [`step_all`] with the features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn step_all_wide<S: Steps>(
    s: &mut S,
    games: &mut [S::Game],
    actions: &[usize],
    out: &mut Out<'_>,
    after: &mut impl After<S>,
) {
    shared::step_all_then(s, games, actions, out, after);
}

/// [`step_all`] compiled with AVX-512 F, BW and VL too where the CPU has them (the kernel
/// with [`store81_512`] and [`swap81_512`] inlined), else [`step_all`].
pub fn step_all_512<S: Steps>(
    s: &mut S,
    games: &mut [S::Game],
    actions: &[usize],
    out: &mut Out<'_>,
    after: &mut impl After<S>,
) {
    #[cfg(target_arch = "x86_64")]
    if detected_512() {
        // SAFETY: as in `step_all`.
        return unsafe { step_all_wide_512(s, games, actions, out, after) };
    }
    step_all(s, games, actions, out, after);
}

/// [`step_all_512`] with the features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2,bmi1,bmi2,popcnt,lzcnt")]
fn step_all_wide_512<S: Steps>(
    s: &mut S,
    games: &mut [S::Game],
    actions: &[usize],
    out: &mut Out<'_>,
    after: &mut impl After<S>,
) {
    shared::step_all_then(s, games, actions, out, after);
}

/// `s.sample(game)` of each game into `out`, compiled as [`step_all`] is (with [`pick`]
/// inlined).
pub fn sample_all<S: Sampler>(s: &S, games: &mut [S::Game], out: &mut [i64]) {
    #[cfg(target_arch = "x86_64")]
    if detected() {
        // SAFETY: as in `step_all`.
        return unsafe { sample_all_wide(s, games, out) };
    }
    for (game, slot) in games.iter_mut().zip(out.iter_mut()) {
        *slot = s.sample(game);
    }
}

/// [`sample_all`] with the features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn sample_all_wide<S: Sampler>(s: &S, games: &mut [S::Game], out: &mut [i64]) {
    for (game, slot) in games.iter_mut().zip(out.iter_mut()) {
        *slot = s.sample(game);
    }
}

/// Writes the 81-bit set `bits` (bit `k` for byte `k`) as 81 0/1 bytes into each of `outs`:
/// 32 bytes from bits 0 to 31, 32 from bits 32 to 63, and 32 from bits 49 to 80 (overlapping
/// the second: every store stays inside the 81 bytes).
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub unsafe fn store81<const N: usize>(bits: u128, mut outs: [&mut [u8; 81]; N]) {
    // Byte `j` of the 32 takes byte `j / 8` of the broadcast word (the shuffle works within
    // each 16-byte lane, and both lanes hold the word), then its bit `j % 8`.
    let spread = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
        3, 3,
    );
    let bit = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
        1, 2, 4, 8, 16, 32, 64, -128,
    );
    let one = _mm256_set1_epi8(1);
    for (at, word) in [
        (0, bits as u32),
        (32, (bits >> 32) as u32),
        (49, (bits >> 49) as u32),
    ] {
        let shuffled = _mm256_shuffle_epi8(_mm256_set1_epi32(word as i32), spread);
        let value: __m256i = _mm256_min_epu8(_mm256_and_si256(shuffled, bit), one);
        for out in outs.iter_mut() {
            if let Ok(chunk) = <&mut [u8; 32]>::try_from(&mut out[at..at + 32]) {
                // SAFETY: `chunk` is 32 writable bytes, what an unaligned 32-byte store writes.
                unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().cast(), value) };
            }
        }
    }
}

/// [`store81`] with AVX-512: bits 0 to 63 as 64 bytes (one masked move of a vector of ones)
/// and bits 49 to 80 as the 32 bytes from 49 (overlapping), two stores into each of `outs`.
///
/// # Safety
///
/// The CPU must have AVX-512 F, BW and VL.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
#[inline]
pub unsafe fn store81_512<const N: usize>(bits: u128, outs: [&mut [u8; 81]; N]) {
    let low = _mm512_maskz_mov_epi8(bits as u64, _mm512_set1_epi8(1));
    let high = _mm256_maskz_mov_epi8((bits >> 49) as u32, _mm256_set1_epi8(1));
    for out in outs {
        let at = out.as_mut_ptr();
        // SAFETY: `out` is 81 writable bytes: 64 from 0 and 32 from 49 end at 81.
        unsafe {
            _mm512_storeu_si512(at.cast(), low);
            _mm256_storeu_si256(at.add(49).cast(), high);
        }
    }
}

/// Swaps the 81 bytes of `a` and `b` with AVX-512: each read as 64 bytes from 0 and 32 from
/// 49 (overlapping), then written to the other.
///
/// # Safety
///
/// The CPU must have AVX-512 F and VL.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
pub unsafe fn swap81_512(a: &mut [u8; 81], b: &mut [u8; 81]) {
    let (a, b) = (a.as_mut_ptr(), b.as_mut_ptr());
    // SAFETY: `a` and `b` are 81 readable and writable bytes each (distinct: two `&mut`): 64
    // from 0 and 32 from 49 end at 81; every load happens before the stores.
    unsafe {
        let (a_low, a_high) = (
            _mm512_loadu_si512(a.cast()),
            _mm256_loadu_si256(a.add(49).cast()),
        );
        let (b_low, b_high) = (
            _mm512_loadu_si512(b.cast()),
            _mm256_loadu_si256(b.add(49).cast()),
        );
        _mm512_storeu_si512(a.cast(), b_low);
        _mm256_storeu_si256(a.add(49).cast(), b_high);
        _mm512_storeu_si512(b.cast(), a_low);
        _mm256_storeu_si256(b.add(49).cast(), a_high);
    }
}

/// The legal move chosen by 32 random bits from the 81-bit set `legal`: the `k`-th of its
/// moves in increasing order, `k` the multiply-shift of `random` by their number, the same
/// move as `Position::pick` (tested) in a few instructions: two population counts and one
/// bit deposit (`pdep`) for the select. `None` for an empty set. It lives here rather than in
/// the library because choosing it at run time needs `is_x86_feature_detected!` (std), which
/// the `no_std` library does not use; where the CPU lacks BMI2 the kernel calls
/// `Position::pick` itself.
///
/// # Safety
///
/// The CPU must have BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2,popcnt")]
#[inline]
pub unsafe fn pick(legal: u128, random: u32) -> Option<usize> {
    let (low, high) = (legal as u64, (legal >> 64) as u64);
    let in_low = low.count_ones();
    let count = in_low + high.count_ones();
    if count == 0 {
        return None;
    }
    let k = ((u64::from(random) * u64::from(count)) >> 32) as u32;
    // Which word holds the move is a coin flip in random games, so `high_word` (1 when it is
    // the high word, k >= in_low) is arithmetic, the borrow of in_low - 1 - k, and the word
    // and index are chosen by multiplying by it: written as a comparison, a select or
    // `select_unpredictable`, the compiler made it a branch in a build of this loop (seen with
    // callgrind's `--branch-sim` and in the disassembly).
    let high_word = in_low.wrapping_sub(1).wrapping_sub(k) >> 31;
    let word = low.wrapping_add(high.wrapping_sub(low).wrapping_mul(u64::from(high_word)));
    let k = k - in_low * high_word;
    Some(64 * high_word as usize + _pdep_u64(1 << k, word).trailing_zeros() as usize)
}

#[cfg(test)]
mod tests {
    use super::super::super::tables::splitmix;
    use super::*;

    // Test code (`#[cfg(test)]`): its `unwrap`s are assertions, out of a user's reach.

    /// `pick` chooses what `Position::pick` chooses, on the positions of random games.
    #[test]
    fn the_wide_pick_is_the_positions_pick() {
        if !detected() {
            return;
        }
        let mut rng = 3;
        for _ in 0..300 {
            let mut position = tictactoe::ultimate::Position::EMPTY;
            while let Some(played) = position.pick(splitmix(&mut rng) as u32) {
                for _ in 0..8 {
                    let random = (splitmix(&mut rng) >> 32) as u32;
                    // SAFETY: the CPU has BMI2 and POPCNT (`detected`, checked above).
                    let wide = unsafe { pick(position.legal_moves().bits(), random) };
                    assert_eq!(
                        wide,
                        position.pick(random).map(tictactoe::ultimate::Move::index)
                    );
                }
                // Cannot fail: `played` comes from `pick`, a legal move (test code).
                position.play(played).unwrap();
            }
            // SAFETY: as above.
            assert_eq!(unsafe { pick(position.legal_moves().bits(), 7) }, None);
        }
    }
}
