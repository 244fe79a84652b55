//! Boards and positions whose bitboard width is picked from the rules at run time, for
//! callers (the CLI, the Python package) that read the game from the user.

use core::fmt;

use super::board::{Board, ParseBoardError};
use super::board::{Line, Lines};
use super::position::{Actions, PlayError, Position, UndoError};
use super::validate::Violations;
use super::{Rules, Square};
use crate::{Player, Status};

crate::width_enum! {
    /// A [`Board`] of the narrowest width of 1, 2, 4 or 6 words that holds its rules
    /// ([`width`](super::width)).
    #[derive(Clone, Copy, PartialEq, Eq, Hash)]
    pub enum AnyBoard(Board)
}

crate::width_enum! {
    /// A [`Position`] of the narrowest width of 1, 2, 4 or 6 words that holds its rules
    /// ([`width`](super::width)).
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub enum AnyPosition(Position)
}

crate::width_enum! {
    /// The maximal lines of an [`AnyBoard`].
    #[derive(Clone, Debug)]
    pub enum AnyLines(Lines)
}

use crate::each_width as each;

impl AnyBoard {
    /// The empty board of `rules`.
    #[must_use]
    pub fn empty(rules: Rules) -> AnyBoard {
        crate::for_width!(rules, W => {
            AnyBoard::from(expect_width(Board::<W>::empty(rules)))
        })
    }

    /// Parses a board of `rules` (see [`Board::parse`]).
    ///
    /// # Errors
    /// [`ParseBoardError`] saying which character, row or count is wrong.
    pub fn parse(rules: Rules, text: impl AsRef<str>) -> Result<AnyBoard, ParseBoardError> {
        Ok(crate::for_width!(rules, W => AnyBoard::from(Board::<W>::parse(rules, text)?)))
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        each!(AnyBoard, self, b => b.rules())
    }

    /// The mark at `square`.
    #[must_use]
    pub fn at(&self, square: Square) -> Option<Player> {
        each!(AnyBoard, self, b => b.at(square))
    }

    /// Sets `square` to `mark`; `false` when the square is off the board.
    pub fn set(&mut self, square: Square, mark: Option<Player>) -> bool {
        each!(AnyBoard, self, b => b.set(square, mark))
    }

    /// Marks of `player`.
    #[must_use]
    pub fn count(&self, player: Player) -> u32 {
        each!(AnyBoard, self, b => b.count(player))
    }

    /// Marks of both players.
    #[must_use]
    pub fn marks(&self) -> u32 {
        each!(AnyBoard, self, b => b.marks())
    }

    /// Whether `player` has a line of `k` or more.
    #[must_use]
    pub fn has_line(&self, player: Player) -> bool {
        each!(AnyBoard, self, b => b.has_line(player))
    }

    /// Every rule the board breaks (see [`Board::violations`]).
    #[must_use]
    pub fn violations(&self) -> Violations {
        each!(AnyBoard, self, b => b.violations())
    }

    /// Every maximal line of `k` or more.
    #[must_use]
    pub fn lines(&self) -> AnyLines {
        each!(AnyBoard, self, b => AnyLines::from(b.lines()))
    }

    /// The board moved by `symmetry`, if it is one of the rules' symmetries.
    #[must_use]
    pub fn transform(&self, symmetry: crate::Symmetry) -> Option<AnyBoard> {
        Some(each!(AnyBoard, self, b => AnyBoard::from(b.transform(symmetry)?)))
    }
}

fn expect_width<T>(result: Result<T, super::WidthError>) -> T {
    match result {
        Ok(value) => value,
        // The variant is picked from `rules.words()`, so the width always fits.
        Err(error) => unreachable!("{error}"),
    }
}

impl Iterator for AnyLines {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        each!(AnyLines, self, lines => lines.next())
    }
}

/// A board that is not a reachable position, with every rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{board} is not a reachable position: {violations}")]
pub struct InvalidAnyBoard {
    /// The board as given.
    pub board: AnyBoard,
    /// The rules it breaks (never empty).
    pub violations: Violations,
}

