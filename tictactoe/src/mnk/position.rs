//! A reachable position of the family: play, undo, legal moves, status and hashes.

use core::fmt;

use super::bits::{BitIter, Bits, cell_mask, has_line, wins_by_playing};
use super::board::{Board, WidthError};
#[cfg(feature = "rand")]
use super::connect_four;
use super::connect_four::{BOTTOM as CONNECT_FOUR_BOTTOM, CELLS as CONNECT_FOUR_CELLS};
use super::validate::InvalidBoard;
use super::zobrist;
use super::{Rules, Square};
use crate::{Player, Status};

/// A position a legal game of `rules` reaches: a [`Board`] checked by
/// [`Board::violations`], with its status, side to move and Zobrist hash kept up to date by
/// [`play`](Position::play) and [`undo`](Position::undo).
///
/// A move is an *action*: with gravity the column (0 at the left), without it the cell index
/// `row × cols + col` (row 0 at the top), the numbering of OpenSpiel, PettingZoo and pgx.
///
/// ```
/// use tictactoe::mnk::{Position, Rules};
/// use tictactoe::{Player, Status};
/// let mut game = Position::<1>::new(Rules::CONNECT_FOUR)?;
/// for column in [3, 2, 3, 2, 3, 2] {
///     game.play(column)?;
/// }
/// assert_eq!(game.status(), Status::Ongoing);
/// let square = game.play(3)?; // the fourth X in column 3
/// assert_eq!((square.row(), square.col()), (2, 3));
/// assert_eq!(game.status(), Status::Won(Player::X));
/// assert_eq!(game.board().to_string(), "......./......./...X.../..OX.../..OX.../..OX...");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position<const W: usize> {
    board: Board<W>,
    cells: Bits<W>,
    plies: u16,
    status: Status,
    hash: u64,
    /// With gravity, bit `c` for each column `c` with room (0 without gravity): kept by
    /// `play_bit` and `undo_bit`, which change it only when a column fills or empties (a
    /// branch the CPU predicts), so that the count and choice of a move in
    /// [`Moves::pick`] do not wait on the move before (see docs/benchmarks.md).
    open: u32,
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The game is over.
    #[error("the game is over ({status})")]
    GameOver {
        /// How it ended.
        status: Status,
    },
    /// The action is not a column (gravity) or a cell of the board.
    #[error("move {action} is off the board: expected 0 to {}", .actions - 1)]
    OutOfRange {
        /// The action given.
        action: usize,
        /// How many actions the game has.
        actions: u32,
    },
    /// The cell is taken.
    #[error("cell {action} is taken")]
    Occupied {
        /// The action given.
        action: usize,
    },
    /// The column is full.
    #[error("column {action} is full")]
    ColumnFull {
        /// The action given.
        action: usize,
    },
}

/// Why a mark cannot be taken back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum UndoError {
    /// The square does not hold a mark of the player who moved last.
    #[error("{square} does not hold a mark of the last mover")]
    NotLastMover {
        /// The square given.
        square: Square,
    },
    /// The board without the mark is not a position a game reaches (with gravity: the mark is
    /// not on top of its column or the columns no longer stack; or a line remains).
    #[error("taking back {square} leaves a board no game reaches")]
    Unreachable {
        /// The square given.
        square: Square,
    },
}

/// A legal move of a [`Position`], from [`Position::legal_moves`] or
/// [`Position::legal_move`]: its bitboard bit (see [`Rules::bit`]), played by
/// [`Position::play_move`] without a second check. Only those two make one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(u16);

impl Move {
    /// The move filling `bit` (which its maker has checked).
    #[inline(always)]
    pub(crate) const fn from_bit(bit: u32) -> Move {
        Move(bit as u16)
    }

    /// Its bitboard bit: column-major, a column bottom to top (see [`Rules::bit`]).
    #[must_use]
    #[inline(always)]
    pub const fn bit(self) -> u32 {
        self.0 as u32
    }

    /// The square it fills under `rules` (the rules of the position it came from).
    #[must_use]
    #[inline]
    pub const fn square(self, rules: Rules) -> Square {
        let (col, up) = (self.bit() / rules.stride(), self.bit() % rules.stride());
        Square::new((rules.rows() - 1 - up) as u8, col as u8)
    }

    /// Its action under `rules`: the column with gravity, the cell `row × cols + col` without
    /// (what [`Position::play`] takes).
    #[must_use]
    #[inline]
    pub const fn action(self, rules: Rules) -> usize {
        let square = self.square(rules);
        if rules.gravity() {
            square.col() as usize
        } else {
            rules.index(square) as usize
        }
    }
}

