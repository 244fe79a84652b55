//! A raw board of the family: any assignment of marks to the cells of a [`Rules`] board.

use core::fmt;

use super::bits::{Bits, cell_mask, has_line, run_starts};
use super::{Rules, Square};
use crate::Player;

/// A board of `rules.rows() × rules.cols()` cells, each empty, X or O: any assignment, not
/// necessarily one a game can reach (that is [`Position`](super::Position)).
///
/// `W` is the number of 64-bit words of each player's [`Bits`]; it must be at least
/// [`Rules::words`]. [`AnyBoard`](super::AnyBoard) picks it for you.
///
/// ```
/// use tictactoe::mnk::{Board, Rules};
/// let board = Board::<1>::parse(Rules::CONNECT_FOUR, "......./......./......./......./......./...X...")?;
/// assert_eq!(board.marks(), 1);
/// let board = Board::<1>::parse(Rules::FOUR_BY_FOUR, "XXXX/OOO./..../....")?;
/// assert!(board.has_line(tictactoe::Player::X));
/// # Ok::<(), tictactoe::mnk::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board<const W: usize> {
    rules: Rules,
    x: Bits<W>,
    o: Bits<W>,
}

/// The rules need more words than the board type has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a {rules} board needs {needed} 64-bit words per player, this type has {have}")]
pub struct WidthError {
    /// The rules.
    pub rules: Rules,
    /// Words needed ([`Rules::words`]).
    pub needed: usize,
    /// Words of the type (`W`).
    pub have: usize,
}

/// Why a text is not a board of the given rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseBoardError {
    /// A character other than `X`, `O`, `.` (any case) and the `/` between rows.
    #[error("bad character {ch:?} at index {index}: expected X, O, . or / between rows")]
    BadChar {
        /// Its index in characters.
        index: usize,
        /// The character.
        ch: char,
    },
    /// A row of the wrong length (text with `/` between rows).
    #[error("row {row} has {cells} cells, expected {expected}")]
    RowLength {
        /// The row, from 1 at the top.
        row: usize,
        /// The cells it has.
        cells: usize,
        /// The columns of the game.
        expected: u32,
    },
    /// The wrong number of rows (text with `/` between rows) or of cells (without).
    #[error("{found} {what}, expected {expected} for a {rules} board")]
    WrongSize {
        /// `rows` or `cells`.
        what: &'static str,
        /// How many the text has.
        found: usize,
        /// How many the rules have.
        expected: u32,
        /// The rules.
        rules: Rules,
    },
    /// The board type is too narrow for the rules.
    #[error(transparent)]
    Width(#[from] WidthError),
}

impl Board<1> {
    /// The one-word board of `rules` with the words `x` and `o`, which the caller has checked.
    pub(crate) const fn from_words(rules: Rules, x: u64, o: u64) -> Board<1> {
        Board {
            rules,
            x: Bits([x]),
            o: Bits([o]),
        }
    }
}

impl<const W: usize> Board<W> {
    /// The empty board of `rules`.
    ///
    /// # Errors
    /// [`WidthError`] when `W < rules.words()`.
    pub const fn empty(rules: Rules) -> Result<Board<W>, WidthError> {
        if rules.words() > W {
            return Err(WidthError {
                rules,
                needed: rules.words(),
                have: W,
            });
        }
        Ok(Board {
            rules,
            x: Bits::EMPTY,
            o: Bits::EMPTY,
        })
    }

    /// The board with these sets of bits for X and O, in the layout of [`Rules::bit`].
    ///
    /// # Errors
    /// `None` when the sets overlap or hold a bit that is not a cell.
    #[must_use]
    pub fn from_bits(rules: Rules, x: Bits<W>, o: Bits<W>) -> Option<Board<W>> {
        Board::<W>::empty(rules).ok()?;
        let cells = cell_mask::<W>(rules);
        if !(x & o).is_empty() || !x.and_not(cells).is_empty() || !o.and_not(cells).is_empty() {
            return None;
        }
        Some(Board { rules, x, o })
    }

    /// The rules.
    #[must_use]
    #[inline]
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The cells of `player`, as bitboard bits.
    #[must_use]
    #[inline]
    pub const fn pieces(&self, player: Player) -> Bits<W> {
        match player {
            Player::X => self.x,
            Player::O => self.o,
        }
    }

    #[inline]
    pub(crate) fn x_mut(&mut self) -> &mut Bits<W> {
        &mut self.x
    }

    #[inline]
    pub(crate) fn o_mut(&mut self) -> &mut Bits<W> {
        &mut self.o
    }

    /// Every occupied cell.
    #[must_use]
    #[inline]
    pub fn occupied(&self) -> Bits<W> {
        self.x | self.o
    }

