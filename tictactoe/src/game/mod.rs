//! A game: the moves played from the empty board, with undo and a one-line notation.
//!
//! Notation: the cells' digits in the order they were played, X first. `40` is X in the centre,
//! then O in the top-left corner; the empty game is the empty string.

use core::fmt;
use core::str::FromStr;

use crate::{Cell, PlayError, Position, Status};

mod code;

/// A move of a sequence that cannot be played ([`Game::from_moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {index}: {error}")]
pub struct MovesError {
    /// Where the move is in the sequence, from 0.
    pub index: usize,
    /// Why it cannot be played.
    pub error: PlayError,
}

pub(crate) use code::TABLE_BYTES as CODE_TABLE_BYTES;
pub use code::{CodeError, CodeKind, GameCode, ParseCodeKindError, PrefixCode};

/// The moves of a game from the empty board and the position they reach.
///
/// Holds at most nine moves in a fixed array: no allocation.
///
/// ```
/// use tictactoe::{Game, Player, Status};
/// let mut game: Game = "4015".parse()?;
/// assert_eq!(game.position().to_string(), "OX..XO...");
/// game.play_index(7)?;
/// assert_eq!(game.status(), Status::Won(Player::X));
/// assert_eq!(game.undo().map(|cell| cell.index()), Some(7));
/// assert_eq!(game.to_string(), "4015");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Game {
    position: Position,
    moves: [u8; 9],
    len: u8,
}

/// Text that is not a game in move notation. `index` counts moves (= characters) from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseGameError {
    /// A character that is not a digit 0 to 8.
    #[error("move {} ({ch:?}) is not a cell: expected a digit 0 to 8", index + 1)]
    BadDigit {
        /// Index of the move.
        index: usize,
        /// The character.
        ch: char,
    },
    /// A cell that was already played.
    #[error("move {} repeats cell {cell}", index + 1)]
    RepeatedCell {
        /// Index of the move.
        index: usize,
        /// The cell.
        cell: Cell,
    },
    /// A move after the game was won or drawn.
    #[error("move {} comes after the end of the game ({status})", index + 1)]
    AfterEnd {
        /// Index of the move.
        index: usize,
        /// How the game had ended.
        status: Status,
    },
}

impl Game {
    /// The game with no moves.
    pub const EMPTY: Game = Game {
        position: Position::EMPTY,
        moves: [0; 9],
        len: 0,
    };

    /// The game with no moves.
    #[must_use]
    pub const fn new() -> Game {
        Game::EMPTY
    }

    /// The position reached.
    #[must_use]
    pub const fn position(&self) -> Position {
        self.position
    }

    /// Ongoing, won or drawn.
    #[must_use]
    pub const fn status(&self) -> Status {
        self.position.status()
    }

    /// Number of moves played.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no move was played.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in order.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Cell> + Clone + '_ {
        self.moves[..self.len()]
            .iter()
            .map(|&index| Cell::ALL[index as usize])
    }

    /// The last move, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<Cell> {
        self.moves().last()
    }

    /// Plays `cell` for the side to move; on error the game is unchanged.
    ///
    /// # Errors
    /// [`PlayError`] when the game is over or the cell is taken.
    pub const fn play(&mut self, cell: Cell) -> Result<(), PlayError> {
        match self.position.play(cell) {
            Ok(position) => {
                self.position = position;
                self.moves[self.len as usize] = cell.index() as u8;
                self.len += 1;
                Ok(())
            }
            Err(error) => Err(error),
        }
    }

    /// Plays a move the caller knows to be legal (debug builds check).
    pub(crate) const fn push_unchecked(&mut self, cell: Cell) {
        self.position = self.position.play_unchecked(cell);
        self.moves[self.len as usize] = cell.index() as u8;
        self.len += 1;
    }

    /// [`Game::play`] with a cell index; indices of 9 or more are [`PlayError::NoSuchCell`].
    ///
    /// # Errors
    /// [`PlayError`] as [`Game::play`], or [`PlayError::NoSuchCell`].
    pub fn play_index(&mut self, index: usize) -> Result<(), PlayError> {
        self.play(Cell::try_from(index)?)
    }

    /// Takes back the last move and returns its cell, or `None` on the empty game.
    pub fn undo(&mut self) -> Option<Cell> {
        let cell = self.last_move()?;
        self.len -= 1;
        // Cleared so that equal games compare equal.
        self.moves[self.len()] = 0;
        let board = self.position.board().with(cell, None);
        self.position = Position::from_board_unchecked(board);
        Some(cell)
    }

    /// The game of these moves.
    ///
    /// # Errors
    /// A [`MovesError`] with the index of the first move that cannot be played and why.
    pub fn from_moves<I: IntoIterator<Item = Cell>>(moves: I) -> Result<Game, MovesError> {
        let mut game = Game::EMPTY;
        for (index, cell) in moves.into_iter().enumerate() {
            game.play(cell)
                .map_err(|error| MovesError { index, error })?;
        }
        Ok(game)
    }
}

