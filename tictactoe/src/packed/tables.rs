//! Lookup tables that turn boards into codes and back in one to three memory reads, for the
//! bulk paths and random gets of [`packed`](super) (about 200 KB in all, [`TABLE_BYTES`]).
//!
//! | table | entries | bytes |
//! |---|---|---|
//! | grid index (`sum 3^i`) of every 9-bit set | 512 x u16 | 1,024 |
//! | board of every grid index | 19,683 x u32 | 78,732 |
//! | cells of every base-4 byte | 256 x u32 | 1,024 |
//! | rank of every grid (or none), by grid index | 19,683 x u16 | 39,366 |
//! | board of every rank | 5,478 x 4 bytes | 21,912 |
//! | count rank of every grid (or none), by grid index | 19,683 x u16 | 39,366 |
//! | board of every count rank | 6,046 x 4 bytes | 24,184 |
//!
//! All are computed at compile time from the definitions; the tests compare them with
//! [`Rank`](crate::encoding::Rank) and [`CountRank`](crate::encoding::CountRank) on every grid.

use crate::bits::binomial;
use crate::encoding::rank;
use crate::{Bitboard, Board};

/// Marks a grid that the encoding cannot hold.
pub(crate) const NONE: u16 = u16::MAX;

/// Grids, `3^9`.
const GRIDS: usize = 19_683;
/// Reachable positions (checked against the rank's own count below).
const RANKS: usize = 5_478;
/// Boards with possible piece counts (checked against the count rank's own count below).
const COUNT_RANKS: usize = 6_046;

const _: () = assert!(RANKS == crate::encoding::Rank::COUNT as usize);
const _: () = assert!(COUNT_RANKS == crate::encoding::CountRank::COUNT as usize);

/// `SET3[s] = sum 3^i` over the cells `i` of the 9-bit set `s`.
static SET3: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut set = 0;
    while set < 512 {
        let (mut i, mut place, mut sum) = (0, 1u16, 0u16);
        while i < 9 {
            if set >> i & 1 != 0 {
                sum += place;
            }
            place *= 3;
            i += 1;
        }
        table[set] = sum;
        set += 1;
    }
    table
};

const fn grid_index_const(board: Board) -> usize {
    crate::board::base3_code(board) as usize
}

/// The base-3 code of a board (`sum d_i 3^i`), used as the index of the grid tables.
#[inline]
pub(crate) fn grid_index(board: Board) -> usize {
    SET3[board.x().bits() as usize] as usize + 2 * SET3[board.o().bits() as usize] as usize
}

/// The board of a grid index (digit 1 is X, 2 is O).
const fn grid_board(index: usize) -> Board {
    crate::board::from_base3_code(index as u16)
}

/// `GRID_CELLS[i]`: the board of grid index `i`, X cells in bits 0..9 and O cells in 16..25.
static GRID_CELLS: [u32; GRIDS] = {
    let mut table = [0u32; GRIDS];
    let mut index = 0;
    while index < GRIDS {
        let board = grid_board(index);
        table[index] = board.x().bits() as u32 | (board.o().bits() as u32) << 16;
        index += 1;
    }
    table
};

/// The board of a grid index below `3^9` (the empty board for others): one table read.
#[inline]
pub(crate) fn grid_board_table(index: u32) -> Board {
    let cells = GRID_CELLS.get(index as usize).copied().unwrap_or(0);
    Board::from_disjoint(
        Bitboard::from_bits_truncate(cells as u16),
        Bitboard::from_bits_truncate((cells >> 16) as u16),
    )
}

/// `BASE4_BYTE[b]`: the four cells of one base-4 byte, X cells in bits 0..4 and O cells in
/// bits 16..20 (a cell `11`, never stored, reads as X).
static BASE4_BYTE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut cell = 0;
        while cell < 4 {
            match byte >> (2 * cell) & 3 {
                0 => {}
                2 => table[byte] |= 1 << (16 + cell),
                _ => table[byte] |= 1 << cell,
            }
            cell += 1;
        }
        byte += 1;
    }
    table
};

/// The board of an 18-bit base-4 code: three reads of [`BASE4_BYTE`], for cells 0..4, 4..8
/// and 8.
#[inline]
pub(crate) fn base4_board(code: u32) -> Board {
    let cells = BASE4_BYTE[(code & 0xff) as usize]
        | BASE4_BYTE[(code >> 8 & 0xff) as usize] << 4
        | BASE4_BYTE[(code >> 16 & 3) as usize] << 8;
    Board::from_disjoint(
        Bitboard::from_bits_truncate(cells as u16),
        Bitboard::from_bits_truncate((cells >> 16) as u16),
    )
}

/// `RANK_BOARD[r]`: the board of rank `r`.
pub(crate) static RANK_BOARD: [Board; RANKS] = {
    let mut table = [Board::EMPTY; RANKS];
    let mut code = 0;
    while code < RANKS {
        table[code] = rank::decode_board(code as u16);
        code += 1;
    }
    table
};

