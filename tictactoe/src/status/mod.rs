//! Game-status analysis: who holds a line, and whether the game is over.
//!
//! [`Method`] names every method at run time and runs it on a [`Board`]; [`batch`] checks
//! whole slices on the widest vector kernel the CPU has. `ttt bench` measures every method
//! (and the paper's, as published: see `docs/paper.md`).
//!
//! | method | representation | state bytes | table bytes | how |
//! |---|---|---|---|---|
//! | `traditional` | 3x3 `i8` array, X = 1, O = -1 | 9 | 0 | sums of rows, columns, diagonals vs +-3 |
//! | `masks` | two 9-bit [`Bitboard`](crate::Bitboard)s | 4 | 0 | AND with the 8 line masks, both players in one SSE2 pass on x86-64 |
//! | `table` | two 9-bit [`Bitboard`](crate::Bitboard)s | 4 | 512 | one byte of a 512-entry table per player |
//! | `table-bits` | two 9-bit [`Bitboard`](crate::Bitboard)s | 4 | 64 | [`Bitboard::has_line`](crate::Bitboard::has_line): one bit of a 512-bit table per player |
//! | `shift` | [`BoardWord`] `x \| o << 16` | 4 | 0 | shift-AND of both players at once, branch-free |
//! | `base3` | [`Base3`](crate::encoding::Base3) code | 2 | 4,928 | the status of every grid, 2 bits each |
//! | `batch` | two `u16` slices (X, O) | 4 | 0 | many boards per vector instruction (byte-shuffle line tables on AVX2 and AVX-512 VBMI, shifts on SSE2 and AVX-512BW), run on the widest [`Kernel`](batch::Kernel) the CPU has |
//! | `batch-portable` | the same | 4 | 0 | `batch` on [`Kernel::Portable`](batch::Kernel::Portable), the build for the compilation target |
//! | `batch-packed` | one [`BoardWord`] per board | 4 | 0 | `batch` on one `u32` per board |
//!
//! Every method agrees with the definition on all 19,683 grids, but on the grids where *both*
//! players hold a line (never reachable): there a method may name either of them, as its scan
//! order finds them.
//!
//! ```
//! use tictactoe::{Board, Player, Status, status::{Method, Verdict, batch}};
//!
//! let row_win: Board = "XXX/OO./...".parse()?;
//! assert_eq!(Method::Masks.winner(row_win), Some(Player::X));
//! assert_eq!("table-bits".parse::<Method>()?.status(row_win), Some(Status::Won(Player::X)));
//!
//! let (xs, os) = ([row_win.x().bits()], [row_win.o().bits()]);
//! let mut out = [Verdict::default()];
//! batch::verdicts_split(&xs, &os, &mut out);
//! assert_eq!(out[0].status(), Status::Won(Player::X));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod base3_table;
pub mod batch;
pub(crate) mod check;
mod dispatch;
pub(crate) mod masks;
mod method;
pub(crate) mod paper;
pub(crate) mod shift;
pub(crate) mod table;
pub(crate) mod table_bits;
pub(crate) mod traditional;

pub(crate) use base3_table::Base3Table;
pub(crate) use masks::Masks;
pub use method::{Method, ParseMethodError};
pub(crate) use paper::Paper;
pub(crate) use shift::Shift;
pub use shift::Verdict;
pub(crate) use table::Table;
pub(crate) use table_bits::TableBits;
pub(crate) use traditional::Traditional;

use crate::{Board, Line, Player, Status};
pub(crate) use check::Check;

/// A board as one word: X's cells in bits 0..9, O's in bits 16..25.
///
/// ```
/// use tictactoe::{Board, status::BoardWord};
/// let packed = BoardWord::from_board("XO./.../...".parse::<Board>()?);
/// assert_eq!(packed.word(), 0b1 | 0b10 << 16);
/// assert_eq!(packed.to_board(), "XO./.../...".parse()?);
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct BoardWord(u32);

impl BoardWord {
    /// The board packed into one word.
    #[must_use]
    pub const fn from_board(board: Board) -> BoardWord {
        BoardWord(board.x().bits() as u32 | (board.o().bits() as u32) << 16)
    }

    /// The word.
    #[must_use]
    pub const fn word(self) -> u32 {
        self.0
    }

    /// The board back.
    #[must_use]
    pub fn to_board(self) -> Board {
        let x = crate::Bitboard::from_bits_truncate(self.0 as u16);
        let o = crate::Bitboard::from_bits_truncate((self.0 >> 16) as u16);
        // BoardWord is only built from boards, whose bitboards never overlap.
        Board::from_disjoint(x, o)
    }
}

/// Winner by whether X and O hold a line, X first when both do: a lookup, not a branch.
const WINNERS: [Option<Player>; 4] = [None, Some(Player::X), Some(Player::O), Some(Player::X)];

/// The winner given whether X (`x`) and O (`o`) hold a line; X when both do.
#[inline]
#[must_use]
pub(crate) const fn winner_of(x: bool, o: bool) -> Option<Player> {
    WINNERS[x as usize | (o as usize) << 1]
}

/// The winner by the definition: the first player, X then O, holding all three cells of a
/// line of [`Line::ALL`]. The slow twin of every method.
#[must_use]
pub(crate) fn reference_winner(board: Board) -> Option<Player> {
    Player::BOTH.into_iter().find(|&player| {
        Line::ALL
            .iter()
            .any(|line| board.pieces(player).is_superset(line.cells()))
    })
}

