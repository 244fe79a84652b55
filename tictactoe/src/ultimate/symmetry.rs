//! The eight symmetries of the square, acting on both levels at once: a symmetry moves small
//! board `b` to `s(b)` and, inside every board, cell `c` to `s(c)`, so a move `(b, c)` maps to
//! `(s(b), s(c))` and still sends the opponent to the image of the board it sent to.

use super::{Move, Position, Setup};
use crate::{Cell, Symmetry};

impl Setup {
    /// The image of the setup under `symmetry`, on both levels.
    ///
    /// ```
    /// use tictactoe::ultimate::{Move, Position};
    /// use tictactoe::{Cell, Symmetry};
    /// let mut position = Position::EMPTY;
    /// position.play(Move::new(Cell::new(0)?, Cell::new(1)?))?;
    /// let turned = position.transform(Symmetry::Rot90);
    /// // Board 0 goes to board 2, and cell 1 to cell 5; O is sent to board 5.
    /// assert_eq!(turned.at(Cell::new(2)?, Cell::new(5)?), Some(tictactoe::Player::X));
    /// assert_eq!(turned.next_board(), Some(Cell::new(5)?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn transform(&self, symmetry: Symmetry) -> Setup {
        let mut image = Setup::EMPTY;
        for (b, board) in self.boards.iter().enumerate() {
            image.boards[symmetry.apply_cell(Cell::ALL[b]).index()] = symmetry.apply(*board);
        }
        image.next = self.next.map(|b| symmetry.apply_cell(b));
        image
    }
}

impl Position {
    /// The image of the position under `symmetry`, on both levels (see [`Setup::transform`]).
    #[must_use]
    pub fn transform(&self, symmetry: Symmetry) -> Position {
        let image = self.to_setup().transform(symmetry);
        Position::from_parts(image.boards, image.next)
    }
}

impl Move {
    /// The image of the move under `symmetry`: its board and its cell each mapped.
    #[must_use]
    pub const fn transform(self, symmetry: Symmetry) -> Move {
        Move::new(
            symmetry.apply_cell(self.board()),
            symmetry.apply_cell(self.cell()),
        )
    }
}