/// The legal moves of a [`Position`] ([`Position::legal_moves`]): a `Copy` value that
/// counts ([`len`](Moves::len)), picks ([`pick`](Moves::pick), [`nth`](Moves::nth)) and
/// iterates ([`iter`](Moves::iter), `for mv in moves`) lowest bit first (column by column from
/// the left, each bottom to top) without the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Moves<const W: usize> {
    /// The moves' bits; for Connect Four on one word, the carry `occupied + bottom` that
    /// holds them ([`set`](Moves::set) masks it to the cells): a choice's cell is then one
    /// AND of the carry with its column, one step fewer after the move before.
    bits: Bits<W>,
    /// The position's open columns (gravity; 0 without): with gravity the moves are one a
    /// column, so counting and choosing among the columns is counting and choosing the moves.
    open: u32,
    rules: Rules,
}

/// `OPEN_COUNT[open]`: the number of open columns in a 7-column board's 7-bit mask of them.
const OPEN_COUNT: [u8; 128] = {
    let mut table = [0u8; 128];
    let mut open = 0;
    while open < 128 {
        table[open] = (open as u32).count_ones() as u8;
        open += 1;
    }
    table
};

/// `OPEN_CELLS[open][k]`: the six cells of the `k`-th open column `c` of a 7-column board's
/// 7-bit mask of open columns, in a Connect Four word (`0x3f << 7c`; 0 from the count on):
/// with the carry `occupied + bottom`, one AND gives the column's playable cell (8 KiB, of
/// which a game reads a few rows).
static OPEN_CELLS: [[u64; 8]; 128] = {
    let mut table = [[0u64; 8]; 128];
    let mut open = 0;
    while open < 128 {
        let (mut c, mut k) = (0, 0);
        while c < 7 {
            if open >> c & 1 == 1 {
                table[open][k] = 0x3f << (7 * c);
                k += 1;
            }
            c += 1;
        }
        open += 1;
    }
    table
};

impl Moves<1> {
    /// The moves of a Connect Four position on one word from its carry `occupied + bottom`
    /// (0 when the game is over) and its open columns (0 when over).
    #[inline(always)]
    pub(crate) const fn connect_four(carry: u64, open: u32) -> Moves<1> {
        Moves {
            bits: Bits([carry]),
            open,
            rules: Rules::CONNECT_FOUR,
        }
    }
}

impl<const W: usize> Moves<W> {
    /// How many moves.
    #[must_use]
    #[inline(always)]
    pub fn len(&self) -> usize {
        if W == 1 && self.rules.is(Rules::CONNECT_FOUR) {
            // A table load: no population count at the baseline x86-64 level.
            usize::from(OPEN_COUNT[self.open as usize & 127])
        } else if self.rules.gravity() {
            self.open.count_ones() as usize
        } else {
            self.bits.count() as usize
        }
    }

    /// The moves' bits (see the field).
    #[inline(always)]
    fn set(&self) -> Bits<W> {
        let mut bits = self.bits;
        if W == 1 && self.rules.is(Rules::CONNECT_FOUR) {
            bits.0[0] &= CONNECT_FOUR_CELLS;
        }
        bits
    }