/// `GRID_RANK[grid_index(b)]`: the rank of `b`, or [`NONE`].
pub(crate) static GRID_RANK: [u16; GRIDS] = {
    let mut table = [NONE; GRIDS];
    let mut code = 0;
    while code < RANKS {
        table[grid_index_const(rank::decode_board(code as u16))] = code as u16;
        code += 1;
    }
    table
};

/// Lexicographic rank of the `k`-subset `set` of `0..m` (subsets listed by their sorted
/// elements): for each element, count the subsets that agree before it and take a smaller one.
const fn lex_rank(set: u16, m: u32) -> u32 {
    let k = set.count_ones();
    let (mut rank, mut taken, mut next) = (0, 0, 0);
    let mut element = 0;
    while element < m {
        if set >> element & 1 != 0 {
            while next < element {
                rank += binomial(m - 1 - next, k - taken - 1);
                next += 1;
            }
            taken += 1;
            next = element + 1;
        }
        element += 1;
    }
    rank
}

/// The O cells renumbered among the occupied cells (software `pext`).
const fn among(o: u16, occupied: u16) -> u16 {
    let (mut out, mut i, mut cell) = (0u16, 0, 0);
    while cell < 9 {
        if occupied >> cell & 1 != 0 {
            if o >> cell & 1 != 0 {
                out |= 1 << i;
            }
            i += 1;
        }
        cell += 1;
    }
    out
}

/// The count rank of a board with possible piece counts, read from its definition:
/// `offset(n) + lex(occupied) * C(n, k) + lex(O among the occupied)`.
const fn count_rank_const(board: Board) -> u16 {
    let occupied = board.x().bits() | board.o().bits();
    let n = occupied.count_ones();
    let k = n / 2;
    let mut offset = 0;
    let mut i = 0;
    while i < n {
        offset += binomial(9, i) * binomial(i, i / 2);
        i += 1;
    }
    let code = offset
        + lex_rank(occupied, 9) * binomial(n, k)
        + lex_rank(among(board.o().bits(), occupied), n);
    code as u16
}

/// `(GRID_COUNT_RANK, COUNT_RANK_BOARD)` built in one pass over the grids.
const COUNT_TABLES: ([u16; GRIDS], [Board; COUNT_RANKS]) = {
    let mut by_grid = [NONE; GRIDS];
    let mut by_code = [Board::EMPTY; COUNT_RANKS];
    let mut index = 0;
    while index < GRIDS {
        let board = grid_board(index);
        let n = board.x().count() + board.o().count();
        if board.o().count() == n / 2 {
            let code = count_rank_const(board);
            by_grid[index] = code;
            by_code[code as usize] = board;
        }
        index += 1;
    }
    (by_grid, by_code)
};

/// `GRID_COUNT_RANK[grid_index(b)]`: the count rank of `b`, or [`NONE`].
pub(crate) static GRID_COUNT_RANK: [u16; GRIDS] = COUNT_TABLES.0;

/// `COUNT_RANK_BOARD[c]`: the board of count rank `c`.
pub(crate) static COUNT_RANK_BOARD: [Board; COUNT_RANKS] = COUNT_TABLES.1;

/// Bytes of static tables behind the fast [`Packable`](super::Packable) paths.
pub(crate) const TABLE_BYTES: usize = core::mem::size_of_val(&SET3)
    + core::mem::size_of_val(&BASE4_BYTE)
    + core::mem::size_of_val(&GRID_CELLS)
    + core::mem::size_of_val(&GRID_RANK)
    + core::mem::size_of_val(&RANK_BOARD)
    + core::mem::size_of_val(&GRID_COUNT_RANK)
    + core::mem::size_of_val(&COUNT_RANK_BOARD);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::{Base3, CountRank, Rank};

    #[test]
    fn grid_index_is_the_base3_code_of_every_grid() {
        for board in Board::all() {
            let index = grid_index(board);
            assert_eq!(index, usize::from(Base3::from_board(board).code()));
            assert_eq!(grid_board(index), board);
            assert_eq!(grid_board_table(index as u32), board);
        }
    }

    #[test]
    fn rank_tables_agree_with_rank_on_every_grid() {
        let mut held = 0;
        for board in Board::all() {
            let expected = Rank::try_from_board(board).ok().map(Rank::code);
            let found = Some(GRID_RANK[grid_index(board)]).filter(|&c| c != NONE);
            assert_eq!(found, expected, "{board}");
            if let Some(code) = found {
                assert_eq!(RANK_BOARD[usize::from(code)], board);
                held += 1;
            }
        }
        assert_eq!(held, 5_478);
    }

    #[test]
    fn count_rank_tables_agree_with_count_rank_on_every_grid() {
        let mut held = 0;
        for board in Board::all() {
            let expected = CountRank::try_from_board(board).ok().map(CountRank::code);
            let found = Some(GRID_COUNT_RANK[grid_index(board)]).filter(|&c| c != NONE);
            assert_eq!(found, expected, "{board}");
            if let Some(code) = found {
                assert_eq!(COUNT_RANK_BOARD[usize::from(code)], board);
                held += 1;
            }
        }
        assert_eq!(held, 6_046);
    }
}
