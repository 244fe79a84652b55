//! Count rank: ashdnazg's 13-bit code for the 6,046 boards with possible piece counts.
//!
//! With `n` marks and `k = floor(n / 2)` of them O:
//!
//! | part | value |
//! |---|---|
//! | `offset(n)` | `sum over i < n of C(9, i) * C(i, floor(i / 2))`: 0, 1, 10, 82, 334, 1090, 2350, 4030, 5290, 5920 |
//! | `+ lex(occupied) * C(n, k)` | lexicographic rank of the occupied cells among the `n`-subsets of the 9 cells |
//! | `+ lex(O among occupied)` | lexicographic rank of the O marks' positions among the `k`-subsets of the `n` occupied cells |
//!
//! Range: `0..6,046` (`2^12 < 6,046 <= 2^13`); every code in range decodes, to a board whose
//! counts are possible but which may not be reachable (`XXX...OOO` is 2749).
//!
//! Cost: encode is one lookup in a 512-byte table of 9-cell lexicographic ranks, popcounts by
//! lookup, and a sum of at most four binomials; decode counts the offsets below the code
//! without branching, splits it by a multiply-shift reciprocal of `C(n, k)`, looks the
//! occupied set up in a 1 KiB unrank table and the O pattern in a 548-byte one, and deposits
//! the pattern on the occupied cells by three lookups. Tables: 2,444 bytes in all
//! (`lab::table_bytes::COUNT_RANK`). The greedy unrank `lex_unrank` and the bit-by-bit `deposit` build the
//! tables and are their slow twins.
#![allow(
    clippy::cast_lossless,
    reason = "bit twiddling in const fns, where `From` cannot be called"
)]

use super::{EncodeError, EncodeReason};
use crate::bits::{BINOMIAL, Reciprocals, binomial, block_of, deposit9, popcount9};
use crate::{Bitboard, Board};

/// A board with possible piece counts (#X = #O or #O + 1), ranked as ashdnazg defines it.
///
/// ```
/// use tictactoe::{Board, encoding::CountRank};
/// let code = CountRank::try_from_board("X.O/..O/.X.".parse::<Board>()?)?;
/// assert_eq!(code.code(), 523);
/// assert_eq!(CountRank::try_from(2749)?.to_board().to_string(), "XXX...OOO");
/// assert!(CountRank::try_from_board("OO./.../...".parse::<Board>()?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CountRank(u16);

/// `OFFSET[n]` is the first code of boards with `n` marks; `OFFSET[10] = 6,046`.
const OFFSET: [u16; 11] = {
    let mut table = [0u16; 11];
    let mut n = 0;
    while n < 10 {
        table[n + 1] = table[n] + BINOMIAL[9][n] as u16 * BINOMIAL[n][n / 2] as u16;
        n += 1;
    }
    table
};

/// Lexicographic rank of `{a_1 < ... < a_k}` among the `k`-subsets of `0..m`:
/// `C(m, k) - 1 - sum C(m - 1 - a_i, k - i + 1)`.
const fn lex_rank(mut set: u16, m: u32) -> u32 {
    let k = set.count_ones();
    let mut sum = 0;
    let mut i = 1;
    while set != 0 {
        let a = set.trailing_zeros();
        sum += binomial(m - 1 - a, k - i + 1);
        set &= set - 1;
        i += 1;
    }
    binomial(m, k) - 1 - sum
}

/// `LEX9[s]`: lexicographic rank of the set `s` among the subsets of its size of the 9 cells.
static LEX9: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut set = 0;
    while set < 512 {
        table[set] = lex_rank(set as u16, 9) as u8;
        set += 1;
    }
    table
};

/// `UNLEX9[SIZE_START[n] + r]` is the `n`-subset of the 9 cells with lexicographic rank `r`.
static UNLEX9: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut set = 0;
    while set < 512 {
        let n = (set as u16).count_ones() as usize;
        table[SIZE_START[n] as usize + LEX9[set] as usize] = set as u16;
        set += 1;
    }
    table
};

/// `SIZE_START[n] = sum over i < n of C(9, i)`.
const SIZE_START: [u16; 10] = {
    let mut table = [0u16; 10];
    let mut n = 1;
    while n < 10 {
        table[n] = table[n - 1] + BINOMIAL[9][n - 1] as u16;
        n += 1;
    }
    table
};

