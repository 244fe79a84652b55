//! The kernel's tables, built by the compiler: observation planes and masks written from bit
//! sets a byte at a time, and the `k`-th cell of a set for random picks.

use tictactoe::{Bitboard, Board, Player};

/// The step of [`splitmix`]'s state: a draw adds it, [`unsplitmix`] takes it back.
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// splitmix64 (Steele, Lea, Flood 2014): one 64-bit draw.
pub const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(GAMMA);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Takes back the last [`splitmix`] draw of `state`: the next draw repeats it.
pub const fn unsplitmix(state: &mut u64) {
    *state = state.wrapping_sub(GAMMA);
}

/// `SPREAD[bits]`: cells 0 to 7 of `bits` as the even bytes of 16 little-endian bytes, the
/// layout of one observation plane interleaved into `(3, 3, 2)`; cell 8 is written apart.
pub const SPREAD: [u128; 256] = {
    let mut table = [0u128; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut cell = 0;
        while cell < 8 {
            table[bits] |= ((bits >> cell & 1) as u128) << (16 * cell);
            cell += 1;
        }
        bits += 1;
    }
    table
};

/// `BYTES[bits]`: cells 0 to 7 of `bits` as eight 0/1 little-endian bytes.
pub const BYTES: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut cell = 0;
        while cell < 8 {
            table[bits] |= ((bits >> cell & 1) as u64) << (8 * cell);
            cell += 1;
        }
        bits += 1;
    }
    table
};

/// `SELECT[bits][k]`: the `k`-th cell of the set `bits` in increasing order (0 past the end):
/// [`tictactoe::agents::pick`] without its walk over the set. With `SPREAD` (4 KiB) and
/// `BYTES` (2 KiB), the kernel's tables take 10.5 KiB, built by the compiler.
pub const SELECT: [[u8; 9]; 512] = {
    let mut table = [[0u8; 9]; 512];
    let mut bits = 0;
    while bits < 512 {
        let (mut cell, mut k) = (0, 0);
        while cell < 9 {
            if bits >> cell & 1 == 1 {
                table[bits][k] = cell as u8;
                k += 1;
            }
            cell += 1;
        }
        bits += 1;
    }
    table
};

/// [`tictactoe::agents::pick`] by table: the same cell for the same set and random bits (tested).
pub fn pick(set: Bitboard, random: u32) -> u8 {
    let k = (u64::from(random) * u64::from(set.bits().count_ones())) >> 32;
    SELECT[set.bits() as usize][k as usize]
}

/// Writes a set of cells as nine 0/1 bytes.
#[inline(always)]
pub fn write_bytes(out: &mut [u8], set: Bitboard) {
    write_bits(out, set.bits());
}

/// Writes the 9-bit set `bits` (bit `c` is cell `c`; higher bits are ignored) as nine 0/1
/// bytes.
#[inline(always)]
pub fn write_bits(out: &mut [u8], bits: u16) {
    out[..8].copy_from_slice(&BYTES[usize::from(bits & 0xff)].to_le_bytes());
    out[8] = (bits >> 8) as u8 & 1;
}

/// Writes the `(3, 3, 2)` planes of `board` seen by `me`: my marks, then the other's.
pub fn write_planes(out: &mut [u8], board: Board, me: Player) {
    let mine = board.pieces(me).bits();
    let theirs = board.pieces(me.opponent()).bits();
    let low = SPREAD[usize::from(mine & 0xff)] | SPREAD[usize::from(theirs & 0xff)] << 8;
    out[..16].copy_from_slice(&low.to_le_bytes());
    out[16] = (mine >> 8) as u8 & 1;
    out[17] = (theirs >> 8) as u8 & 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    // Test code (`#[cfg(test)]`): its `unwrap`s are assertions, out of a user's reach.
    #[test]
    fn unsplitmix_takes_back_a_draw() {
        for seed in [0, 1, u64::MAX, 0x9e37_79b9_7f4a_7c15, 12345] {
            let mut state = seed;
            let first = splitmix(&mut state);
            let second = splitmix(&mut state);
            unsplitmix(&mut state);
            assert_eq!(splitmix(&mut state), second);
            unsplitmix(&mut state);
            unsplitmix(&mut state);
            assert_eq!((state, splitmix(&mut state)), (seed, first));
        }
    }

    #[test]
    fn tables_match_the_slow_twins() {
        for bits in 0..512u16 {
            // Cannot fail: `bits` < 512 is a 9-bit set, and one set alone never overlaps.
            let set = Bitboard::from_bits(bits).unwrap();
            let board = Board::from_bitboards(set, Bitboard::EMPTY).unwrap();
            let mut planes = [9u8; 18];
            write_planes(&mut planes, board, Player::X);
            let mut bytes = [9u8; 9];
            write_bytes(&mut bytes, set);
            for c in 0..9 {
                assert_eq!(planes[2 * c], (bits >> c & 1) as u8);
                assert_eq!(planes[2 * c + 1], 0);
                assert_eq!(bytes[c], (bits >> c & 1) as u8);
            }
            write_planes(&mut planes, board, Player::O);
            assert!((0..9).all(|c| planes[2 * c] == 0 && planes[2 * c + 1] == bytes[c]));
            if bits == 0 {
                continue;
            }
            for random in (0..=u32::MAX).step_by(0x0100_0001).chain([u32::MAX]) {
                // Cannot fail: `set` is not empty here (the empty set was skipped above).
                let slow = tictactoe::agents::pick(set, random).unwrap().index();
                assert_eq!(usize::from(pick(set, random)), slow, "{bits} {random}");
            }
        }
    }
}