    /// Every empty cell.
    #[must_use]
    #[inline]
    pub fn empty_cells(&self) -> Bits<W> {
        cell_mask::<W>(self.rules).and_not(self.occupied())
    }

    /// The mark at `square` (`None` when empty or off the board).
    #[must_use]
    #[inline]
    pub fn at(&self, square: Square) -> Option<Player> {
        if !self.rules.contains(square) {
            return None;
        }
        let bit = self.rules.bit(square);
        if self.x.contains(bit) {
            Some(Player::X)
        } else if self.o.contains(bit) {
            Some(Player::O)
        } else {
            None
        }
    }

    /// Sets `square` to `mark` (`None` empties it). A square off the board is ignored and
    /// reported as `false`.
    #[inline]
    pub fn set(&mut self, square: Square, mark: Option<Player>) -> bool {
        if !self.rules.contains(square) {
            return false;
        }
        let bit = self.rules.bit(square);
        self.x.remove(bit);
        self.o.remove(bit);
        match mark {
            Some(Player::X) => self.x.insert(bit),
            Some(Player::O) => self.o.insert(bit),
            None => {}
        }
        true
    }

    /// The board with `square` set to `mark`.
    #[must_use]
    #[inline]
    pub fn with(mut self, square: Square, mark: Option<Player>) -> Board<W> {
        self.set(square, mark);
        self
    }

    /// Marks of `player`.
    #[must_use]
    #[inline]
    pub fn count(&self, player: Player) -> u32 {
        self.pieces(player).count()
    }

    /// Marks of both players.
    #[must_use]
    #[inline]
    pub fn marks(&self) -> u32 {
        self.x.count() + self.o.count()
    }

    /// Whether every cell is marked.
    #[must_use]
    #[inline]
    pub fn is_full(&self) -> bool {
        self.marks() == self.rules.cells()
    }

    /// Whether `player` has `k` or more in a row (the shift-and-AND check, four directions).
    #[must_use]
    #[inline]
    pub fn has_line(&self, player: Player) -> bool {
        has_line(self.pieces(player), self.rules)
    }

    /// The winner's cells: every cell of every line of `k` or more of either player.
    #[must_use]
    pub fn line_cells(&self) -> Bits<W> {
        let mut cells = Bits::EMPTY;
        for player in Player::BOTH {
            let pieces = self.pieces(player);
            for d in self.rules.directions() {
                let starts = run_starts(pieces, d, self.rules.k());
                let mut run = starts;
                for _ in 1..self.rules.k() {
                    run = run | run.shl(d);
                }
                cells |= run & pieces;
            }
        }
        cells
    }

    /// Every maximal line of `k` or more marks of either player.
    #[must_use]
    pub fn lines(&self) -> Lines<W> {
        Lines::new(*self)
    }

    /// The squares in text order (rows top to bottom, each left to right).
    pub fn squares(&self) -> impl Iterator<Item = Square> + use<W> {
        let rules = self.rules;
        (0..rules.cells()).filter_map(move |i| rules.square_at(i))
    }

    /// Parses rows top to bottom separated by `/` (or all cells without `/`), `X`, `O`, `.`
    /// per cell, any case.
    ///
    /// # Errors
    /// [`ParseBoardError`] saying which character, row or count is wrong.
    pub fn parse(rules: Rules, text: impl AsRef<str>) -> Result<Board<W>, ParseBoardError> {
        let text = text.as_ref();
        let mut board = Board::empty(rules)?;
        let has_slash = text.contains('/');
        let (mut row, mut col, mut cells) = (0usize, 0usize, 0usize);
        for (index, ch) in text.chars().enumerate() {
            let mark = match ch {
                'X' | 'x' => Some(Player::X),
                'O' | 'o' => Some(Player::O),
                '.' => None,
                '/' => {
                    if col as u32 != rules.cols() {
                        return Err(ParseBoardError::RowLength {
                            row: row + 1,
                            cells: col,
                            expected: rules.cols(),
                        });
                    }
                    row += 1;
                    col = 0;
                    continue;
                }
                _ => return Err(ParseBoardError::BadChar { index, ch }),
            };
            if has_slash && col as u32 >= rules.cols() {
                return Err(ParseBoardError::RowLength {
                    row: row + 1,
                    cells: col + 1,
                    expected: rules.cols(),
                });
            }
            if let Some(square) = rules.square_at(cells as u32) {
                board.set(square, mark);
            }
            cells += 1;
            col += 1;
        }
        if has_slash {
            if col as u32 != rules.cols() {
                return Err(ParseBoardError::RowLength {
                    row: row + 1,
                    cells: col,
                    expected: rules.cols(),
                });
            }
            if row + 1 != rules.rows() as usize {
                return Err(ParseBoardError::WrongSize {
                    what: "rows",
                    found: row + 1,
                    expected: rules.rows(),
                    rules,
                });
            }
        } else if cells as u32 != rules.cells() {
            return Err(ParseBoardError::WrongSize {
                what: "cells",
                found: cells,
                expected: rules.cells(),
                rules,
            });
        }
        Ok(board)
    }

