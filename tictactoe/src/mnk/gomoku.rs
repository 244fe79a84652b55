//! Gomoku's last-move check ([`wins_through`](super::bits::wins_through) for 15 × 15, k = 5, on four
//! words): the eight neighbours of the mark in each direction, gathered into one word; and
//! which kernel of it, and of the full-board check ([`has_line`](super::bits::has_line)), a build runs.
//!
//! A line of five through the mark is the mark and four of its neighbours in one direction,
//! consecutive in the order `-4, -3, -2, -1, +1, +2, +3, +4` (the mark sits between `-1` and
//! `+1`). So with the eight neighbours of each direction in a group of bits, the check is
//! "four consecutive ones in a group": two shift-and-AND steps. The answer depends on the
//! neighbours only, so the kernels count the mark as held whether `p` holds it or not: play
//! asks with the board as it was before the move (see `wins_by_playing` in `bits/line.rs`).
//!
//! | kernel | how the neighbours are gathered | instructions |
//! |---|---|---|
//! | [`wins_through_avx512`] (AVX-512F, VBMI2, BITALG) | eight 64-bit windows of the board, one per side of each direction, in the eight lanes of one zmm register (two `vpermq`, one `vpshrdvq`); one `vpshufbitqmb` picks four cells out of each | 16 vector, 11 scalar (objdump of a native build) |
//! | [`wins_through_portable`] (any CPU) | three 64-bit windows of the board (two words and a funnel shift each); six multiplies gather four cells each | about 90 (objdump of a baseline build) |
//!
//! **Which kernel runs.** The full-board check is the shift-and-AND steps of `line.rs` in two
//! copies of the same Rust code: [`has_line_portable`], and [`has_line_avx512`] compiled with
//! AVX-512F, VL and VBMI2 for that function (LLVM keeps the four words of a step in one
//! register and funnel-shifts them with `vpshldvq`, as in a native build).
//!
//! | build | last-move check | in play (`wins_by_playing`) | full-board check |
//! |---|---|---|---|
//! | enables AVX-512F, VBMI2 and BITALG (`-C target-cpu=native` on Zen 4, Ice Lake and later) | AVX-512, inlined | the same | portable, compiled with AVX-512: vectorised |
//! | baseline, `std`, x86-64, on a CPU with AVX-512F, VL, VBMI2 and BITALG (detected once at run time) | AVX-512, a call | portable, inlined (a call costs more there than it saves) | [`has_line_avx512`], a call |
//! | baseline, `std`, x86-64, on other CPUs | portable | portable | portable |
//! | without `std`, or off x86-64 | portable | portable | portable |
//!
//! **Windows.** Bit `16c + r` is row `r` (from the bottom) of column `c`; the directions are
//! `d` = 1 (vertical), 16 (horizontal), 17 (rising) and 15 (falling), so the neighbours of the
//! mark at bit `b` are bits `b ± d`, `b ± 2d`, `b ± 3d`, `b ± 4d`. Four of them on one side
//! of the mark span `3d + 1 ≤ 52` bits: one 64-bit window from `b - 4d` (or from `b + d`)
//! holds them at its bits `0, d, 2d, 3d`.
//!
//! **Edges.** Both kernels read the board cyclically (bit `x` is bit `x mod 256`) and mask
//! nothing out: the first cell a direction reaches past an edge of the board is always an
//! empty bit, so no run through the mark goes past it. Past the top or bottom of a column it
//! is a guard bit (row 15 of the column, or of the column below; below column 0, bit 255);
//! past the left or right edge it is column 15 (bits 240 to 255, never a cell) or, for a
//! diagonal leaving a corner, a guard bit (row 15 of column 14 or of the column below). Both
//! kernels need what every gomoku [`Bits<4>`](super::bits::Bits) has: guard bits and column 15
//! clear.