impl AnyPosition {
    /// The empty board of `rules`, X to move.
    #[must_use]
    pub fn new(rules: Rules) -> AnyPosition {
        crate::for_width!(rules, W => {
            AnyPosition::from(expect_width(Position::<W>::new(rules)))
        })
    }

    /// The position of a board, checked.
    ///
    /// # Errors
    /// [`InvalidAnyBoard`] with every rule the board breaks.
    pub fn from_board(board: AnyBoard) -> Result<AnyPosition, InvalidAnyBoard> {
        let invalid = |violations| InvalidAnyBoard { board, violations };
        Ok(each!(AnyBoard, board, b => {
            AnyPosition::from(Position::from_board(b).map_err(|e| invalid(e.violations))?)
        }))
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> AnyBoard {
        each!(AnyPosition, self, p => AnyBoard::from(p.board()))
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> Rules {
        each!(AnyPosition, self, p => p.rules())
    }

    /// Marks on the board.
    #[must_use]
    pub fn plies(&self) -> u32 {
        each!(AnyPosition, self, p => p.plies())
    }

    /// The status.
    #[must_use]
    pub fn status(&self) -> Status {
        each!(AnyPosition, self, p => p.status())
    }

    /// The winner, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Player> {
        each!(AnyPosition, self, p => p.winner())
    }

    /// Whose turn it is by the counts.
    #[must_use]
    pub fn side_to_move(&self) -> Player {
        each!(AnyPosition, self, p => p.side_to_move())
    }

    /// Who is to move, or `None` when the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Player> {
        each!(AnyPosition, self, p => p.to_move())
    }

    /// The Zobrist hash.
    #[must_use]
    pub fn hash(&self) -> u64 {
        each!(AnyPosition, self, p => p.hash())
    }

    /// Whether `action` is legal.
    #[must_use]
    pub fn is_legal(&self, action: usize) -> bool {
        each!(AnyPosition, self, p => p.is_legal(action))
    }

    /// How many legal moves there are.
    #[must_use]
    pub fn legal_count(&self) -> u32 {
        each!(AnyPosition, self, p => p.legal_count())
    }

    /// The legal moves, ascending (see [`Position::legal_actions`]).
    pub fn legal_actions(&self) -> impl Iterator<Item = usize> + use<> {
        each!(AnyPosition, self, p => AnyActions::from(p.actions()))
    }

    /// Plays `action` (see [`Position::play`]).
    ///
    /// # Errors
    /// [`PlayError`]; the position is then unchanged.
    pub fn play(&mut self, action: usize) -> Result<Square, PlayError> {
        each!(AnyPosition, self, p => p.play(action))
    }

    /// Takes back the mark at `square` (see [`Position::undo`]).
    ///
    /// # Errors
    /// [`UndoError`]; the position is then unchanged.
    pub fn undo(&mut self, square: Square) -> Result<(), UndoError> {
        each!(AnyPosition, self, p => p.undo(square))
    }

    /// Plays random moves to the end (see [`Position::play_random`]).
    #[cfg(feature = "rand")]
    pub fn play_random<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Status {
        each!(AnyPosition, self, p => p.play_random(rng))
    }
}

crate::width_enum! {
    /// [`AnyPosition::legal_actions`]: the width's iterator, chosen once.
    enum AnyActions(Actions)
}

impl Iterator for AnyActions {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        each!(AnyActions, self, a => a.next())
    }
}

impl fmt::Display for AnyBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(AnyBoard, self, b => fmt::Display::fmt(b, f))
    }
}

impl fmt::Debug for AnyBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(AnyBoard, self, b => fmt::Debug::fmt(b, f))
    }
}

impl fmt::Display for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(AnyPosition, self, p => fmt::Display::fmt(p, f))
    }
}

impl fmt::Debug for AnyPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(AnyPosition, self, p => fmt::Debug::fmt(p, f))
    }
}
