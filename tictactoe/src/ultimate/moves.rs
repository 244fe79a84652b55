//! Moves and sets of moves.

use core::fmt;

use crate::Cell;

/// A move: a cell of a small board, as the index `9 * board + cell` in `0..81` (board-major,
/// the flat action of OpenSpiel's `ultimate_tic_tac_toe` once a board is chosen).
///
/// ```
/// use tictactoe::Cell;
/// use tictactoe::ultimate::Move;
/// let played = Move::new(Cell::new(4)?, Cell::new(2)?);
/// assert_eq!(played.index(), 38);
/// assert_eq!(played.to_string(), "4:2");
/// assert_eq!(Move::try_from(38), Ok(played));
/// assert!(Move::try_from(81).is_err());
/// # Ok::<(), tictactoe::CellError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(u8);

/// An index that is not a move (outside `0..81`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no such move {0}: moves are 0 to 80 (9 * board + cell)")]
pub struct MoveError(pub usize);

impl Move {
    /// Number of moves, `9 * 9`.
    pub const COUNT: usize = 81;

    /// The move in `cell` of small board `board`.
    #[must_use]
    #[inline]
    pub const fn new(board: Cell, cell: Cell) -> Move {
        Move((9 * board.index() + cell.index()) as u8)
    }

    /// The move from indices known to be below 9.
    #[inline(always)]
    pub(super) const fn from_parts(board: usize, cell: usize) -> Move {
        debug_assert!(board < 9 && cell < 9);
        Move((9 * board + cell) as u8)
    }

    /// `9 * board + cell`.
    #[must_use]
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The small board.
    #[must_use]
    #[inline]
    pub const fn board(self) -> Cell {
        Cell::ALL[self.board_index()]
    }

    /// The cell within the small board (and the board it sends the opponent to).
    #[must_use]
    #[inline]
    pub const fn cell(self) -> Cell {
        Cell::ALL[self.cell_index()]
    }

    #[inline(always)]
    pub(super) const fn board_index(self) -> usize {
        self.0 as usize / 9
    }

    #[inline(always)]
    pub(super) const fn cell_index(self) -> usize {
        self.0 as usize % 9
    }

    /// The row (`0..9`) of the 9×9 grid, top to bottom.
    #[must_use]
    #[inline]
    pub const fn row(self) -> u8 {
        self.board().row() * 3 + self.cell().row()
    }

    /// The column (`0..9`) of the 9×9 grid, left to right.
    #[must_use]
    #[inline]
    pub const fn column(self) -> u8 {
        self.board().column() * 3 + self.cell().column()
    }
}

impl TryFrom<usize> for Move {
    type Error = MoveError;

    #[inline]
    fn try_from(index: usize) -> Result<Move, MoveError> {
        if index < Move::COUNT {
            Ok(Move(index as u8))
        } else {
            Err(MoveError(index))
        }
    }
}

impl From<Move> for usize {
    #[inline]
    fn from(played: Move) -> usize {
        played.index()
    }
}

/// `board:cell`, e.g. `4:2`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.board_index(), self.cell_index())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// A set of moves: bit `9 * board + cell` of a `u128` (81 bits used).
///
/// ```
/// use tictactoe::ultimate::Position;
/// let moves = Position::EMPTY.legal_moves();
/// assert_eq!(moves.count(), 81);
/// assert_eq!(moves.iter().next().map(|m| m.index()), Some(0));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Moves(u128);

impl Moves {
    /// No move.
    pub const EMPTY: Moves = Moves(0);

    /// The set of these bits, bits at 81 and above dropped.
    #[must_use]
    #[inline]
    pub const fn from_bits(bits: u128) -> Moves {
        Moves(bits & ((1 << 81) - 1))
    }

    /// The 81-bit mask.
    #[must_use]
    #[inline]
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// Number of moves in the set.
    #[must_use]
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `played` is in the set.
    #[must_use]
    #[inline]
    pub const fn contains(self, played: Move) -> bool {
        self.0 >> played.index() & 1 != 0
    }

    /// The moves in increasing index order.
    #[must_use]
    #[inline]
    pub const fn iter(self) -> MovesIter {
        MovesIter(self.0)
    }
}

impl IntoIterator for Moves {
    type Item = Move;
    type IntoIter = MovesIter;

    #[inline]
    fn into_iter(self) -> MovesIter {
        self.iter()
    }
}

impl fmt::Debug for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The moves of a [`Moves`], lowest index first.
#[derive(Clone, Debug)]
pub struct MovesIter(u128);

impl Iterator for MovesIter {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Move(index as u8))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MovesIter {}
