//! Moves: the legal moves of a [`Position`] and checked play.
//!
//! A move is the cell the side to move marks. [`Position::play`] checks it and returns the new
//! position; a `Position` is `Copy`, so the one played from is never changed, error or not.

use crate::{Bitboard, Board, Cell, CellError, Player, Position, Status};

/// A move that cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The cell already holds a mark.
    #[error("cell {cell} is occupied by {by}")]
    Occupied {
        /// The cell asked for.
        cell: Cell,
        /// Who holds it.
        by: Player,
    },
    /// The game is won or drawn: nobody is to move.
    #[error("the game is over: {status}")]
    GameOver {
        /// How it ended.
        status: Status,
    },
    /// The index is not a cell.
    #[error("no such cell {index}: cells are 0 to 8")]
    NoSuchCell {
        /// The index asked for.
        index: usize,
    },
}

impl From<CellError> for PlayError {
    #[inline]
    fn from(error: CellError) -> PlayError {
        PlayError::NoSuchCell { index: error.0 }
    }
}

impl Position {
    /// The cells the side to move may mark: the empty cells, or none once the game is over.
    ///
    /// ```
    /// use tictactoe::{Board, Position};
    /// let position = Position::try_from("X.O/..O/.X.".parse::<Board>()?)?;
    /// assert_eq!(position.legal_moves().count(), 5);
    /// let won = Position::try_from("XXX/OO./...".parse::<Board>()?)?;
    /// assert!(won.legal_moves().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    #[inline]
    pub const fn legal_moves(self) -> Bitboard {
        // A branch, not a select: in a playout loop the game goes on at almost every call, so
        // the branch is predicted and the next move's pick need not wait for the status
        // lookups (a conditional move would put them on the loop's critical path).
        if self.status().is_finished() {
            core::hint::cold_path();
            return Bitboard::EMPTY;
        }
        self.board().empty_cells()
    }

    /// The position after the side to move marks `cell`, or why it cannot.
    ///
    /// ```
    /// use tictactoe::{Cell, PlayError, Player, Position};
    /// let centre = Cell::new(4)?;
    /// let after = Position::EMPTY.play(centre)?;
    /// assert_eq!(after.to_string(), "....X....");
    /// assert_eq!(
    ///     after.play(centre),
    ///     Err(PlayError::Occupied { cell: centre, by: Player::X })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`PlayError::GameOver`] once the game is over, [`PlayError::Occupied`] for a taken cell.
    #[inline]
    pub const fn play(self, cell: Cell) -> Result<Position, PlayError> {
        // One test on the hot path: the cell is empty and the game is on.
        if self.legal_moves().contains(cell) {
            return Ok(self.play_unchecked(cell));
        }
        let status = self.status();
        if status.is_finished() {
            return Err(PlayError::GameOver { status });
        }
        match self.board().at(cell) {
            Some(by) => Err(PlayError::Occupied { cell, by }),
            // Unreachable: an ongoing game whose empty cells do not contain `cell`.
            None => Err(PlayError::GameOver { status }),
        }
    }

    /// [`Position::play`] with a cell index, rejecting indices of 9 or more.
    ///
    /// ```
    /// use tictactoe::{PlayError, Position};
    /// assert_eq!(Position::EMPTY.play_index(9), Err(PlayError::NoSuchCell { index: 9 }));
    /// assert!(Position::EMPTY.play_index(8).is_ok());
    /// ```
    ///
    /// # Errors
    /// As [`Position::play`], or [`PlayError::NoSuchCell`] for an index of 9 or more.
    #[inline]
    pub fn play_index(self, index: usize) -> Result<Position, PlayError> {
        self.play(Cell::try_from(index)?)
    }

    /// The position after a move the caller knows to be legal (debug builds check).
    #[inline]
    pub(crate) const fn play_unchecked(self, cell: Cell) -> Position {
        debug_assert!(self.legal_moves().contains(cell));
        let board = self.board();
        // Branch-free: `o_moves` is all ones when O is to move (an odd mark count), else 0.
        // The marks are counted as 9 less the empty cells, so that a playout shares the count
        // `Bitboard::pick` took of the same set. Written this way the compiler keeps the mask
        // (a `neg`); two other spellings tried, `(empty & 1) - 1` for O's mask and
        // `0 - (empty & 1)` for X's, made it branch on the parity, which mispredicts half the
        // time over unrelated positions (play + status 3.2 -> 6.8 ns in `peers/`).
        let marks = 9 - board.empty_cells().count();
        let o_moves = 0u16.wrapping_sub((marks & 1) as u16);
        let bit = 1u16 << cell.index();
        let x = Bitboard::from_bits_truncate(board.x().bits() | bit & !o_moves);
        let o = Bitboard::from_bits_truncate(board.o().bits() | bit & o_moves);
        Position::from_board_unchecked(Board::from_disjoint(x, o))
    }

    /// Each legal move with the position it leads to, in cell order.
    ///
    /// ```
    /// use tictactoe::Position;
    /// assert_eq!(Position::EMPTY.children().count(), 9);
    /// ```
    #[inline]
    pub fn children(self) -> impl Iterator<Item = (Cell, Position)> {
        self.legal_moves()
            .iter()
            .map(move |cell| (cell, self.play_unchecked(cell)))
    }

    /// Number of move sequences of exactly `depth` moves from here, stopping at finished games
    /// (`perft`, after the chess engines' move-generator test).
    ///
    /// ```
    /// use tictactoe::Position;
    /// assert_eq!(Position::EMPTY.perft(2), 72);
    /// ```
    #[must_use]
    pub fn perft(self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.children()
            .map(|(_, child)| child.perft(depth - 1))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_matches_setting_the_cell_on_every_position() {
        for position in Position::all() {
            for cell in Cell::ALL {
                let result = position.play(cell);
                match (position.status(), position.board().at(cell)) {
                    (status @ (Status::Won(_) | Status::Draw), _) => {
                        assert_eq!(result, Err(PlayError::GameOver { status }));
                    }
                    (Status::Ongoing, Some(by)) => {
                        assert_eq!(result, Err(PlayError::Occupied { cell, by }));
                    }
                    (Status::Ongoing, None) => {
                        let mover = position.side_to_move();
                        let board = position.board().with(cell, Some(mover));
                        assert_eq!(
                            result,
                            Position::try_from(board).map_err(|_| unreachable!())
                        );
                        assert!(position.legal_moves().contains(cell));
                    }
                }
            }
            assert_eq!(
                position.children().count(),
                position.legal_moves().count() as usize
            );
        }
    }

    #[test]
    fn perft_counts_move_sequences() {
        let perft: Vec<u64> = (0..=10).map(|d| Position::EMPTY.perft(d)).collect();
        assert_eq!(
            perft,
            [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872, 0]
        );
        assert_eq!(
            Position::EMPTY.play_index(12),
            Err(PlayError::NoSuchCell { index: 12 })
        );
    }
}
