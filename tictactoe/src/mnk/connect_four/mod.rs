//! Connect Four's room in the family engine: what [`Position<1>`](super::Position) under
//! [`Rules::CONNECT_FOUR`](super::Rules::CONNECT_FOUR) runs instead of the generic code, on
//! the layout it shares with the solver's engine (`connect4`: 7 bits a column, bottom to top,
//! an empty guard bit on top; [`BOTTOM`] and [`CELLS`] are checked equal to the solver's at
//! compile time where both are built).
//! One move kernel ([`State`]: the cell of a column, the move, its line check) serves
//! [`ConnectFour`]'s per-move API and the random playouts of `ConnectFour::play_random` and
//! `Position::play_random` ([`playout`]); the line checks are bitboard kernels
//! (`bits::c4_has_line`).

use super::bits::c4_has_line;
#[cfg(feature = "rand")]
use super::bits::c4_has_line_scalar;
use super::{Rules, zobrist};
use crate::{Player, Status};

mod game;

pub use game::{ConnectFour, NotConnectFour};

/// The bottom cell of each column (bit `7c`), from the rules' own layout.
pub(crate) const BOTTOM: u64 = {
    let (mut bottom, mut col) = (0, 0);
    while col < Rules::CONNECT_FOUR.cols() {
        bottom |= 1 << (col * Rules::CONNECT_FOUR.stride());
        col += 1;
    }
    bottom
};
/// Every cell: six bits a column under its guard bit.
pub(crate) const CELLS: u64 = BOTTOM * ((1 << Rules::CONNECT_FOUR.rows()) - 1);

/// The cells a mark can fill: the lowest empty cell of each column with room (the carry
/// `occupied + bottom`, [`State::carry`], masked to the cells): the solver's move generation
/// (`connect4::Position::possible`); the family's [`Moves`](super::Moves) holds the carry
/// itself and masks it to the cells when asked for the bits.
#[inline(always)]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))] // the solver's
pub(crate) const fn playable_cells(occupied: u64) -> u64 {
    occupied.wrapping_add(BOTTOM) & CELLS
}

/// The side to move's marks and every mark after the side to move fills `cell`: the
/// opponent's marks (now the side to move's) and every mark with `cell`. The move of both
/// engines ([`State::mark`], `connect4::Position::play_cell`).
#[inline(always)]
pub(crate) const fn after_move(mine: u64, occupied: u64, cell: u64) -> (u64, u64) {
    (mine ^ occupied, occupied | cell)
}

/// The open columns of a board in one word: bit `c` for each column whose top cell is empty,
/// gathered by one multiply (bit `7c + 5` of the empty top cells lands at bit `42 + c`; no
/// two products meet, so nothing carries).
#[inline(always)]
pub(crate) fn open_columns(occupied: u64) -> u32 {
    let empty_tops = !occupied & (BOTTOM << 5);
    ((empty_tops >> 5).wrapping_mul(0x0000_0410_4104_1040) >> 42) as u32 & 127
}

/// For Connect Four's one-word layout (7 columns of 7 bits): the hash of every possible
/// content of each column, so that a board hashes by 7 loads instead of one per mark. A
/// column of height `h` holds one of 2^h sequences of marks: with `x` its X marks (below
/// bit `h`) it is entry `2^h + x`, and the 127 contents of a column take entries 1 to 127.
static COLUMNS: [[u64; 128]; 7] = {
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
                hash ^= zobrist::KEY_VALUES[player][7 * col + i];
                i += 1;
            }
            table[col][index] = hash;
            index += 1;
        }
        col += 1;
    }
    table
};

/// The hash of a Connect Four board in one word from X's marks and the occupied cells:
/// [`zobrist::hash`], branch-free (7 KiB of table).
#[must_use]
#[inline(always)]
pub(crate) fn hash(x: u64, occupied: u64) -> u64 {
    // Every column's entry at once, in its own 7 bits: its occupied cells plus one make
    // `2^h`, and with its X marks (a subset of them) the sum stays below 128, so no column
    // carries into the next. Then a shift and a mask a column.
    let entries = occupied + BOTTOM + x;
    let mut h = 0;
    for (col, column) in COLUMNS.iter().enumerate() {
        h ^= column[(entries >> (7 * col)) as usize & 127];
    }
    h
}

