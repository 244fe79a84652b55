//! Random playouts: the loop of [`Position::play_random`] (uniform moves) and of
//! [`Position::play_random_by_board`] (a random open board, then a random cell of it), on a
//! state shaped for it.
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

use super::position::{ANY, Cells, FULL, Position, WINS_WITH, index_of};
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

/// One in each byte of a word.
const BYTES_ONE: u64 = 0x0101_0101_0101_0101;
/// The top bit of each byte.
const BYTES_TOP: u64 = 0x8080_8080_8080_8080;

/// The board and the index within it of the `k`-th empty cell of the open boards, boards in
/// order, without a branch: `counts` holds the empty cells of boards 0 to 7 in its bytes (0
/// for a closed board). A multiply gives the running sums (at most 72, so no byte carries);
/// a subtraction in every byte at once marks those above `k`; the first marked byte is the
/// board (none marked: board 8).
#[inline(always)]
const fn locate(counts: u64, k: u64) -> (usize, u64) {
    let sums = counts.wrapping_mul(BYTES_ONE);
    let above = ((sums | BYTES_TOP) - (k + 1) * BYTES_ONE) & BYTES_TOP;
    let b = (above.trailing_zeros() / 8) as usize;
    let before = if b < 8 {
        ((sums - counts) >> (8 * b)) & 0xff
    } else {
        sums >> 56
    };
    (b, k - before)
}

/// `LANE[b]`: one in board `b`'s byte of the counts word (none for board 8, kept outside).
const LANE: [u64; 9] = [
    1,
    1 << 8,
    1 << 16,
    1 << 24,
    1 << 32,
    1 << 40,
    1 << 48,
    1 << 56,
    0,
];

/// `(random * n) >> 32`: an index below `n` (Lemire's multiply-shift, as `Bitboard::pick`).
#[inline(always)]
const fn scale(random: u32, n: u64) -> u64 {
    (random as u64 * n) >> 32
}

impl Position {
    /// Plays uniformly random legal moves to the end of the game (32 bits of `next_u32` a
    /// move) and returns how it ended: the moves of [`pick`](Position::pick), each the
    /// `k`-th empty cell read from a table entry kept per board (see `playout.rs`).
    #[inline]
    pub fn play_random<R: RngCore + ?Sized>(&mut self, rng: &mut R) -> Status {
        play_out::<R, false>(self, rng)
    }

    /// Plays random moves to the end of the game under the board-first policy of
    /// [`pick_by_board`](Position::pick_by_board) (a random open board when the mover
    /// chooses, then a random empty cell of the board; 64 bits of `next_u64` a move) and
    /// returns how it ended. This is the playout of CodinGame bots (DiMasta's
    /// `simulateRandomGame`, the peer in `docs/benchmarks.md`): cheaper than a uniform one,
    /// and a different game: when the mover chooses, a cell of a board with few empty cells is
    /// more likely than one of a board with many.
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use rand::rngs::SmallRng;
    /// use tictactoe::ultimate::Position;
    ///
    /// let mut rng = SmallRng::seed_from_u64(7);
    /// let mut position = Position::EMPTY;
    /// let status = position.play_random_by_board(&mut rng);
    /// assert!(status.is_finished());
    /// assert_eq!(position.status(), status);
    /// // The same moves as pick_by_board from the same random numbers.
    /// let (mut rng, mut again) = (SmallRng::seed_from_u64(7), Position::EMPTY);
    /// while let Some(played) = again.pick_by_board(rand::RngCore::next_u64(&mut rng)) {
    ///     again.play(played)?;
    /// }
    /// assert_eq!(again, position);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn play_random_by_board<R: RngCore + ?Sized>(&mut self, rng: &mut R) -> Status {
        play_out::<R, true>(self, rng)
    }
}

/// Plays `position` to the end with random legal moves: uniform ones
/// ([`Position::play_random`]), or by board first when `BY_BOARD`
/// ([`Position::play_random_by_board`]).
#[inline]
fn play_out<R: RngCore + ?Sized, const BY_BOARD: bool>(
    position: &mut Position,
    rng: &mut R,
) -> Status {
    if position.status.is_finished() {
        return position.status;
    }
    // Sixteen entries (boards 9 to 15 never used): a board index masked to 4 bits needs no
    // bound check.
    let mut entries = [0u64; 16];
    let mut counts = 0u64;
    for (b, entry) in entries.iter_mut().enumerate().take(9) {
        if position.open >> b & 1 != 0 {
            *entry = PICK[position.empty_in(b) as usize];
            counts += (*entry >> COUNT_SHIFT) * LANE[b];
        }
    }
    let mut marks = position.marks;
    let (mut won, mut open, mut free) = (position.won, position.open, u64::from(position.free));
    // The board to play is `next` unless the mover chooses (`chooses`): kept apart so that
    // the next move's entry is loaded from the cell just played while the branch on
    // `chooses` is predicted, not after a conditional move.
    let (mut next, mut p, mut plies) = (
        position.next as usize & 15,
        index_of(position.side),
        position.plies,
    );
    let mut chooses = position.next == ANY;
    let status = loop {
        let (b, k) = if BY_BOARD {
            // The board from the low 32 bits (the j-th open board when the mover chooses),
            // the cell from the high 32.
            let random = rng.next_u64();
            let b = if chooses {
                let boards = PICK[open as usize];
                cell_of(boards, scale(random as u32, boards >> COUNT_SHIFT))
            } else {
                next
            };
            (b, scale((random >> 32) as u32, entries[b] >> COUNT_SHIFT))
        } else {
            let random = rng.next_u32();
            if chooses {
                // The k-th empty cell of the open boards, boards in order.
                locate(counts, scale(random, free))
            } else {
                (next, scale(random, entries[next] >> COUNT_SHIFT))
            }
        };
        let c = cell_of(entries[b], k);
        let mine = marks[p][b];
        // Does the move win its board: a bit test in WINS_WITH, issued before the set is
        // written.
        let small = WINS_WITH[(mine & FULL) as usize] >> c & 1 != 0;
        let set = mine | 1 << c;
        marks[p][b] = set;
        let empty = !(set | marks[1 - p][b]) & FULL;
        entries[b] = PICK[empty as usize];
        counts -= LANE[b];
        free -= 1;
        plies += 1;
        if small | (empty == 0) {
            open &= !(1 << b);
            free -= entries[b] >> COUNT_SHIFT;
            entries[b] = 0;
            counts &= !(LANE[b] * 0xff);
            if small {
                let game = WINS_WITH[(won[p] & FULL) as usize] >> b & 1 != 0;
                won[p] |= 1 << b;
                if game {
                    break Status::Won(if p == 0 { Player::X } else { Player::O });
                }
            }
            if open == 0 {
                break Status::Draw;
            }
        }
        next = c;
        chooses = open >> c & 1 == 0;
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
