//! Many boards at once: the `shift` kernel over slices, auto-vectorised or hand-written per
//! instruction set, picked at run time.
//!
//! | function | input | out | state bytes | table bytes |
//! |---|---|---|---|---|
//! | [`verdicts_split`] (fastest) | X's cells and O's cells, two `&[u16]` | `&mut [Verdict]` | 4 (+1 out) | 0 |
//! | [`verdicts`] | one [`BoardWord`] `u32` per board | `&mut [Verdict]` | 4 (+1 out) | 0 |
//!
//! Each set is 9 bits (cells 0 to 8, as [`Bitboard::bits`](crate::Bitboard::bits) returns);
//! X's and O's may overlap, and every kernel gives the same verdict on every pair of 9-bit sets.
//!
//! The split layout has a kernel per [`Kernel`], each tested against the scalar one
//! (`split_kernel`, plain Rust) on every pair of 9-bit sets, every grid and the lengths 0 to
//! 100 (vector loops and tails), as are the packed layout's; [`verdicts_split_with`] runs a
//! chosen one:
//!
//! - [`Kernel::Portable`]: on x86-64, hand-written SSE2 (the baseline): 16 boards per step in
//!   bytes (cells 0-7 in one byte, cell 8 in another), lines found by 16-bit shifts and byte
//!   masks; if the build itself enables AVX2, the AVX2 kernel below. Elsewhere the scalar
//!   kernel, which LLVM vectorises for the target.
//! - [`Kernel::Avx2`]: hand-written, a table lookup: one 16-bit lane per board holds X's cells
//!   0-7 in its low byte and O's in its high byte, and `vpshufb` looks up both players' low and
//!   high nibbles in two 16-byte tables of lines, a third on cell 8.
//! - [`Kernel::Avx512`]: hand-written, the AVX2 kernel's `vpshufb` lookup at 512 bits (AVX-512BW,
//!   no VBMI): 64 boards per step, ternary-logic ops for its blends and ANDs, a mask register
//!   for "full"; 34 instructions per 64 boards, where the scalar kernel auto-vectorised for
//!   AVX-512BW spent 80.
//! - [`Kernel::Avx512Vbmi`]: hand-written, the 64-byte [`LINE_TABLE`] in one register and one
//!   byte permute (`vpermb`) looking up 32 sets.
//!
//! The packed layout ([`verdicts`]) is the scalar [`Verdict::of`] auto-vectorised (compiled
//! for the target, and with AVX2), and hand-written on AVX-512BW (two `vpermt2w` split 32 words
//! into X's and O's sets, then the split kernel's step) and on VBMI. Each call picks the
//! widest kernel the CPU has (detected at run time, cached by `std`; without `std`, or off
//! x86-64, the portable one).

#[cfg(target_arch = "x86_64")]
mod simd;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod x86;

use super::{BoardWord, Verdict};

crate::choice::choice_enum! {
/// A batch kernel: an instruction set and the code written or compiled for it (`ALL` is
/// narrowest first; the names are what `ttt bench` prints).
///
/// ```
/// use tictactoe::status::batch::Kernel;
/// assert_eq!("avx512-vbmi".parse::<Kernel>()?, Kernel::Avx512Vbmi);
/// assert!(Kernel::Portable.is_available());
/// # Ok::<(), tictactoe::status::batch::ParseKernelError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Runs everywhere: for the split layout, hand-written SSE2 on x86-64 (AVX2 where the
    /// build enables it), else the scalar kernel vectorised by LLVM for the target; for the
    /// packed layout, the scalar kernel.
    Portable = "portable",
    /// 256-bit vectors, on x86-64 CPUs with AVX2: a hand-written `vpshufb` lookup for the split
    /// layout.
    Avx2 = "avx2",
    /// 512-bit vectors, on x86-64 CPUs with AVX-512F and AVX-512BW: hand-written, the AVX2
    /// kernel's `vpshufb` lookup of 16-byte line tables at twice the width (64 boards per step,
    /// 34 instructions), no VBMI needed; for the packed layout, a `vpermt2w` split of the words
    /// into X's and O's sets before the same lookup.
    Avx512 = "avx512",
    /// 512-bit vectors with AVX-512 VBMI: the whole 512-bit line table ([`LINE_TABLE`]) held
    /// in one register and looked up for 32 sets at once with a byte permute (`vpermb`).
    Avx512Vbmi = "avx512-vbmi",
}
parse_error: |_text| -> ParseKernelError { ParseKernelError }
}