/// Whether `p` with the mark at `bit` added has a line of five or more through it (gomoku's
/// rules: 15 × 15, k = 5): whether four neighbours of `bit` in a row are held. A `bit` past
/// the board (240 or more) answers without panicking.
///
/// Runs on any CPU: three 64-bit windows of the board, and for each direction and side one
/// multiply that moves the four cells `d` apart next to each other: cell `j` at bit
/// `a + dj` times `2^((d-1)i)` lands on bit `a + 3(d-1) + j` when `i = 3 - j`, and every
/// other partial product on a bit of its own (`dj + (d-1)i` are all different), so no carry
/// reaches the four.
#[must_use]
#[inline(always)]
pub fn wins_through_portable(p: &[u64; 4], bit: u32) -> bool {
    // 64 bits of the board from bit `from` up, read cyclically: two words, a funnel shift.
    let window = |from: u32| -> u64 {
        let i = (from >> 6) as usize;
        let pair = u128::from(p[(i + 1) & 3]) << 64 | u128::from(p[i & 3]);
        (pair >> (from & 63)) as u64
    };
    // The four cells of a side (at `a`, `a + d`, `a + 2d`, `a + 3d` of window `x`), moved to
    // bits `to` to `to + 3`.
    #[inline(always)]
    fn side(x: u64, a: u32, d: u32, to: u32) -> u64 {
        let cells = 1 | 1 << d | 1 << (2 * d) | 1 << (3 * d);
        let spread = 1 | 1 << (d - 1) | 1 << (2 * (d - 1)) | 1 << (3 * (d - 1));
        let at = a + 3 * (d - 1);
        let product = (x & cells << a).wrapping_mul(spread);
        (if at >= to {
            product >> (at - to)
        } else {
            product << (to - at)
        }) & 0xf << to
    }
    // Bits b - 68 to b - 12: the near side of the three long directions, at 0, d, 2d, 3d
    // from 68 - 4d (rising 0, horizontal 4, falling 8).
    let below = window(bit.wrapping_sub(68));
    // Bits b + 15 to b + 71: the far side at d - 15, 2d - 15, ... (falling 0, horizontal
    // 1, rising 2).
    let above = window(bit.wrapping_add(15));
    // Bits b - 4 to b + 4: the column, the mark at bit 4.
    let column = window(bit.wrapping_sub(4)) & 0x1ff;
    // Group `g` (16 bits) holds one direction's cells -4..4 at bits 16g to 16g + 8, the mark
    // at 16g + 4: the column, then horizontal, rising, falling.
    let groups = column
        | side(below, 4, 16, 16)
        | side(above, 1, 16, 21)
        | side(below, 0, 17, 32)
        | side(above, 2, 17, 37)
        | side(below, 8, 15, 48)
        | side(above, 0, 15, 53)
        | (1 << 4 | 1 << 20 | 1 << 36 | 1 << 52);
    let two = groups & groups >> 1;
    let four = two & two >> 2;
    let five = four & four >> 1;
    // A run through the mark starts at most four cells before it.
    five & 0x001f_001f_001f_001f != 0
}

