//! Exact rank: a bijection between the 5,478 reachable positions and `0..5,478`, in 13 bits,
//! with under 2 KiB of tables (no table with an entry per position).
//!
//! # Construction
//!
//! Call the player who is to move by the mark count (X when the count `n` is even, O when odd)
//! the *waiting* player `W`, and the other the *last mover* `L`. `W` holds `w = floor(n / 2)`
//! marks and `L` holds `l = ceil(n / 2)`. For a board with possible piece counts, the rules of
//! validation reduce to a single condition: **`W` has no line.** (If `W` had a line, either both
//! players have one or the winner's count says someone moved after the win; and `L`, with at
//! most five marks, can never hold two lines that share no cell, since two disjoint lines need
//! six.) The test `reduction_is_exact` checks this on all 19,683 grids.
//!
//! So for each `n` the reachable positions are a *product*: any line-free `w`-set for `W`,
//! times any `l`-subset of the `9 - w` cells `W` leaves free for `L`. With `N(w)` line-free
//! `w`-sets (1, 9, 36, 76, 78 for `w = 0..4`):
//!
//! | part | value |
//! |---|---|
//! | `offset(n)` | positions with fewer marks: 0, 1, 10, 82, 334, 1090, 2350, 3870, 5010, 5400 (5478) |
//! | `+ free(W) * C(9 - w, l)` | rank of `W`'s set among line-free `w`-sets, in increasing mask order |
//! | `+ colex(L within the free cells)` | colexicographic rank of `L`'s cells, numbered `0..9 - w` among the cells `W` leaves free |
//!
//! Range: `0..5,478` (`2^12 < 5,478 <= 2^13`); every code in range decodes to a reachable
//! position, and only those.
//!
//! Colexicographic order of `k`-sets is increasing mask order, and it does not depend on the
//! size of the universe, so one unrank table serves every `n`: the `r`-th `k`-set of `0..m` is
//! the `r`-th mask with `k` bits for any `m`. Tables (computed by `const fn`):
//!
//! | table | entries | bytes |
//! |---|---|---|
//! | line-free rank of every 9-bit set | 512 x u8 | 512 |
//! | line-free sets by size and rank | 200 x u16 | 400 |
//! | `k`-bit masks by size and colex rank, `k <= 5` | 382 x u16 | 764 |
//! | colex rank contributions of 3-bit groups | 96 x u8 | 96 |
//! | offsets, reciprocals | | 106 |
//! | shared: 3-bit popcount, deposit and extract | | 136 |
//!
//! In all `lab::table_bytes::RANK` = 2,014 bytes, checked at compile time to stay within 2 KiB
//! (binomials are used only while the compiler builds the tables).
//!
//! Cost (medians in docs/benchmarks.md, `cargo bench -p tictactoe-kit --bench encodings`): encode is a
//! popcount by three lookups, a lookup of `W`'s line-free rank, `L`'s cells packed among the
//! free cells (a branch-free `pext` by three lookups) and their colex rank by three more;
//! decode finds `n` among ten offsets without branching, splits by a
//! multiply-shift reciprocal, and does two lookups and a deposit by three more.
#![allow(
    clippy::cast_lossless,
    reason = "bit twiddling in const fns, where `From` cannot be called"
)]

use super::EncodeError;
use crate::bits::{Reciprocals, binomial, block_of, deposit9, extract9, popcount9};
use crate::{Bitboard, Board, Position};

/// A reachable position as its exact rank in `0..5,478`.
///
/// ```
/// use tictactoe::{Board, Position, encoding::Rank};
/// let position = Position::try_from("X.O/..O/.X.".parse::<Board>()?)?;
/// let rank = Rank::from_position(position);
/// assert!(rank.code() < 5_478);
/// assert_eq!(rank.to_position(), position);
/// assert_eq!(Rank::from_position(Position::EMPTY).code(), 0);
/// assert!(Rank::try_from(5_478).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u16);

/// `FREE_RANK[s]`: the number of line-free sets of `s`'s size with a smaller mask
/// (meaningless for sets with a line).
static FREE_RANK: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut seen = [0u8; 10];
    let mut set = 0;
    while set < 512 {
        let size = (set as u16).count_ones() as usize;
        if !Bitboard::from_bits_truncate(set as u16).has_line() {
            table[set] = seen[size];
            seen[size] += 1;
        }
        set += 1;
    }
    table
};