/// `O_START[n] = sum over i < n of C(i, floor(i / 2))`: where the O patterns of boards with
/// `n` marks start in [`O_PATTERNS`].
const O_START: [u16; 11] = {
    let mut table = [0u16; 11];
    let mut n = 0;
    while n < 10 {
        table[n + 1] = table[n] + BINOMIAL[n][n / 2] as u16;
        n += 1;
    }
    table
};

/// `O_PATTERNS[O_START[n] + r]`: the `floor(n / 2)`-subset of `0..n` with lexicographic rank
/// `r`, i.e. which of the `n` occupied cells hold O (274 entries).
static O_PATTERNS: [u16; O_START[10] as usize] = {
    let mut table = [0u16; O_START[10] as usize];
    let mut n = 0;
    while n < 10 {
        let mut r = 0;
        while r < BINOMIAL[n][n / 2] as u16 {
            table[(O_START[n] + r) as usize] = lex_unrank(r as u32, n as u32, n as u32 / 2);
            r += 1;
        }
        n += 1;
    }
    table
};

/// `C(n, floor(n / 2))` for `n` in `0..10`: boards per occupied set.
const PER_OCCUPANCY: [u16; 10] = {
    let mut table = [0u16; 10];
    let mut n = 0;
    while n < 10 {
        table[n] = BINOMIAL[n][n / 2] as u16;
        n += 1;
    }
    table
};

/// Division by [`PER_OCCUPANCY`] as multiply and shift, exact below the largest block of codes
/// with one mark count (1,680, for 6 marks).
static PER_OCCUPANCY_RECIPROCALS: Reciprocals<10> = Reciprocals::new(PER_OCCUPANCY, 1_680);

/// Bytes of static tables used by [`CountRank`] (the binomials and the shared popcount and
/// deposit tables included).
pub(crate) const TABLE_BYTES: usize = core::mem::size_of_val(&LEX9)
    + core::mem::size_of_val(&UNLEX9)
    + core::mem::size_of_val(&OFFSET)
    + core::mem::size_of_val(&SIZE_START)
    + core::mem::size_of_val(&O_START)
    + core::mem::size_of_val(&O_PATTERNS)
    + core::mem::size_of_val(&PER_OCCUPANCY)
    + core::mem::size_of_val(&PER_OCCUPANCY_RECIPROCALS)
    + core::mem::size_of_val(&BINOMIAL)
    + crate::bits::SHARED_TABLE_BYTES;

/// The `k`-subset of `0..m` with lexicographic rank `rank`, by the greedy walk.
const fn lex_unrank(mut rank: u32, m: u32, k: u32) -> u16 {
    let mut set = 0u16;
    let mut next = 0;
    let mut left = k;
    while left > 0 {
        // Subsets whose next element is `next` come first: C(m - 1 - next, left - 1) of them.
        let block = binomial(m - 1 - next, left - 1);
        if rank < block {
            set |= 1 << next;
            left -= 1;
        } else {
            rank -= block;
        }
        next += 1;
    }
    set
}

impl CountRank {
    /// `2^12 < 6,046 <= 2^13`.
    pub const BITS: u32 = 13;
    /// Codes lie below 6,046.
    pub const LIMIT: u32 = OFFSET[10] as u32;
    /// Boards with possible piece counts: every code below [`Self::LIMIT`].
    pub const COUNT: u32 = OFFSET[10] as u32;

    /// The code of a board.
    ///
    /// # Errors
    /// [`EncodeReason::PieceCounts`] when X has neither as many marks as O nor one more.
    pub fn try_from_board(board: Board) -> Result<CountRank, EncodeError> {
        let occupied = board.occupied().bits();
        let n = popcount9(occupied);
        let k = n / 2;
        let o_marks = popcount9(board.o().bits());
        if o_marks != k {
            let reason = EncodeReason::PieceCounts {
                x: (n - o_marks) as u8,
                o: o_marks as u8,
            };
            return Err(EncodeError::new(Self::KIND, board, reason));
        }
        // Rank the O marks by their index among the occupied cells.
        // O has at most four cells: a fixed four rounds, each adding nothing once the cells
        // run out, avoid a loop exit that depends on the board.
        let mut sum = 0;
        let mut o = board.o().bits();
        for i in 1..=4 {
            let low = o & o.wrapping_neg();
            let below = popcount9(occupied & low.wrapping_sub(1));
            let term = binomial(n.wrapping_sub(1 + below), (k + 1).wrapping_sub(i));
            sum += term & 0u32.wrapping_sub(u32::from(low != 0));
            o &= o.wrapping_sub(1);
        }
        let per_occupancy = PER_OCCUPANCY[n as usize] as u32;
        let o_rank = per_occupancy - 1 - sum;
        let code =
            OFFSET[n as usize] as u32 + LEX9[occupied as usize] as u32 * per_occupancy + o_rank;
        Ok(CountRank(code as u16))
    }

