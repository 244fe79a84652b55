//! [`Setup`]: nine small boards and a board to play, unchecked; its text form.

use core::fmt;
use core::str::FromStr;

use crate::{Board, Cell, Player};

/// Nine small boards (each a core [`Board`], any of its 19,683 grids) and the board to play:
/// what text, codes and users hand in. [`Position::try_from`](super::Position) checks it.
///
/// # Text form
///
/// The 81 cells row by row of the 9×9 grid (`X`, `O` or `.`; `x` and `o` too), then the board
/// to play: a digit `0`-`8`, or `*` when the mover may choose any open board (also once the
/// game is over). Spaces, newlines, tabs, `/` and `|` may stand anywhere between cells and
/// before the board to play, so both printed forms parse: `{}` writes the nine rows joined by
/// `/` and a space before the board to play; `{:#}` draws nine lines, a space between small
/// boards, a blank line between rows of boards, and the board to play on the last line.
///
/// ```
/// use tictactoe::ultimate::Setup;
/// use tictactoe::{Cell, Player};
/// // X in cell 1 of board 0 (the top row of the grid), which sends O to board 1.
/// let e = ".........";
/// let setup: Setup = format!(".X......./{} 1", [e; 8].join("/")).parse()?;
/// assert_eq!(setup.next, Some(Cell::new(1)?));
/// assert_eq!(setup.boards[0].at(Cell::new(1)?), Some(Player::X));
/// assert!("X".parse::<Setup>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Setup {
    /// The small boards, in cell order of the meta-board (row-major from the top left).
    pub boards: [Board; 9],
    /// The board the side to move must play in, `None` when it may choose.
    pub next: Option<Cell>,
}

/// Text that is not a [`Setup`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseSetupError {
    /// A character that is neither a cell nor a separator, among the cells.
    #[error(
        "bad character {ch:?} at index {index}: expected X, O or . (spaces, newlines, / and | between cells)"
    )]
    BadChar {
        /// Index of the character in the text, counting characters from 0.
        index: usize,
        /// The character.
        ch: char,
    },
    /// The text ends before 81 cells.
    #[error("too few cells: {cells}, expected 81")]
    TooFewCells {
        /// How many cells the text holds.
        cells: usize,
    },
    /// The text ends after the cells, without the board to play.
    #[error("missing board to play after the 81 cells: expected 0 to 8 or *")]
    MissingNext,
    /// The character after the cells is not a board to play.
    #[error("bad board to play {ch:?} at index {index}: expected 0 to 8 or *")]
    BadNext {
        /// Index of the character in the text.
        index: usize,
        /// The character.
        ch: char,
    },
    /// Something other than whitespace after the board to play.
    #[error("unexpected {ch:?} at index {index} after the board to play")]
    Trailing {
        /// Index of the character in the text.
        index: usize,
        /// The character.
        ch: char,
    },
}

impl Setup {
    /// Nine empty boards, any board to play: the start of the game.
    pub const EMPTY: Setup = Setup {
        boards: [Board::EMPTY; 9],
        next: None,
    };

    /// The mark at row `row`, column `column` (`0..9` each) of the 9×9 grid.
    #[must_use]
    pub fn at_grid(&self, row: usize, column: usize) -> Option<Player> {
        let board = Cell::ALL[(row / 3) * 3 + column / 3];
        let cell = Cell::ALL[(row % 3) * 3 + column % 3];
        self.boards[board.index()].at(cell)
    }

    /// Marks on all boards, per player: `(X, O)`.
    #[must_use]
    pub fn counts(&self) -> (u32, u32) {
        self.boards.iter().fold((0, 0), |(x, o), b| {
            (x + b.count(Player::X), o + b.count(Player::O))
        })
    }
}

const fn is_separator(ch: char) -> bool {
    matches!(ch, ' ' | '\n' | '\r' | '\t' | '/' | '|')
}

impl FromStr for Setup {
    type Err = ParseSetupError;

    fn from_str(text: &str) -> Result<Setup, ParseSetupError> {
        let mut setup = Setup::EMPTY;
        let mut cells = 0usize;
        let mut chars = text.chars().enumerate();
        while cells < 81 {
            let Some((index, ch)) = chars.next() else {
                return Err(ParseSetupError::TooFewCells { cells });
            };
            let mark = match ch {
                'X' | 'x' => Some(Player::X),
                'O' | 'o' => Some(Player::O),
                '.' => None,
                _ if is_separator(ch) => continue,
                _ => return Err(ParseSetupError::BadChar { index, ch }),
            };
            let (row, column) = (cells / 9, cells % 9);
            let board = (row / 3) * 3 + column / 3;
            setup.boards[board].set(Cell::ALL[(row % 3) * 3 + column % 3], mark);
            cells += 1;
        }
        let (index, ch) = chars
            .find(|(_, ch)| !is_separator(*ch))
            .ok_or(ParseSetupError::MissingNext)?;
        setup.next = match ch {
            '*' => None,
            '0'..='8' => Some(Cell::ALL[ch as usize - '0' as usize]),
            _ => return Err(ParseSetupError::BadNext { index, ch }),
        };
        if let Some((index, ch)) = chars.find(|(_, ch)| !ch.is_whitespace()) {
            return Err(ParseSetupError::Trailing { index, ch });
        }
        Ok(setup)
    }
}

fn mark_char(mark: Option<Player>) -> char {
    mark.map_or('.', Player::to_char)
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let alternate = f.alternate();
        for row in 0..9 {
            if row > 0 {
                f.write_str(match (alternate, row % 3) {
                    (false, _) => "/",
                    (true, 0) => "\n\n",
                    (true, _) => "\n",
                })?;
            }
            for column in 0..9 {
                if alternate && column > 0 && column % 3 == 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{}", mark_char(self.at_grid(row, column)))?;
            }
        }
        f.write_str(if alternate { "\n" } else { " " })?;
        match self.next {
            Some(cell) => write!(f, "{}", cell.index()),
            None => f.write_str("*"),
        }
    }
}

impl fmt::Debug for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Setup({self})")
    }
}