/// `FREE_START[w]`: where the line-free `w`-sets start in [`FREE_SETS`].
const FREE_START: [u16; 6] = {
    let mut table = [0u16; 6];
    let mut set = 0;
    while set < 512 {
        let size = (set as u16).count_ones() as usize;
        if size < 5 && !Bitboard::from_bits_truncate(set as u16).has_line() {
            let mut w = size + 1;
            while w < 6 {
                table[w] += 1;
                w += 1;
            }
        }
        set += 1;
    }
    table
};

/// The line-free sets of 0 to 4 cells, by size, in increasing mask order.
static FREE_SETS: [u16; 200] = {
    let mut table = [0u16; 200];
    let mut set = 0;
    while set < 512 {
        let size = (set as u16).count_ones() as usize;
        if size < 5 && !Bitboard::from_bits_truncate(set as u16).has_line() {
            table[FREE_START[size] as usize + FREE_RANK[set] as usize] = set as u16;
        }
        set += 1;
    }
    table
};

/// `COLEX_START[k] = sum over i < k of C(9, i)`: where the `k`-bit masks start in [`COLEX`].
const COLEX_START: [u16; 6] = [0, 1, 10, 46, 130, 256];

/// The 9-bit masks with 0 to 5 bits, by bit count, in increasing order (= colex order).
static COLEX: [u16; 382] = {
    let mut table = [0u16; 382];
    let mut next = COLEX_START;
    let mut set = 0u16;
    while set < 512 {
        let k = set.count_ones() as usize;
        if k < 6 {
            table[next[k] as usize] = set;
            next[k] += 1;
        }
        set += 1;
    }
    table
};

/// Colex rank contributions of the 3-bit group `g` of a set (bits `3g..3g + 3`) with `c`
/// elements in the groups below: entry `[c][m]` is `sum C(3g + j, c + t)` over the `t`-th set
/// bit `j` of `m`.
const fn colex_group<const C: usize>(g: u32) -> [[u8; 8]; C] {
    let mut table = [[0u8; 8]; C];
    let mut c = 0;
    while c < C {
        let mut m = 0;
        while m < 8 {
            let (mut sum, mut t) = (0, 1);
            let mut j = 0;
            while j < 3 {
                if m >> j & 1 != 0 {
                    sum += binomial(3 * g + j, c as u32 + t);
                    t += 1;
                }
                j += 1;
            }
            assert!(sum < 256);
            table[c][m] = sum as u8;
            m += 1;
        }
        c += 1;
    }
    table
}

/// Group 0 has no element below it, group 1 up to 3, group 2 up to 6: 96 bytes in all.
static COLEX_GROUP0: [[u8; 8]; 1] = colex_group(0);
static COLEX_GROUP1: [[u8; 8]; 4] = colex_group(1);
static COLEX_GROUP2: [[u8; 8]; 7] = colex_group(2);

/// The colexicographic rank of a set among the sets of its size, `sum C(a_i, i)` over its sorted
/// elements `a_1 < a_2 < ...`, by one lookup per 3-bit group (for up to six elements).
#[inline]
const fn colex_rank(set: u16) -> u32 {
    let (m0, m1, m2) = (
        (set & 7) as usize,
        (set >> 3 & 7) as usize,
        (set >> 6 & 7) as usize,
    );
    let (p0, p1) = (popcount9(m0 as u16) as usize, popcount9(m1 as u16) as usize);
    (COLEX_GROUP0[0][m0] + COLEX_GROUP1[p0][m1] + COLEX_GROUP2[p0 + p1][m2]) as u32
}

/// Positions per (`n`, line-free set of the waiting player): `C(9 - w, l)`.
const PER_FREE_SET: [u16; 10] = {
    let mut table = [0u16; 10];
    let mut n = 0;
    while n < 10 {
        table[n] = binomial(9 - n as u32 / 2, (n as u32).div_ceil(2)) as u16;
        n += 1;
    }
    table
};

/// Division by [`PER_FREE_SET`] as multiply and shift, exact below the largest block of codes
/// with one mark count (1,520, for 6 marks).
static PER_FREE_SET_RECIPROCALS: Reciprocals<10> = Reciprocals::new(PER_FREE_SET, 1_520);

/// `OFFSET[n]`: the first code of positions with `n` marks; `OFFSET[10] = 5,478`.
const OFFSET: [u16; 11] = {
    let mut table = [0u16; 11];
    let mut n = 0;
    while n < 10 {
        let free_sets = FREE_START[n / 2 + 1] - FREE_START[n / 2];
        table[n + 1] = table[n] + free_sets * PER_FREE_SET[n];
        n += 1;
    }
    table
};

