//! Eight line masks ANDed with native bitboards.
//!
//! | representation | check | state bytes | table bytes |
//! |---|---|---|---|
//! | [`Board`]: two 9-bit [`Bitboard`](crate::Bitboard)s | `pieces & mask == mask` for the 8 masks of [`Line::ALL`], folded with `\|` | 4 | 0 |
//!
//! The masks are constants in the code, not a table in memory: the compiler folds them into
//! immediate operands.
//!
//! On x86-64 the check runs as SSE2 vector code (SSE2 is part of the x86-64 baseline, so every
//! x86-64 CPU has it): the board is broadcast into eight 16-bit lanes, X and O alternating,
//! and two AND-compares against the masks test all sixteen (player, line) pairs at once; one
//! branch then sees that nobody holds a line, which is the common case. Elsewhere the check is
//! [`winner_portable`], the same masks one player at a time; a test holds the two equal on every
//! grid.

use super::{Check, Method};
use crate::{Board, Line, Player, Status};

/// The eight lines as masks, bit `i` = cell `i`.
pub const MASKS: [u16; 8] = {
    let mut masks = [0; 8];
    let mut l = 0;
    while l < 8 {
        masks[l] = Line::ALL[l].cells().bits();
        l += 1;
    }
    masks
};

/// Whether the 9-bit set `pieces` contains a line, without early exit.
#[must_use]
#[inline]
pub const fn has_line(pieces: u16) -> bool {
    let mut found = false;
    let mut l = 0;
    while l < 8 {
        found |= pieces & MASKS[l] == MASKS[l];
        l += 1;
    }
    found
}

/// The mask method.
///
/// ```
/// use tictactoe::{Board, Player, lab::{Masks, Check}};
/// let board = Masks::prepare("XOO/OXX/XOX".parse::<Board>()?);
/// assert_eq!(Masks::winner(board), Some(Player::X));
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Masks;

impl Check for Masks {
    const METHOD: Method = Method::Masks;
    type State = Board;
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn prepare(board: Board) -> Board {
        board
    }

    #[inline]
    fn winner(board: Board) -> Option<Player> {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            sse2::winner(board)
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            winner_portable(board)
        }
    }

    // Branch-free, unlike `winner`: the (player, line) tests, then the 8-entry status table.
    #[inline]
    fn status(board: Board) -> Option<Status> {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        let (x, o) = sse2::lines(board);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        let (x, o) = (has_line(board.x().bits()), has_line(board.o().bits()));
        Some(super::status_from_lines(x, o, board))
    }
}

/// The mask check one player at a time, X first, in plain integer code: what [`Masks`] runs
/// off x86-64, and the twin its SSE2 kernel is tested against.
///
/// ```
/// use tictactoe::{Board, Player, lab::masks};
/// assert_eq!(masks::winner_portable("OOO/XX./X..".parse::<Board>()?), Some(Player::O));
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[inline]
#[must_use]
pub fn winner_portable(board: Board) -> Option<Player> {
    // Branches, not a lookup: X's test alone decides most won boards, and the branch
    // predictor learns the rest.
    if has_line(board.x().bits()) {
        Some(Player::X)
    } else if has_line(board.o().bits()) {
        Some(Player::O)
    } else {
        None
    }
}

/// The SSE2 kernel.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    #![allow(unsafe_code)]

    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi16, _mm_movemask_epi8, _mm_packs_epi16, _mm_set_epi16,
        _mm_set1_epi32,
    };

    use super::MASKS;
    use crate::{Board, Player};

    /// Bits 0, 2, .., 14 of [`line_pairs`]: X's lines.
    const X_BITS: u32 = 0x5555;

    /// Whether X and whether O holds a line.
    #[inline]
    pub(super) fn lines(board: Board) -> (bool, bool) {
        // SAFETY: as in `winner`.
        let pairs = unsafe { line_pairs(board.x().bits(), board.o().bits()) };
        (pairs & X_BITS != 0, pairs & !X_BITS != 0)
    }

    #[inline]
    pub(super) fn winner(board: Board) -> Option<Player> {
        // SAFETY: `line_pairs` only needs SSE2, and this module is compiled only when SSE2 is
        // enabled for the whole build (`target_feature = "sse2"`, part of the x86-64
        // baseline): every CPU that can run this code has it.
        let pairs = unsafe { line_pairs(board.x().bits(), board.o().bits()) };
        if pairs == 0 {
            None
        } else if pairs & X_BITS != 0 {
            Some(Player::X)
        } else {
            Some(Player::O)
        }
    }

    /// The 16 (line, player) tests as 16 bits: bit `2l` is X holds line `l` of [`MASKS`], bit
    /// `2l + 1` is O holds it.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn line_pairs(x: u16, o: u16) -> u32 {
        // Lanes of 16 bits, lane 0 first: x, o, x, o, x, o, x, o.
        let board = _mm_set1_epi32((u32::from(x) | u32::from(o) << 16).cast_signed());
        let low = lane_pairs(MASKS[0], MASKS[1], MASKS[2], MASKS[3]);
        let high = lane_pairs(MASKS[4], MASKS[5], MASKS[6], MASKS[7]);
        let low_hits = _mm_cmpeq_epi16(_mm_and_si128(board, low), low);
        let high_hits = _mm_cmpeq_epi16(_mm_and_si128(board, high), high);
        // Each hit lane is 0 or -1: packing to bytes keeps it, lane order unchanged.
        _mm_movemask_epi8(_mm_packs_epi16(low_hits, high_hits)).cast_unsigned()
    }

    /// Lanes `a, a, b, b, c, c, d, d`, lane 0 first: each mask once for X, once for O.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn lane_pairs(a: u16, b: u16, c: u16, d: u16) -> __m128i {
        let [a, b, c, d] = [a, b, c, d].map(u16::cast_signed);
        _mm_set_epi16(d, d, c, c, b, b, a, a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_agrees_with_its_portable_twin_on_every_grid() {
        let mut won = [0usize; 2];
        for board in Board::all() {
            let winner = Masks::winner(board);
            assert_eq!(winner, winner_portable(board), "{board}");
            if let Some(player) = winner {
                won[player as usize] += 1;
            }
        }
        // Both players' lanes were exercised (X first when both hold a line).
        assert!(won[0] > 0 && won[1] > 0, "{won:?}");
    }
}
