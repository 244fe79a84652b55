//! The Connect Four position: two `u64` bitboards, 7 bits per column (6 cells and a sentinel).

use core::fmt;
use core::str::FromStr;

use crate::mnk::connect_four;

/// Columns of the board.
pub const WIDTH: usize = 7;
/// Rows of the board.
pub const HEIGHT: usize = 6;
/// Cells of the board.
pub const CELLS: usize = WIDTH * HEIGHT;
/// The highest score of any position: a win with the player to move's 4th stone. Scores follow
/// the benchmark sets: `22 - k` when the player to move wins with its `k`-th stone, `-(22 - k)`
/// when the opponent wins with its `k`-th stone, 0 for a draw.
pub const MAX_SCORE: i32 = (CELLS as i32 + 1) / 2 - 3;
/// The lowest score of any position: a loss to the opponent's 4th stone.
pub const MIN_SCORE: i32 = -(CELLS as i32) / 2 + 3;

// Bit `7 * column + row` is the cell of that column and row (row 0 at the bottom); bit
// `7 * column + 6` is a sentinel that is always empty, so shifts by 1 (vertical), 6, 7 and 8
// (the diagonals and the horizontal) never carry a line from one column into the next.
const STRIDE: u32 = HEIGHT as u32 + 1;
/// One bit at the bottom of each column.
pub(crate) const BOTTOM: u64 = repeat_columns(1);
/// The cells of rows 1, 3 and 5 counted from the bottom from 1 (bit rows 0, 2, 4).
const ODD_ROWS: u64 = repeat_columns(0b01_0101);
/// Every cell of the board (no sentinels).
pub(crate) const BOARD: u64 = repeat_columns((1 << HEIGHT) - 1);

// One layout for both engines: the moves come from the family's kernels
// (`mnk::connect_four`), and the family's solver builds this engine's key from its words.
const _: () = assert!(BOTTOM == connect_four::BOTTOM && BOARD == connect_four::CELLS);

const fn repeat_columns(pattern: u64) -> u64 {
    let mut bits = 0;
    let mut column = 0;
    while column < WIDTH as u32 {
        bits |= pattern << (column * STRIDE);
        column += 1;
    }
    bits
}

/// The cells of column `column` (0-6).
pub(crate) const fn column_mask(column: usize) -> u64 {
    ((1 << HEIGHT) - 1) << (column as u32 * STRIDE)
}

const fn top_cell(column: usize) -> u64 {
    1 << (HEIGHT as u32 - 1 + column as u32 * STRIDE)
}

/// A column of the board: 0 on the left to 6 on the right, written 1 to 7 in move sequences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Column(u8);

impl Column {
    /// The seven columns from left to right.
    pub const ALL: [Column; WIDTH] = [
        Column(0),
        Column(1),
        Column(2),
        Column(3),
        Column(4),
        Column(5),
        Column(6),
    ];

    /// The column of index 0-6, or `None`.
    #[must_use]
    pub const fn new(index: usize) -> Option<Column> {
        if index < WIDTH {
            Some(Column(index as u8))
        } else {
            None
        }
    }

    /// The index, 0 (left) to 6 (right).
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The digit of the column in move sequences, `'1'` to `'7'`.
    #[must_use]
    pub const fn digit(self) -> char {
        (b'1' + self.0) as char
    }

    /// The column seen in a mirror (left and right exchanged).
    #[must_use]
    pub const fn mirror(self) -> Column {
        Column(WIDTH as u8 - 1 - self.0)
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.digit())
    }
}

/// A set of columns, such as the best moves of a position.
///
/// ```
/// use tictactoe::connect4::{Column, Columns};
///
/// let set = Columns::EMPTY.with(Column::ALL[3]).with(Column::ALL[0]);
/// assert_eq!(set.count(), 2);
/// assert_eq!(set.to_string(), "14");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Columns(u8);

impl Columns {
    /// No column.
    pub const EMPTY: Columns = Columns(0);

    /// The set with `column` added.
    #[must_use]
    pub const fn with(self, column: Column) -> Columns {
        Columns(self.0 | 1 << column.0)
    }