    /// Whether there is none (the game is over).
    #[must_use]
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.set().is_empty()
    }

    /// Whether `mv` is one of them.
    #[must_use]
    #[inline]
    pub fn contains(&self, mv: Move) -> bool {
        self.set().contains(mv.bit())
    }

    /// The `n`-th move, lowest bit first, counting from 0 (`None` from [`len`](Moves::len)
    /// on). With gravity the `n`-th open column's cell: on Connect Four, two table loads
    /// over the open columns and an AND with the carry, which [`pick`](Moves::pick) uses
    /// too.
    #[must_use]
    #[inline]
    pub fn nth(&self, n: usize) -> Option<Move> {
        if W == 1 && self.rules.is(Rules::CONNECT_FOUR) {
            return (n < self.len()).then(|| self.connect_four_nth(n));
        }
        let n = u32::try_from(n).ok()?;
        self.set().nth(n).map(|bit| Move(bit as u16))
    }

    /// A move chosen by 32 random bits, uniformly when the bits are, or `None` when there is
    /// none: the [`nth`](Moves::nth) move for `n = ⌊random × len / 2^32⌋` (Lemire's
    /// multiply-shift without rejection: a bias below `len / 2^32`), as the 3 × 3 core's
    /// [`Bitboard::pick`](crate::Bitboard::pick).
    ///
    /// With gravity the count and the column come from the position's open columns, which
    /// change only when a column fills: only the cell in the column waits on the move before.
    #[must_use]
    #[inline(always)]
    pub fn pick(&self, random: u32) -> Option<Move> {
        let rules = self.rules;
        if W == 1 && rules.is(Rules::CONNECT_FOUR) {
            let n = self.len();
            if n == 0 {
                return None;
            }
            let k = (u64::from(random) * n as u64) >> 32;
            return Some(self.connect_four_nth(k as usize));
        }
        if rules.gravity() {
            let n = self.open.count_ones();
            if n == 0 {
                return None;
            }
            let k = ((u64::from(random) * u64::from(n)) >> 32) as u32;
            let start = select32(self.open, k) * rules.stride();
            let up = self.bits.word_at(start).trailing_zeros();
            return Some(Move((start + up) as u16));
        }
        let n = self.bits.count();
        if n == 0 {
            return None;
        }
        let k = ((u64::from(random) * u64::from(n)) >> 32) as u32;
        Some(Move(self.bits.nth_in_range(k) as u16))
    }

    /// Connect Four's `k`-th move (`k` below [`len`](Moves::len)): the `k`-th open column's
    /// one playable cell, the carry's bit in its cells.
    #[inline(always)]
    fn connect_four_nth(&self, k: usize) -> Move {
        let cell = self.bits.0[0] & OPEN_CELLS[self.open as usize & 127][k & 7];
        Move(cell.trailing_zeros() as u16)
    }

    /// The moves as bits.
    #[must_use]
    #[inline(always)]
    pub fn bits(&self) -> Bits<W> {
        self.set()
    }

    /// The moves, lowest bit first.
    #[inline]
    pub fn iter(&self) -> MoveIter<W> {
        MoveIter(self.set().iter())
    }
}

/// The position of the `k`-th set bit of `word` (which has more than `k`).
#[inline]
fn select32(word: u32, k: u32) -> u32 {
    let mut word = word;
    for _ in 0..k {
        word &= word - 1;
    }
    word.trailing_zeros()
}

impl<const W: usize> IntoIterator for Moves<W> {
    type Item = Move;
    type IntoIter = MoveIter<W>;

    #[inline]
    fn into_iter(self) -> MoveIter<W> {
        self.iter()
    }
}

/// The moves of a [`Moves`], lowest bit first.
#[derive(Clone, Debug)]
pub struct MoveIter<const W: usize>(BitIter<W>);

impl<const W: usize> Iterator for MoveIter<W> {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        self.0.next().map(|bit| Move(bit as u16))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<const W: usize> ExactSizeIterator for MoveIter<W> {}

/// The legal actions, ascending: the moves' columns with gravity (their bits ascend by
/// column), the cells tested in row-major order without.
pub(crate) struct Actions<const W: usize> {
    rules: Rules,
    moves: Bits<W>,
    /// The next cell to test (no gravity), its column and its bit.
    next: u32,
    col: u32,
    bit: u32,
}

impl<const W: usize> Iterator for Actions<W> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        let rules = self.rules;
        if rules.gravity() {
            let bit = self.moves.first()?;
            self.moves.remove(bit);
            return Some(Move(bit as u16).action(rules));
        }
        // Row-major: cell `next` is row `next / cols`, column `next % cols`, kept as a running
        // column and bit (one column right is one stride up) instead of a division a cell.
        while self.next < rules.cells() {
            let cell = self.next;
            let bit = self.bit;
            self.next += 1;
            self.col += 1;
            if self.col == rules.cols() {
                self.col = 0;
                // The next row down: its first column's bit, one below this row's (wrapping
                // past the last row, where no cell is left to test).
                self.bit = (rules.rows() - 1 - cell / rules.cols()).wrapping_sub(1);
            } else {
                self.bit += rules.stride();
            }
            if self.moves.contains(bit) {
                return Some(cell as usize);
            }
        }
        None
    }
}

impl<const W: usize> Position<W> {
    /// The empty board of `rules`, X to move.
    ///
    /// # Errors
    /// [`WidthError`] when `W < rules.words()`.
    #[inline]
    pub fn new(rules: Rules) -> Result<Position<W>, WidthError> {
        // The empty board's fields directly (no column, line or hash to compute): a random
        // playout starts here every game.
        let board = Board::empty(rules)?;
        let cells = if W == 1 && rules.is(Rules::CONNECT_FOUR) {
            // Six cells under a guard bit in each of the seven columns.
            let mut cells = Bits::EMPTY;
            cells.0[0] = 0x3f * 0x0408_1020_4081; // 0x3f times the sum of 2^(7c), c = 0..7
            cells
        } else {
            cell_mask(rules)
        };
        Ok(Position {
            board,
            cells,
            plies: 0,
            status: Status::Ongoing,
            hash: 0,
            open: if rules.gravity() {
                (1 << rules.cols()) - 1
            } else {
                0
            },
        })
    }

