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

pub(super) const KEY_VALUES: [[u64; SPAN]; 2] = {
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