    /// Whether `column` is in the set.
    #[must_use]
    pub const fn contains(self, column: Column) -> bool {
        self.0 & 1 << column.0 != 0
    }

    /// The number of columns in the set.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The columns from left to right.
    pub fn iter(self) -> impl Iterator<Item = Column> {
        Column::ALL.into_iter().filter(move |&c| self.contains(c))
    }
}

impl fmt::Display for Columns {
    /// The digits of the columns, left to right (`"34"`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.iter().try_for_each(|c| write!(f, "{c}"))
    }
}

/// Why a move sequence is not a Connect Four position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMovesError {
    /// A character that is not a column digit.
    #[error("bad character {ch:?} at index {index}: expected a column digit 1-7")]
    BadChar {
        /// Index of the character in the text, counting characters from 0.
        index: usize,
        /// The character.
        ch: char,
    },
    /// A move into a full column.
    #[error("move {index} plays column {column}, which is full")]
    ColumnFull {
        /// Index of the move in the sequence, counting from 0.
        index: usize,
        /// The column, 1-7 as written.
        column: u8,
    },
    /// A move after the game was already won: Connect Four positions go on only while nobody
    /// has four in a row.
    #[error("move {index} comes after a win (the game was over)")]
    AfterWin {
        /// Index of the first move played after the win, counting from 0.
        index: usize,
    },
    /// The last move completes four in a row: the position is over, there is nothing to solve.
    #[error("move {index} completes four in a row: the game is over")]
    Won {
        /// Index of the winning move, counting from 0.
        index: usize,
    },
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The column is full.
    #[error("column {0} is full")]
    ColumnFull(Column),
    /// The move completes four in a row, which ends the game: it has no position after it.
    #[error("column {0} wins the game")]
    Wins(Column),
}

/// A Connect Four position in which nobody has four in a row: 6 rows, 7 columns, the first
/// player to move on an even number of stones.
///
/// | bitboard | bits | meaning |
/// |---|---|---|
/// | `mask` | 49 (7 per column: 6 cells and an empty sentinel on top) | occupied cells |
/// | `current` | 49 | stones of the player to move |
///
/// It parses from a move sequence of column digits 1-7, the convention of Pascal Pons'
/// benchmark sets (`"4453"`: the first player in column 4, the second in 4, then 5 and 3).
///
/// ```
/// use tictactoe::connect4::{Column, ParseMovesError, Position};
///
/// let position: Position = "4453".parse()?;
/// assert_eq!(position.moves(), 4);
/// assert!(position.can_play(Column::ALL[3]));
/// assert_eq!("448".parse::<Position>(), Err(ParseMovesError::BadChar { index: 2, ch: '8' }));
/// # Ok::<(), ParseMovesError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Position {
    current: u64,
    mask: u64,
    moves: u8,
}

impl Position {
    /// The empty board.
    pub const EMPTY: Position = Position {
        current: 0,
        mask: 0,
        moves: 0,
    };

    /// The position after a move sequence of column digits 1-7.
    ///
    /// # Errors
    ///
    /// [`ParseMovesError`] names the first bad character, the first move into a full column, or
    /// the move that won the game (as the last move, or followed by more moves).
    pub fn from_moves(text: &str) -> Result<Position, ParseMovesError> {
        let mut position = Position::EMPTY;
        let mut won = None;
        for (index, ch) in text.chars().enumerate() {
            let column = match ch.to_digit(10) {
                Some(d @ 1..=7) => Column(d as u8 - 1),
                _ => return Err(ParseMovesError::BadChar { index, ch }),
            };
            if won.is_some() {
                return Err(ParseMovesError::AfterWin { index });
            }
            match position.play(column) {
                Ok(next) => position = next,
                Err(PlayError::ColumnFull(_)) => {
                    return Err(ParseMovesError::ColumnFull {
                        index,
                        column: column.0 + 1,
                    });
                }
                Err(PlayError::Wins(_)) => won = Some(index),
            }
        }
        match won {
            Some(index) => Err(ParseMovesError::Won { index }),
            None => Ok(position),
        }
    }

    /// The number of stones on the board.
    #[must_use]
    pub const fn moves(self) -> usize {
        self.moves as usize
    }

