//! The paper's "Boolean" method, exactly as printed (Prajoda 2025, Figs. 3.2 to 3.4).
//!
//! | representation | conversion | patterns | state bytes | table bytes |
//! |---|---|---|---|---|
//! | the traditional [`Array`] | to two 9-bit bitboards *inside* the call, bit `i` = cell `i` | 3 rows, 3 columns, 2 diagonals, in that order | 9 | 0 |
//!
//! The defect, reproduced on purpose: the conversion (Fig. 3.2) sets bit `i` for cell `i`, so
//! the printed "Row 1" `0b111000000` is cells 6, 7, 8 and "Row 2" `0b000111000` cells 3, 4, 5,
//! but "Row 3" `0b000001111` has four bits: cells 0, 1, 2 *and 3*. A top-row win is found only
//! when the winner also holds cell 3. (Read the other way, most significant bit first, it is
//! cells 5, 6, 7, 8: four cells either way.) [`DEFECTIVE`] finds the pattern by comparing
//! with [`Line::ALL`]; the tests pin exactly which boards the method gets wrong.

use super::traditional::Array;
use super::{Check, Method};
use crate::{Bitboard, Board, Line, Player};

/// Fig. 3.3, `row_patterns`, as printed.
pub const ROW_PATTERNS: [u16; 3] = [0b111000000, 0b000111000, 0b000001111];
/// Fig. 3.3, `col_patterns`, as printed.
pub const COL_PATTERNS: [u16; 3] = [0b100100100, 0b010010010, 0b001001001];
/// Fig. 3.3, `diag_patterns`, as printed.
pub const DIAG_PATTERNS: [u16; 2] = [0b100010001, 0b001010100];

/// All eight printed patterns in the order the check tries them, with the paper's labels.
pub const PATTERNS: [(&str, u16); 8] = [
    ("Row 1", ROW_PATTERNS[0]),
    ("Row 2", ROW_PATTERNS[1]),
    ("Row 3", ROW_PATTERNS[2]),
    ("Col 1", COL_PATTERNS[0]),
    ("Col 2", COL_PATTERNS[1]),
    ("Col 3", COL_PATTERNS[2]),
    ("Diag 1", DIAG_PATTERNS[0]),
    ("Diag 2", DIAG_PATTERNS[1]),
];

/// The printed patterns that are not the three cells of any line (computed).
///
/// ```
/// use tictactoe::lab::paper::DEFECTIVE;
/// let defective: Vec<_> = DEFECTIVE.iter().flatten().collect();
/// assert_eq!(defective, [&("Row 3", 0b000001111)]);
/// ```
pub const DEFECTIVE: [Option<(&str, u16)>; 8] = {
    let mut found = [None; 8];
    let mut p = 0;
    while p < 8 {
        let mut is_line = false;
        let mut l = 0;
        while l < 8 {
            is_line |= Line::ALL[l].cells().bits() == PATTERNS[p].1;
            l += 1;
        }
        if !is_line {
            found[p] = Some(PATTERNS[p]);
        }
        p += 1;
    }
    found
};

/// Fig. 3.2, `board_to_bitboard`: bit `i` of each result is cell `i` (`divmod(i, 3)`).
///
/// ```
/// use tictactoe::{Board, lab::{paper, traditional::Array}};
/// let array = Array::from("X../.O./...".parse::<Board>()?);
/// assert_eq!(paper::to_bitboards(array), (0b1, 0b10000));
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[must_use]
#[inline]
pub fn to_bitboards(array: Array) -> (u16, u16) {
    let board = array.rows();
    let (mut x_board, mut o_board) = (0u16, 0u16);
    for i in 0..9 {
        let (row, col) = (i / 3, i % 3);
        if board[row][col] == 1 {
            x_board |= 1 << i;
        } else if board[row][col] == -1 {
            o_board |= 1 << i;
        }
    }
    (x_board, o_board)
}

/// Fig. 3.4 without its first line: the pattern loops on bitboards already converted.
/// `1` X, `-1` O, `0` nobody.
#[must_use]
#[inline]
pub fn check_bitboards(x_board: u16, o_board: u16) -> i8 {
    for patterns in [&ROW_PATTERNS[..], &COL_PATTERNS[..], &DIAG_PATTERNS[..]] {
        for &pattern in patterns {
            if x_board & pattern == pattern {
                return 1;
            }
            if o_board & pattern == pattern {
                return -1;
            }
        }
    }
    0
}

