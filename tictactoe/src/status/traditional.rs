//! The paper's "traditional" method (its Fig. 3.1): a 3x3 signed array, sums compared with +-3.
//!
//! | representation | value of a cell | state bytes | table bytes |
//! |---|---|---|---|
//! | [`Array`]: `[[i8; 3]; 3]`, `array[row][column]` | 0 empty, 1 X, -1 O | 9 | 0 |
//!
//! The check follows the published order exactly: for each `i`, row `i` then column `i`
//! (X's sum 3 before O's -3), then both diagonals. It stops at the first line found.

use super::{Check, Method};
use crate::{Board, Cell, Player, Status};

/// A board as a 3x3 array of `i8`: 0 empty, 1 X, -1 O; `array[row][column]`.
///
/// ```
/// use tictactoe::{Board, lab::traditional::Array};
/// let array = Array::from("XO./.../..X".parse::<Board>()?);
/// assert_eq!(array.rows(), [[1, -1, 0], [0, 0, 0], [0, 0, 1]]);
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Array([[i8; 3]; 3]);

impl Array {
    /// The rows.
    #[must_use]
    pub const fn rows(self) -> [[i8; 3]; 3] {
        self.0
    }
}

impl From<Board> for Array {
    fn from(board: Board) -> Array {
        let mut rows = [[0i8; 3]; 3];
        for cell in Cell::ALL {
            rows[cell.row() as usize][cell.column() as usize] = match board.at(cell) {
                Some(Player::X) => 1,
                Some(Player::O) => -1,
                None => 0,
            };
        }
        Array(rows)
    }
}

/// The traditional method.
///
/// ```
/// use tictactoe::{Board, Player, lab::{Check, Traditional}};
/// let array = Traditional::prepare("XO./XO./X..".parse::<Board>()?);
/// assert_eq!(Traditional::winner(array), Some(Player::X));
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Traditional;

/// The winner as `1` (X), `-1` (O) or `0`, exactly as the paper's `check_winner_traditional`.
#[must_use]
#[inline]
pub fn check(array: Array) -> i8 {
    let b = array.0;
    // Indexing on purpose: row `i` and column `i` together, as the paper's loop does.
    #[allow(clippy::needless_range_loop)]
    for i in 0..3 {
        let row_sum = b[i][0] + b[i][1] + b[i][2];
        let col_sum = b[0][i] + b[1][i] + b[2][i];
        if row_sum == 3 || col_sum == 3 {
            return 1;
        }
        if row_sum == -3 || col_sum == -3 {
            return -1;
        }
    }
    let diag1 = b[0][0] + b[1][1] + b[2][2];
    let diag2 = b[0][2] + b[1][1] + b[2][0];
    if diag1 == 3 || diag2 == 3 {
        return 1;
    }
    if diag1 == -3 || diag2 == -3 {
        return -1;
    }
    0
}

/// `1` as X, `-1` as O, anything else as nobody: the paper's return convention.
#[must_use]
#[inline]
pub const fn player_of(value: i8) -> Option<Player> {
    match value {
        1 => Some(Player::X),
        -1 => Some(Player::O),
        _ => None,
    }
}

impl Check for Traditional {
    const METHOD: Method = Method::Traditional;
    type State = Array;
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn prepare(board: Board) -> Array {
        Array::from(board)
    }

    #[inline]
    fn winner(array: Array) -> Option<Player> {
        player_of(check(array))
    }

    /// The winner, else a scan for an empty cell (the paper has no draw test of its own).
    #[inline]
    fn status(array: Array) -> Option<Status> {
        Some(match Self::winner(array) {
            Some(player) => Status::Won(player),
            None if array.0.iter().flatten().all(|&v| v != 0) => Status::Draw,
            None => Status::Ongoing,
        })
    }
}