/// Bytes of static tables behind [`Rank`] at run time.
pub(crate) const TABLE_BYTES: usize = core::mem::size_of_val(&FREE_RANK)
    + core::mem::size_of_val(&FREE_SETS)
    + core::mem::size_of_val(&COLEX)
    + core::mem::size_of_val(&FREE_START)
    + core::mem::size_of_val(&COLEX_START)
    + core::mem::size_of_val(&PER_FREE_SET)
    + core::mem::size_of_val(&OFFSET)
    + core::mem::size_of_val(&PER_FREE_SET_RECIPROCALS)
    + core::mem::size_of_val(&COLEX_GROUP0)
    + core::mem::size_of_val(&COLEX_GROUP1)
    + core::mem::size_of_val(&COLEX_GROUP2)
    + crate::bits::SHARED_TABLE_BYTES;

const _: () = assert!(TABLE_BYTES <= 2048);
const _: () = assert!(OFFSET[10] == 5_478);

/// The board of a code below 5,478 (a `const fn`, so the canonical tables can use it).
pub(crate) const fn decode_board(code: u16) -> Board {
    let n = block_of(code, &OFFSET);
    let rest = (code - OFFSET[n]) as u32;
    let (free_rank, colex) = PER_FREE_SET_RECIPROCALS.div_rem(rest, n, PER_FREE_SET[n] as u32);
    let (w, l) = (n / 2, n.div_ceil(2));
    let waiting = FREE_SETS[FREE_START[w] as usize + free_rank as usize];
    let last = deposit9(
        COLEX[COLEX_START[l] as usize + colex as usize],
        !waiting & 0x1ff,
    );
    let (x, o) = if n.is_multiple_of(2) {
        (waiting, last)
    } else {
        (last, waiting)
    };
    Board::from_disjoint(
        Bitboard::from_bits_truncate(x),
        Bitboard::from_bits_truncate(o),
    )
}

impl Rank {
    /// `2^12 < 5,478 <= 2^13`.
    pub const BITS: u32 = 13;
    /// Codes lie below 5,478.
    pub const LIMIT: u32 = OFFSET[10] as u32;
    /// Reachable positions (computed from the construction's tables): every code below
    /// [`Self::LIMIT`].
    pub const COUNT: u32 = OFFSET[10] as u32;

    /// The rank of a position.
    #[must_use]
    #[inline]
    pub fn from_position(position: Position) -> Rank {
        let board = position.board();
        let n = popcount9(board.occupied().bits()) as usize;
        let (waiting, last) = if n.is_multiple_of(2) {
            (board.x(), board.o())
        } else {
            (board.o(), board.x())
        };
        let free = !waiting.bits() & 0x1ff;
        // Colex rank of L's cells renumbered among the free cells: pack them (extract), then
        // rank; colex rank does not depend on the size of the universe.
        let colex = colex_rank(extract9(last.bits(), free));
        let free_rank = FREE_RANK[waiting.bits() as usize] as u32;
        Rank((OFFSET[n] as u32 + free_rank * PER_FREE_SET[n] as u32 + colex) as u16)
    }

    /// The position of the rank.
    #[must_use]
    pub const fn to_position(self) -> Position {
        Position::from_board_unchecked(decode_board(self.0))
    }

    /// The board of the rank.
    #[must_use]
    pub const fn to_board(self) -> Board {
        decode_board(self.0)
    }

    /// The rank of a board.
    ///
    /// # Errors
    /// [`EncodeReason::Unreachable`](super::EncodeReason::Unreachable) with every rule the board breaks.
    pub fn try_from_board(board: Board) -> Result<Rank, EncodeError> {
        super::encode_position(Self::KIND, board, Rank::from_position)
    }
}

impl From<Position> for Rank {
    fn from(position: Position) -> Rank {
        Rank::from_position(position)
    }
}

impl From<Rank> for Position {
    fn from(rank: Rank) -> Position {
        rank.to_position()
    }
}

super::impl_range_code!(Rank, "5,478");
super::impl_encoding!(Rank, Rank, u16, partial);

/// Every position by rank with its base-3 code, and the rank of every base-3 code: what a
/// retrograde pass needs to find children (the solver's table and the game codes' subtree
/// sizes). About 61 KB, alive only while a table is built.
pub(crate) struct RankIndex {
    /// `boards[rank]`: the board of each rank.
    pub(crate) boards: [Board; Rank::COUNT as usize],
    /// `base3[rank]`: its base-3 code.
    base3: [u16; Rank::COUNT as usize],
    /// `rank_by_base3[code]`: the rank of each reachable board (`u16::MAX` elsewhere).
    rank_by_base3: [u16; Board::COUNT],
}