    /// Whether the board is full (a draw).
    #[must_use]
    pub const fn is_full(self) -> bool {
        self.moves as usize == CELLS
    }

    /// Whether a stone can go into `column`.
    #[must_use]
    pub const fn can_play(self, column: Column) -> bool {
        self.mask & top_cell(column.index()) == 0
    }

    /// Whether playing `column` completes four in a row for the player to move.
    #[must_use]
    pub const fn is_winning_move(self, column: Column) -> bool {
        self.can_play(column)
            && self.winning_cells() & self.possible() & column_mask(column.index()) != 0
    }

    /// Whether the player to move can win with the next stone.
    #[must_use]
    pub const fn can_win_next(self) -> bool {
        self.winning_cells() & self.possible() != 0
    }

    /// The position after a stone in `column`.
    ///
    /// # Errors
    ///
    /// [`PlayError::ColumnFull`], or [`PlayError::Wins`] when the stone completes four in a
    /// row (the game ends; there is no position to return).
    pub const fn play(self, column: Column) -> Result<Position, PlayError> {
        if !self.can_play(column) {
            return Err(PlayError::ColumnFull(column));
        }
        if self.is_winning_move(column) {
            return Err(PlayError::Wins(column));
        }
        let stone =
            (self.mask + (1 << (column.index() as u32 * STRIDE))) & column_mask(column.index());
        Ok(self.play_cell(stone))
    }

    /// The position after a stone on `cell` (one bit of [`Position::possible`]); the caller
    /// makes sure it does not win.
    #[must_use]
    pub(crate) const fn play_cell(self, cell: u64) -> Position {
        let (current, mask) = connect_four::after_move(self.current, self.mask, cell);
        Position {
            current,
            mask,
            moves: self.moves + 1,
        }
    }

    /// The cells where a stone can go now: the lowest empty cell of each column.
    #[must_use]
    pub(crate) const fn possible(self) -> u64 {
        connect_four::playable_cells(self.mask)
    }

    /// The empty cells that would complete four for the player to move.
    #[must_use]
    pub(crate) const fn winning_cells(self) -> u64 {
        winning_cells(self.current, self.mask)
    }

    /// The empty cells that would complete four for the opponent.
    #[must_use]
    pub(crate) const fn opponent_winning_cells(self) -> u64 {
        winning_cells(self.current ^ self.mask, self.mask)
    }

    /// The playable cells that do not lose at once: when the opponent threatens to win, only
    /// the cell that blocks (none if there are two threats), and never the cell just below an
    /// opponent's winning cell. Assumes the player to move cannot win at once.
    #[must_use]
    pub(crate) const fn non_losing_moves(self) -> u64 {
        let mut possible = self.possible();
        let threats = self.opponent_winning_cells();
        let forced = possible & threats;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                return 0;
            }
            possible = forced;
        }
        possible & !(threats >> 1)
    }

    /// How good a move looks before search: the cells it makes winning for the player.
    #[must_use]
    pub(crate) const fn threats_after(self, cell: u64) -> u32 {
        let threats = winning_cells(self.current | cell, self.mask);
        // Zugzwang favours the first player's threats on odd rows (1, 3, 5 from the bottom)
        // and the second player's on even rows: those count twice.
        let good = if self.moves.is_multiple_of(2) {
            ODD_ROWS
        } else {
            !ODD_ROWS
        };
        threats.count_ones() + (threats & good).count_ones()
    }

    /// A unique 49-bit key: per column, the stones of the player to move plus the column's
    /// height bit (`current + mask + BOTTOM`; no column carries into the next).
    #[must_use]
    pub const fn key(self) -> u64 {
        self.current + self.mask + BOTTOM
    }

    /// The position of a [`Position::key`], or `None` if `key` is not the key of a position
    /// (a column without its height bit, a wrong number of stones for the player to move, or
    /// four in a row on the board).
    #[must_use]
    pub const fn from_key(key: u64) -> Option<Position> {
        if key >> (WIDTH as u32 * STRIDE) != 0 {
            return None;
        }
        let (mut current, mut mask) = (0, 0);
        let mut column = 0;
        while column < WIDTH {
            let shift = column as u32 * STRIDE;
            let bits = (key >> shift) & ((1 << STRIDE) - 1);
            if bits == 0 {
                return None;
            }
            // The highest bit marks the height; below it, the stones of the player to move.
            let height = 63 - bits.leading_zeros();
            let cells = (1u64 << height) - 1;
            mask |= cells << shift;
            current |= (bits & cells) << shift;
            column += 1;
        }
        let moves = mask.count_ones();
        let position = Position {
            current,
            mask,
            moves: moves as u8,
        };
        if current.count_ones() != moves / 2
            || winning_line(current)
            || winning_line(current ^ mask)
        {
            return None;
        }
        Some(position)
    }

    /// The key of the mirror image (the columns in reverse order).
    #[must_use]
    pub const fn mirror_key(self) -> u64 {
        mirror_key(self.key())
    }

    /// The smaller of [`Position::key`] and [`Position::mirror_key`]: equal for a position and
    /// its mirror image.
    #[must_use]
    pub const fn canonical_key(self) -> u64 {
        let key = self.key();
        let mirror = mirror_key(key);
        if mirror < key { mirror } else { key }
    }

    /// The mirror image (the columns in reverse order).
    #[must_use]
    pub const fn mirror(self) -> Position {
        Position {
            current: mirror_bits(self.current),
            mask: mirror_bits(self.mask),
            moves: self.moves,
        }
    }
}