/// Fig. 3.4, `check_winner_boolean`: conversion, then the pattern loops.
#[must_use]
#[inline]
pub fn check(array: Array) -> i8 {
    let (x_board, o_board) = to_bitboards(array);
    check_bitboards(x_board, o_board)
}

/// Whether `board` is one the printed method answers wrongly: some player's only line is the
/// top row, that player does not hold cell 3, and the opponent holds no line (else naming the
/// opponent is a right answer, see `lab::agrees`). Written from the geometry, not
/// from the method, so the tests can compare the two.
#[must_use]
pub fn misses(board: Board) -> bool {
    let top_row = Line::ALL[0].cells();
    let cell_3 = Bitboard::from_bits_truncate(1 << 3);
    Player::BOTH.into_iter().any(|player| {
        let pieces = board.pieces(player);
        let lines = pieces.line_mask();
        lines == 1 << Line::ALL[0].index()
            && pieces.is_superset(top_row)
            && (pieces & cell_3).is_empty()
            && !board.has_line(player.opponent())
    })
}

/// The paper's method as printed.
///
/// ```
/// use tictactoe::{Board, Player, lab::{Check, Paper}};
/// let column_win = Paper::prepare("XO./XO./X..".parse::<Board>()?);
/// assert_eq!(Paper::winner(column_win), Some(Player::X));
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Paper;

impl Check for Paper {
    const METHOD: Method = Method::Paper;
    type State = Array;
    const TABLE_BYTES: usize = 0;

    #[inline]
    fn prepare(board: Board) -> Array {
        Array::from(board)
    }

    #[inline]
    fn winner(array: Array) -> Option<Player> {
        super::traditional::player_of(check(array))
    }

    /// The paper's method reports winners only.
    #[inline]
    fn status(_: Array) -> Option<crate::Status> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;
    use crate::status::{agrees, tests::wrong_grids};

    #[test]
    fn the_wrong_boards_are_exactly_the_missed_top_rows() {
        let wrong = wrong_grids::<Paper>();
        let predicted: Vec<Board> = Board::all().filter(|&b| misses(b)).collect();
        let first_difference = wrong.iter().zip(&predicted).find(|(a, b)| a != b);
        assert_eq!(first_difference, None);
        assert_eq!(wrong.len(), predicted.len());
        // Every miss answers "nobody" where a player has the top row.
        for board in &wrong {
            assert_eq!(Paper::winner(Paper::prepare(*board)), None);
        }
        assert_eq!(wrong.len(), 570);
    }

    #[test]
    fn the_wrong_positions_are_the_missed_top_rows() {
        let wrong: Vec<Position> = Position::all()
            .filter(|p| Paper::winner(Paper::prepare(p.board())) != p.winner())
            .collect();
        assert!(wrong.iter().all(|p| misses(p.board())));
        let predicted = Position::all().filter(|p| misses(p.board())).count();
        assert_eq!(wrong.len(), predicted);
        assert_eq!(wrong.len(), 95);
    }

    #[test]
    fn the_papers_own_row_win_scenario_is_missed() {
        let row_win: Board = "XXX/OO./...".parse().unwrap();
        assert_eq!(Paper::winner(Paper::prepare(row_win)), None);
        assert!(!agrees(row_win, None));
        let with_cell_3: Board = "XXX/XO./OO.".parse().unwrap();
        assert_eq!(Paper::winner(Paper::prepare(with_cell_3)), Some(Player::X));
    }

    #[test]
    fn conversion_matches_the_board() {
        for board in Board::all() {
            let (x, o) = to_bitboards(Array::from(board));
            assert_eq!((x, o), (board.x().bits(), board.o().bits()));
        }
    }

    #[test]
    fn fixing_row_3_makes_the_method_exact() {
        for board in Board::all() {
            let (x, o) = to_bitboards(Array::from(board));
            let fixed = Line::ALL
                .iter()
                .map(|l| l.cells().bits())
                .find(|&p| x & p == p || o & p == p);
            let winner = fixed.map(|p| if x & p == p { Player::X } else { Player::O });
            assert!(agrees(board, winner), "{board}");
        }
    }
}