/// The top cell of each column.
const TOPS: u64 = BOTTOM << 5;

/// A Connect Four position on its one-word layout: what [`ConnectFour`] holds and what its
/// per-move API, [`Position::play_random`](super::Position::play_random) and the playout loop
/// run on. Every move, whoever makes it, is [`State::mark`] (inside [`State::play_cell`] for
/// the per-move API); the cell of a column is [`State::column_cell`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct State {
    /// The marks of the side to move.
    pub(crate) mine: u64,
    /// Every mark.
    pub(crate) occupied: u64,
    /// Bit `c` for each column `c` with room, changed only when a column fills or empties
    /// (see [`Position`](super::Position)'s field of that name).
    pub(crate) open: u32,
    /// Marks on the board.
    pub(crate) plies: u32,
    /// Whether the last move made four in a row.
    pub(crate) won: bool,
}

impl State {
    /// The empty board.
    pub(crate) const EMPTY: State = State {
        mine: 0,
        occupied: 0,
        open: (1 << 7) - 1,
        plies: 0,
        won: false,
    };

    /// Whether the game is over: won, or the board full.
    #[inline(always)]
    #[cfg_attr(not(feature = "rand"), allow(dead_code))] // the playouts'
    pub(crate) const fn is_over(&self) -> bool {
        self.won || self.plies == CELLS.count_ones()
    }

    /// The carry `occupied + bottom`: in each column the lowest empty cell (a full column
    /// carries into its guard bit, outside every column's cells).
    #[inline(always)]
    pub(crate) const fn carry(&self) -> u64 {
        self.occupied.wrapping_add(BOTTOM)
    }

    /// The cell a mark dropped into the column of `cells` (the column's six cells, or 0)
    /// fills: 0 when the column is full.
    #[inline(always)]
    pub(crate) const fn column_cell(&self, cells: u64) -> u64 {
        self.carry() & cells
    }

    /// Marks `cell`, the lowest empty cell of a column with room, for the side to move, and
    /// returns the mover's marks with it: the move itself (an OR and an XOR), which
    /// [`play_cell`](State::play_cell) and the playout loop make. The plies, the open
    /// columns and the line check are the caller's.
    #[inline(always)]
    pub(crate) fn mark(&mut self, cell: u64) -> u64 {
        let mover = self.mine | cell;
        (self.mine, self.occupied) = after_move(self.mine, self.occupied, cell);
        mover
    }

    /// Plays `cell`, the lowest empty cell of a column with room, for the side to move: the
    /// move of the per-move API (`play_bit`, `play_move`, `play`): [`mark`](State::mark),
    /// the plies, the open columns, and the line check through the new mark.
    #[inline(always)]
    pub(crate) fn play_cell(&mut self, cell: u64) {
        let mover = self.mark(cell);
        self.plies += 1;
        // A mark in a column's top cell fills the column: a rare branch, predicted.
        if TOPS & cell != 0 {
            self.open = close_column(self.open, cell);
        }
        // A position in play has no line: a line now goes through the new mark. Four marks
        // of one player take seven plies: the first six check nothing (a branch the CPU
        // predicts, which saves the check on a quarter of a random game's moves).
        self.won = self.plies >= 7 && c4_has_line(mover);
    }

    /// X's and O's words.
    #[inline(always)]
    pub(crate) const fn words(&self) -> (u64, u64) {
        let theirs = self.mine ^ self.occupied;
        if self.plies.is_multiple_of(2) {
            (self.mine, theirs)
        } else {
            (theirs, self.mine)
        }
    }