    /// The position of a board, checked.
    ///
    /// # Errors
    /// [`InvalidBoard`] with every rule the board breaks.
    pub fn from_board(board: Board<W>) -> Result<Position<W>, InvalidBoard<W>> {
        let violations = board.violations();
        if violations.is_empty() {
            Ok(Position::unchecked(board))
        } else {
            Err(InvalidBoard { board, violations })
        }
    }

    fn unchecked(board: Board<W>) -> Position<W> {
        let rules = board.rules();
        let status = if board.has_line(Player::X) {
            Status::Won(Player::X)
        } else if board.has_line(Player::O) {
            Status::Won(Player::O)
        } else if board.is_full() {
            Status::Draw
        } else {
            Status::Ongoing
        };
        Position {
            board,
            cells: cell_mask(rules),
            plies: board.marks() as u16,
            status,
            hash: zobrist::hash(&board),
            open: open_columns(&board),
        }
    }

    /// The rules.
    #[must_use]
    #[inline]
    pub const fn rules(&self) -> Rules {
        self.board.rules()
    }

    /// The board.
    #[must_use]
    #[inline]
    pub const fn board(&self) -> Board<W> {
        self.board
    }

    /// Marks on the board.
    #[must_use]
    #[inline]
    pub const fn plies(&self) -> u32 {
        self.plies as u32
    }

    /// The status: won, drawn or ongoing.
    #[must_use]
    #[inline]
    pub const fn status(&self) -> Status {
        self.status
    }