/// [`wins_through_portable`] with AVX-512: the eight windows in the eight lanes of one zmm
/// register, the cells picked out of them by one bit shuffle. Safe to call where the three
/// features are enabled; elsewhere see [`wins_through_detected`].
///
/// Lane `2g` holds the window from `b - 4d` (the near side, cells at `0, d, 2d, 3d`), lane
/// `2g + 1` the one from `b + d` (the far side), for the directions vertical, horizontal,
/// rising and falling (`g` = 0 to 3). A window is two neighbouring words of the board
/// funnel-shifted (`vpshrdvq`), the words chosen by `vpermq` from the board repeated twice in
/// the register, so the board reads cyclically. `vpshufbitqmb` then takes eight bits of each
/// lane to eight bits of a mask: the near side to bits 4 to 7 of byte `2g`, the far side to
/// bits 0 to 3 of byte `2g + 1`, so group `g` (16 bits) holds the eight neighbours at bits
/// 4 to 11 in order, and four in a row among them starts at bit 4 to 8.
#[cfg(all(
    target_arch = "x86_64",
    any(
        feature = "std",
        all(
            target_feature = "avx512f",
            target_feature = "avx512vbmi2",
            target_feature = "avx512bitalg"
        )
    )
))]
#[target_feature(enable = "avx512f,avx512vbmi2,avx512bitalg")]
#[must_use]
#[inline]
pub fn wins_through_avx512(p: &[u64; 4], bit: u32) -> bool {
    use core::arch::x86_64::{
        _mm512_add_epi64, _mm512_bitshuffle_epi64_mask, _mm512_or_si512, _mm512_permutexvar_epi64,
        _mm512_set_epi64, _mm512_set1_epi64, _mm512_shrdv_epi64, _mm512_sllv_epi64,
        _mm512_srli_epi64, _mm512_sub_epi64,
    };
    /// Bytes `0, d, 2d, 3d` from byte `shift / 8` up.
    const fn pick(d: i64, shift: u32) -> i64 {
        (d << 8 | (2 * d) << 16 | (3 * d) << 24) << shift
    }
    let [v, h, r, f] = [1, 16, 17, 15];
    let w = p.map(u64::cast_signed);
    let at = _mm512_set1_epi64(i64::from(bit));
    // The mark added: lane i (board word i mod 4) shifts 1 by bit - 64(i mod 4), which is
    // 64 or more (no bit) except in the mark's word. The picks never read the mark, but with
    // it the compiler builds the board from four 8-byte loads rather than one 32-byte load,
    // and a 32-byte load of a board just copied or played waits until those stores reach
    // the cache: play on a copy of a position takes 5.7 ns with it, 13.4 ns without (peer
    // benchmark `gomoku`, native build, 2026-11-26).
    let mark = _mm512_sllv_epi64(
        _mm512_set1_epi64(1),
        _mm512_sub_epi64(at, _mm512_set_epi64(192, 128, 64, 0, 192, 128, 64, 0)),
    );
    let board = _mm512_or_si512(
        _mm512_set_epi64(w[3], w[2], w[1], w[0], w[3], w[2], w[1], w[0]),
        mark,
    );
    let from = _mm512_add_epi64(
        at,
        _mm512_set_epi64(f, -4 * f, r, -4 * r, h, -4 * h, v, -4 * v),
    );
    // Words from/64 and the next; vpermq reads an index modulo 8, vpshrdvq a count modulo 64.
    let word = _mm512_srli_epi64::<6>(from);
    let low = _mm512_permutexvar_epi64(word, board);
    let high = _mm512_permutexvar_epi64(_mm512_add_epi64(word, _mm512_set1_epi64(1)), board);
    let windows = _mm512_shrdv_epi64(low, high, from);
    let picks = _mm512_set_epi64(
        pick(f, 0),
        pick(f, 32),
        pick(r, 0),
        pick(r, 32),
        pick(h, 0),
        pick(h, 32),
        pick(v, 0),
        pick(v, 32),
    );
    let cells = _mm512_bitshuffle_epi64_mask(windows, picks);
    let two = cells & cells >> 1;
    let four = two & two >> 2;
    // Four in a row among the neighbours: starting at bit 4 to 8 of a group.
    four & 0x01f0_01f0_01f0_01f0 != 0
}

