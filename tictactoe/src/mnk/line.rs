//! Lines of `k` or more: the shift-and-AND check over four directions, the check through one
//! cell that play uses, and the lines themselves.

use super::bits::Bits;
use super::board::Board;
use super::{Rules, Square};
use crate::Player;

/// The four directions of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Along a column.
    Vertical,
    /// Along a row.
    Horizontal,
    /// From bottom left to top right.
    Rising,
    /// From top left to bottom right.
    Falling,
}

impl Direction {
    /// The four, in the order of [`Rules::directions`].
    pub const ALL: [Direction; 4] = [
        Direction::Vertical,
        Direction::Horizontal,
        Direction::Rising,
        Direction::Falling,
    ];

    /// `vertical`, `horizontal`, `rising`, `falling`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Direction::Vertical => "vertical",
            Direction::Horizontal => "horizontal",
            Direction::Rising => "rising",
            Direction::Falling => "falling",
        }
    }
}

/// The first bit of every run of `k` or more set bits spaced `d` apart in `pieces`: after
/// `x &= x >> (s × d)` a bit stands for a run of `len + s` when it stood for one of `len` and
/// `s ≤ len`, so the run length doubles each step (1, 2, 4, ...) and the last step tops it up
/// to `k`: 2 steps for k = 4, 3 for k = 5, 5 for k = 19.
///
/// The guard bit above each column is never set, so no run wraps from one column to the next.
#[must_use]
#[inline]
pub fn run_starts<const W: usize>(pieces: Bits<W>, d: u32, k: u32) -> Bits<W> {
    let mut x = pieces;
    let mut len = 1;
    while len < k {
        let s = len.min(k - len);
        x &= x.shr(s * d);
        len += s;
    }
    x
}

/// Whether `pieces` hold `k` or more in a row in any of the four directions of `rules`.
#[must_use]
#[inline]
pub fn has_line<const W: usize>(pieces: Bits<W>, rules: Rules) -> bool {
    let k = rules.k();
    rules
        .directions()
        .into_iter()
        .any(|d| !run_starts(pieces, d, k).is_empty())
}

/// Whether `pieces` hold `k` or more in a row through bit `bit` (which they hold): walks out
/// from the cell both ways along each direction, at most `k - 1` cells each way. Play calls
/// it for the last move, which is the only cell a new line can go through.
#[must_use]
#[inline]
pub fn wins_through<const W: usize>(pieces: Bits<W>, bit: u32, rules: Rules) -> bool {
    let k = rules.k();
    if k <= 1 {
        return pieces.contains(bit);
    }
    let end = rules.bits();
    for d in rules.directions() {
        let mut n = 1;
        let mut b = bit + d;
        while b < end && pieces.contains(b) {
            n += 1;
            if n >= k {
                return true;
            }
            b += d;
        }
        let mut b = bit;
        while b >= d && pieces.contains(b - d) {
            n += 1;
            if n >= k {
                return true;
            }
            b -= d;
        }
    }
    false
}

/// A maximal line of `k` or more marks of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// Whose marks.
    pub player: Player,
    /// Its direction.
    pub direction: Direction,
    /// How many cells (at least `k`).
    pub len: u32,
    rules: Rules,
    first_bit: u32,
}

impl Line {
    /// The cells, from the lowest bit up.
    pub fn cells(&self) -> impl Iterator<Item = Square> + use<> {
        let d = self.rules.directions()[self.direction as usize];
        let (rules, first) = (self.rules, self.first_bit);
        (0..self.len).filter_map(move |i| rules.square_of_bit(first + i * d))
    }
}

/// The maximal lines of a board: see [`Board::lines`].
#[derive(Clone, Debug)]
pub struct Lines<const W: usize> {
    board: Board<W>,
    player: usize,
    direction: usize,
    starts: Bits<W>,
}

impl<const W: usize> Lines<W> {
    pub(super) fn new(board: Board<W>) -> Lines<W> {
        let mut lines = Lines {
            board,
            player: 0,
            direction: 0,
            starts: Bits::EMPTY,
        };
        lines.load();
        lines
    }

    /// The first cells of the maximal runs of the current player and direction.
    fn load(&mut self) {
        let rules = self.board.rules();
        let pieces = self.board.pieces(Player::BOTH[self.player]);
        let d = rules.directions()[self.direction];
        let runs = run_starts(pieces, d, rules.k());
        // A run starts a maximal line when the cell before it is not the player's.
        self.starts = runs.and_not(pieces.shl(d));
    }
}

impl<const W: usize> Iterator for Lines<W> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        loop {
            if self.player >= 2 {
                return None;
            }
            if let Some(first_bit) = self.starts.first() {
                self.starts.remove(first_bit);
                let rules = self.board.rules();
                let player = Player::BOTH[self.player];
                let pieces = self.board.pieces(player);
                let d = rules.directions()[self.direction];
                let mut len = 1;
                while pieces.contains(first_bit + len * d) {
                    len += 1;
                }
                return Some(Line {
                    player,
                    direction: Direction::ALL[self.direction],
                    len,
                    rules,
                    first_bit,
                });
            }
            self.direction += 1;
            if self.direction == 4 {
                self.direction = 0;
                self.player += 1;
                if self.player >= 2 {
                    return None;
                }
            }
            self.load();
        }
    }
}
