//! One lookup per player in a table of the 512 sets of cells: does the set contain a line?
//!
//! | representation | check | state bytes | table bytes |
//! |---|---|---|---|
//! | [`Board`]: two 9-bit [`Bitboard`]s | `LINE[x]`, then `LINE[o]` | 4 | 512 |
//!
//! One byte per set, so a lookup is a load: no shift, no bit extraction. Each byte is X's
//! part of a status code (0 where the set holds a line, else 3), and the same byte XOR 1 is
//! O's part (1 where the set holds a line, else 2), so that `LINE[x] & (LINE[o] ^ 1 | full)`
//! is the status code (0 `Won(X)`, 1 `Won(O)`, 2 `Ongoing`, 3 `Draw`) with no branch and no
//! second table. The same
//! answers packed one bit per set fit in one 64-byte cache line
//! ([`table_bits`](super::table_bits)), at the price of a shift and a bit test per player.

use super::{Check, Method};
use crate::{Bitboard, Board, Player, Status};

/// For each 9-bit set of cells, indexed by its bits: 0 if it contains a line, else 3 (X's
/// part of a status code; XOR 1 gives O's part).
pub const LINE: [u8; Bitboard::COUNT] = {
    let mut table = [3; Bitboard::COUNT];
    let mut bits = 0;
    while bits < Bitboard::COUNT {
        if Bitboard::from_bits_truncate(bits as u16).line_mask() != 0 {
            table[bits] = 0;
        }
        bits += 1;
    }
    table
};

/// [`LINE`] for one set. The `& 0x1ff` changes nothing (a set is 9 bits) but proves the
/// index in bounds, so the lookup compiles to one load.
#[inline]
fn line(pieces: Bitboard) -> u8 {
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

    // One branch, on X: its test alone decides most won boards. O's byte (0 or 3) then picks
    // the answer from a 2-entry table, so a board nobody has won costs no second branch.
    #[inline]
    fn winner(board: Board) -> Option<Player> {
        const O_WINNER: [Option<Player>; 2] = [Some(Player::O), None];
        if line(board.x()) == 0 {
            Some(Player::X)
        } else {
            O_WINNER[(line(board.o()) & 1) as usize]
        }
    }

    // Branch-free: both lookups, an XOR, an OR with the fullness bit and an AND.
    #[inline]
    fn status(board: Board) -> Option<Status> {
        let code = line(board.x()) & (line(board.o()) ^ 1 | u8::from(board.is_full()));
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
            assert_eq!(line(set) == 0, set.has_line(), "{set:?}");
        }
        // 282 of the 512 sets hold a line (counted apart, by brute force over the 8 masks).
        assert_eq!(LINE.iter().filter(|&&entry| entry == 0).count(), 282);
        assert!(LINE.iter().all(|&entry| entry == 0 || entry == 3));
    }
}