    /// The winner, if any.
    #[must_use]
    #[inline]
    pub const fn winner(&self) -> Option<Player> {
        self.status.winner()
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

    /// Who is to move, or `None` when the game is over.
    #[must_use]
    #[inline]
    pub const fn to_move(&self) -> Option<Player> {
        match self.status {
            Status::Ongoing => Some(self.side_to_move()),
            _ => None,
        }
    }

    /// The Zobrist hash of the board: the XOR of one fixed random 64-bit key per mark (by
    /// player and cell), updated by one XOR per move. Equal boards of one game have equal
    /// hashes; see [`zobrist`](super::zobrist).
    #[must_use]
    #[inline]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// Marks in column `col` (with gravity, the height a new mark lands at).
    #[must_use]
    #[inline]
    pub fn height(&self, col: u32) -> u32 {
        // Counted from the board: a position keeps no heights, so a move writes only the
        // board, the plies, the hash and the status.
        let rules = self.rules();
        if col >= rules.cols() {
            return 0;
        }
        let column =
            self.board.occupied().word_at(col * rules.stride()) & ((1 << rules.rows()) - 1);
        if rules.gravity() {
            // With gravity the marks are the column's lowest cells: the run of ones (a
            // `tzcnt`, where a population count is a dozen instructions without POPCNT).
            (!column).trailing_zeros()
        } else {
            column.count_ones()
        }
    }

    /// The number of moves: 0 when the game is over.
    #[must_use]
    #[inline]
    pub fn legal_count(&self) -> u32 {
        if self.status != Status::Ongoing {
            return 0;
        }
        let rules = self.rules();
        if rules.gravity() {
            // One playable cell in each column with room.
            self.playable().count()
        } else {
            rules.cells() - self.plies()
        }
    }

    /// Whether `action` is a legal move.
    #[must_use]
    #[inline]
    pub fn is_legal(&self, action: usize) -> bool {
        self.legal_move(action).is_ok()
    }

    /// The legal moves as actions, ascending (none when the game is over): the columns with
    /// room with gravity, the empty cells without. [`legal_moves`](Position::legal_moves) is
    /// the same set as [`Move`]s, which [`play_move`](Position::play_move) plays unchecked.
    pub fn legal_actions(&self) -> impl Iterator<Item = usize> + use<W> {
        self.actions()
    }

    /// [`legal_actions`](Position::legal_actions) as its type.
    pub(crate) fn actions(&self) -> Actions<W> {
        let rules = self.rules();
        Actions {
            rules,
            moves: self.playable(),
            next: 0,
            col: 0,
            // Row 0 (the top) of column 0.
            bit: rules.rows() - 1,
        }
    }

    /// The legal moves (none when the game is over): a small `Copy` set that counts, picks
    /// and iterates without touching the position, each one a [`Move`] that
    /// [`play_move`](Position::play_move) plays without checking it again. The loop of MCTS
    /// rollouts, a search or an environment:
    ///
    /// ```
    /// use tictactoe::mnk::{Position, Rules};
    /// use tictactoe::Status;
    /// let mut game = Position::<1>::new(Rules::CONNECT_FOUR)?;
    /// let mut random = 0x9e37_79b9_u32;
    /// while let Some(mv) = game.legal_moves().pick(random) {
    ///     game.play_move(mv);
    ///     random = random.wrapping_mul(0x0019_660d).wrapping_add(0x3c6e_f35f);
    /// }
    /// assert_ne!(game.status(), Status::Ongoing);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    #[inline(always)]
    pub fn legal_moves(&self) -> Moves<W> {
        let ongoing = self.status == Status::Ongoing;
        let bits = if W == 1 && self.rules().is(Rules::CONNECT_FOUR) {
            // The carry alone (see `Moves::bits`).
            let mut carry = Bits::EMPTY;
            if ongoing {
                carry.0[0] = self.board.occupied().0[0].wrapping_add(CONNECT_FOUR_BOTTOM);
            }
            carry
        } else {
            self.playable()
        };
        Moves {
            bits,
            open: if ongoing { self.open } else { 0 },
            rules: self.rules(),
        }
    }

    /// `action` as a [`Move`] of this position, or why it is not one: the check of
    /// [`play`](Position::play), which is `legal_move` then [`play_move`](Position::play_move).
    ///
    /// # Errors
    /// [`PlayError`] when the game is over, the action is off the board, or its cell or
    /// column is full.
    #[inline(always)]
    pub fn legal_move(&self, action: usize) -> Result<Move, PlayError> {
        self.check(action).map(|(_, bit)| Move(bit as u16))
    }

    /// The empty cells a move can fill, as bits: the lowest empty cell of each column that has
    /// one with gravity, every empty cell without (none when the game is over).
    #[must_use]
    #[inline(always)]
    pub fn playable(&self) -> Bits<W> {
        if self.status != Status::Ongoing {
            return Bits::EMPTY;
        }
        let occupied = self.board.occupied();
        if W == 1 && self.rules().is(Rules::CONNECT_FOUR) {
            // The carry of each column's bottom bit through its marks stops at its lowest
            // empty cell (at the guard bit of a full column, which is no cell): two word
            // operations (John Tromp's `mask + bottom`).
            let mut cells = Bits::EMPTY;
            cells.0[0] = occupied.0[0].wrapping_add(CONNECT_FOUR_BOTTOM) & CONNECT_FOUR_CELLS;
            return cells;
        }
        let empty = self.cells.and_not(occupied);
        if self.rules().gravity() {
            // The bottom cell of each column is a cell whose bit below is not one (a guard
            // bit or nothing): three word operations, no loop over the columns.
            let bottom = self.cells.and_not(self.cells.shl(1));
            empty & (occupied.shl(1) | bottom)
        } else {
            empty
        }
    }

    /// The square `action` fills and its bit, or why it cannot be played. Inlined into
    /// [`play`](Position::play), so that the bit goes to `play_bit` in a register (a call
    /// returned the result through memory and `play` computed the bit again from the square:
    /// a Connect Four move took 9.3 ns at baseline in `peers/`, 4.4 inlined).
    #[inline(always)]
    fn check(&self, action: usize) -> Result<(Square, u32), PlayError> {
        // The presets' rules as constants (as in `play_bit`): their divisions by the columns
        // and strides become multiplies.
        let rules = self.rules();
        if W == 1 && rules.is(Rules::CONNECT_FOUR) {
            self.check_under(action, Rules::CONNECT_FOUR)
        } else if W == 4 && rules.is(Rules::GOMOKU) {
            self.check_under(action, Rules::GOMOKU)
        } else {
            self.check_under(action, rules)
        }
    }

    /// [`check`](Position::check) under `rules`, which are this position's.
    #[inline(always)]
    fn check_under(&self, action: usize, rules: Rules) -> Result<(Square, u32), PlayError> {
        if self.status != Status::Ongoing {
            return Err(PlayError::GameOver {
                status: self.status,
            });
        }
        if action >= rules.actions() as usize {
            return Err(PlayError::OutOfRange {
                action,
                actions: rules.actions(),
            });
        }
        let action32 = action as u32;
        if rules.gravity() {
            // The column's height: the run of ones of its marks (see `height`).
            let column = self.board.occupied().word_at(action32 * rules.stride())
                & ((1 << rules.rows()) - 1);
            let h = (!column).trailing_zeros();
            if h >= rules.rows() {
                return Err(PlayError::ColumnFull { action });
            }
            let square = Square::new((rules.rows() - 1 - h) as u8, action as u8);
            Ok((square, action32 * rules.stride() + h))
        } else {
            let square = Square::new(
                (action32 / rules.cols()) as u8,
                (action32 % rules.cols()) as u8,
            );
            let bit = rules.bit(square);
            if self.board.occupied().contains(bit) {
                return Err(PlayError::Occupied { action });
            }
            Ok((square, bit))
        }
    }

    /// Plays `action` for the side to move and returns the square it filled:
    /// [`legal_move`](Position::legal_move), then [`play_move`](Position::play_move).
    ///
    /// # Errors
    /// [`PlayError`] when the game is over, the action is off the board, or its cell or
    /// column is full; the position is then unchanged.
    #[inline]
    pub fn play(&mut self, action: usize) -> Result<Square, PlayError> {
        let (square, bit) = self.check(action)?;
        self.play_bit(bit);
        Ok(square)
    }

    /// Plays `mv`, a legal move of this position (from [`legal_moves`](Position::legal_moves)
    /// or [`legal_move`](Position::legal_move)), for the side to move, without checking it
    /// again: the status after it comes from the lines through the new mark. A move of another
    /// position that is not legal here is checked in debug builds only; in release builds it
    /// leaves a position no game reaches (never undefined behaviour).
    #[inline(always)]
    pub fn play_move(&mut self, mv: Move) {
        self.play_bit(mv.bit());
    }

    /// Plays the empty, playable bit `bit` (see [`playable`](Position::playable)) for the side
    /// to move: the fast path of [`play`](Position::play), which checks only in debug builds.
    /// The status after it comes from the lines through `bit` alone.
    // Always inlined: with the presets' copies it is past the compiler's inlining threshold,
    // and a call (the position stored and reloaded around it) costs more than the play.
    #[inline(always)]
    pub fn play_bit(&mut self, bit: u32) {
        debug_assert!(self.playable().contains(bit), "bit {bit} is not playable");
        // The presets' rules as constants: their strides, line directions, `k` and cell
        // counts become immediates (the same code, one branch on the rules to choose).
        let rules = self.rules();
        if W == 1 && rules.is(Rules::CONNECT_FOUR) {
            self.play_bit_under(bit, Rules::CONNECT_FOUR);
        } else if W == 4 && rules.is(Rules::GOMOKU) {
            self.play_bit_under(bit, Rules::GOMOKU);
        } else {
            self.play_bit_under(bit, rules);
        }
    }

    /// [`play_bit`](Position::play_bit) under `rules`, which are this position's.
    #[inline(always)]
    fn play_bit_under(&mut self, bit: u32, rules: Rules) {
        let mover = self.side_to_move();
        // The mover's marks before and after the move.
        let (before, pieces) = if W == 1 {
            // On one word the mover's word is chosen and written back by value (selects),
            // not through a reference picked by the side to move: that reference indexes
            // the board by a run-time value, which keeps a copied position in memory and
            // every read of it waiting on the copy's store (1.5 ns a move against 2.3).
            let (x, o) = (self.board.pieces(Player::X), self.board.pieces(Player::O));
            let is_x = mover == Player::X;
            let before = if is_x { x } else { o };
            let mut pieces = before;
            pieces.insert(bit);
            *self.board.x_mut() = if is_x { pieces } else { x };
            *self.board.o_mut() = if is_x { o } else { pieces };
            (before, pieces)
        } else {
            // Wider boards: selecting every word costs more than the reference.
            let pieces = match mover {
                Player::X => self.board.x_mut(),
                Player::O => self.board.o_mut(),
            };
            let before = *pieces;
            pieces.insert(bit);
            (before, *pieces)
        };
        self.hash ^= zobrist::key(mover, bit);
        self.plies += 1;
        // A mark in a column's top cell (the bit above it is a guard bit) fills the column.
        let top = if W == 1 && rules.is(Rules::CONNECT_FOUR) {
            (CONNECT_FOUR_BOTTOM << 5) >> bit & 1 == 1
        } else {
            !self.cells.contains(bit + 1)
        };
        if rules.gravity() && top {
            self.open = without_column(self.open, bit, rules);
        }
        // A position in play has no line, so a line now goes through `bit`: on one word the
        // whole-board check is the cheaper (branch-free) way to ask. No player has `k` marks
        // before ply `2k - 1` (Connect Four's first six plies check nothing).
        let won = if W == 1 {
            has_line(pieces, rules)
        } else {
            wins_by_playing(before, bit, rules)
        };
        self.status = if won {
            Status::Won(mover)
        } else if u32::from(self.plies) == rules.cells() {
            Status::Draw
        } else {
            Status::Ongoing
        };
    }

    /// Takes back the mark at `square`, which must be one the last mover could have played
    /// last: the position is the one before that move. Undoing the moves of a game in reverse
    /// order always works.
    ///
    /// # Errors
    /// [`UndoError`] when the square does not hold a mark of the last mover, or the board
    /// without it is not reachable; the position is then unchanged.
    pub fn undo(&mut self, square: Square) -> Result<(), UndoError> {
        let rules = self.rules();
        let Some(mover) = self
            .plies
            .checked_sub(1)
            .map(|p| if p % 2 == 0 { Player::X } else { Player::O })
        else {
            return Err(UndoError::NotLastMover { square });
        };
        if self.board.at(square) != Some(mover) {
            return Err(UndoError::NotLastMover { square });
        }
        let before = self.board.with(square, None);
        let reachable = !has_line(before.pieces(mover), rules)
            && (!rules.gravity() || before.violations().is_empty());
        if !reachable {
            return Err(UndoError::Unreachable { square });
        }
        self.undo_bit(rules.bit(square));
        Ok(())
    }

    /// Takes back the mark at `bit` without a check: the inverse of
    /// [`play_bit`](Position::play_bit) for the last move played.
    #[inline]
    pub fn undo_bit(&mut self, bit: u32) {
        self.plies -= 1;
        let mover = self.side_to_move();
        match mover {
            Player::X => self.board.x_mut().remove(bit),
            Player::O => self.board.o_mut().remove(bit),
        }
        self.hash ^= zobrist::key(mover, bit);
        self.status = Status::Ongoing;
        // Taking a mark out of a column's top cell opens the column.
        if self.rules().gravity() && !self.cells.contains(bit + 1) {
            self.open |= 1 << (bit / self.rules().stride());
        }
    }

    /// Plays uniformly random legal moves to the end of the game and returns its status: the
    /// per-move API's loop, `legal_moves().pick(rng.next_u32())` then `play_move` (one 32-bit
    /// draw a move scaled to the number of moves by a multiply: a bias below `n / 2^32`).
    ///
    /// Connect Four on one word (`Position<1>`) has a loop of its own: six bits of a
    /// `next_u64` a move (four moves a call), 63 of their 64 values naming a column, 9 each,
    /// drawn again from a `next_u32` while the value is the 64th or the column is full:
    /// exactly uniform over the legal moves.
    #[cfg(feature = "rand")]
    pub fn play_random<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Status {
        if W == 1 && self.rules().is(Rules::CONNECT_FOUR) {
            return self.play_random_connect_four(rng);
        }
        // The per-move API's own loop: `pick` is one 32-bit draw scaled by a multiply
        // (Lemire's method without the rejection step: a bias below n / 2^32, under 10^-7
        // for 361 moves).
        while let Some(mv) = self.legal_moves().pick(rng.next_u32()) {
            self.play_move(mv);
        }
        self.status
    }
}

/// Connect Four's random playouts: the loop in [`connect_four`](super::connect_four), the
/// position written back once at the end.
#[cfg(feature = "rand")]
impl<const W: usize> Position<W> {
    /// [`play_random`](Position::play_random) for Connect Four on one word.
    fn play_random_connect_four<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Status {
        self.play_out_connect_four::<false, R>(rng)
    }