/// The columns of a 49-bit board in reverse order.
pub(crate) const fn mirror_bits(bits: u64) -> u64 {
    let column = (1 << STRIDE) - 1;
    ((bits & column) << (6 * STRIDE))
        | ((bits >> STRIDE & column) << (5 * STRIDE))
        | ((bits >> (2 * STRIDE) & column) << (4 * STRIDE))
        | (bits & column << (3 * STRIDE))
        | ((bits >> (4 * STRIDE) & column) << (2 * STRIDE))
        | ((bits >> (5 * STRIDE) & column) << STRIDE)
        | (bits >> (6 * STRIDE) & column)
}

const fn mirror_key(key: u64) -> u64 {
    mirror_bits(key)
}

/// Whether `stones` hold four in a row.
const fn winning_line(stones: u64) -> bool {
    let mut shift = 1;
    while shift <= STRIDE + 1 {
        let pairs = stones & (stones >> shift);
        if pairs & (pairs >> (2 * shift)) != 0 {
            return true;
        }
        shift += if shift == 1 { STRIDE - 2 } else { 1 };
    }
    false
}

/// The empty cells that complete four in a row for `stones`, given the occupied cells.
const fn winning_cells(stones: u64, mask: u64) -> u64 {
    // Vertical: three stones below.
    let mut r = (stones << 1) & (stones << 2) & (stones << 3);
    // Horizontal (shift 7) and the two diagonals (6 and 8): three stones around the cell in
    // any of the four placements along the line.
    let mut shift = STRIDE - 1;
    while shift <= STRIDE + 1 {
        let p = (stones << shift) & (stones << (2 * shift));
        r |= p & (stones << (3 * shift));
        r |= p & (stones >> shift);
        let p = (stones >> shift) & (stones >> (2 * shift));
        r |= p & (stones >> (3 * shift));
        r |= p & (stones << shift);
        shift += 1;
    }
    r & (BOARD ^ mask)
}

impl FromStr for Position {
    type Err = ParseMovesError;

    fn from_str(s: &str) -> Result<Position, ParseMovesError> {
        Position::from_moves(s)
    }
}

impl fmt::Debug for Position {
    /// The board drawn top row first, `X` for the first player and `O` for the second.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first = if self.moves.is_multiple_of(2) {
            self.current
        } else {
            self.current ^ self.mask
        };
        for row in (0..HEIGHT).rev() {
            for column in 0..WIDTH {
                let bit = 1u64 << (column as u32 * STRIDE + row as u32);
                let ch = if self.mask & bit == 0 {
                    '.'
                } else if first & bit != 0 {
                    'X'
                } else {
                    'O'
                };
                f.write_fmt(format_args!("{ch}"))?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}