impl FromStr for Game {
    type Err = ParseGameError;

    fn from_str(text: &str) -> Result<Game, ParseGameError> {
        let mut game = Game::EMPTY;
        for (index, ch) in text.chars().enumerate() {
            let cell = ch
                .to_digit(10)
                .and_then(|digit| Cell::try_from(digit as usize).ok())
                .ok_or(ParseGameError::BadDigit { index, ch })?;
            game.play(cell).map_err(|error| match error {
                PlayError::GameOver { status } => ParseGameError::AfterEnd { index, status },
                PlayError::Occupied { .. } | PlayError::NoSuchCell { .. } => {
                    ParseGameError::RepeatedCell { index, cell }
                }
            })?;
        }
        Ok(game)
    }
}

/// The move digits, `4015`; nothing for the empty game.
impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.moves().try_for_each(|cell| write!(f, "{cell}"))
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game(\"{self}\")")
    }
}

/// Counts over the whole game tree (every move sequence from the empty board), computed by one
/// depth-first walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TreeCounts {
    /// Complete games (move sequences that end in a win or a full board).
    pub games: u64,
    /// Complete games won by X.
    pub x_wins: u64,
    /// Complete games won by O.
    pub o_wins: u64,
    /// Complete games drawn.
    pub draws: u64,
    /// Nodes of the tree: every move sequence, complete or not, the empty one included.
    pub nodes: u64,
    /// `perft[d]`: move sequences of exactly `d` moves.
    pub perft: [u64; 10],
}

impl TreeCounts {
    /// Walks the whole tree (549,946 nodes).
    ///
    /// ```
    /// use tictactoe::game::TreeCounts;
    /// let counts = TreeCounts::compute();
    /// assert_eq!(counts.games, counts.x_wins + counts.o_wins + counts.draws);
    /// assert_eq!(counts.perft.iter().sum::<u64>(), counts.nodes);
    /// ```
    #[must_use]
    pub fn compute() -> TreeCounts {
        let mut counts = TreeCounts::default();
        counts.walk(Position::EMPTY, 0);
        counts
    }

    fn walk(&mut self, position: Position, depth: usize) {
        self.nodes += 1;
        self.perft[depth] += 1;
        match position.status() {
            Status::Ongoing => {
                for (_, child) in position.children() {
                    self.walk(child, depth + 1);
                }
            }
            Status::Won(player) => {
                self.games += 1;
                match player {
                    crate::Player::X => self.x_wins += 1,
                    crate::Player::O => self.o_wins += 1,
                }
            }
            Status::Draw => {
                self.games += 1;
                self.draws += 1;
            }
        }
    }
}

