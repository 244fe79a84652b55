//! Validation: which boards a legal game of the family can reach, and why the others cannot.

use core::fmt;

use super::MAX_SIDE;
use super::bits::{Bits, bottom_mask, has_line};
use super::board::Board;
use crate::Player;

/// A rule of the family that a board breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Violation {
    /// More O than X: O must have moved first.
    OStarted,
    /// At least two more X than O: X moved twice in a row.
    XWentTwice,
    /// Both players have a line: the game ended at the first.
    BothWon,
    /// The winner has a line but play went on: the winner's mark count says someone moved
    /// after the win, or no single last move of the winner could have made all its lines.
    ContinuedAfterWin,
    /// With gravity, a mark above an empty cell.
    Floating,
    /// With gravity, no order of alternating moves from the bottom of each column stacks the
    /// columns as they are (for example one column X, X, O, O from the bottom and nothing
    /// else: O would have had to play above X's first mark).
    NoMoveOrder,
}

impl Violation {
    /// Every violation, in reporting order.
    pub const ALL: [Violation; 6] = [
        Violation::OStarted,
        Violation::XWentTwice,
        Violation::BothWon,
        Violation::ContinuedAfterWin,
        Violation::Floating,
        Violation::NoMoveOrder,
    ];

    /// The stable machine name: `o-started`, `x-went-twice`, `both-won`,
    /// `continued-after-win`, `floating-mark`, `no-move-order`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Violation::OStarted => crate::Violation::OStarted.code(),
            Violation::XWentTwice => crate::Violation::XWentTwice.code(),
            Violation::BothWon => "both-won",
            Violation::ContinuedAfterWin => crate::Violation::ContinuedAfterWin.code(),
            Violation::Floating => "floating-mark",
            Violation::NoMoveOrder => "no-move-order",
        }
    }

    /// The human explanation.
    #[must_use]
    pub const fn message(self) -> &'static str {
        match self {
            // The three rules of 3 × 3 read as the core words them.
            Violation::OStarted => crate::Violation::OStarted.message(),
            Violation::XWentTwice => crate::Violation::XWentTwice.message(),
            Violation::BothWon => "impossible board: both players have a line",
            Violation::ContinuedAfterWin => crate::Violation::ContinuedAfterWin.message(),
            Violation::Floating => "impossible board: a mark floats above an empty cell",
            Violation::NoMoveOrder => {
                "impossible board: no order of alternating moves stacks the columns this way"
            }
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// A set of [`Violation`]s; empty exactly for reachable boards.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Violations(u8);

impl Violations {
    /// No violation.
    pub const NONE: Violations = Violations(0);

    /// Whether the set is empty (the board is reachable).
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `violation` is in the set.
    #[must_use]
    pub const fn contains(self, violation: Violation) -> bool {
        self.0 & (1 << violation as u8) != 0
    }

    /// The set with `violation` added.
    #[must_use]
    pub const fn with(self, violation: Violation) -> Violations {
        Violations(self.0 | (1 << violation as u8))
    }

    /// The violations, in reporting order.
    pub fn iter(self) -> impl Iterator<Item = Violation> {
        Violation::ALL
            .into_iter()
            .filter(move |v| self.contains(*v))
    }
}

impl fmt::Debug for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// Joins the messages with `; `.
impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, violation) in self.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            f.write_str(violation.message())?;
        }
        Ok(())
    }
}

/// A board that is not a reachable position, with every rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{board} is not a reachable position: {violations}")]
pub struct InvalidBoard<const W: usize> {
    /// The board as given.
    pub board: Board<W>,
    /// The rules it breaks (never empty).
    pub violations: Violations,
}

