//! Validation: the rules a [`Setup`] must keep to be a [`Position`].

use core::fmt;

use super::{Position, Setup};
use crate::{Bitboard, Board, Cell, Player};

/// A rule of the game that a setup breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Violation {
    /// More O than X on the whole board: O must have moved first.
    OStarted,
    /// At least two more X than O: X moved twice in a row.
    XWentTwice,
    /// Both players have a line in this small board (it closes at the first).
    BothLines(Cell),
    /// The winner of this small board has lines that share no cell: play went on there after
    /// it was won.
    ContinuedAfterBoardWon(Cell),
    /// Both players have three won boards in a row.
    MetaBothLines,
    /// The game's winner has lines of won boards that share no board: play went on after the
    /// game was won.
    ContinuedAfterGameWon,
    /// The game is won by the player who did not make the last move (by the mark counts).
    WinnerMovedFirst,
    /// The board to play is won or full.
    NextClosed(Cell),
    /// The game is over, yet a board to play is named.
    NextAfterGameOver,
    /// No mark of the last mover can have been the last move: none sits in a cell that sends
    /// to the board to play (or, when the mover chooses, to a closed board) in a board that
    /// was open before it (and, when the game is won, completes the winning line).
    NoLastMove,
}

impl Violation {
    /// The slot of this violation in a [`Violations`] set.
    const fn slot(self) -> u32 {
        match self {
            Violation::OStarted => 0,
            Violation::XWentTwice => 1,
            Violation::BothLines(b) => 2 + b.index() as u32,
            Violation::ContinuedAfterBoardWon(b) => 11 + b.index() as u32,
            Violation::MetaBothLines => 20,
            Violation::ContinuedAfterGameWon => 21,
            Violation::WinnerMovedFirst => 22,
            Violation::NextClosed(b) => 23 + b.index() as u32,
            Violation::NextAfterGameOver => 32,
            Violation::NoLastMove => 33,
        }
    }

    /// The violation in `slot`.
    fn from_slot(slot: u32) -> Violation {
        let board = |first: u32| Cell::ALL[(slot - first) as usize];
        match slot {
            0 => Violation::OStarted,
            1 => Violation::XWentTwice,
            2..=10 => Violation::BothLines(board(2)),
            11..=19 => Violation::ContinuedAfterBoardWon(board(11)),
            20 => Violation::MetaBothLines,
            21 => Violation::ContinuedAfterGameWon,
            22 => Violation::WinnerMovedFirst,
            23..=31 => Violation::NextClosed(board(23)),
            32 => Violation::NextAfterGameOver,
            _ => Violation::NoLastMove,
        }
    }

    /// The stable machine name, e.g. `both-lines`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Violation::OStarted => "o-started",
            Violation::XWentTwice => "x-went-twice",
            Violation::BothLines(_) => "both-lines",
            Violation::ContinuedAfterBoardWon(_) => "continued-after-board-won",
            Violation::MetaBothLines => "meta-both-lines",
            Violation::ContinuedAfterGameWon => "continued-after-game-won",
            Violation::WinnerMovedFirst => "winner-moved-first",
            Violation::NextClosed(_) => "next-closed",
            Violation::NextAfterGameOver => "next-after-game-over",
            Violation::NoLastMove => "no-last-move",
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::OStarted => f.write_str("wrong turn order: O started"),
            Violation::XWentTwice => f.write_str("wrong turn order: X went twice"),
            Violation::BothLines(b) => write!(f, "small board {b}: both players have a line"),
            Violation::ContinuedAfterBoardWon(b) => {
                write!(f, "small board {b}: play went on after it was won")
            }
            Violation::MetaBothLines => f.write_str("both players have three won boards in a row"),
            Violation::ContinuedAfterGameWon => f.write_str("play went on after the game was won"),
            Violation::WinnerMovedFirst => {
                f.write_str("the game's winner did not make the last move")
            }
            Violation::NextClosed(b) => write!(f, "the board to play, {b}, is closed"),
            Violation::NextAfterGameOver => {
                f.write_str("the game is over, yet a board to play is named")
            }
            Violation::NoLastMove => {
                f.write_str("no mark of the last mover can have been the last move")
            }
        }
    }
}

/// A set of [`Violation`]s; empty exactly for the setups that are [`Position`]s.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Violations(u64);

impl Violations {
    /// No violation.
    pub const NONE: Violations = Violations(0);

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `violation` is in the set.
    #[must_use]
    pub const fn contains(self, violation: Violation) -> bool {
        self.0 >> violation.slot() & 1 != 0
    }

    /// Number of violations.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    fn insert(&mut self, violation: Violation) {
        self.0 |= 1 << violation.slot();
    }

    /// The violations in reporting order.
    pub fn iter(self) -> impl Iterator<Item = Violation> {
        (0..64)
            .filter(move |slot| self.0 >> slot & 1 != 0)
            .map(Violation::from_slot)
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
            write!(f, "{violation}")?;
        }
        Ok(())
    }
}

/// A setup that is not a position, with every rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a position of ultimate tic-tac-toe: {violations}")]
pub struct InvalidSetup {
    /// The setup as given.
    pub setup: Setup,
    /// The rules it breaks (never empty).
    pub violations: Violations,
}