/// Text that names no kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown kernel: expected portable, avx2, avx512 or avx512-vbmi")]
pub struct ParseKernelError;

impl Kernel {
    /// Whether this CPU can run the kernel (always `false` for the wide kernels without `std`,
    /// which has the run-time detection, or off x86-64).
    #[must_use]
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Portable => true,
            #[cfg(all(feature = "std", target_arch = "x86_64"))]
            wide => x86::is_available(wide),
            #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
            _ => false,
        }
    }

    /// The widest kernel this CPU can run: what [`verdicts`] and [`verdicts_split`] use.
    #[must_use]
    pub fn best() -> Kernel {
        Kernel::ALL
            .into_iter()
            .rev()
            .find(|k| k.is_available())
            .unwrap_or(Kernel::Portable)
    }
}

/// The 512-bit line table in the layout the VBMI kernel permutes: bit `b` of byte `j` says
/// whether the 9-bit set `j + 64 * b` holds a line. A set's low 6 bits pick the byte (what
/// `vpermb` reads of an index byte) and its top 3 bits the bit, so no shift or mask is needed to
/// form the byte index.
pub const LINE_TABLE: [u8; 64] = {
    let mut table = [0u8; 64];
    let mut set = 0u16;
    while set < 512 {
        if crate::Bitboard::from_bits_truncate(set).has_line() {
            table[(set & 63) as usize] |= 1 << (set >> 6);
        }
        set += 1;
    }
    table
};

/// Bytes per board read by the batch kernel.
pub const STATE_BYTES: usize = core::mem::size_of::<BoardWord>();
/// Bytes of static tables the batch kernel reads per board: none. The VBMI kernel loads
/// [`LINE_TABLE`] (64 bytes) and the AVX2 and AVX-512BW kernels three 16-byte line tables into
/// registers once per call; the others read no table.
pub const TABLE_BYTES: usize = 0;

/// Writes the verdict of `boards[i]` to `out[i]` for every `i` below the shorter length, and
/// returns that length.
///
/// ```
/// use tictactoe::{Board, Player, status::{BoardWord, Verdict, batch}};
/// let boards: Vec<BoardWord> = ["XXX/OO./...", "X../.O./..."]
///     .iter()
///     .map(|t| BoardWord::from_board(t.parse::<Board>().unwrap()))
///     .collect();
/// let mut out = vec![Verdict::default(); boards.len()];
/// assert_eq!(batch::verdicts(&boards, &mut out), 2);
/// assert_eq!(out[0].winner(), Some(Player::X));
/// assert_eq!(out[1].winner(), None);
/// ```
#[inline]
pub fn verdicts(boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    verdicts_with(Kernel::best(), boards, out)
}

/// [`verdicts`] on a chosen kernel, or on the portable one if this CPU lacks it.
#[inline]
pub fn verdicts_with(kernel: Kernel, boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    match kernel {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        Kernel::Avx2 | Kernel::Avx512 | Kernel::Avx512Vbmi => x86::packed(kernel, boards, out),
        _ => packed_kernel(boards, out),
    }
}

/// The packed kernel. `inline(always)`, so each caller (the portable one and each
/// target-feature wrapper in `x86`) compiles it at its own vector width.
#[inline(always)]
pub(super) fn packed_kernel(boards: &[BoardWord], out: &mut [Verdict]) -> usize {
    let n = boards.len().min(out.len());
    for (verdict, &board) in out[..n].iter_mut().zip(&boards[..n]) {
        *verdict = Verdict::of(board);
    }
    n
}

/// Whether the 9-bit set `pieces` holds a line, as 0 or 1: the [`shift`](super::shift)
/// kernel on one player, in a 16-bit lane.
#[inline]
const fn line_bit(pieces: u16) -> u16 {
    let (s2, s4) = (pieces >> 2, pieces >> 4);
    let rows = pieces & pieces >> 1 & s2 & 0b001_001_001;
    let columns = pieces & pieces >> 3 & pieces >> 6 & 0b111;
    let diagonal = pieces & s4 & pieces >> 8 & 0b001;
    let anti_diagonal = pieces & s2 & s4 & 0b100;
    // At most 9 bits are set, so adding 511 carries into bit 9 exactly when one is.
    ((rows | columns | diagonal | anti_diagonal) + 0x1ff) >> 9
}

