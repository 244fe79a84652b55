//! Lines of `k` or more on bitboards: the shift-and-AND check over four directions and the
//! check through one cell that play uses.

use super::Bits;
use crate::mnk::Rules;

/// The first bit of every run of `k` or more set bits spaced `d` apart in `pieces`: after
/// `x &= x >> (s × d)` a bit stands for a run of `len + s` when it stood for one of `len` and
/// `s ≤ len`, so the run length doubles each step (1, 2, 4, ...) and the last step tops it up
/// to `k`: 2 steps for k = 4, 3 for k = 5, 5 for k = 19.
///
/// The guard bit above each column is never set, so no run wraps from one column to the next.
///
/// `k` of 2 to 5 (every preset) take an unrolled path whose shifts are at most `2d`, below 64
/// for every direction of every board (`d ≤ 21`), so no shift needs a range test.
#[must_use]
#[inline]
pub fn run_starts<const W: usize>(pieces: Bits<W>, d: u32, k: u32) -> Bits<W> {
    if d <= 31 {
        match k {
            2 => return short_runs::<W, 2>(pieces, d),
            3 => return short_runs::<W, 3>(pieces, d),
            4 => return short_runs::<W, 4>(pieces, d),
            5 => return short_runs::<W, 5>(pieces, d),
            _ => {}
        }
    }
    let mut x = pieces;
    let mut len = 1;
    while len < k {
        let s = len.min(k - len);
        x &= x.shr(s * d);
        len += s;
    }
    x
}

/// The run starts of [`run_starts`] for a `K` of 2 to 5 and `d ≤ 31` (every direction of
/// every board: `d ≤ 21`), unrolled, with shifts of at most `2d`.
#[inline(always)]
fn short_runs<const W: usize, const K: u32>(p: Bits<W>, d: u32) -> Bits<W> {
    match K {
        2 => p & p.shr_short(d),
        3 => p & p.shr_short(d) & p.shr_short(2 * d),
        4 => {
            let two = p & p.shr_short(d);
            two & two.shr_short(2 * d)
        }
        _ => {
            let two = p & p.shr_short(d);
            let four = two & two.shr_short(2 * d);
            four & four.shr_short(d)
        }
    }
}

/// The run starts of the four directions, OR-ed: tested once, no branch between them.
#[inline(always)]
fn short_runs_any<const W: usize, const K: u32>(p: Bits<W>, [a, b, c, d]: [u32; 4]) -> Bits<W> {
    short_runs::<W, K>(p, a)
        | short_runs::<W, K>(p, b)
        | short_runs::<W, K>(p, c)
        | short_runs::<W, K>(p, d)
}

/// Whether `pieces` hold `k` or more in a row in any of the four directions of `rules`.
#[must_use]
#[inline(always)]
pub fn has_line<const W: usize>(pieces: Bits<W>, rules: Rules) -> bool {
    // The presets' shift amounts as constants: immediate shifts, no register moves.
    if W == 1 && rules.is(Rules::CONNECT_FOUR) {
        return c4_has_line(pieces.0[0]);
    }
    if W == 4 && rules.is(Rules::GOMOKU) {
        return crate::mnk::gomoku::has_line(core::array::from_fn(|i| {
            pieces.0.get(i).copied().unwrap_or(0)
        }));
    }
    let k = rules.k();
    let dirs = rules.directions();
    let runs = match k {
        2 => short_runs_any::<W, 2>(pieces, dirs),
        3 => short_runs_any::<W, 3>(pieces, dirs),
        4 => short_runs_any::<W, 4>(pieces, dirs),
        5 => short_runs_any::<W, 5>(pieces, dirs),
        _ => return has_long_line(pieces, rules),
    };
    !runs.is_empty()
}

/// Whether one Connect Four word (7 bits a column) holds four in a row: the build's fastest check (SSE2, two directions to a
/// register, in a baseline x86-64 build; the scalar shifts, which LLVM vectorizes with AVX2's
/// per-lane shifts, elsewhere).
#[inline(always)]
pub(crate) fn c4_has_line(p: u64) -> bool {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
    return c4_has_line_sse2(p);
    #[cfg(not(all(target_arch = "x86_64", not(target_feature = "avx2"))))]
    return c4_has_line_scalar(p);
}