/// The cells shared by all lines of `set` (all nine when it has none).
fn common_of_lines(set: Bitboard) -> u16 {
    crate::Line::ALL
        .iter()
        .filter(|line| set.is_superset(line.cells()))
        .fold(0x1ff, |common, line| common & line.cells().bits())
}

/// One side of the meta-board's facts, per player.
struct Sides {
    /// Boards won by each player (X first).
    won: [u16; 2],
    /// Boards neither won nor full.
    open: u16,
}

fn sides(boards: &[Board; 9]) -> Sides {
    let mut won = [0u16; 2];
    let mut open = 0u16;
    for (b, board) in boards.iter().enumerate() {
        let (x, o) = (board.x().has_line(), board.o().has_line());
        if x {
            won[0] |= 1 << b;
        }
        if o && !x {
            won[1] |= 1 << b;
        }
        if !x && !o && !board.is_full() {
            open |= 1 << b;
        }
    }
    Sides { won, open }
}

impl Setup {
    /// Every rule this setup breaks; empty exactly when it is a [`Position`].
    ///
    /// The rules are those of `docs/ultimate.md#validity`: turn order by the mark counts; in
    /// each small board, not both players with a line and the winner's lines sharing a cell;
    /// the same two on the meta-board, and a winner who moved last; a board to play that is
    /// open, and none once the game is over; and a mark of the last mover that can have been
    /// the last move.
    ///
    /// ```
    /// use tictactoe::ultimate::{Setup, Violation};
    /// let e = ".........";
    /// let setup: Setup = format!("XX......./{} *", [e; 8].join("/")).parse()?;
    /// assert!(setup.violations().contains(Violation::XWentTwice));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn violations(&self) -> Violations {
        let mut found = Violations::NONE;
        let (xs, os) = self.counts();
        if os > xs {
            found.insert(Violation::OStarted);
        }
        if xs > os + 1 {
            found.insert(Violation::XWentTwice);
        }
        let mut common = [0x1ffu16; 9];
        for (b, board) in self.boards.iter().enumerate() {
            let cell = Cell::ALL[b];
            let (x, o) = (board.x(), board.o());
            if x.has_line() && o.has_line() {
                found.insert(Violation::BothLines(cell));
            }
            for set in [x, o] {
                if set.has_line() {
                    common[b] = common_of_lines(set);
                    if common[b] == 0 {
                        found.insert(Violation::ContinuedAfterBoardWon(cell));
                    }
                }
            }
        }
        let Sides { won, open } = sides(&self.boards);
        let meta = [
            Bitboard::from_bits_truncate(won[0]),
            Bitboard::from_bits_truncate(won[1]),
        ];
        let (x_wins, o_wins) = (meta[0].has_line(), meta[1].has_line());
        if x_wins && o_wins {
            found.insert(Violation::MetaBothLines);
        }
        let last = match (xs + os, xs > os) {
            (0, _) => None,
            (_, true) => Some(Player::X),
            (_, false) => Some(Player::O),
        };
        let winner = if x_wins {
            Some(Player::X)
        } else if o_wins {
            Some(Player::O)
        } else {
            None
        };
        let mut meta_common = 0x1ffu16;
        if let Some(w) = winner {
            meta_common = common_of_lines(meta[w as usize]);
            if meta_common == 0 {
                found.insert(Violation::ContinuedAfterGameWon);
            }
            if last != Some(w) {
                found.insert(Violation::WinnerMovedFirst);
            }
        }
        let over = winner.is_some() || open == 0;
        match self.next {
            Some(_) if over => found.insert(Violation::NextAfterGameOver),
            Some(b) if open >> b.index() & 1 == 0 => found.insert(Violation::NextClosed(b)),
            _ => {}
        }
        // The last move: a mark of the last mover at (a, c), in a board open before it.
        let can_be_last = |a: usize, c: usize, mover: Player| {
            let board = self.boards[a];
            if board.at(Cell::ALL[c]) != Some(mover) {
                return false;
            }
            let p = mover as usize;
            let a_won_by_mover = won[p] >> a & 1 != 0;
            if won[1 - p] >> a & 1 != 0 || (a_won_by_mover && common[a] >> c & 1 == 0) {
                return false;
            }
            if winner.is_some() {
                return a_won_by_mover && meta_common >> a & 1 != 0;
            }
            over || match self.next {
                Some(b) => b.index() == c,
                None => open >> c & 1 == 0,
            }
        };
        let has_last = match last {
            None => self.next.is_none(),
            Some(mover) => (0..81).any(|i| can_be_last(i / 9, i % 9, mover)),
        };
        if !has_last {
            found.insert(Violation::NoLastMove);
        }
        found
    }
}

impl TryFrom<Setup> for Position {
    type Error = InvalidSetup;

    fn try_from(setup: Setup) -> Result<Position, InvalidSetup> {
        let violations = setup.violations();
        if violations.is_empty() {
            Ok(Position::from_parts(setup.boards, setup.next))
        } else {
            Err(InvalidSetup { setup, violations })
        }
    }
}