/// The verdict from one player's cells in each of `xs` and `os` (structure of arrays), for every
/// `i` below the shortest length, written to `out[i]`; returns that length.
///
/// The fastest layout: 16-bit lanes hold twice the boards of 32-bit ones per vector, and the
/// verdict narrows from 16 bits to 8 in one step.
///
/// ```
/// use tictactoe::{Board, Player, status::{Verdict, batch}};
/// let boards: Vec<Board> = ["XXX/OO./...", "OOO/XX./X.."]
///     .iter()
///     .map(|t| t.parse().unwrap())
///     .collect();
/// let xs: Vec<u16> = boards.iter().map(|b| b.x().bits()).collect();
/// let os: Vec<u16> = boards.iter().map(|b| b.o().bits()).collect();
/// let mut out = [Verdict::default(); 2];
/// assert_eq!(batch::verdicts_split(&xs, &os, &mut out), 2);
/// assert_eq!(out[1].winner(), Some(Player::O));
/// ```
#[inline]
pub fn verdicts_split(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    verdicts_split_with(Kernel::best(), xs, os, out)
}

/// [`verdicts_split`] on a chosen kernel, or on the portable one if this CPU lacks it.
///
/// ```
/// use tictactoe::status::{Verdict, batch::{self, Kernel}};
/// let (xs, os) = ([0b111, 0b000_001_001], [0b011_000, 0b110]);
/// let (mut a, mut b) = ([Verdict::default(); 2], [Verdict::default(); 2]);
/// batch::verdicts_split_with(Kernel::Portable, &xs, &os, &mut a);
/// batch::verdicts_split_with(Kernel::best(), &xs, &os, &mut b);
/// assert_eq!(a, b);
/// ```
#[inline]
pub fn verdicts_split_with(kernel: Kernel, xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    match kernel {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        Kernel::Avx2 | Kernel::Avx512 | Kernel::Avx512Vbmi => x86::split(kernel, xs, os, out),
        _ => split_portable(xs, os, out),
    }
}

/// The portable split kernel: on x86-64, the hand-written SSE2 one (or the AVX2 one if the
/// build enables AVX2); elsewhere [`split_kernel`].
#[inline]
pub(super) fn split_portable(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    #[cfg(target_arch = "x86_64")]
    return simd::split_static(xs, os, out);
    #[cfg(not(target_arch = "x86_64"))]
    split_kernel(xs, os, out)
}

