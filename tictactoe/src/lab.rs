//! The lab: what exists to be measured, compared or checked against, rather than used.
//!
//! `ttt bench`, the Criterion benches and the tests reach the library's contenders here: the
//! status methods as types behind one [`Check`] contract (the paper's method as printed
//! among them), the slow and obviously correct twins of the fast paths, the reference
//! definitions the tests compare every method with, and the sizes of the static tables
//! (memory is part of what we report). None of it is needed to use the library, and it is
//! hidden from the documentation's front page; it is public so that benches and the `ttt`
//! tool measure exactly the code the library runs.

use crate::solver::{Solution, Value};
use crate::{Board, Player, Position, Status};

pub use crate::status::base3_table::Base3Table;
pub use crate::status::check::Check;
pub use crate::status::masks::Masks;
pub use crate::status::paper::Paper;
pub use crate::status::shift::Shift;
pub use crate::status::table::Table;
pub use crate::status::table_bits::TableBits;
pub use crate::status::traditional::Traditional;

#[cfg(feature = "alloc")]
pub mod mnk;

/// Gomoku's kernels: the last-move check's portable kernel, its AVX-512 kernel (run where this
/// CPU has it) and the twelve-multiply kernel they replaced; the full-board check compiled
/// for any CPU, and with AVX-512 (run where this CPU has it).
pub mod gomoku {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    pub use crate::mnk::gomoku::{has_line_detected, wins_through_detected};
    pub use crate::mnk::gomoku::{has_line_portable, wins_through_portable};

    /// The kernel before [`wins_through_portable`]: for each of the four words, the row and the
    /// two diagonals through the mark gathered by a rotate, a mask and a multiply.
    #[must_use]
    #[inline]
    pub fn wins_through_multiply(p: [u64; 4], bit: u32) -> bool {
        crate::mnk::gomoku::wins_through_multiply(p, bit)
    }
}

/// Connect Four's random playout compiled for the build's CPU level, whichever one
/// `Position::play_random` runs (on x86-64 without AVX2 in the build, the x86-64-v3 copy where
/// the CPU has it): how the tests run both in one build.
#[cfg(feature = "rand")]
pub mod connect_four {
    use crate::Status;
    use crate::mnk::Position;

    /// [`Position::play_random`] with Connect Four's loop compiled for any CPU of the build's
    /// target; under other rules, `play_random` itself (which chooses nothing at run time).
    pub fn play_random_portable<R: rand::Rng + ?Sized>(
        position: &mut Position<1>,
        rng: &mut R,
    ) -> Status {
        position.play_random_connect_four_portable(rng)
    }

    /// Whether one Connect Four word (7 bits a column) holds four in a row, checked two
    /// directions to an SSE2 register: the check of [`Position::play_bit`] in builds without
    /// AVX2.
    #[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
    #[must_use]
    pub fn has_line_sse2(word: u64) -> bool {
        crate::mnk::bits::c4_has_line_sse2(word)
    }
}

/// The paper's method as printed: its patterns, the defective one, and its array conversion.
pub mod paper {
    pub use crate::status::paper::*;
}

/// The traditional array-sum method and its 3x3 array.
pub mod traditional {
    pub use crate::status::traditional::*;
}

/// The line masks, a single-player line check on them, and the portable twin of the SSE2
/// `masks` kernel.
pub mod masks {
    pub use crate::status::masks::{MASKS, has_line, winner_portable};
}

/// The shift-AND line detector on a [`BoardWord`](crate::status::BoardWord).
pub use crate::status::shift::line_starts;

/// The 512-entry line table of the `table` method.
pub use crate::status::table::LINE;

/// Barrick's get and set with plain `/` and `%` by `3^i`: the slow twin of
/// [`Base3::cell`](crate::encoding::Base3::cell) and [`Base3::with`](crate::encoding::Base3::with).
pub mod divmod {
    pub use crate::encoding::base3::divmod::*;
}

/// The winner by the definition: the first player, X then O, holding all three cells of a
/// line. The slow twin of every status method.
#[must_use]
pub fn reference_winner(board: Board) -> Option<Player> {
    crate::status::reference_winner(board)
}

/// The status by the definition: [`reference_winner`], then a full board is a draw.
#[must_use]
pub fn reference_status(board: Board) -> Status {
    crate::status::reference_status(board)
}

/// Whether `winner` is a right answer for `board`: the reference winner, except that on a grid
/// where both players hold a line (never reachable) either player is right.
///
/// ```
/// use tictactoe::{Board, Player, lab::agrees};
/// let both: Board = "XXX/OOO/...".parse()?;
/// assert!(agrees(both, Some(Player::O)) && agrees(both, Some(Player::X)));
/// assert!(!agrees(both, None));
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[must_use]
pub fn agrees(board: Board, winner: Option<Player>) -> bool {
    crate::status::agrees(board, winner)
}

