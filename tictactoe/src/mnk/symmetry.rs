//! The symmetries of a board of the family, as [`crate::Symmetry`] maps cells.

use super::bits::Bits;
use super::board::Board;
use super::{Rules, Square};
use crate::{Player, Symmetry};

const SQUARE: [Symmetry; 8] = Symmetry::ALL;
const RECTANGLE: [Symmetry; 4] = [
    Symmetry::Identity,
    Symmetry::Rot180,
    Symmetry::FlipH,
    Symmetry::FlipV,
];
const GRAVITY: [Symmetry; 2] = [Symmetry::Identity, Symmetry::FlipH];

impl Rules {
    /// The symmetries that map every game of these rules to a game of the same rules, with
    /// the same status: all eight on a square board without gravity; identity, half turn and
    /// the two mirrors on any other board without gravity; identity and the left-right mirror
    /// with gravity (a turned or flipped board would fall the other way).
    ///
    /// ```
    /// use tictactoe::mnk::Rules;
    /// assert_eq!(Rules::GOMOKU.symmetries().len(), 8);
    /// assert_eq!(Rules::new(4, 3, 3, false)?.symmetries().len(), 4);
    /// assert_eq!(Rules::CONNECT_FOUR.symmetries().len(), 2);
    /// # Ok::<(), tictactoe::mnk::RulesError>(())
    /// ```
    #[must_use]
    pub const fn symmetries(self) -> &'static [Symmetry] {
        if self.gravity() {
            &GRAVITY
        } else if self.is_square() {
            &SQUARE
        } else {
            &RECTANGLE
        }
    }

    /// The image of `square` under `symmetry`, if the symmetry is one of these rules'
    /// [`symmetries`](Rules::symmetries). Row 0 is the top, column 0 the left; `rot90` turns
    /// clockwise, as for the 3 × 3 board.
    #[must_use]
    pub fn map_square(self, symmetry: Symmetry, square: Square) -> Option<Square> {
        if !self.symmetries().contains(&symmetry) || !self.contains(square) {
            return None;
        }
        let (r, c) = (square.row(), square.col());
        let (last_r, last_c) = (self.rows() - 1, self.cols() - 1);
        let (r2, c2) = match symmetry {
            Symmetry::Identity => (r, c),
            Symmetry::Rot90 => (c, last_r - r),
            Symmetry::Rot180 => (last_r - r, last_c - c),
            Symmetry::Rot270 => (last_c - c, r),
            Symmetry::FlipH => (r, last_c - c),
            Symmetry::FlipV => (last_r - r, c),
            Symmetry::Transpose => (c, r),
            Symmetry::AntiTranspose => (last_c - c, last_r - r),
        };
        self.square(r2, c2)
    }
}

impl<const W: usize> Board<W> {
    /// The board moved by `symmetry`, or `None` when it is not one of the rules'
    /// [`symmetries`](Rules::symmetries).
    #[must_use]
    pub fn transform(&self, symmetry: Symmetry) -> Option<Board<W>> {
        let rules = self.rules();
        if !rules.symmetries().contains(&symmetry) {
            return None;
        }
        if symmetry == Symmetry::Identity {
            return Some(*self);
        }
        let mut images = [Bits::<W>::EMPTY; 2];
        for (player, image) in Player::BOTH.into_iter().zip(images.iter_mut()) {
            for bit in self.pieces(player).iter() {
                let square = rules.square_of_bit(bit)?;
                image.insert(rules.bit(rules.map_square(symmetry, square)?));
            }
        }
        Board::from_bits(rules, images[0], images[1])
    }

    /// The least of the board's images under the rules' symmetries (ordered by X's bits,
    /// then O's), and the symmetry that gives it: one representative per class of boards
    /// equal up to symmetry.
    #[must_use]
    pub fn canonical(&self) -> (Board<W>, Symmetry) {
        let mut best = (*self, Symmetry::Identity);
        for &symmetry in self.rules().symmetries() {
            if let Some(image) = self.transform(symmetry) {
                let key = |b: &Board<W>| (b.pieces(Player::X), b.pieces(Player::O));
                if key(&image) < key(&best.0) {
                    best = (image, symmetry);
                }
            }
        }
        best
    }
}
