//! Zobrist keys: one fixed pseudo-random 64-bit key per player and bitboard bit.
//!
//! The keys come from SplitMix64 seeded with a constant, computed at compile time, so a hash
//! is the same in every build and on every machine: tables and files written by one run are
//! read by another. [`KEYS_BYTES`] is their size.

use super::bits::Bits;
use super::board::Board;
use crate::Player;

/// Bits a board can span (19 columns of 20).
const SPAN: usize = 384;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

static KEYS: [[u64; SPAN]; 2] = KEY_VALUES;

const KEY_VALUES: [[u64; SPAN]; 2] = {
    let mut keys = [[0u64; SPAN]; 2];
    let mut state = 0x7474_745F_6D6E_6B00; // "ttt_mnk"
    let mut p = 0;
    while p < 2 {
        let mut b = 0;
        while b < SPAN {
            let (next, key) = splitmix(state);
            state = next;
            keys[p][b] = key;
            b += 1;
        }
        p += 1;
    }
    keys
};

/// The size of the key table in bytes.
pub const KEYS_BYTES: usize = 2 * SPAN * 8;

/// The key of a mark of `player` at bitboard bit `bit` (below 384).
#[must_use]
#[inline]
pub fn key(player: Player, bit: u32) -> u64 {
    KEYS[player as usize][bit as usize % SPAN]
}

/// For Connect Four's one-word layout (7 columns of 7 bits): the hash of every possible
/// content of each column, so that a board hashes by 7 loads instead of one per mark. A
/// column of height `h` holds one of 2^h sequences of marks: with `x` its X marks (below
/// bit `h`) it is entry `2^h + x`, and the 127 contents of a column take entries 1 to 127.
#[cfg(feature = "rand")] // random playouts use it
static CONNECT_FOUR_COLUMNS: [[u64; 128]; 7] = {
    let mut table = [[0u64; 128]; 7];
    let mut col = 0;
    while col < 7 {
        let mut index = 1;
        while index < 128 {
            // The height: the position of the top set bit of `index`.
            let h = 7 - (index as u8).leading_zeros() as usize;
            let mut hash = 0;
            let mut i = 0;
            while i < h {
                let player = if index >> i & 1 == 1 { 0 } else { 1 };
                hash ^= KEY_VALUES[player][7 * col + i];
                i += 1;
            }
            table[col][index] = hash;
            index += 1;
        }
        col += 1;
    }
    table
};

/// The hash of a Connect Four board in one word (7 columns of 7 bits, the guards clear),
/// from X's marks and the occupied cells: [`hash`], branch-free (7 KiB of table).
#[cfg(feature = "rand")]
#[must_use]
#[inline]
pub(crate) fn connect_four_hash(x: u64, occupied: u64) -> u64 {
    /// The bottom cell of each column.
    const BOTTOMS: u64 = 0x0408_1020_4081;
    // Every column's entry at once, in its own 7 bits: its occupied cells plus one make
    // `2^h`, and with its X marks (a subset of them) the sum stays below 128, so no column
    // carries into the next. Then a shift and a mask a column.
    let entries = occupied + BOTTOMS + x;
    let mut h = 0;
    for (col, column) in CONNECT_FOUR_COLUMNS.iter().enumerate() {
        h ^= column[(entries >> (7 * col)) as usize & 127];
    }
    h
}

/// The hash of a set of marks of one player.
#[must_use]
pub fn hash_bits<const W: usize>(player: Player, bits: Bits<W>) -> u64 {
    bits.iter().fold(0, |h, bit| h ^ key(player, bit))
}

/// The hash of a board: the XOR of the keys of its marks.
#[must_use]
pub fn hash<const W: usize>(board: &Board<W>) -> u64 {
    hash_bits(Player::X, board.pieces(Player::X)) ^ hash_bits(Player::O, board.pieces(Player::O))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = KEYS.iter().flatten().copied().collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2 * SPAN);
    }
}