/// [`has_line`](super::bits::has_line) for gomoku (15 × 15, k = 5, stride 16): four columns to a word, so a shift
/// along a column (d = 1) never needs the word above (a run that would cross into it meets
/// the guard bit first), and the other three directions are funnel shifts by constants.
#[inline(always)]
fn has_line_steps(p: [u64; 4]) -> bool {
    // Every bit moved down by `s < 64`, the word above feeding the top `s` bits.
    #[inline(always)]
    fn down(x: [u64; 4], s: u32) -> [u64; 4] {
        [
            (x[0] >> s) | (x[1] << (64 - s)),
            (x[1] >> s) | (x[2] << (64 - s)),
            (x[2] >> s) | (x[3] << (64 - s)),
            x[3] >> s,
        ]
    }
    #[inline(always)]
    fn and(a: [u64; 4], b: [u64; 4]) -> [u64; 4] {
        [a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]]
    }
    #[inline(always)]
    fn five(p: [u64; 4], d: u32) -> [u64; 4] {
        let two = and(p, down(p, d));
        let four = and(two, down(two, 2 * d));
        and(four, down(four, d))
    }
    // Written out: `array::map` with a closure is not always inlined.
    let (h, r, f) = (five(p, 16), five(p, 17), five(p, 15));
    let mut any = 0;
    for i in 0..4 {
        let w = p[i];
        let two = w & (w >> 1);
        let four = two & (two >> 2);
        any |= (four & (four >> 1)) | h[i] | r[i] | f[i];
    }
    any != 0
}

/// Gomoku's full-board check ([`has_line`](super::bits::has_line) for 15 × 15, k = 5, on four
/// words): the shift-and-AND steps of `has_line_steps`, inlined and compiled
/// for any CPU of the target (with AVX-512 in a native build on Zen 4, where LLVM vectorises
/// them).
#[must_use]
#[inline]
pub fn has_line_portable(p: [u64; 4]) -> bool {
    has_line_steps(p)
}

/// [`has_line_portable`] compiled with AVX-512F, VL and VBMI2 enabled for this function: the
/// same Rust code, which LLVM vectorises as in a native build (the four words of a step in
/// one 256-bit register, the funnel shifts one `vpshldvq` each). Safe to call where the
/// features are enabled; elsewhere see [`has_line_detected`].
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[target_feature(enable = "avx512f,avx512vl,avx512vbmi2")]
#[must_use]
#[inline]
pub fn has_line_avx512(p: [u64; 4]) -> bool {
    has_line_steps(p)
}

/// The kernels of a build that enables the AVX-512 kernel's features for all of its code
/// (`-C target-cpu=native` on Zen 4): inlined wherever they are asked.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx512vbmi2",
    target_feature = "avx512bitalg"
))]
mod kernels {
    pub(in super::super) use super::has_line_portable as has_line;

    /// The last-move check: [`wins_through_avx512`](super::wins_through_avx512).
    #[allow(unsafe_code)]
    #[inline(always)]
    pub(in super::super) fn wins_through(p: &[u64; 4], bit: u32) -> bool {
        // SAFETY: the build enables the three features (the `cfg` of the module) for all of
        // its code, so every CPU that runs it has them.
        unsafe { super::wins_through_avx512(p, bit) }
    }

    /// The last-move check play asks (`wins_by_playing` in `bits/line.rs`): the same.
    pub(in super::super) use wins_through as wins_through_inlined;
}

/// The kernels of a baseline build with `std` on x86-64: the AVX-512 ones where this CPU has
/// their features, detected once at run time (`cpu::has_avx512`), else the portable ones. The
/// AVX-512 ones are calls (they cannot be inlined into code compiled without their features):
/// one compare, the call, and the board passed in registers.
#[cfg(all(
    feature = "std",
    target_arch = "x86_64",
    not(all(
        target_feature = "avx512f",
        target_feature = "avx512vbmi2",
        target_feature = "avx512bitalg"
    ))
))]
mod kernels {
    #![allow(unsafe_code)]
    use super::super::cpu::has_avx512;
    use super::{has_line_avx512, wins_through_avx512};

    /// The last-move check.
    #[inline(always)]
    pub(in super::super) fn wins_through(p: &[u64; 4], bit: u32) -> bool {
        if has_avx512() {
            let [w0, w1, w2, w3] = *p;
            // SAFETY: this CPU has the kernel's features (`has_avx512`).
            unsafe { wins_through_avx512_words(w0, w1, w2, w3, bit) }
        } else {
            super::wins_through_portable(p, bit)
        }
    }