/// The scalar split kernel: the twin every hand-written kernel is tested against and runs on
/// its tail.
#[inline(always)]
pub(super) fn split_kernel(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
    let n = xs.len().min(os.len()).min(out.len());
    for ((verdict, &x), &o) in out[..n].iter_mut().zip(&xs[..n]).zip(&os[..n]) {
        let full = (((x | o) & 0x1ff) + 1) >> 9;
        *verdict = Verdict::from_bits((line_bit(x) | line_bit(o) << 1 | full << 2) as u8);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{reference_status, status_agrees};
    use crate::{Board, Position};

    #[test]
    fn split_layout_agrees_with_packed_on_every_grid() {
        let boards: Vec<Board> = Board::all().collect();
        let packed: Vec<BoardWord> = boards.iter().map(|&b| BoardWord::from_board(b)).collect();
        let xs: Vec<u16> = boards.iter().map(|b| b.x().bits()).collect();
        let os: Vec<u16> = boards.iter().map(|b| b.o().bits()).collect();
        let (mut a, mut b) = (
            vec![Verdict::default(); 19_683],
            vec![Verdict::default(); 19_683],
        );
        assert_eq!(verdicts(&packed, &mut a), 19_683);
        assert_eq!(verdicts_split(&xs, &os[..100], &mut b), 100);
        assert_eq!(verdicts_split(&xs, &os, &mut b), 19_683);
        assert_eq!(a, b);
    }

    /// Every grid, then the grids again from an odd offset, so the wide kernels' vector loops
    /// and scalar tails both see every board.
    fn grids_and_a_tail() -> Vec<Board> {
        Board::all()
            .chain(Board::all().skip(7).take(1_000))
            .collect()
    }

    #[test]
    fn every_available_kernel_agrees_with_the_portable_one() {
        let boards = grids_and_a_tail();
        let packed: Vec<BoardWord> = boards.iter().map(|&b| BoardWord::from_board(b)).collect();
        let xs: Vec<u16> = boards.iter().map(|b| b.x().bits()).collect();
        let os: Vec<u16> = boards.iter().map(|b| b.o().bits()).collect();
        // The scalar kernel, not the portable one: that is hand-written SIMD on x86-64.
        let mut expected = vec![Verdict::default(); boards.len()];
        split_kernel(&xs, &os, &mut expected);
        for kernel in Kernel::ALL {
            for len in (0..=100).chain([127, 128, 129, 1_000, boards.len()]) {
                let mut split = vec![Verdict::default(); len];
                let mut pack = vec![Verdict::default(); len];
                assert_eq!(verdicts_split_with(kernel, &xs, &os, &mut split), len);
                assert_eq!(verdicts_with(kernel, &packed, &mut pack), len);
                assert_eq!(split, expected[..len], "{kernel:?} split, {len} boards");
                assert_eq!(pack, expected[..len], "{kernel:?} packed, {len} boards");
            }
        }
    }

    /// Every pair of 9-bit sets, overlapping ones included (the kernels read each player's
    /// set on its own, and "full" as the union), on every kernel and both layouts against the
    /// scalar one.
    #[test]
    fn every_kernel_agrees_on_every_pair_of_sets() {
        let xs: Vec<u16> = (0..1 << 18).map(|i: u32| (i & 0x1ff) as u16).collect();
        let os: Vec<u16> = (0..1 << 18).map(|i: u32| (i >> 9) as u16).collect();
        let mut expected = vec![Verdict::default(); xs.len()];
        split_kernel(&xs, &os, &mut expected);
        let words: Vec<BoardWord> = xs
            .iter()
            .zip(&os)
            .map(|(&x, &o)| BoardWord(u32::from(x) | u32::from(o) << 16))
            .collect();
        for kernel in Kernel::ALL {
            let (mut split, mut packed) = (
                vec![Verdict::default(); xs.len()],
                vec![Verdict::default(); xs.len()],
            );
            assert_eq!(verdicts_split_with(kernel, &xs, &os, &mut split), xs.len());
            assert_eq!(verdicts_with(kernel, &words, &mut packed), xs.len());
            for (layout, out) in [("split", &split), ("packed", &packed)] {
                if let Some(i) = (0..xs.len()).find(|&i| out[i] != expected[i]) {
                    panic!(
                        "{kernel:?} {layout}: x {:#011b}, o {:#011b}: {:?}, not {:?}",
                        xs[i], os[i], out[i], expected[i]
                    );
                }
            }
        }
    }

    /// The test above runs a kernel this CPU lacks as the portable one; this one checks that
    /// detection matches the CPU and that the widest detected kernel is the one chosen.
    #[test]
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    fn the_wide_kernels_run_where_the_cpu_has_them() {
        assert_eq!(
            Kernel::Avx2.is_available(),
            std::arch::is_x86_feature_detected!("avx2")
        );
        let best = Kernel::best();
        if std::arch::is_x86_feature_detected!("avx512vbmi")
            && std::arch::is_x86_feature_detected!("avx512bw")
        {
            assert_eq!(best, Kernel::Avx512Vbmi);
        } else if std::arch::is_x86_feature_detected!("avx512bw") {
            assert_eq!(best, Kernel::Avx512);
        } else if std::arch::is_x86_feature_detected!("avx2") {
            assert_eq!(best, Kernel::Avx2);
        } else {
            assert_eq!(best, Kernel::Portable);
        }
    }

    #[test]
    fn batch_agrees_on_every_grid_and_position() {
        let boards: Vec<BoardWord> = Board::all().map(BoardWord::from_board).collect();
        let mut out = vec![Verdict::default(); boards.len() + 3];
        assert_eq!(verdicts(&boards, &mut out), Board::COUNT);
        for (board, verdict) in Board::all().zip(&out) {
            assert!(status_agrees(board, verdict.status()), "{board}");
            assert_eq!(verdict.status(), reference_status(board), "{board}");
        }
        for position in Position::all() {
            let mut one = [Verdict::default()];
            verdicts(&[BoardWord::from_board(position.board())], &mut one);
            assert_eq!(one[0].status(), position.status(), "{position}");
        }
    }
}