    /// A wider (or equally wide) board type holding the same board.
    ///
    /// # Errors
    /// [`WidthError`] when `V` is too narrow for the rules.
    pub fn widen<const V: usize>(&self) -> Result<Board<V>, WidthError> {
        let mut out = Board::<V>::empty(self.rules)?;
        for i in 0..W.min(V) {
            out.x.0[i] = self.x.0[i];
            out.o.0[i] = self.o.0[i];
        }
        Ok(out)
    }
}

/// `{}` writes rows top to bottom separated by `/`; `{:#}` draws the rows on lines, cells
/// separated by spaces.
impl<const W: usize> fmt::Display for Board<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for square in self.squares() {
            if square.col() == 0 && square.row() > 0 {
                f.write_str(if f.alternate() { "\n" } else { "/" })?;
            } else if square.col() > 0 && f.alternate() {
                f.write_str(" ")?;
            }
            let ch = match self.at(square) {
                Some(player) => player.to_char(),
                None => '.',
            };
            write!(f, "{ch}")?;
        }
        Ok(())
    }
}

impl<const W: usize> fmt::Debug for Board<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({}: {self})", self.rules)
    }
}

impl Rules {
    /// Whether `square` is on the board.
    #[must_use]
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        square.row() < self.rows() && square.col() < self.cols()
    }
}

/// The four directions of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Along a column.
    Vertical,
    /// Along a row.
    Horizontal,
    /// From bottom left to top right.
    Rising,
    /// From top left to bottom right.
    Falling,
}

impl Direction {
    /// The four, in the order of [`Rules::directions`].
    pub const ALL: [Direction; 4] = [
        Direction::Vertical,
        Direction::Horizontal,
        Direction::Rising,
        Direction::Falling,
    ];

    /// `vertical`, `horizontal`, `rising`, `falling`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Direction::Vertical => "vertical",
            Direction::Horizontal => "horizontal",
            Direction::Rising => "rising",
            Direction::Falling => "falling",
        }
    }
}

/// A maximal line of `k` or more marks of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// Whose marks.
    pub player: Player,
    /// Its direction.
    pub direction: Direction,
    /// How many cells (at least `k`).
    pub len: u32,
    rules: Rules,
    first_bit: u32,
}

impl Line {
    /// The cells, from the lowest bit up.
    pub fn cells(&self) -> impl Iterator<Item = Square> + use<> {
        let d = self.rules.directions()[self.direction as usize];
        let (rules, first) = (self.rules, self.first_bit);
        (0..self.len).filter_map(move |i| rules.square_of_bit(first + i * d))
    }
}

/// The maximal lines of a board: see [`Board::lines`].
#[derive(Clone, Debug)]
pub struct Lines<const W: usize> {
    board: Board<W>,
    player: usize,
    direction: usize,
    starts: Bits<W>,
}

impl<const W: usize> Lines<W> {
    pub(super) fn new(board: Board<W>) -> Lines<W> {
        let mut lines = Lines {
            board,
            player: 0,
            direction: 0,
            starts: Bits::EMPTY,
        };
        lines.load();
        lines
    }

    /// The first cells of the maximal runs of the current player and direction.
    fn load(&mut self) {
        let rules = self.board.rules();
        let pieces = self.board.pieces(Player::BOTH[self.player]);
        let d = rules.directions()[self.direction];
        let runs = run_starts(pieces, d, rules.k());
        // A run starts a maximal line when the cell before it is not the player's.
        self.starts = runs.and_not(pieces.shl(d));
    }
}

impl<const W: usize> Iterator for Lines<W> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        loop {
            if self.player >= 2 {
                return None;
            }
            if let Some(first_bit) = self.starts.first() {
                self.starts.remove(first_bit);
                let rules = self.board.rules();
                let player = Player::BOTH[self.player];
                let pieces = self.board.pieces(player);
                let d = rules.directions()[self.direction];
                let mut len = 1;
                while pieces.contains(first_bit + len * d) {
                    len += 1;
                }
                return Some(Line {
                    player,
                    direction: Direction::ALL[self.direction],
                    len,
                    rules,
                    first_bit,
                });
            }
            self.direction += 1;
            if self.direction == 4 {
                self.direction = 0;
                self.player += 1;
                if self.player >= 2 {
                    return None;
                }
            }
            self.load();
        }
    }
}
