//! Game-status analysis: who holds a line, and whether the game is over.
//!
//! One module per method, one contract ([`Method`]): given a board in the method's own
//! representation, the winner and, where the method can, the full [`Status`].
//!
//! | method | module | representation ([`Method::State`]) | state bytes | table bytes | how |
//! |---|---|---|---|---|---|
//! | `traditional` | [`traditional`] | 3x3 `i8` array, X = 1, O = -1 | 9 | 0 | sums of rows, columns, diagonals vs +-3 |
//! | `paper` | [`paper`] | the same array | 9 | 0 | array to bitboards in the call, then the paper's 8 patterns *as printed* |
//! | `masks` | [`masks`] | two 9-bit [`Bitboard`](crate::Bitboard)s | 4 | 0 | AND with the 8 line masks, both players in one SSE2 pass on x86-64 |
//! | `table` | [`table`] | two 9-bit [`Bitboard`](crate::Bitboard)s | 4 | 512 | one byte of a 512-entry table per player |
//! | `table-bits` | [`table_bits`] | two 9-bit [`Bitboard`](crate::Bitboard)s | 4 | 64 | [`Bitboard::has_line`](crate::Bitboard::has_line): one bit of a 512-bit table per player |
//! | `shift` | [`shift`] | [`Packed`] `x \| o << 16` | 4 | 0 | shift-AND of both players at once, branch-free |
//! | `base3` | [`base3`] | [`Base3`](crate::encoding::Base3) code | 2 | 4,928 | the status of every grid, 2 bits each |
//! | `batch` | [`batch`] | two `u16` slices (X, O) or one of [`Packed`] | 4 | 0 | the `shift` kernel over slices, auto-vectorised, run on the widest [`Kernel`](batch::Kernel) the CPU has |
//!
//! `paper` reproduces the printed method of Prajoda (2025), "Optimization of Tic-Tac-Toe Game
//! Status Analysis Using Boolean Algebra Approach", Figs. 3.2 to 3.4, defect included: its "Row 3"
//! pattern `0b000001111` has four cells, so a top-row win is missed unless the winner also holds
//! cell 3. Every other method agrees with [`reference_winner`] on all 19,683 grids.
//!
//! On the grids where *both* players hold a line (never reachable) a method may name either
//! of them: which one depends on its scan order. [`agrees`] states the contract exactly.
//!
//! ```
//! use tictactoe::{Board, Player, Status, status::{Masks, Method, Paper, Verdict, batch}};
//!
//! let row_win: Board = "XXX/OO./...".parse()?;
//! assert_eq!(Masks::winner(Masks::prepare(row_win)), Some(Player::X));
//! assert_eq!(Paper::winner(Paper::prepare(row_win)), None); // the printed defect
//!
//! let (xs, os) = ([row_win.x().bits()], [row_win.o().bits()]);
//! let mut out = [Verdict::default()];
//! batch::verdicts_split(&xs, &os, &mut out);
//! assert_eq!(out[0].status(), Status::Won(Player::X));
//! # Ok::<(), tictactoe::ParseBoardError>(())
//! ```

pub mod base3;
pub mod batch;
pub mod masks;
pub mod paper;
pub mod shift;
pub mod table;
pub mod table_bits;
pub mod traditional;

pub use base3::Base3Table;
pub use masks::Masks;
pub use paper::Paper;
pub use shift::Shift;
pub use shift::Verdict;
pub use table::Table;
pub use table_bits::TableBits;
pub use traditional::Traditional;

use crate::{Board, Line, Player, Status};

/// A status method: a representation of the board and a check on it.
///
/// `prepare` converts a [`Board`] into the method's representation and is *not* part of
/// the check; whatever a method converts inside [`winner`](Method::winner) (as `paper` does)
/// is.
pub trait Method {
    /// The method's name, as the CLI spells it.
    const NAME: &'static str;
    /// The representation the check reads.
    type State: Copy;
    /// Bytes per board of [`State`](Method::State).
    const STATE_BYTES: usize = core::mem::size_of::<Self::State>();
    /// Bytes of static tables the check reads.
    const TABLE_BYTES: usize;

    /// The board in this method's representation.
    #[must_use]
    fn prepare(board: Board) -> Self::State;

    /// The player holding a line, if any.
    #[must_use]
    fn winner(state: Self::State) -> Option<Player>;

    /// Ongoing, won or drawn, or `None` when the method (as published) only finds winners.
    #[must_use]
    fn status(state: Self::State) -> Option<Status>;
}

/// The names of the single-board methods, in reporting order (`batch` works on slices).
pub const METHODS: [&str; 7] = [
    Traditional::NAME,
    Paper::NAME,
    Masks::NAME,
    Table::NAME,
    TableBits::NAME,
    Shift::NAME,
    Base3Table::NAME,
];

/// A board as one word: X's cells in bits 0..9, O's in bits 16..25.
///
/// ```
/// use tictactoe::{Board, status::Packed};
/// let packed = Packed::from_board("XO./.../...".parse::<Board>()?);
/// assert_eq!(packed.word(), 0b1 | 0b10 << 16);
/// assert_eq!(packed.to_board(), "XO./.../...".parse()?);
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Packed(u32);

impl Packed {
    /// The board packed into one word.
    #[must_use]
    pub const fn from_board(board: Board) -> Packed {
        Packed(board.x().bits() as u32 | (board.o().bits() as u32) << 16)
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
        // Packed is only built from boards, whose bitboards never overlap.
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
pub fn reference_winner(board: Board) -> Option<Player> {
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
        None if board.marks() == 9 => Status::Draw,
        None => Status::Ongoing,
    }
}

/// The status by the definition: [`reference_winner`], then a full board is a draw.
#[must_use]
pub fn reference_status(board: Board) -> Status {
    status_of(reference_winner(board), board)
}

/// Whether `winner` is a right answer for `board`: the reference winner, except that on a grid
/// where both players hold a line either player is right.
///
/// ```
/// use tictactoe::{Board, Player, status::agrees};
/// let both: Board = "XXX/OOO/...".parse()?;
/// assert!(agrees(both, Some(Player::O)) && agrees(both, Some(Player::X)));
/// assert!(!agrees(both, None));
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[must_use]
pub fn agrees(board: Board, winner: Option<Player>) -> bool {
    match winner {
        Some(player) if board.has_line(player.opponent()) => board.has_line(player),
        _ => winner == reference_winner(board),
    }
}

/// Whether `status` is a right answer for `board`, in the sense of [`agrees`].
#[must_use]
pub fn status_agrees(board: Board, status: Status) -> bool {
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
    pub(crate) fn wrong_grids<M: Method>() -> Vec<Board> {
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

    fn assert_exact<M: Method>() {
        assert_eq!(wrong_grids::<M>(), Vec::<Board>::new(), "{}", M::NAME);
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
            assert_eq!(Packed::from_board(board).to_board(), board);
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