    /// The board of the code.
    #[must_use]
    pub fn to_board(self) -> Board {
        let n = block_of(self.0, &OFFSET);
        let rest = (self.0 - OFFSET[n]) as u32;
        let (occupancy_rank, o_rank) =
            PER_OCCUPANCY_RECIPROCALS.div_rem(rest, n, PER_OCCUPANCY[n] as u32);
        let occupied = UNLEX9[SIZE_START[n] as usize + occupancy_rank as usize];
        let o = deposit9(O_PATTERNS[O_START[n] as usize + o_rank as usize], occupied);
        Board::from_disjoint(
            Bitboard::from_bits_truncate(occupied & !o),
            Bitboard::from_bits_truncate(o),
        )
    }
}

super::impl_range_code!(CountRank, "6,046");
super::impl_encoding!(CountRank, CountRank, u16, partial);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;

    /// The definition read literally: list the subsets in lexicographic order and count.
    fn slow_lex_rank(set: u16, m: u32) -> u32 {
        let k = set.count_ones();
        let sorted = |s: u16| (0..16).filter(move |i| s >> i & 1 != 0).collect::<Vec<_>>();
        let mut all: Vec<Vec<u32>> = (0..1u16 << m)
            .filter(|s| s.count_ones() == k)
            .map(sorted)
            .collect();
        all.sort();
        all.iter().position(|s| *s == sorted(set)).unwrap() as u32
    }

    fn slow_code(board: Board) -> Option<u32> {
        let n = board.marks();
        if board.count(Player::O) != n / 2 {
            return None;
        }
        let offset: u32 = (0..n).map(|i| binomial(9, i) * binomial(i, i / 2)).sum();
        let occupied = board.occupied().bits();
        let o_among = crate::bits::extract(board.o().bits(), occupied);
        Some(offset + slow_lex_rank(occupied, 9) * binomial(n, n / 2) + slow_lex_rank(o_among, n))
    }

    #[test]
    fn every_grid_matches_the_literal_definition() {
        let mut codes = std::collections::HashSet::new();
        for board in Board::all() {
            let fast = CountRank::try_from_board(board).ok();
            assert_eq!(fast.map(|c| c.code() as u32), slow_code(board), "{board}");
            if let Some(code) = fast {
                assert!(codes.insert(code.code()));
                assert_eq!(code.to_board(), board);
            }
        }
        assert_eq!(codes.len(), 6_046);
    }

    #[test]
    fn every_code_in_the_13_bit_space_decodes_to_itself_or_is_rejected() {
        for code in 0..1u32 << 13 {
            match CountRank::try_from_code(code) {
                Ok(decoded) => {
                    assert_eq!(CountRank::try_from_board(decoded.to_board()), Ok(decoded));
                }
                Err(error) => assert!(code >= 6_046, "{error}"),
            }
        }
    }

    #[test]
    fn public_vectors_and_offsets() {
        assert_eq!(
            OFFSET,
            [0, 1, 10, 82, 334, 1090, 2350, 4030, 5290, 5920, 6046]
        );
        for (text, code) in [
            (".........", 0),
            ("X........", 1),
            ("....X....", 5),
            ("X.O..O.X.", 523),
            ("XXX...OOO", 2749),
        ] {
            let board: Board = text.parse().unwrap();
            assert_eq!(
                CountRank::try_from_board(board).map(CountRank::code),
                Ok(code),
                "{text}"
            );
        }
        let full = "XXXXXXXXX".parse().unwrap();
        assert_eq!(
            CountRank::try_from_board(full).unwrap_err().reason,
            EncodeReason::PieceCounts { x: 9, o: 0 }
        );
    }
}