/// Complete games counted as paths through symmetry classes: two moves from a position count
/// once when they lead to the same class. From the empty board this is 26,830.
///
/// ```
/// use tictactoe::{Position, game::canonical_games};
/// // The first move reaches only three classes: corner, edge, centre.
/// let after_first: u64 = Position::EMPTY.children().map(|(_, p)| canonical_games(p)).sum();
/// assert!(canonical_games(Position::EMPTY) < after_first);
/// ```
#[must_use]
pub fn canonical_games(position: Position) -> u64 {
    if position.status().is_finished() {
        return 1;
    }
    let mut classes = [crate::Board::EMPTY; 9];
    let mut seen = 0;
    let mut total = 0;
    for (_, child) in position.children() {
        let (representative, _) = crate::encoding::Canonical::canonical_form(child.board());
        if !classes[..seen].contains(&representative) {
            classes[seen] = representative;
            seen += 1;
            total += canonical_games(Position::from_board_unchecked(representative));
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;

    #[test]
    fn the_game_tree_has_the_published_counts() {
        let counts = TreeCounts::compute();
        assert_eq!(counts.games, 255_168);
        assert_eq!(counts.x_wins, 131_184);
        assert_eq!(counts.o_wins, 77_904);
        assert_eq!(counts.draws, 46_080);
        assert_eq!(counts.nodes, 549_946);
        assert_eq!(
            counts.perft,
            [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
        );
        assert_eq!(canonical_games(Position::EMPTY), 26_830);
    }

    #[test]
    fn notation_round_trips_and_errors_name_the_move() {
        let game: Game = "40".parse().unwrap();
        assert_eq!(game.position().to_string(), "O...X....");
        assert_eq!(game.to_string(), "40");
        assert_eq!("".parse::<Game>(), Ok(Game::EMPTY));
        assert_eq!(
            "4a".parse::<Game>(),
            Err(ParseGameError::BadDigit { index: 1, ch: 'a' })
        );
        assert_eq!(
            "409".parse::<Game>(),
            Err(ParseGameError::BadDigit { index: 2, ch: '9' })
        );
        assert_eq!(
            "404".parse::<Game>(),
            Err(ParseGameError::RepeatedCell {
                index: 2,
                cell: Cell::ALL[4]
            })
        );
        assert_eq!(
            "031425".parse::<Game>(),
            Err(ParseGameError::AfterEnd {
                index: 5,
                status: Status::Won(Player::X)
            })
        );
        assert_eq!(
            "031425".parse::<Game>().unwrap_err().to_string(),
            "move 6 comes after the end of the game (x-won)"
        );
    }

    #[test]
    fn undo_restores_every_position_along_every_game() {
        fn walk(game: &mut Game, seen: &mut u64) {
            *seen += 1;
            let before = *game;
            for cell in Cell::ALL {
                match game.play(cell) {
                    Ok(()) => {
                        assert_eq!(game.to_string().parse::<Game>(), Ok(*game));
                        walk(game, seen);
                        assert_eq!(game.undo(), Some(cell));
                        assert_eq!(*game, before);
                    }
                    Err(_) => assert_eq!(*game, before),
                }
            }
        }
        let mut seen = 0;
        walk(&mut Game::new(), &mut seen);
        assert_eq!(seen, 549_946);
        assert_eq!(Game::EMPTY.clone().undo(), None);
    }

    proptest::proptest! {
        /// Any sequence of plays (cells 0 to 9, 9 being no cell) and undos (10) keeps the game
        /// equal to the replay of a plain list of the moves that succeeded.
        #[test]
        fn play_and_undo_follow_a_list_of_moves(ops in proptest::collection::vec(0usize..11, 0..40)) {
            let mut game = Game::new();
            let mut model: Vec<usize> = Vec::new();
            for op in ops {
                if op == 10 {
                    proptest::prop_assert_eq!(game.undo().map(Cell::index), model.pop());
                } else {
                    let before = game;
                    match game.play_index(op) {
                        Ok(()) => model.push(op),
                        Err(_) => proptest::prop_assert_eq!(game, before),
                    }
                }
                let mut replay = Position::EMPTY;
                for &index in &model {
                    replay = replay.play_index(index).expect("the model holds legal moves");
                }
                proptest::prop_assert_eq!(game.position(), replay);
                proptest::prop_assert_eq!(game.moves().map(Cell::index).collect::<Vec<_>>(), model.clone());
            }
        }
    }
}
