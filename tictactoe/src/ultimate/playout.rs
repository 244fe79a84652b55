//! Random playouts: [`Position::play_random`]'s loop, on a state shaped for it.
//!
//! A playout's time is one long chain: the cell just played names the board of the next move,
//! whose empty cells give the number of choices, which with the random bits gives the cell.
//! Computing the empty cells from the two players' marks and then counting them takes two
//! dependent loads before the multiply. Here each board keeps its [`PICK`] entry (its empty
//! cells in order and their number, in one word), rewritten after every move in it, so the
//! chain from one move to the next is one load, a multiply and two shifts. Closed boards keep
//! an entry of 0 (no cells), which lets the choice among all open boards walk the nine
//! entries. The game ends inside the loop, so the position written back has no open cells.

use rand::RngCore;

use super::position::{ANY, Cells, FULL, Position, has_line, index_of};
use crate::{Player, Status};

/// Where a [`PICK`] entry keeps its number of cells.
const COUNT_SHIFT: u32 = 60;

/// For each 9-bit set: its cells in ascending order at 4 bits each (the `k`-th lowest at bits
/// `4k..4k + 4`) and their number at bits 60..64 (4 KiB, computed at compile time).
static PICK: [u64; 512] = {
    let mut table = [0u64; 512];
    let mut set = 0;
    while set < 512 {
        let (mut entry, mut n, mut cell) = (0u64, 0u64, 0u64);
        while cell < 9 {
            if set >> cell & 1 != 0 {
                entry |= cell << (4 * n);
                n += 1;
            }
            cell += 1;
        }
        table[set] = entry | n << COUNT_SHIFT;
        set += 1;
    }
    table
};

/// The `k`-th cell of an entry.
#[inline(always)]
const fn cell_of(entry: u64, k: u64) -> usize {
    (entry >> (4 * (k & 15))) as usize & 15
}

/// `(random * n) >> 32`: an index below `n` (Lemire's multiply-shift, as `Bitboard::pick`).
#[inline(always)]
const fn scale(random: u32, n: u64) -> u64 {
    (random as u64 * n) >> 32
}

/// Plays `position` to the end with uniformly random legal moves; see
/// [`Position::play_random`].
#[inline]
pub(super) fn play_out<R: RngCore + ?Sized>(position: &mut Position, rng: &mut R) -> Status {
    if position.status.is_finished() {
        return position.status;
    }
    let mut entries = [0u64; 9];
    for (b, entry) in entries.iter_mut().enumerate() {
        if position.open >> b & 1 != 0 {
            *entry = PICK[position.empty_in(b) as usize];
        }
    }
    let mut marks = position.marks;
    let (mut won, mut open, mut free) = (position.won, position.open, u64::from(position.free));
    let (mut next, mut p, mut plies) = (position.next as usize, index_of(position.side), position.plies);
    let status = loop {
        let random = rng.next_u32();
        let (b, k) = if next == ANY as usize {
            // The k-th empty cell of the open boards, boards in order.
            let mut k = scale(random, free);
            let mut b = 0;
            while b < 8 && k >= entries[b] >> COUNT_SHIFT {
                k -= entries[b] >> COUNT_SHIFT;
                b += 1;
            }
            (b, k)
        } else {
            (next, scale(random, entries[next] >> COUNT_SHIFT))
        };
        let c = cell_of(entries[b], k);
        let set = marks[p][b] | 1 << c;
        marks[p][b] = set;
        let empty = !(set | marks[1 - p][b]) & FULL;
        entries[b] = PICK[empty as usize];
        free -= 1;
        plies += 1;
        let line = has_line(set);
        if line | (empty == 0) {
            open &= !(1 << b);
            free -= u64::from(empty.count_ones());
            entries[b] = 0;
            if line {
                won[p] |= 1 << b;
                if has_line(won[p]) {
                    break Status::Won(if p == 0 { Player::X } else { Player::O });
                }
            }
            if open == 0 {
                break Status::Draw;
            }
        }
        next = if open >> c & 1 != 0 { c } else { ANY as usize };
        p ^= 1;
    };
    position.marks = marks;
    position.won = won;
    position.open = open;
    position.open_cells = Cells::NONE;
    position.free = 0;
    position.next = ANY;
    position.side = if p == 0 { Player::X } else { Player::O };
    position.status = status;
    position.plies = plies;
    position.status
}
