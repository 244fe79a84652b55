//! Connect Four's room in the family engine: what [`Position<1>`](super::Position) under
//! [`Rules::CONNECT_FOUR`](super::Rules::CONNECT_FOUR) runs instead of the generic code, on
//! the layout it shares with the solver's engine (`connect4`: 7 bits a column, bottom to top,
//! an empty guard bit on top; [`BOTTOM`] and [`CELLS`] are checked equal to the solver's at
//! compile time where both are built).
//! `Position::play_random` keeps one dispatch line to the playout loop ([`playout`]), which
//! writes back the board, its open columns and its [`hash`]; the one-word line check the loop
//! and `Position::play_bit` share is a bitboard kernel, `bits::c4_has_line`.

use core::fmt;

#[cfg(feature = "rand")]
use super::bits::c4_has_line_scalar;
use super::bits::{Bits, c4_has_line};
use super::position::without_column;
use super::{Board, Move, Moves, PlayError, Position, Rules, Square, zobrist};
use crate::{Player, Status};

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

/// Connect Four with its rules known at compile time: the family's per-move API
/// ([`legal_moves`](ConnectFour::legal_moves), [`pick`](Moves::pick),
/// [`play_move`](ConnectFour::play_move), [`status`](ConnectFour::status)) on a position of
/// five small fields that a loop keeps in registers. The same moves, the same [`Move`]s and
/// the same results as [`Position<1>`] under [`Rules::CONNECT_FOUR`], into which it converts
/// both ways ([`From`], [`TryFrom`]); it differs in what it keeps: no Zobrist hash kept up to
/// date ([`hash`](ConnectFour::hash) computes the same value from the board, 7 table loads)
/// and the marks of the side to move with every mark, instead of X's and O's (a move is then
/// an XOR and an OR, with no choice of word by the side to move).
///
/// ```
/// use tictactoe::mnk::ConnectFour;
/// use tictactoe::{Player, Status};
/// let mut game = ConnectFour::new();
/// let mut random = 0x9e37_79b9_u32;
/// while game.status() == Status::Ongoing {
///     let mv = game.legal_moves().pick(random).expect("a move while the game is on");
///     game.play_move(mv);
///     random = random.wrapping_mul(0x0019_660d).wrapping_add(0x3c6e_f35f);
/// }
/// // From outside: the column checked, then played.
/// let mut game = ConnectFour::new();
/// for column in [3, 2, 3, 2, 3, 2] {
///     game.play(column)?;
/// }
/// let square = game.play(3)?; // the fourth X in column 3
/// assert_eq!((square.row(), square.col()), (2, 3));
/// assert_eq!(game.status(), Status::Won(Player::X));
/// assert!(game.play(4).is_err());
/// assert_eq!(game.to_string(), "......./......./...X.../..OX.../..OX.../..OX...");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ConnectFour {
    /// The marks of the side to move.
    mine: u64,
    /// Every mark.
    occupied: u64,
    /// Bit `c` for each column `c` with room, changed only when a column fills or empties
    /// (see [`Position`]'s field of that name).
    open: u32,
    /// Marks on the board.
    plies: u32,
    /// Whether the last move made four in a row.
    won: bool,
}

/// Why a [`Position<1>`] is not a [`ConnectFour`]: its rules are others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{rules} is not Connect Four ({})", Rules::CONNECT_FOUR)]
pub struct NotConnectFour {
    /// The position's rules.
    pub rules: Rules,
}

impl Default for ConnectFour {
    fn default() -> ConnectFour {
        ConnectFour::new()
    }
}

impl ConnectFour {
    /// Its rules: 6 rows, 7 columns, four in a row, with gravity.
    pub const RULES: Rules = Rules::CONNECT_FOUR;

    /// The empty board, X to move.
    #[must_use]
    #[inline]
    pub const fn new() -> ConnectFour {
        ConnectFour {
            mine: 0,
            occupied: 0,
            open: (1 << 7) - 1,
            plies: 0,
            won: false,
        }
    }

