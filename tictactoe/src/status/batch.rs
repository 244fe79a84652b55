//! Many boards at once: [`Verdict::of`] over a slice, written so the compiler vectorises it.
//!
//! | representation | check | state bytes | table bytes |
//! |---|---|---|---|
//! | `&[Packed]` in, `&mut [Verdict]` out | the [`shift`](super::shift) kernel, branch-free, lane per board | 4 (+1 out) | 0 |
//!
//! No `unsafe` and no intrinsics: the loop body is straight-line integer code on `u32` with
//! compile-time masks, which LLVM turns into SIMD shifts, ANDs and compares at whatever vector
//! width the target allows (SSE2 on baseline x86-64: 4 boards per instruction).

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::{reference_status, status_agrees};
    use crate::{Board, Position};

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