    /// The loop of [`play_random_connect_four`](Self::play_random_connect_four), compiled for
    /// the build's CPU level (see `lab::connect_four`); other rules play as `play_random`.
    pub(crate) fn play_random_connect_four_portable<R: rand::Rng + ?Sized>(
        &mut self,
        rng: &mut R,
    ) -> Status {
        if W == 1 && self.rules().is(Rules::CONNECT_FOUR) {
            self.play_out_connect_four::<true, R>(rng)
        } else {
            self.play_random(rng)
        }
    }

    /// Plays out by [`connect_four::playout`] (or its loop compiled for the build's CPU level
    /// when `PORTABLE`) and writes the game's end back.
    #[inline(always)]
    fn play_out_connect_four<const PORTABLE: bool, R: rand::Rng + ?Sized>(
        &mut self,
        rng: &mut R,
    ) -> Status {
        if self.status != Status::Ongoing {
            return self.status;
        }
        let mover = self.side_to_move();
        let occupied = self.board.occupied().0[0];
        let mut end = connect_four::State {
            mine: self.board.pieces(mover).0[0],
            occupied,
            open: self.open,
            plies: u32::from(self.plies),
            won: false,
        };
        if PORTABLE {
            connect_four::playout_portable(&mut end, rng);
        } else {
            connect_four::playout(&mut end, rng);
        }
        let (x, o) = end.words();
        self.board.x_mut().0[0] = x;
        self.board.o_mut().0[0] = o;
        self.plies = end.plies as u16;
        self.open = end.open;
        self.hash = connect_four::hash(x, end.occupied);
        self.status = end.status();
        self.status
    }
}

/// `open` without the column of `bit`: out of line and cold, so that the update is a branch
/// the CPU predicts (not taken) and the next move's choice does not wait on this one. By
/// value, so that a position in registers stays there.
#[cold]
#[inline(never)]
pub(crate) fn without_column(open: u32, bit: u32, rules: Rules) -> u32 {
    open & !(1 << (bit / rules.stride()))
}

/// With gravity, bit `c` for each column `c` with room; 0 without gravity.
fn open_columns<const W: usize>(board: &Board<W>) -> u32 {
    let rules = board.rules();
    if !rules.gravity() {
        return 0;
    }
    let occupied = board.occupied();
    (0..rules.cols())
        .filter(|&c| !occupied.contains(c * rules.stride() + rules.rows() - 1))
        .fold(0, |open, c| open | 1 << c)
}

impl Position<1> {
    /// The Connect Four position of the words `x` and `o` (a board a game reaches), its
    /// status and its open columns: the fields of a [`ConnectFour`](super::ConnectFour).
    pub(crate) fn from_connect_four(x: u64, o: u64, status: Status, open: u32) -> Position<1> {
        let occupied = x | o;
        Position {
            board: Board::from_words(Rules::CONNECT_FOUR, x, o),
            cells: cell_mask(Rules::CONNECT_FOUR),
            plies: occupied.count_ones() as u16,
            status,
            hash: super::connect_four::hash(x, occupied),
            open,
        }
    }
}

impl<const W: usize> TryFrom<Board<W>> for Position<W> {
    type Error = InvalidBoard<W>;