    /// The full-board check.
    #[inline(always)]
    pub(in super::super) fn has_line(p: [u64; 4]) -> bool {
        if has_avx512() {
            let [w0, w1, w2, w3] = p;
            // SAFETY: this CPU has the features (`has_avx512`).
            unsafe { has_line_avx512_words(w0, w1, w2, w3) }
        } else {
            super::has_line_portable(p)
        }
    }

    /// The last-move check play asks (`wins_by_playing` in `bits/line.rs`): the portable kernel,
    /// inlined, even on a CPU with AVX-512. In play a call of the AVX-512 kernel costs more
    /// than it saves: play + status 20.2 against 18.9 ns, a random playout 30.0 against
    /// 28.8 ns a move (peer benchmark `gomoku`, baseline build, medians of 9 interleaved runs,
    /// 2026-11-26).
    pub(in super::super) use super::wins_through_portable as wins_through_inlined;

    /// [`wins_through_avx512`] out of line, the board passed in four registers: a caller that
    /// has just stored the board (a copy, a move) loads it word by word, each load taking its
    /// word from the store. Given the board in memory the kernel loads it in one 32-byte load,
    /// which cannot take its bytes from several smaller stores and waits until they reach the
    /// cache: 13.1 ns a check against 4.5 (peer benchmark `gomoku`, whose loop copies each
    /// board before the call in two 16-byte stores; medians of 9 interleaved runs, 2026-11-26).
    #[target_feature(enable = "avx512f,avx512vbmi2,avx512bitalg")]
    #[inline(never)]
    fn wins_through_avx512_words(w0: u64, w1: u64, w2: u64, w3: u64, bit: u32) -> bool {
        wins_through_avx512(&[w0, w1, w2, w3], bit)
    }

    /// [`has_line_avx512`] out of line, the board in four registers: see
    /// [`wins_through_avx512_words`] (57.3 ns a board against 29.3, X then O, in the same runs).
    #[target_feature(enable = "avx512f,avx512vl,avx512vbmi2")]
    #[inline(never)]
    fn has_line_avx512_words(w0: u64, w1: u64, w2: u64, w3: u64) -> bool {
        has_line_avx512([w0, w1, w2, w3])
    }
}

/// The kernels without `std` or off x86-64: the portable ones.
#[cfg(not(any(
    all(feature = "std", target_arch = "x86_64"),
    all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx512vbmi2",
        target_feature = "avx512bitalg"
    )
)))]
mod kernels {
    pub(in super::super) use super::{
        has_line_portable as has_line, wins_through_portable as wins_through,
        wins_through_portable as wins_through_inlined,
    };
}

pub(super) use kernels::{has_line, wins_through, wins_through_inlined};

/// The AVX-512 kernel (`wins_through_avx512`) if this CPU has its features (detected at run
/// time), else `None`: how the tests run it in every build, whichever kernel the build's
/// `wins_through` takes.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[allow(unsafe_code)]
#[must_use]
pub fn wins_through_detected(p: &[u64; 4], bit: u32) -> Option<bool> {
    // SAFETY: the CPU has the kernel's features (`has_avx512`, just before).
    super::cpu::has_avx512().then(|| unsafe { wins_through_avx512(p, bit) })
}

/// The AVX-512 copy of the full-board check (`has_line_avx512`) if this CPU has its features
/// (detected at run time), else `None`: how the tests run it in every build.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[allow(unsafe_code)]
#[must_use]
pub fn has_line_detected(p: [u64; 4]) -> Option<bool> {
    // SAFETY: the CPU has the copy's features (`has_avx512`, just before).
    super::cpu::has_avx512().then(|| unsafe { has_line_avx512(p) })
}