/// Whether `status` is a right answer for `board`, in the sense of [`agrees`].
#[must_use]
pub fn status_agrees(board: Board, status: Status) -> bool {
    crate::status::status_agrees(board, status)
}

/// The slow twin of [`solver::solve`](crate::solver::solve): plain minimax over the game tree
/// below `position`, no table, no memo. Returns the value and the distance.
///
/// ```
/// use tictactoe::{Position, lab, solver::Value};
/// let centre = Position::EMPTY.play_index(4)?;
/// assert_eq!(lab::minimax(centre), (Value::Draw, 8));
/// # Ok::<(), tictactoe::PlayError>(())
/// ```
#[must_use]
pub fn minimax(position: Position) -> (Value, u8) {
    crate::solver::minimax(position)
}

/// The solver's table built at run time, by the same `const fn` the compiler runs for the
/// library's own table: public to measure the build.
///
/// ```
/// use tictactoe::{Position, lab::SolverTable, solver::Value};
/// let table = SolverTable::build();
/// assert_eq!(table.solve(Position::EMPTY).value, Value::Draw);
/// ```
pub struct SolverTable(crate::solver::Table);

impl SolverTable {
    /// Builds the table by retrograde analysis.
    #[must_use]
    pub fn build() -> SolverTable {
        SolverTable(crate::solver::Table::build())
    }

    /// The solution of `position` in this table.
    #[must_use]
    pub fn solve(&self, position: Position) -> Solution {
        self.0.solve(position)
    }
}

/// The slow twin of [`selfplay::random_game`](crate::selfplay::random_game): the same choices
/// through [`Position::play`] and [`agents::pick`](crate::agents::pick).
#[cfg(feature = "rand")]
pub fn random_game_slow<R: rand::RngCore>(rng: &mut R) -> crate::selfplay::Ending {
    crate::selfplay::random_game_slow(rng)
}

/// Bytes of each static table of the library.
pub mod table_bytes {
    /// [`Base4`](crate::encoding::Base4): the bit-spreading and gathering tables.
    pub const BASE4: usize = crate::encoding::base4::TABLE_BYTES;
    /// [`Base3`](crate::encoding::Base3): set values and digits.
    pub const BASE3: usize = crate::encoding::base3::TABLE_BYTES;
    /// [`CountRank`](crate::encoding::CountRank), shared tables included.
    pub const COUNT_RANK: usize = crate::encoding::count_rank::TABLE_BYTES;
    /// [`Rank`](crate::encoding::Rank), shared tables included.
    pub const RANK: usize = crate::encoding::rank::TABLE_BYTES;
    /// [`Canonical`](crate::encoding::Canonical) and [`Oriented`](crate::encoding::Oriented).
    pub const CANONICAL: usize = crate::encoding::canonical::TABLE_BYTES;
    /// The 3-bit popcount, deposit and extract tables the ranked encodings share.
    pub const SHARED: usize = crate::bits::SHARED_TABLE_BYTES;
    /// The solver: one `u16` per rank.
    pub const SOLVER: usize = crate::solver::TABLE_BYTES;
    /// The game codes' subtree sizes.
    pub const GAME_CODES: usize = crate::game::CODE_TABLE_BYTES;
    /// Random self-play's select table.
    #[cfg(feature = "rand")]
    pub const SELFPLAY: usize = crate::selfplay::TABLE_BYTES;
    /// Packed arrays' grid tables.
    #[cfg(feature = "alloc")]
    pub const PACKED: usize = crate::packed::TABLE_BYTES;
    /// The symmetries' image tables.
    pub const SYMMETRY: usize = crate::Symmetry::TABLE_BYTES;
    /// [`Bitboard::has_line`](crate::Bitboard::has_line)'s 512-bit table.
    pub const HAS_LINE: usize = crate::Bitboard::HAS_LINE_TABLE_BYTES;
    /// The per-set counts behind `Bitboard::count` without `popcnt`.
    pub const COUNTS: usize = crate::Bitboard::COUNTS_TABLE_BYTES;
    /// X's and O's status bytes behind `Position::status` and `Position::winner`.
    pub const POSITION_STATUS: usize = crate::Position::STATUS_TABLE_BYTES;
    /// The select table behind `Bitboard::nth` and `Bitboard::pick`.
    pub const SELECT: usize = crate::Bitboard::SELECT_TABLE_BYTES;
}