    /// The status: won (by the player who moved last), drawn or ongoing.
    #[inline(always)]
    pub(crate) const fn status(&self) -> Status {
        if self.won {
            Status::Won(if self.plies.is_multiple_of(2) {
                Player::O
            } else {
                Player::X
            })
        } else if self.plies == CELLS.count_ones() {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }
}

/// `open` without the column of `cell`.
#[inline(always)]
fn close_column(open: u32, cell: u64) -> u32 {
    open & !(1 << (cell.trailing_zeros() / 7))
}

/// Random moves from `game` to the end of the game, written back. A column drawn
/// from the seven and drawn again while it is full, its cell by [`State::column_cell`], the
/// move by [`State::mark`] (the per-move API's own), the line check by the bitboard kernel
/// (`c4_has_line_scalar`, which `c4_has_line` is where it is not SSE2). A build for any x86-64 CPU runs
/// the loop compiled for x86-64-v3 where this CPU has it (detected at run time, once: a load
/// and a compare a game): the check of four directions is then three AVX2 vector steps
/// instead of sixteen scalar ones.
#[cfg(feature = "rand")]
#[inline]
pub(crate) fn playout<R: rand::Rng + ?Sized>(game: &mut State, rng: &mut R) {
    #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx2")))]
    if super::cpu::has_x86_64_v3() {
        // SAFETY: the function enables exactly the five features detected just above.
        #[allow(unsafe_code)]
        return unsafe { playout_v3(game, rng) };
    }
    playout_portable(game, rng);
}

/// [`playout`]'s loop compiled for x86-64-v3 (the same code: only the instructions differ).
#[cfg(all(
    feature = "rand",
    feature = "std",
    target_arch = "x86_64",
    not(target_feature = "avx2")
))]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn playout_v3<R: rand::Rng + ?Sized>(game: &mut State, rng: &mut R) {
    playout_portable(game, rng);
}

/// [`playout`]'s loop compiled for the build's CPU level (see `lab::connect_four`): the
/// position stays in registers, and what no move of the loop needs is left to the end (the
/// plies and the open columns, counted once from the board). Rejection keeps the board
/// out of the draw: picking among the open columns by their count
/// ([`Moves::pick`](super::Moves::pick)) makes every move wait on the open columns through
/// two table loads and a multiply. Built on `State::play_cell` (the open columns and the
/// plies at every move, the check from the seventh ply on a counter), the loop measured 58.4
/// and 58.8 ns a game against 49.2 and 49.8 for the pair loop it replaced (`peers/` `c4`,
/// baseline, interleaved); this one 50.2 and 50.2 against 50.0 and 50.3.
#[cfg(feature = "rand")]
#[inline(always)]
pub(crate) fn playout_portable<R: rand::Rng + ?Sized>(position: &mut State, rng: &mut R) {
    /// Each 6-bit draw's column: 63 of the 64 values name a column, 9 each, as its cells
    /// (loaded, not computed: the index comes from the generator, so the load waits on
    /// nothing the board does). The 64th value has no cells: it reads as a full column, and
    /// draws again.
    const DRAW: [u64; 64] = {
        let mut draw = [0; 64];
        let mut i = 0;
        while i < 63 {
            draw[i] = 0x3f << (7 * (i / 9));
            i += 1;
        }
        draw
    };
    // A copy the loop keeps in registers (played in place, the position was stored to
    // memory at every move), written back once at the end.
    let mut game = *position;
    if game.is_over() {
        return;
    }
    // Six bits of a 64-bit draw a column, the low bits first: exactly uniform over the
    // seven, and independent, since 63 = 9 × 7 of their values name a column and the
    // 64th draws again. One generator call serves four moves.
    let mut bits;
    // One move, from the 6 bits at `$slice`, checked for a line when `$check`; leaves
    // `$game` when the game ends.
    macro_rules! play {
        ($game:lifetime, $check:expr, $slice:expr) => {
            // A column uniform among the seven, drawn again while it is full: uniform
            // among the open ones. A full board ends the game there, on that rare path: the
            // moves need no count and no test of it.
            let mut cell = game.column_cell(DRAW[(bits >> (6 * $slice) & 63) as usize]);
            while cell == 0 {
                if game.occupied == CELLS {
                    break $game;
                }
                cell = game.column_cell(DRAW[(rng.next_u32() & 63) as usize]);
            }
            let mover = game.mark(cell);
            if $check && c4_has_line_scalar(mover) {
                game.won = true;
                break $game;
            }
        };
    }
    'game: {
        // Two moves a draw while no line can be made (before the seventh ply) and nothing
        // is checked, then four.
        let mut plies = game.plies;
        while plies + 2 <= 6 {
            bits = rng.next_u64();
            play!('game, false, 0);
            play!('game, false, 1);
            plies += 2;
        }
        loop {
            bits = rng.next_u64();
            play!('game, true, 0);
            play!('game, true, 1);
            play!('game, true, 2);
            play!('game, true, 3);
        }
    }
    game.plies = game.occupied.count_ones();
    game.open = open_columns(game.occupied);
    *position = game;
}