/// Four in a row by shifts: in each direction `d` (1 vertical, 7 horizontal, 6 and 8 the
/// diagonals), `x & x >> d` marks pairs and the same by `2d` runs of four. What the playout
/// loop checks with (the copy compiled for x86-64-v3 vectorizes it).
#[cfg(any(
    feature = "rand",
    not(all(target_arch = "x86_64", not(target_feature = "avx2")))
))]
#[inline(always)]
pub(crate) fn c4_has_line_scalar(p: u64) -> bool {
    let run = |d: u32| {
        let two = p & p >> d;
        two & two >> (2 * d)
    };
    run(1) | run(6) | run(7) | run(8) != 0
}

/// [`c4_has_line`] with SSE2 (every x86-64 CPU has it), two
/// directions to a register: SSE2 shifts both lanes by one amount, so each lane is shifted
/// on its own and a `movsd` joins them. Fewer instructions than the sixteen scalar shifts
/// and ANDs; builds with AVX2 let LLVM vectorize the scalar code with per-lane shifts.
#[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
#[inline(always)]
#[allow(unsafe_code)]
pub(crate) fn c4_has_line_sse2(p: u64) -> bool {
    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_castpd_si128, _mm_castsi128_pd, _mm_cvtsi32_si128,
        _mm_cvtsi128_si64, _mm_move_sd, _mm_or_si128, _mm_set1_epi64x, _mm_srl_epi64,
        _mm_unpackhi_epi64,
    };
    /// The low lane shifted right by `low`, the high lane by `high`.
    #[inline(always)]
    fn lanes(x: __m128i, low: i32, high: i32) -> __m128i {
        // SAFETY: SSE2 is part of every x86-64 CPU (the target's baseline).
        unsafe {
            let low = _mm_srl_epi64(x, _mm_cvtsi32_si128(low));
            let high = _mm_srl_epi64(x, _mm_cvtsi32_si128(high));
            _mm_castpd_si128(_mm_move_sd(_mm_castsi128_pd(high), _mm_castsi128_pd(low)))
        }
    }
    // SAFETY: as above.
    unsafe {
        let x = _mm_set1_epi64x(p as i64);
        let two = _mm_and_si128(x, lanes(x, 7, 8));
        let runs = _mm_and_si128(two, lanes(two, 14, 16));
        let two = _mm_and_si128(x, lanes(x, 1, 6));
        let runs = _mm_or_si128(runs, _mm_and_si128(two, lanes(two, 2, 12)));
        _mm_cvtsi128_si64(_mm_or_si128(runs, _mm_unpackhi_epi64(runs, runs))) != 0
    }
}

/// [`Rules::directions`] of Connect Four (stride 7).
const C4_DIRECTIONS: [u32; 4] = Rules::CONNECT_FOUR.directions();

/// [`has_line`] for `k` of 1 or past 5: out of line, so that the presets' paths stay small
/// enough to inline into play.
#[inline(never)]
fn has_long_line<const W: usize>(pieces: Bits<W>, rules: Rules) -> bool {
    let k = rules.k();
    rules
        .directions()
        .into_iter()
        .any(|d| !run_starts(pieces, d, k).is_empty())
}

