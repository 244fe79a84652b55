//! Connect Four's room in the family engine: what [`Position<1>`](super::Position) under
//! [`Rules::CONNECT_FOUR`](super::Rules::CONNECT_FOUR) runs instead of the generic code, on
//! the layout it shares with the solver's engine (`connect4`: 7 bits a column, bottom to top,
//! an empty guard bit on top; [`BOTTOM`] and [`CELLS`] are checked equal to the solver's at
//! compile time where both are built).
//! `Position::play_random` keeps one dispatch line to the playout loop ([`playout`]), which
//! writes back the board, its open columns and its [`hash`]; the one-word line check the loop
//! and `Position::play_bit` share is a bitboard kernel, `bits::c4_has_line`.

#[cfg(feature = "rand")]
use super::bits::c4_has_line_scalar;
use super::{Rules, zobrist};
#[cfg(feature = "rand")]
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

// One layout for both engines: the solver's key is built from these words (`any_solver`).
#[cfg(feature = "alloc")]
const _: () = assert!(BOTTOM == crate::connect4::BOTTOM && CELLS == crate::connect4::BOARD);

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

/// A Connect Four game played out: what the position writes back.
#[cfg(feature = "rand")]
pub(crate) struct End {
    pub(crate) status: Status,
    /// X's word.
    pub(crate) x: u64,
    /// O's word.
    pub(crate) o: u64,
    pub(crate) plies: u32,
    /// [`open_columns`].
    pub(crate) open: u32,
    /// [`hash`]: by columns at the end (7 loads, no branch).
    pub(crate) hash: u64,
}

/// Random moves from the words `a` (of `first`, the player to move) and `b` to the end of the
/// game: the status and the board at the end, counted and hashed ([`End`]). A column drawn from the seven and drawn
/// again while it is full, the mark by the column-height carry of the occupied word (John
/// Tromp's and Pascal Pons's `mask + bottom`). A build for any x86-64 CPU runs the loop
/// compiled for x86-64-v3 where this CPU has it (detected at run time, once: a load and a
/// compare a game): the check of four directions is then three AVX2 vector steps instead of
/// sixteen scalar ones.
#[cfg(feature = "rand")]
#[inline]
pub(crate) fn playout<R: rand::Rng + ?Sized>(
    a: u64,
    b: u64,
    plies: u32,
    first: Player,
    rng: &mut R,
) -> End {
    #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx2")))]
    if super::cpu::has_x86_64_v3() {
        // SAFETY: the function enables exactly the five features detected just above.
        #[allow(unsafe_code)]
        return unsafe { playout_v3(a, b, plies, first, rng) };
    }
    playout_portable(a, b, plies, first, rng)
}

/// [`playout`]'s loop compiled for x86-64-v3 (the same code: only the instructions differ).
#[cfg(all(
    feature = "rand",
    feature = "std",
    target_arch = "x86_64",
    not(target_feature = "avx2")
))]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn playout_v3<R: rand::Rng + ?Sized>(
    a: u64,
    b: u64,
    plies: u32,
    first: Player,
    rng: &mut R,
) -> End {
    playout_portable(a, b, plies, first, rng)
}

/// [`playout`]'s loop compiled for the build's CPU level (see `lab::connect_four`). The
/// mover's word and the occupied word stay in registers, no line check before the seventh
/// ply. Rejection keeps the board out of the draw: picking among the open columns by their
/// count made every move wait on the last one through two table loads and a multiply.
#[cfg(feature = "rand")]
#[inline(always)]
pub(crate) fn playout_portable<R: rand::Rng + ?Sized>(
    mut a: u64,
    mut b: u64,
    mut plies: u32,
    first: Player,
    rng: &mut R,
) -> End {
    /// Each 6-bit draw's column: 63 of the 64 values name a column, 9 each, as its
    /// bottom bit and its cells (loaded, not computed: the index comes from the
    /// generator, so the loads wait on nothing the board does). The 64th value has no
    /// cells: it reads as a full column, and draws again.
    const DRAW: [[u64; 2]; 64] = {
        let mut draw = [[0, 0]; 64];
        let mut i = 0;
        while i < 63 {
            let bottom = 1 << (7 * (i / 9));
            draw[i] = [bottom, bottom * 0x3f];
            i += 1;
        }
        draw
    };
    let second = first.opponent();
    let mut occupied = a | b;
    // Six bits of a 64-bit draw a column, the low bits first: exactly uniform over the
    // seven, and independent, since 63 = 9 × 7 of their values name a column and the
    // 64th draws again. One generator call serves four moves.
    let mut bits;
    // Every cell: the occupied word of a full board.
    const FULL: u64 = {
        let (mut full, mut col) = (0, 0);
        while col < 7 {
            full |= 0x3f << (7 * col);
            col += 1;
        }
        full
    };
    // One move of `$player`, whose word is `$word`; leaves `$game` with the status when
    // `$check` and the game ends.
    macro_rules! play {
        ($game:lifetime, $word:ident, $player:ident, $check:expr, $slice:expr) => {
            // A column uniform among the seven, drawn again while it is full: uniform
            // among the open ones. Its lowest empty cell is the carry of its bottom bit
            // through its marks; the carry of a full column leaves its cells (to the bit
            // between columns, always clear), so no cell is the test of a full column
            // (the rare, predicted branch). A full board ends the game there, on that
            // rare path: the moves need no count and no test of it.
            let draw = &DRAW[(bits >> (6 * $slice) & 63) as usize];
            let mut new = (occupied + draw[0]) & draw[1];
            while new == 0 {
                if occupied == FULL {
                    break $game Status::Draw;
                }
                let draw = &DRAW[(rng.next_u32() & 63) as usize];
                new = (occupied + draw[0]) & draw[1];
            }
            occupied |= new;
            $word |= new;
            if $check && c4_has_line_scalar($word) {
                break $game Status::Won($player);
            }
        };
    }
    // Moves in pairs, one of each player, so that the words and players stay in their
    // registers instead of swapping every move. Four marks of one player take seven
    // plies: the pairs that end by the sixth ply check nothing (and the board is not
    // full before them).
    while plies + 2 <= 6 {
        let _: Status = 'pair: {
            bits = rng.next_u64();
            play!('pair, a, first, false, 0);
            play!('pair, b, second, false, 1);
            Status::Ongoing
        };
        plies += 2;
    }
    let status = 'game: loop {
        bits = rng.next_u64();
        play!('game, a, first, true, 0);
        play!('game, b, second, true, 1);
        play!('game, a, first, true, 2);
        play!('game, b, second, true, 3);
    };
    let (x, o) = match first {
        Player::X => (a, b),
        Player::O => (b, a),
    };
    // Counted and hashed here, so that the copy for x86-64-v3 does it with its instructions.
    End {
        status,
        x,
        o,
        plies: (x | o).count_ones(),
        open: open_columns(x | o),
        hash: hash(x, x | o),
    }
}