impl RankIndex {
    /// Decodes every rank once.
    pub(crate) const fn build() -> RankIndex {
        let mut index = RankIndex {
            boards: [Board::EMPTY; Rank::COUNT as usize],
            base3: [0; Rank::COUNT as usize],
            rank_by_base3: [u16::MAX; Board::COUNT],
        };
        let mut rank = 0;
        while rank < Rank::COUNT as usize {
            let board = decode_board(rank as u16);
            let code = crate::board::base3_code(board);
            index.boards[rank] = board;
            index.base3[rank] = code;
            index.rank_by_base3[code as usize] = rank as u16;
            rank += 1;
        }
        index
    }

    /// The ranks of the children of the position of `rank`, by cell (`u16::MAX` for occupied
    /// cells).
    pub(crate) const fn child_ranks(&self, rank: usize) -> [u16; 9] {
        let board = self.boards[rank];
        let code = self.base3[rank];
        let digit = if board.marks().is_multiple_of(2) {
            1
        } else {
            2
        };
        let empty = board.empty_cells().bits();
        let mut ranks = [u16::MAX; 9];
        let mut cell = 0;
        while cell < 9 {
            if empty >> cell & 1 != 0 {
                ranks[cell] =
                    self.rank_by_base3[(code + digit * super::base3::POW3[cell]) as usize];
            }
            cell += 1;
        }
        ranks
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Player, bits::extract};

    #[test]
    fn reduction_is_exact() {
        for board in Board::all() {
            let n = board.marks();
            let counts_possible = board.count(Player::O) == n / 2;
            let waiting = if n % 2 == 0 { Player::X } else { Player::O };
            let predicted = counts_possible && !board.has_line(waiting);
            assert_eq!(predicted, board.violations().is_empty(), "{board}");
        }
    }

    /// The order the construction defines, read literally: sort every position by
    /// (marks, waiting player's mask, last mover's mask renumbered among the free cells).
    fn slow_ranks() -> Vec<Position> {
        let key = |p: &Position| {
            let b = p.board();
            let n = b.marks();
            let (w, l) = if n.is_multiple_of(2) {
                (b.x(), b.o())
            } else {
                (b.o(), b.x())
            };
            (n, w.bits(), extract(l.bits(), !w.bits() & 0x1ff))
        };
        let mut all: Vec<Position> = Position::all().collect();
        all.sort_by_key(key);
        all
    }

    #[test]
    fn rank_is_the_sorted_index_of_every_position() {
        let sorted = slow_ranks();
        assert_eq!(sorted.len(), 5_478);
        for (index, position) in sorted.iter().enumerate() {
            let rank = Rank::from_position(*position);
            assert_eq!(rank.code() as usize, index, "{position}");
            assert_eq!(rank.to_position(), *position);
        }
    }

    #[test]
    fn every_13_bit_code_decodes_to_itself_or_is_rejected() {
        let mut decoded = std::collections::HashSet::new();
        for code in 0..1u32 << 13 {
            match Rank::try_from_code(code) {
                Ok(rank) => {
                    let position = rank.to_position();
                    assert!(position.board().violations().is_empty());
                    assert_eq!(Rank::from_position(position), rank);
                    assert!(decoded.insert(position));
                }
                Err(error) => {
                    assert!(code >= 5_478);
                    assert_eq!(
                        error.to_string(),
                        format!("rank code {code} is invalid: out of range (codes are 0 to 5477)")
                    );
                }
            }
        }
        assert_eq!(decoded.len(), 5_478);
    }

    #[test]
    fn colex_rank_counts_the_smaller_masks_of_its_size_and_inverts_colex() {
        for set in (0..512u16).filter(|s| s.count_ones() <= 6) {
            let rank = colex_rank(set);
            let smaller = (0..set)
                .filter(|m| m.count_ones() == set.count_ones())
                .count();
            assert_eq!(rank as usize, smaller, "{set:#b}");
            let k = set.count_ones() as usize;
            if k < 6 {
                assert_eq!(COLEX[COLEX_START[k] as usize + rank as usize], set);
            }
        }
    }

    #[test]
    fn line_free_set_counts_match_inclusion_exclusion() {
        // N(w) = C(9, w) minus the w-sets holding a line: 8 lines x C(6, w - 3), plus the 22
        // pairs of crossing lines counted twice when w = 5 (not needed for w <= 4).
        let expected: Vec<u32> = (0..5)
            .map(|w| binomial(9, w) - 8 * if w >= 3 { binomial(6, w - 3) } else { 0 })
            .collect();
        let found: Vec<u32> = FREE_START
            .windows(2)
            .map(|p| u32::from(p[1] - p[0]))
            .collect();
        assert_eq!(found, expected);
    }
}
