//! [`ConnectFour`]: Connect Four with its rules known at compile time, the family's per-move
//! API on five fields a loop keeps in registers (the layout and kernels are its room's, [`super`]).

use core::fmt;

use super::{CELLS, State, hash, open_columns};
use crate::mnk::bits::Bits;
use crate::mnk::{Board, Move, Moves, PlayError, Position, Rules, Square};
use crate::{Player, Status};

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
/// // The bit level: the move set's `len` and `nth` (two table loads over the open columns,
/// // no population count), a bit played by `play_bit` (no `Result`, no bounds check).
/// let mut game = ConnectFour::new();
/// while game.status() == Status::Ongoing {
///     let moves = game.legal_moves();
///     let k = (u64::from(random) * moves.len() as u64 >> 32) as usize;
///     game.play_bit(moves.nth(k).expect("k is below len").bit());
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
pub struct ConnectFour(State);

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
        ConnectFour(State::EMPTY)
    }

    /// The status: won, drawn or ongoing.
    #[must_use]
    #[inline(always)]
    pub const fn status(&self) -> Status {
        self.0.status()
    }

    /// Marks on the board.
    #[must_use]
    #[inline]
    pub const fn plies(&self) -> u32 {
        self.0.plies
    }

    /// Whose turn it is by the counts (X after an even number of marks), even when the game
    /// is over.
    #[must_use]
    #[inline]
    pub const fn side_to_move(&self) -> Player {
        if self.0.plies.is_multiple_of(2) {
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
            Moves::connect_four(self.0.carry(), self.0.open)
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
        let cell = self.0.column_cell(CELLS & 0x3f << (7 * column));
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
    /// form of [`play_move`](ConnectFour::play_move), checked in debug builds only (in
    /// release builds a bit that is not playable leaves a position no game reaches, never
    /// undefined behaviour). No `Result` and no bounds check: the cell, the move (an XOR and
    /// an OR), the open columns when a column fills (a rare, predicted branch) and the line
    /// check of the mover, which [`status`](ConnectFour::status) then reads.
    #[inline(always)]
    pub fn play_bit(&mut self, bit: u32) {
        debug_assert!(self.playable().contains(bit), "bit {bit} is not playable");
        self.0.play_cell(1u64.wrapping_shl(bit));
    }

    /// Plays uniformly random legal moves to the end of the game and returns its status: the
    /// loop of [`Position::play_random`] for Connect Four (the same draws, so the same game
    /// from the same generator), on this position's own move
    /// ([`play_bit`](ConnectFour::play_bit)'s).
    ///
    /// ```
    /// use rand::SeedableRng;
    /// use tictactoe::Status;
    /// use tictactoe::mnk::ConnectFour;
    /// let mut game = ConnectFour::new();
    /// game.play(3)?;
    /// let status = game.play_random(&mut rand::rngs::SmallRng::seed_from_u64(1));
    /// assert_ne!(status, Status::Ongoing);
    /// assert_eq!(game.status(), status);
    /// # Ok::<(), tictactoe::mnk::PlayError>(())
    /// ```
    #[cfg(feature = "rand")]
    #[inline]
    pub fn play_random<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Status {
        super::playout(&mut self.0, rng);
        self.status()
    }

    /// Takes back `mv`, the last move played: the inverse of
    /// [`play_move`](ConnectFour::play_move), unchecked as it is.
    #[inline]
    pub fn undo_move(&mut self, mv: Move) {
        let cell = 1u64 << (mv.bit() & 63);
        let game = &mut self.0;
        game.occupied &= !cell;
        game.mine ^= game.occupied;
        game.plies -= 1;
        game.open |= 1 << (mv.bit() / 7);
        game.won = false;
    }

    /// The Zobrist hash of the board: [`Position::hash`] of the same board, computed from it
    /// (a `ConnectFour` keeps no hash: 7 table loads, one a column).
    #[must_use]
    #[inline]
    pub fn hash(&self) -> u64 {
        let (x, _) = self.0.words();
        hash(x, self.0.occupied)
    }

    /// The board.
    #[must_use]
    #[inline]
    pub const fn board(&self) -> Board<1> {
        let (x, o) = self.0.words();
        Board::from_words(Rules::CONNECT_FOUR, x, o)
    }

    /// The same position as a [`Position<1>`] (with its hash).
    #[must_use]
    #[inline]
    pub fn to_position(&self) -> Position<1> {
        let (x, o) = self.0.words();
        Position::from_connect_four(x, o, self.status(), self.0.open)
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
        Ok(ConnectFour(State {
            mine: board.pieces(mover).0[0],
            occupied,
            open: open_columns(occupied),
            plies: position.plies(),
            won: position.winner().is_some(),
        }))
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
