//! One lookup per player in a table of the 512 sets of cells: does the set contain a line?
//!
//! | representation | check | state bytes | table bytes |
//! |---|---|---|---|
//! | [`Board`]: two 9-bit [`Bitboard`]s | `LINE[x]`, then `LINE[o]` | 4 | 512 |
//!
//! One byte per set, so a lookup is a load and a test: no shift, no bit extraction. Each byte
//! is an `Option<Player>`, `Some(O)` where the set holds a line, so O's lookup *is* the
//! answer; X's asks only whether the byte is `Some`. The same
//! answers packed one bit per set fit in one 64-byte cache line ([`table_bits`](super::table_bits));
//! the byte table is eight cache lines, still a sliver of L1, and measured about 0.3 ns per
//! check faster (`ttt bench --method table --method table-bits`).

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

/// [`LINE`] for one set. The `& 0x1ff` changes nothing (a set is 9 bits) but proves the
/// index in bounds, so the lookup compiles to one load.
#[inline]
fn line(pieces: Bitboard) -> Option<Player> {
    LINE[pieces.bits() as usize & 0x1ff]
}

/// The table method.
///
/// ```
/// use tictactoe::{Board, Player, lab::{Check, Table}};
/// let board = Table::prepare("XO./XO./X..".parse::<Board>()?);
/// assert_eq!(Table::winner(board), Some(Player::X));
/// assert_eq!(Table::TABLE_BYTES, 512);
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Table;

impl Check for Table {
    const METHOD: Method = Method::Table;
    type State = Board;
    const TABLE_BYTES: usize = core::mem::size_of_val(&LINE);

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

    // Branch-free: both lookups, then a status code of `Status::from_code` in three
    // operations. Each byte, read as a number (`Some(O)` 1, `None` 2, the compiler's layout of
    // `Option<Player>`, so the read costs nothing), is O's part of the code as it stands (1:
    // `Won(O)`; 2: `Ongoing`, which OR the fullness bit makes 3, `Draw`); XOR 1 makes it X's
    // part (0: `Won(X)`, whatever O's part; 3: O's part decides).
    #[inline]
    fn status(board: Board) -> Option<Status> {
        const fn number(entry: Option<Player>) -> u8 {
            match entry {
                Some(Player::X) => 0,
                Some(Player::O) => 1,
                None => 2,
            }
        }
        let (x, o) = (number(line(board.x())), number(line(board.o())));
        let code = (x ^ 1) & (o | u8::from(board.is_full()));
        Some(Status::from_code(code))
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