    fn try_from(board: Board<W>) -> Result<Position<W>, InvalidBoard<W>> {
        Position::from_board(board)
    }
}

impl<const W: usize> From<Position<W>> for Board<W> {
    fn from(position: Position<W>) -> Board<W> {
        position.board
    }
}

impl<const W: usize> fmt::Display for Position<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.board, f)
    }
}

impl<const W: usize> fmt::Debug for Position<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position({}: {}, {})",
            self.rules(),
            self.board,
            self.status
        )
    }
}

impl<const W: usize> core::hash::Hash for Position<W> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.board.hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connect Four's move set on every mask of open columns (the others full), the open
    /// columns at random heights: `len` is the count of open columns, `nth` and `pick` are the
    /// moves listed from the carry's bits (lowest first), and past `len` there is none.
    #[test]
    fn connect_four_moves_on_every_mask_of_open_columns() {
        let mut next = crate::testing::xorshift(35);
        for open in 0..128u32 {
            for _ in 0..20 {
                let mut occupied = 0u64;
                for col in 0..7 {
                    let height = if open >> col & 1 == 0 { 6 } else { next() % 6 };
                    occupied |= ((1u64 << height) - 1) << (7 * col);
                }
                let moves = Moves::connect_four(occupied + CONNECT_FOUR_BOTTOM, open);
                let listed: Vec<Move> = moves.iter().collect();
                assert_eq!(moves.len(), open.count_ones() as usize, "{open:#b}");
                assert_eq!(listed.len(), moves.len(), "{open:#b}");
                for (k, &mv) in listed.iter().enumerate() {
                    assert_eq!(moves.nth(k), Some(mv), "{open:#b} {k}");
                    assert_eq!(
                        mv.bit() / 7,
                        (0..7).filter(|c| open >> c & 1 == 1).nth(k).unwrap()
                    );
                }
                assert_eq!(moves.nth(listed.len()), None);
                for random in [0, u32::MAX, next() as u32] {
                    let k = ((u64::from(random) * listed.len() as u64) >> 32) as usize;
                    assert_eq!(moves.pick(random), listed.get(k).copied(), "{open:#b}");
                }
            }
        }
    }

    #[test]
    fn new_is_the_checked_empty_board() {
        // `new` fills the fields directly (Connect Four's cells as a constant); `from_board`
        // computes them.
        for rules in [Rules::CONNECT_FOUR, Rules::TIC_TAC_TOE, Rules::FOUR_BY_FOUR] {
            let fresh = Position::<1>::new(rules).unwrap();
            let checked = Position::from_board(Board::<1>::empty(rules).unwrap()).unwrap();
            assert!(fresh == checked, "{rules}");
        }
        let fresh = Position::<4>::new(Rules::GOMOKU).unwrap();
        assert!(fresh == Position::from_board(Board::<4>::empty(Rules::GOMOKU).unwrap()).unwrap());
    }
}