/// Whether `pieces` hold `k` or more in a row through bit `bit` (which they hold). Play
/// calls it for the last move, which is the only cell a new line can go through.
///
/// On one word (`W = 1`) it is branch-free: the run starts of each direction, moved so that
/// `bit` is the top bit, meet the `k` starts a run through `bit` can have. Gomoku (15 × 15,
/// k = 5, on four words) gathers the eight neighbours of `bit` in each direction into one
/// word (with AVX-512 where the build enables AVX-512F, VBMI2 and BITALG, or where a baseline
/// build with `std` finds them on the CPU at run time) and is branch-free too. On other wider boards it walks out from the cell both ways along each direction, at
/// most `k - 1` cells each way.
#[must_use]
#[inline]
pub fn wins_through<const W: usize>(pieces: Bits<W>, bit: u32, rules: Rules) -> bool {
    let k = rules.k();
    if k <= 1 {
        return pieces.contains(bit);
    }
    if W == 1 && rules.is(Rules::CONNECT_FOUR) {
        return one_word_through::<4>(pieces.0[0], bit, C4_DIRECTIONS);
    }
    if rules.is(Rules::GOMOKU)
        && let Ok(words) = <&[u64; 4]>::try_from(pieces.0.as_slice())
    {
        return crate::mnk::gomoku::wins_through(words, bit);
    }
    if W == 1 {
        let (word, dirs) = (pieces.0[0], rules.directions());
        return match k {
            2 => one_word_through::<2>(word, bit, dirs),
            3 => one_word_through::<3>(word, bit, dirs),
            4 => one_word_through::<4>(word, bit, dirs),
            5 => one_word_through::<5>(word, bit, dirs),
            _ => one_word_through_long(word, bit, rules),
        };
    }
    let end = rules.bits();
    for d in rules.directions() {
        let mut n = 1;
        let mut b = bit + d;
        while b < end && pieces.contains(b) {
            n += 1;
            if n >= k {
                return true;
            }
            b += d;
        }
        let mut b = bit;
        while b >= d && pieces.contains(b - d) {
            n += 1;
            if n >= k {
                return true;
            }
            b -= d;
        }
    }
    false
}

/// Whether playing `bit` on `before` (which does not hold it) makes a line through it:
/// [`wins_through`] of `before` with `bit` added. Gomoku's kernels read only the neighbours
/// of `bit`, so they take `before` as it is.
///
/// Play asks with the board as it was before its store of the new mark: the AVX-512 kernel
/// loads the board whole (32 bytes), and a load that spans the store of one of its words
/// just before cannot take the value from that store and waits for it (about 4 ns).
#[must_use]
#[inline(always)]
pub(crate) fn wins_by_playing<const W: usize>(before: Bits<W>, bit: u32, rules: Rules) -> bool {
    if rules.is(Rules::GOMOKU)
        && let Ok(words) = <&[u64; 4]>::try_from(before.0.as_slice())
    {
        return crate::mnk::gomoku::wins_through_inlined(words, bit);
    }
    wins_through(before | Bits::single(bit), bit, rules)
}

/// [`wins_through`] on one word for a `K` of 2 to 5: the run starts of each direction, moved
/// so that `bit` is bit 63, meet the `K` starts a run through `bit` can have (63, 63 - d, ...).
#[inline(always)]
fn one_word_through<const K: u32>(word: u64, bit: u32, dirs: [u32; 4]) -> bool {
    let mut hit = 0;
    for d in dirs {
        let starts = short_runs::<1, K>(Bits([word]), d).0[0];
        let mut through = 0u64;
        for i in 0..K {
            through |= (1u64 << 63).checked_shr(i * d).unwrap_or(0);
        }
        hit |= (starts << (63 - bit % 64)) & through;
    }
    hit != 0
}