/// [`wins_through`](super::bits::wins_through) for gomoku as it was before the kernels above, kept to be measured
/// against them (`lab::gomoku::wins_through_multiply`) and tested with them (15 × 15, k = 5,
/// stride 16: four columns of 16 bits to a word), branch-free: the four lines through `bit` are gathered into the four 16-bit lanes of
/// one word (bit `c` of a lane is the line's cell in column `c`, or row `c` for the vertical),
/// and one shift-and-AND finds a run of five that starts within four cells before the mark.
///
/// A lane of a word is a column; the cell of row `r` of column `4i + j` is bit `16j + r` of
/// word `i`. Along a diagonal the row moves by one a column, so after rotating word `i` by
/// the line's row at its column 0, the line's cells sit at bits `17j` (rising) or `15j`
/// (falling), `16j` for the row; one multiply by four powers of two moves those four bits
/// next to each other (every partial product lands on its own bit: no carries).
///
/// Cells past the top or bottom of a column are not masked out: the line's cells leaving the
/// board read the guard bit (row 15 of the column, or row -1, the guard of the column below,
/// which the rotation brings in as bit 63 for `j = 0`) before any other bit, and a guard is
/// never set, so no run through `bit` reaches them. Column 15 does not exist: its lane reads
/// bits 240 to 255, never set.
#[must_use]
#[inline(always)]
pub fn wins_through_multiply(p: [u64; 4], bit: u32) -> bool {
    /// Bits `16j`, `17j`, `15j` for `j` = 0 to 3.
    const ROW: u64 = 0x0001_0001_0001_0001;
    const RISING: u64 = 1 | 1 << 17 | 1 << 34 | 1 << 51;
    const FALLING: u64 = 1 | 1 << 15 | 1 << 30 | 1 << 45;
    // The multipliers: bit `16j` (`17j`, `15j`) times `2^(15i)` (`2^(16i)`, `2^(14i)`) lands
    // on bit 45 + j (48 + j, 42 + j) exactly when i + j = 3.
    const ROW_MUL: u64 = 1 | 1 << 15 | 1 << 30 | 1 << 45;
    const RISING_MUL: u64 = 1 | 1 << 16 | 1 << 32 | 1 << 48;
    const FALLING_MUL: u64 = 1 | 1 << 14 | 1 << 28 | 1 << 42;
    let (col, up) = (bit >> 4, bit & 15);
    let (mut row, mut rising, mut falling) = (0, 0, 0);
    for (i, &w) in p.iter().enumerate() {
        let i = i as u32;
        // Word i's four cells of each line, at bits 4i to 4i + 3 above the line's base bit.
        row |= ((w >> up) & ROW).wrapping_mul(ROW_MUL << (4 * i)) & (0xf << (45 + 4 * i));
        rising |= (w.rotate_right((up + 4 * i).wrapping_sub(col)) & RISING)
            .wrapping_mul(RISING_MUL << (4 * i))
            & (0xf << (48 + 4 * i));
        falling |= (w.rotate_right((up + col).wrapping_sub(4 * i)) & FALLING)
            .wrapping_mul(FALLING_MUL << (4 * i))
            & (0xf << (42 + 4 * i));
    }
    let column = (p[(col >> 2) as usize & 3] >> ((col & 3) * 16)) & 0xffff;
    let lanes = row >> 45 | (rising >> 48) << 16 | (falling >> 42) << 32 | column << 48;
    // Bit 15 of every lane is clear (column 15, or the guard), so no run crosses lanes.
    let two = lanes & (lanes >> 1);
    let four = two & (two >> 2);
    let five = four & (four >> 1);
    // A run through the mark starts at most four cells before it.
    let (at_col, at_up) = ((0x1fu64 << col) >> 4, (0x1fu64 << up) >> 4);
    five & (at_col | at_col << 16 | at_col << 32 | at_up << 48) != 0
}
