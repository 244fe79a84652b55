//! One lookup per player in a table of the 512 sets of cells: does the set contain a line?
//!
//! | representation | check | state bytes | table bytes |
//! |---|---|---|---|
//! | [`Board`]: two 9-bit [`Bitboard`]s | winner: `LINE[x]`, then `LINE[o]`; status: a byte per player, their sum, a lookup by it | 4 | 1,600 |
//!
//! One byte per set, so a lookup is a load and a test: no shift, no bit extraction. For the
//! winner each byte is an `Option<Player>`, `Some(O)` where the set holds a line, so O's
//! lookup *is* the answer; X's asks only whether the byte is `Some`. The status also needs to
//! know whether the board is full, so its per-set bytes carry the set's count beside the line
//! bit, and their sum indexes a 64-entry table of statuses: three loads and an add, no
//! comparison (0.61 ns per board against 0.72 for the line bytes with a fullness test, in
//! `peers/`). The line answers packed one bit per set fit in one 64-byte cache line
//! ([`table_bits`](super::table_bits)); [`LINE`] is eight cache lines, still a sliver of L1,
//! and measured about 0.3 ns per check faster (`ttt bench --method table --method table-bits`).

use super::{Check, Method};
use crate::{Bitboard, Board, Player, Status};

/// For each 9-bit set of cells, indexed by its bits: `Some(Player::O)` if it contains a line,
/// else `None`. The answer for O's set as it stands; for X's set, `is_some` is the test.
pub static LINE: [Option<Player>; Bitboard::COUNT] = {
    let mut table = [None; Bitboard::COUNT];
    let mut bits = 0;
    while bits < Bitboard::COUNT {
        if Bitboard::from_bits_truncate(bits as u16).line_mask() != 0 {
            table[bits] = Some(Player::O);
        }
        bits += 1;
    }
    table
};

/// For each set: its number of cells in bits 0-3, and bit `shift` set when it holds a line.
/// X's table has the line at bit 4 and O's at bit 5, so the sum of X's byte and O's (the
/// sets are disjoint, so their counts add to at most 9) is an index into [`STATUS`].
const fn count_and_line(shift: u32) -> [u8; Bitboard::COUNT] {
    let mut table = [0u8; Bitboard::COUNT];
    let mut bits = 0;
    while bits < Bitboard::COUNT {
        let set = Bitboard::from_bits_truncate(bits as u16);
        table[bits] = set.count() as u8 | (set.has_line() as u8) << shift;
        bits += 1;
    }
    table
}

/// X's half of a status index (see [`count_and_line`]).
const X_COUNT_AND_LINE: [u8; Bitboard::COUNT] = count_and_line(4);
/// O's half of a status index (see [`count_and_line`]).
const O_COUNT_AND_LINE: [u8; Bitboard::COUNT] = count_and_line(5);

/// The status for each sum of an X and an O byte of [`count_and_line`]: won by X when bit 4
/// is set, else by O when bit 5 is, else drawn when the count is 9, else ongoing.
const STATUS: [Status; 64] = {
    let mut table = [Status::Ongoing; 64];
    let mut index = 0;
    while index < 64 {
        table[index] = if index & 16 != 0 {
            Status::Won(Player::X)
        } else if index & 32 != 0 {
            Status::Won(Player::O)
        } else if index & 15 == 9 {
            Status::Draw
        } else {
            Status::Ongoing
        };
        index += 1;
    }
    table
};

/// [`LINE`] for one set: one load (see [`Bitboard`] for why there is no bounds check).
#[inline]
fn line(pieces: Bitboard) -> Option<Player> {
    LINE[pieces.bits() as usize]
}

/// The table method.
///
/// ```
/// use tictactoe::{Board, Player, lab::{Check, Table}};
/// let board = Table::prepare("XO./XO./X..".parse::<Board>()?);
/// assert_eq!(Table::winner(board), Some(Player::X));
/// assert_eq!(Table::TABLE_BYTES, 1_600);
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Table;

impl Check for Table {
    const METHOD: Method = Method::Table;
    type State = Board;
    const TABLE_BYTES: usize = core::mem::size_of_val(&LINE)
        + core::mem::size_of_val(&X_COUNT_AND_LINE)
        + core::mem::size_of_val(&O_COUNT_AND_LINE)
        + core::mem::size_of_val(&STATUS);

    #[inline]
    fn prepare(board: Board) -> Board {
        board
    }

    // One branch, on X: its test alone decides most won boards. O's lookup is the answer, so
    // a board nobody has won costs no second branch.
    #[inline]
    fn winner(board: Board) -> Option<Player> {
        if line(board.x()).is_some() {
            Some(Player::X)
        } else {
            line(board.o())
        }
    }

    // Branch-free: one byte per player, their sum, and a lookup by the sum (see
    // [`count_and_line`]).
    #[inline]
    fn status(board: Board) -> Option<Status> {
        let x = X_COUNT_AND_LINE[board.x().bits() as usize];
        let o = O_COUNT_AND_LINE[board.o().bits() as usize];
        Some(STATUS[(x + o) as usize & 63])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_byte_table_matches_the_bit_table() {
        for bits in 0..Bitboard::COUNT as u16 {
            let set = Bitboard::from_bits_truncate(bits);
            assert_eq!(line(set).is_some(), set.has_line(), "{set:?}");
        }
        // 282 of the 512 sets hold a line (counted apart, by brute force over the 8 masks).
        assert_eq!(LINE.iter().filter(|entry| entry.is_some()).count(), 282);
        assert!(LINE.iter().all(|&entry| entry != Some(Player::X)));
    }
}