/// [`one_word_through`] for any `k`, its doubling steps in a loop.
#[inline(never)]
fn one_word_through_long(word: u64, bit: u32, rules: Rules) -> bool {
    let k = rules.k();
    let mut hit = 0;
    for d in rules.directions() {
        let starts = run_starts(Bits([word]), d, k).0[0];
        let mut through = 1u64 << 63;
        let mut len = 1;
        while len < k {
            let s = len.min(k - len);
            through |= through.checked_shr(s * d).unwrap_or(0);
            len += s;
        }
        hit |= starts.checked_shl(63 - bit).unwrap_or(0) & through;
    }
    hit != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slow twin: the longest run through `bit` in each direction, cell by cell on the
    /// grid (rows and columns, no bitboard arithmetic).
    fn twin_through<const W: usize>(pieces: Bits<W>, bit: u32, rules: Rules) -> bool {
        let Some(at) = rules.square_of_bit(bit) else {
            return false;
        };
        let has = |r: i32, c: i32| {
            rules
                .square(r as u32, c as u32)
                .filter(|_| r >= 0 && c >= 0)
                .is_some_and(|sq| pieces.contains(rules.bit(sq)))
        };
        let (r0, c0) = (at.row() as i32, at.col() as i32);
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            let mut n = 1;
            for sign in [1, -1] {
                let (mut r, mut c) = (r0 + sign * dr, c0 + sign * dc);
                while has(r, c) {
                    n += 1;
                    r += sign * dr;
                    c += sign * dc;
                }
            }
            n >= rules.k() as i32 && has(r0, c0)
        })
    }

    fn check<const W: usize>(rules: Rules, seed: u64) {
        let mut next = crate::testing::xorshift(seed);
        let cells = crate::mnk::bits::cell_mask::<W>(rules);
        for _ in 0..300 {
            // Dense and sparse boards: the AND of one to three random words.
            let density = next() % 3;
            let mut pieces = Bits::<W>(core::array::from_fn(|_| next())) & cells;
            for _ in 0..density {
                pieces &= Bits(core::array::from_fn(|_| next()));
            }
            let mut any = false;
            for bit in pieces.iter() {
                let fast = wins_through(pieces, bit, rules);
                assert_eq!(
                    fast,
                    twin_through(pieces, bit, rules),
                    "{rules} {pieces:?} {bit}"
                );
                any |= fast;
            }
            assert_eq!(has_line(pieces, rules), any, "{rules} {pieces:?}");
        }
    }

    /// The Connect Four check `play_bit` runs (in a baseline x86-64 build SSE2's, in others
    /// the scalar shifts) answers as the cell-by-cell twin, on every line of four alone, on
    /// each of them less its first mark, and on random boards of every density.
    #[test]
    fn connect_four_check_matches_the_twin() {
        let rules = Rules::CONNECT_FOUR;
        let cells = crate::mnk::bits::cell_mask::<1>(rules).0[0];
        let (mut lines, mut words) = (0, 0);
        let mut test = |word: u64| {
            let expected = Bits([word])
                .iter()
                .any(|bit| twin_through(Bits([word]), bit, rules));
            assert_eq!(super::c4_has_line(word), expected, "{word:#x}");
            lines += usize::from(expected);
            words += 1;
        };
        for start in 0..49 {
            for d in [1, 6, 7, 8] {
                let line = (0..4).fold(0, |w, i| w | 1u64.checked_shl(start + i * d).unwrap_or(0));
                test(line & cells);
                test(line & cells & !(1 << start));
            }
        }
        let mut next = crate::testing::xorshift(35);
        for density in 0..4 {
            for _ in 0..5_000 {
                let mut word = next() & cells;
                for _ in 0..density {
                    word &= next();
                }
                test(word);
            }
        }
        // Both answers, many times each.
        assert!(lines > 1000 && words - lines > 1000, "{lines} of {words}");
    }

    #[test]
    fn fast_checks_match_a_cell_by_cell_twin() {
        for (rows, cols) in [
            (3, 3),
            (4, 4),
            (6, 7),
            (5, 5),
            (7, 7),
            (3, 16),
            (19, 3),
            (2, 19),
        ] {
            for k in 1..=5.min(rows.max(cols)) {
                let rules = Rules::new(rows, cols, k, false).unwrap();
                check::<1>(rules, u64::from(rows * 100 + cols * 10 + k));
            }
        }
        for (rows, cols, k) in [(8, 8, 5), (9, 9, 6), (7, 8, 4), (10, 10, 3)] {
            check::<2>(Rules::new(rows, cols, k, false).unwrap(), 7);
        }
        for k in [1, 2, 3, 4, 5, 6, 7, 15] {
            check::<4>(Rules::new(15, 15, k, false).unwrap(), 11);
        }
        for k in [3, 5, 6, 19] {
            check::<6>(Rules::new(19, 19, k, false).unwrap(), 13);
        }
    }
}
