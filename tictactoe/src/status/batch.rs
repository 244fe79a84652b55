//! Many boards at once: the [`shift`](super::shift) kernel over slices, written so the compiler
//! vectorises it.
//!
//! | function | input | out | state bytes | table bytes |
//! |---|---|---|---|---|
//! | [`verdicts_split`] (fastest) | X's cells and O's cells, two `&[u16]` | `&mut [Verdict]` | 4 (+1 out) | 0 |
//! | [`verdicts`] | one [`Packed`] `u32` per board | `&mut [Verdict]` | 4 (+1 out) | 0 |
//!
//! No `unsafe` and no intrinsics: each loop body is straight-line integer code with
//! compile-time masks, which LLVM turns into SIMD shifts, ANDs and adds at whatever vector
//! width the target allows. On baseline x86-64 (SSE2) the split layout fits 8 boards in a
//! vector and narrows the verdict in one step; `ttt bench` measures it at 0.46 ns per board,
//! the packed layout at 0.74 (docs/readme/status.md).

use super::{Packed, Verdict};

/// Bytes per board read by the batch kernel.
pub const STATE_BYTES: usize = core::mem::size_of::<Packed>();
/// Bytes of static tables the batch kernel reads.
pub const TABLE_BYTES: usize = 0;

/// Writes the verdict of `boards[i]` to `out[i]` for every `i` below the shorter length, and
/// returns that length.
///
/// ```
/// use tictactoe::{Board, Player, status::{Packed, Verdict, batch}};
/// let boards: Vec<Packed> = ["XXX/OO./...", "X../.O./..."]
///     .iter()
///     .map(|t| Packed::from_board(t.parse::<Board>().unwrap()))
///     .collect();
/// let mut out = vec![Verdict::default(); boards.len()];
/// assert_eq!(batch::verdicts(&boards, &mut out), 2);
/// assert_eq!(out[0].winner(), Some(Player::X));
/// assert_eq!(out[1].winner(), None);
/// ```
#[inline]
pub fn verdicts(boards: &[Packed], out: &mut [Verdict]) -> usize {
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
pub fn verdicts_split(xs: &[u16], os: &[u16], out: &mut [Verdict]) -> usize {
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
        let packed: Vec<Packed> = boards.iter().map(|&b| Packed::from_board(b)).collect();
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

    #[test]
    fn batch_agrees_on_every_grid_and_position() {
        let boards: Vec<Packed> = Board::all().map(Packed::from_board).collect();
        let mut out = vec![Verdict::default(); boards.len() + 3];
        assert_eq!(verdicts(&boards, &mut out), Board::COUNT);
        for (board, verdict) in Board::all().zip(&out) {
            assert!(status_agrees(board, verdict.status()), "{board}");
            assert_eq!(verdict.status(), reference_status(board), "{board}");
        }
        for position in Position::all() {
            let mut one = [Verdict::default()];
            verdicts(&[Packed::from_board(position.board())], &mut one);
            assert_eq!(one[0].status(), position.status(), "{position}");
        }
    }
}