/// The status given the winner: won if there is one, else drawn when all nine cells are taken,
/// else ongoing.
#[inline]
#[must_use]
pub(crate) const fn status_of(winner: Option<Player>, board: Board) -> Status {
    match winner {
        Some(player) => Status::Won(player),
        None if board.is_full() => Status::Draw,
        None => Status::Ongoing,
    }
}

/// The status by code: bit 0 X holds a line, bit 1 O holds a line, bit 2 all nine cells are
/// taken; X first when both hold a line, as [`winner_of`].
const STATUS_BY_CODE: [Status; 8] = [
    Status::Ongoing,
    Status::Won(Player::X),
    Status::Won(Player::O),
    Status::Won(Player::X),
    Status::Draw,
    Status::Won(Player::X),
    Status::Won(Player::O),
    Status::Won(Player::X),
];

/// The status given whether X and O hold a line, branch-free: a lookup in an 8-entry table
/// rather than a match, which mispredicts on shuffled boards.
#[inline]
#[must_use]
pub(crate) const fn status_from_lines(x: bool, o: bool, board: Board) -> Status {
    status_from_code(x as u8 | (o as u8) << 1 | (board.is_full() as u8) << 2)
}

/// [`STATUS_BY_CODE`]; bits above the low three are ignored.
#[inline]
#[must_use]
pub(crate) const fn status_from_code(code: u8) -> Status {
    STATUS_BY_CODE[code as usize & 7]
}

/// The status by the definition: [`reference_winner`], then a full board is a draw.
#[must_use]
pub(crate) fn reference_status(board: Board) -> Status {
    status_of(reference_winner(board), board)
}

/// Whether `winner` is a right answer for `board`: the reference winner, except that on a grid
/// where both players hold a line either player is right.
///
/// ```
/// use tictactoe::{Board, Player, lab::agrees};
/// let both: Board = "XXX/OOO/...".parse()?;
/// assert!(agrees(both, Some(Player::O)) && agrees(both, Some(Player::X)));
/// assert!(!agrees(both, None));
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[must_use]
pub(crate) fn agrees(board: Board, winner: Option<Player>) -> bool {
    match winner {
        Some(player) if board.has_line(player.opponent()) => board.has_line(player),
        _ => winner == reference_winner(board),
    }
}

/// Whether `status` is a right answer for `board`, in the sense of [`agrees`].
#[must_use]
pub(crate) fn status_agrees(board: Board, status: Status) -> bool {
    match status {
        Status::Won(player) => agrees(board, Some(player)),
        other => other == reference_status(board),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Position;

    /// Checks a method on every grid and every position; returns the grids it gets wrong.
    pub(crate) fn wrong_grids<M: Check>() -> Vec<Board> {
        let mut wrong = Vec::new();
        for board in Board::all() {
            let state = M::prepare(board);
            let winner = M::winner(state);
            if !agrees(board, winner) {
                wrong.push(board);
            }
            if let Some(status) = M::status(state) {
                assert_eq!(
                    status_agrees(board, status),
                    agrees(board, winner),
                    "{board}"
                );
                assert_eq!(status.is_finished(), winner.is_some() || board.marks() == 9);
            }
        }
        wrong
    }

    fn assert_exact<M: Check>() {
        assert_eq!(wrong_grids::<M>(), Vec::<Board>::new(), "{}", M::METHOD);
        for position in Position::all() {
            let state = M::prepare(position.board());
            assert_eq!(M::winner(state), position.winner(), "{position}");
            assert_eq!(M::status(state), Some(position.status()), "{position}");
        }
    }

    #[test]
    fn every_exact_method_agrees_on_every_grid_and_position() {
        assert_exact::<Masks>();
        assert_exact::<Table>();
        assert_exact::<TableBits>();
        assert_exact::<Shift>();
        assert_exact::<Base3Table>();
        // Traditional agrees on winners everywhere and reports the status too.
        assert_exact::<Traditional>();
    }

    #[test]
    fn reference_matches_the_position_rules() {
        for position in Position::all() {
            assert_eq!(reference_winner(position.board()), position.winner());
            assert_eq!(reference_status(position.board()), position.status());
        }
    }

    #[test]
    fn packed_round_trips_every_grid() {
        for board in Board::all() {
            assert_eq!(BoardWord::from_board(board).to_board(), board);
        }
    }

    #[test]
    fn the_contract_tolerates_only_double_wins() {
        let tolerant = Board::all()
            .filter(|b| b.has_line(Player::X) && b.has_line(Player::O))
            .filter(|&b| agrees(b, Some(Player::O)) && agrees(b, Some(Player::X)))
            .count();
        let both = Board::all()
            .filter(|b| b.has_line(Player::X) && b.has_line(Player::O))
            .count();
        assert_eq!(tolerant, both);
        assert!(both > 0);
        for board in Board::all().filter(|b| !(b.has_line(Player::X) && b.has_line(Player::O))) {
            let right = Player::BOTH
                .into_iter()
                .map(Some)
                .chain([None])
                .filter(|&w| agrees(board, w))
                .count();
            assert_eq!(right, 1, "{board}");
        }
    }
}