impl<const W: usize> Board<W> {
    /// Every rule of the game this board breaks; empty exactly when a legal game reaches it.
    ///
    /// A board with a winner is reachable when the counts fit the winner moving last and one
    /// of the winner's marks (with gravity, one on top of its column) is in every one of the
    /// winner's lines: the board without it has no line and is itself reachable. With gravity
    /// the columns must also stack in some order of alternating moves (checked by a search
    /// over column heights).
    ///
    /// ```
    /// use tictactoe::mnk::{Board, Rules, Violation};
    /// let board = Board::<1>::parse(Rules::FOUR_BY_FOUR, "XXXX/OOOO/X.../....")?;
    /// let found = board.violations();
    /// assert!(found.contains(Violation::BothWon));
    /// assert!(!found.contains(Violation::OStarted));
    /// # Ok::<(), tictactoe::mnk::ParseBoardError>(())
    /// ```
    #[must_use]
    pub fn violations(&self) -> Violations {
        let rules = self.rules();
        let (xs, os) = (self.count(Player::X), self.count(Player::O));
        let (x_line, o_line) = (self.has_line(Player::X), self.has_line(Player::O));
        let mut found = Violations::NONE;
        if os > xs {
            found = found.with(Violation::OStarted);
        }
        if xs > os + 1 {
            found = found.with(Violation::XWentTwice);
        }
        let floating = rules.gravity() && self.floating();
        if floating {
            found = found.with(Violation::Floating);
        }
        if x_line && o_line {
            return found.with(Violation::BothWon);
        }
        let winner = if x_line {
            Some(Player::X)
        } else if o_line {
            Some(Player::O)
        } else {
            None
        };
        match winner {
            None => {
                if found.is_empty() && rules.gravity() && !stacks_in_order(self) {
                    found = found.with(Violation::NoMoveOrder);
                }
            }
            Some(winner) => {
                let counts_fit = match winner {
                    Player::X => xs == os + 1,
                    Player::O => xs == os,
                };
                if !counts_fit {
                    return found.with(Violation::ContinuedAfterWin);
                }
                let mut any_last = false;
                let mut any_ordered = false;
                for bit in self.last_move_candidates(winner).iter() {
                    let mut before = *self;
                    let mut pieces = before.pieces(winner);
                    pieces.remove(bit);
                    if has_line(pieces, rules) {
                        continue;
                    }
                    any_last = true;
                    if floating || !rules.gravity() {
                        break;
                    }
                    before.remove_bit(bit);
                    if stacks_in_order(&before) {
                        any_ordered = true;
                        break;
                    }
                }
                if !any_last {
                    found = found.with(Violation::ContinuedAfterWin);
                } else if rules.gravity() && !floating && !any_ordered && found.is_empty() {
                    found = found.with(Violation::NoMoveOrder);
                }
            }
        }
        found
    }

    /// Whether a mark sits above an empty cell of its column.
    #[must_use]
    pub fn floating(&self) -> bool {
        let occupied = self.occupied();
        let supported = occupied.shl(1) | bottom_mask::<W>(self.rules());
        !occupied.and_not(supported).is_empty()
    }

    /// The cells that can have been the winner's last move: the winner's marks in a line
    /// (with gravity, on top of their column).
    fn last_move_candidates(&self, winner: Player) -> Bits<W> {
        let mut candidates = self.line_cells() & self.pieces(winner);
        if self.rules().gravity() {
            let above = self.occupied().shr(1);
            candidates = candidates.and_not(above);
        }
        candidates
    }

    fn remove_bit(&mut self, bit: u32) {
        let rules = self.rules();
        if let Some(square) = rules.square_of_bit(bit) {
            self.set(square, None);
        }
    }
}

/// Whether the columns of a gravity board without floating marks stack in an order of
/// alternating moves, X first: a depth-first search over column heights, remembering failed
/// heights in a small direct-mapped table (no allocation; a forgotten failure only costs time).
fn stacks_in_order<const W: usize>(board: &Board<W>) -> bool {
    let rules = board.rules();
    let cols = rules.cols() as usize;
    let mut target = [0u8; MAX_SIDE as usize];
    let mut columns = [0u32; MAX_SIDE as usize]; // bit h: X at height h
    let occupied = board.occupied();
    let x = board.pieces(Player::X);
    for col in 0..cols {
        let base = col as u32 * rules.stride();
        let mut h = 0;
        while h < rules.rows() && occupied.contains(base + h) {
            if x.contains(base + h) {
                columns[col] |= 1 << h;
            }
            h += 1;
        }
        target[col] = h as u8;
    }
    let mut search = OrderSearch {
        cols,
        target,
        columns,
        failed: [u128::MAX; FAILED_SLOTS],
    };
    let mut heights = [0u8; MAX_SIDE as usize];
    let total: u32 = target.iter().map(|&h| u32::from(h)).sum();
    search.run(&mut heights, 0, total)
}

const FAILED_SLOTS: usize = 1024;

struct OrderSearch {
    cols: usize,
    target: [u8; MAX_SIDE as usize],
    columns: [u32; MAX_SIDE as usize],
    failed: [u128; FAILED_SLOTS],
}

impl OrderSearch {
    fn key(&self, heights: &[u8; MAX_SIDE as usize]) -> u128 {
        heights[..self.cols]
            .iter()
            .fold(0u128, |key, &h| (key << 5) | u128::from(h))
    }

    fn run(&mut self, heights: &mut [u8; MAX_SIDE as usize], placed: u32, total: u32) -> bool {
        if placed == total {
            return true;
        }
        let key = self.key(heights);
        let slot = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) as usize
            >> (64 - FAILED_SLOTS.trailing_zeros());
        if self.failed[slot] == key {
            return false;
        }
        let x_to_move = placed.is_multiple_of(2);
        for col in 0..self.cols {
            let h = heights[col];
            if h < self.target[col] && ((self.columns[col] >> h) & 1 == 1) == x_to_move {
                heights[col] += 1;
                let done = self.run(heights, placed + 1, total);
                heights[col] -= 1;
                if done {
                    return true;
                }
            }
        }
        self.failed[slot] = key;
        false
    }
}