    /// The status: won, drawn or ongoing.
    #[must_use]
    #[inline(always)]
    pub const fn status(&self) -> Status {
        if self.won {
            // The player who moved last.
            Status::Won(self.side_to_move().opponent())
        } else if self.plies == CELLS.count_ones() {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }

    /// Marks on the board.
    #[must_use]
    #[inline]
    pub const fn plies(&self) -> u32 {
        self.plies
    }

    /// Whose turn it is by the counts (X after an even number of marks), even when the game
    /// is over.
    #[must_use]
    #[inline]
    pub const fn side_to_move(&self) -> Player {
        if self.plies.is_multiple_of(2) {
            Player::X
        } else {
            Player::O
        }
    }

    /// The legal moves (none when the game is over): see [`Position::legal_moves`]; `pick`
    /// counts and chooses among the open columns by two table loads, and only the cell in
    /// the chosen column waits on the move before.
    #[must_use]
    #[inline(always)]
    pub fn legal_moves(&self) -> Moves<1> {
        if self.status() == Status::Ongoing {
            Moves::connect_four(self.occupied.wrapping_add(BOTTOM), self.open)
        } else {
            Moves::connect_four(0, 0)
        }
    }

    /// The empty cells a move can fill, as bits: the lowest empty cell of each column with
    /// room (none when the game is over); [`legal_moves`](ConnectFour::legal_moves)`().bits()`.
    #[must_use]
    #[inline(always)]
    pub fn playable(&self) -> Bits<1> {
        self.legal_moves().bits()
    }

    /// `column` as a [`Move`] of this position, or why it is not one: the check of
    /// [`play`](ConnectFour::play).
    ///
    /// # Errors
    /// [`PlayError`] when the game is over, the column is off the board (7 or more) or full.
    #[inline]
    pub fn legal_move(&self, column: usize) -> Result<Move, PlayError> {
        let status = self.status();
        if status != Status::Ongoing {
            return Err(PlayError::GameOver { status });
        }
        if column >= 7 {
            return Err(PlayError::OutOfRange {
                action: column,
                actions: 7,
            });
        }
        let cell = self.occupied.wrapping_add(BOTTOM) & (CELLS & 0x3f << (7 * column));
        if cell == 0 {
            return Err(PlayError::ColumnFull { action: column });
        }
        Ok(Move::from_bit(cell.trailing_zeros()))
    }

    /// Plays `column` (0 at the left) for the side to move and returns the square it filled:
    /// [`legal_move`](ConnectFour::legal_move), then [`play_move`](ConnectFour::play_move).
    ///
    /// # Errors
    /// [`PlayError`] when the game is over, the column is off the board or full; the
    /// position is then unchanged.
    #[inline]
    pub fn play(&mut self, column: usize) -> Result<Square, PlayError> {
        let mv = self.legal_move(column)?;
        self.play_move(mv);
        Ok(mv.square(Rules::CONNECT_FOUR))
    }

    /// Plays `mv`, a legal move of this position (from
    /// [`legal_moves`](ConnectFour::legal_moves) or [`legal_move`](ConnectFour::legal_move)),
    /// for the side to move, without checking it again (as [`Position::play_move`]: checked
    /// in debug builds only; in release builds a move that is not legal here leaves a
    /// position no game reaches, never undefined behaviour).
    #[inline(always)]
    pub fn play_move(&mut self, mv: Move) {
        self.play_bit(mv.bit());
    }

    /// Plays the playable bit `bit` (see [`playable`](ConnectFour::playable)): the bit-level
    /// form of [`play_move`](ConnectFour::play_move), checked in debug builds only.
    #[inline(always)]
    pub fn play_bit(&mut self, bit: u32) {
        debug_assert!(self.playable().contains(bit), "bit {bit} is not playable");
        let cell = 1u64 << (bit & 63);
        // The mover's marks with the new one; the opponent's become the side to move's.
        let mover = self.mine | cell;
        self.mine ^= self.occupied;
        self.occupied |= cell;
        self.plies += 1;
        // A mark in a column's top cell fills the column: a rare branch, predicted.
        if (BOTTOM << 5) & cell != 0 {
            self.open = without_column(self.open, bit, Rules::CONNECT_FOUR);
        }
        // A position in play has no line: a line now goes through the new mark. Four marks
        // of one player take seven plies: the first six check nothing (a branch the CPU
        // predicts, which saves the check on a quarter of a random game's moves).
        self.won = self.plies >= 7 && c4_has_line(mover);
    }

    /// Takes back `mv`, the last move played: the inverse of
    /// [`play_move`](ConnectFour::play_move), unchecked as it is.
    #[inline]
    pub fn undo_move(&mut self, mv: Move) {
        let cell = 1u64 << (mv.bit() & 63);
        self.occupied &= !cell;
        self.mine ^= self.occupied;
        self.plies -= 1;
        self.open |= 1 << (mv.bit() / 7);
        self.won = false;
    }

    /// The Zobrist hash of the board: [`Position::hash`] of the same board, computed from it
    /// (a `ConnectFour` keeps no hash: 7 table loads, one a column).
    #[must_use]
    #[inline]
    pub fn hash(&self) -> u64 {
        let (x, _) = self.words();
        hash(x, self.occupied)
    }

    /// X's and O's words.
    #[inline(always)]
    const fn words(&self) -> (u64, u64) {
        let theirs = self.mine ^ self.occupied;
        if self.plies.is_multiple_of(2) {
            (self.mine, theirs)
        } else {
            (theirs, self.mine)
        }
    }

    /// The board.
    #[must_use]
    #[inline]
    pub const fn board(&self) -> Board<1> {
        let (x, o) = self.words();
        Board::from_words(Rules::CONNECT_FOUR, x, o)
    }

    /// The same position as a [`Position<1>`] (with its hash).
    #[must_use]
    #[inline]
    pub fn to_position(&self) -> Position<1> {
        let (x, o) = self.words();
        Position::from_connect_four(x, o, self.status(), self.open)
    }
}

impl From<ConnectFour> for Position<1> {
    fn from(game: ConnectFour) -> Position<1> {
        game.to_position()
    }
}

impl TryFrom<Position<1>> for ConnectFour {
    type Error = NotConnectFour;

    fn try_from(position: Position<1>) -> Result<ConnectFour, NotConnectFour> {
        let rules = position.rules();
        if !rules.is(Rules::CONNECT_FOUR) {
            return Err(NotConnectFour { rules });
        }
        let board = position.board();
        let mover = position.side_to_move();
        let occupied = board.occupied().0[0];
        Ok(ConnectFour {
            mine: board.pieces(mover).0[0],
            occupied,
            open: open_columns(occupied),
            plies: position.plies(),
            won: position.winner().is_some(),
        })
    }
}

impl fmt::Display for ConnectFour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.board(), f)
    }
}

impl fmt::Debug for ConnectFour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ConnectFour({}, {})", self.board(), self.status())
    }
}
