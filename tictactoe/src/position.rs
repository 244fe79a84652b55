//! Validation: the 5,478 reachable positions among the 19,683 grids.

use core::fmt;

use crate::{Bitboard, Board, Line, Player};

/// A rule of the game that a board breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Violation {
    /// More O than X: O must have moved first.
    OStarted,
    /// At least two more X than O: X moved twice in a row.
    XWentTwice,
    /// Play went on after a line was complete: both players have a line, the winner's mark
    /// count says someone moved after the win, or the winner's lines share no cell (no single
    /// last move made them all).
    ContinuedAfterWin,
}

impl Violation {
    /// Every violation, in reporting order.
    pub const ALL: [Violation; 3] = [
        Violation::OStarted,
        Violation::XWentTwice,
        Violation::ContinuedAfterWin,
    ];

    /// The stable machine name: `o-started`, `x-went-twice`, `continued-after-win`.
    #[must_use]
    #[inline]
    pub const fn code(self) -> &'static str {
        match self {
            Violation::OStarted => "o-started",
            Violation::XWentTwice => "x-went-twice",
            Violation::ContinuedAfterWin => "continued-after-win",
        }
    }

    /// The human explanation.
    #[must_use]
    #[inline]
    pub const fn message(self) -> &'static str {
        match self {
            Violation::OStarted => "wrong turn order: O started",
            Violation::XWentTwice => "wrong turn order: X went twice",
            Violation::ContinuedAfterWin => {
                "impossible board: game should have ended after the game was won"
            }
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// A set of [`Violation`]s; empty exactly for reachable positions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Violations(u8);

impl Violations {
    /// No violation.
    pub const NONE: Violations = Violations(0);

    /// Whether the set is empty.
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `violation` is in the set.
    #[must_use]
    #[inline]
    pub const fn contains(self, violation: Violation) -> bool {
        self.0 >> violation as u8 & 1 != 0
    }

    #[must_use]
    #[inline]
    const fn with(self, violation: Violation) -> Violations {
        Violations(self.0 | 1 << violation as u8)
    }

    /// The violations in reporting order.
    #[inline]
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

/// The cells shared by all lines of `pieces`, or `FULL` when it has no line.
#[inline]
const fn common_cells_of_lines(pieces: Bitboard) -> Bitboard {
    let mut common = Bitboard::FULL;
    let mut l = 0;
    while l < 8 {
        let line = Line::ALL[l].cells();
        if pieces.is_superset(line) {
            common = Bitboard::from_bits_truncate(common.bits() & line.bits());
        }
        l += 1;
    }
    common
}

impl Board {
    /// Every rule of the game this board breaks; empty exactly when the board can arise in play.
    ///
    /// ```
    /// use tictactoe::{Board, Violation};
    /// let board: Board = "XXX/OOO/...".parse()?;
    /// let violations = board.violations();
    /// assert!(violations.contains(Violation::ContinuedAfterWin));
    /// assert!(!violations.contains(Violation::OStarted));
    /// # Ok::<(), tictactoe::ParseBoardError>(())
    /// ```
    #[must_use]
    pub const fn violations(self) -> Violations {
        let (xs, os) = (self.x().count(), self.o().count());
        let (x_line, o_line) = (self.x().has_line(), self.o().has_line());
        let mut found = Violations::NONE;
        if os > xs {
            found = found.with(Violation::OStarted);
        }
        if xs > os + 1 {
            found = found.with(Violation::XWentTwice);
        }
        // Spelled as the rules are stated (docs/encodings.md#validity-rules), not minimised.
        #[allow(clippy::nonminimal_bool)]
        let continued = (x_line && o_line)
            || (x_line && xs != os + 1)
            || (o_line && xs != os)
            || common_cells_of_lines(self.x()).is_empty()
            || common_cells_of_lines(self.o()).is_empty();
        if continued {
            found = found.with(Violation::ContinuedAfterWin);
        }
        found
    }
}

/// A board that is not a reachable position, with every rule it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{board} is not a reachable position: {violations}")]
pub struct InvalidBoard {
    /// The board as given.
    pub board: Board,
    /// The rules it breaks (never empty).
    pub violations: Violations,
}

/// The state of a game at a position.
///
/// `Won` comes first so that the compiler's layout (today: `Won(X)` 0, `Won(O)` 1, `Ongoing`
/// 2, `Draw` 3) is the code [`Position::status`] computes, which then costs no conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The player has a line.
    Won(Player),
    /// No line and an empty cell: someone is to move.
    Ongoing,
    /// The board is full and nobody has a line.
    Draw,
}

impl Status {
    /// The winner, if the game is won.
    #[must_use]
    #[inline]
    pub const fn winner(self) -> Option<Player> {
        match self {
            Status::Won(player) => Some(player),
            _ => None,
        }
    }

    /// `ongoing`, `x-won`, `o-won` or `draw`.
    #[must_use]
    #[inline]
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Won(Player::X) => "x-won",
            Status::Won(Player::O) => "o-won",
            Status::Draw => "draw",
        }
    }

    /// Whether the game is over.
    #[must_use]
    #[inline]
    pub const fn is_finished(self) -> bool {
        !matches!(self, Status::Ongoing)
    }

    /// The status of the low two bits of `code`: 0 `Won(X)`, 1 `Won(O)`, 2 `Ongoing`,
    /// 3 `Draw`. That is the compiler's layout of `Status` today (see the type), so this
    /// `match` compiles to a mask; with another layout it stays right, only slower.
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Status {
        match code & 3 {
            0 => Status::Won(Player::X),
            1 => Status::Won(Player::O),
            2 => Status::Ongoing,
            _ => Status::Draw,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A position's status as two bytes XORed, one looked up by X's cells ([`BY_X`]) and one by
/// O's ([`BY_O`]), read by [`Status::from_code`].
///
/// In a reachable position at most one player holds a line, and X holds five cells only on
/// the full board (O moved last on a board where O won, so X has at most four then). X's byte
/// decides every case but O's line: `Won(X)` (0) when X holds a line, `Draw` (3) when X holds
/// five cells without one, `Ongoing` (2) otherwise; O's byte is 3 when O holds a line, which
/// turns `Ongoing` (2) into `Won(O)` (1), and 0 otherwise. Two loads and an XOR: no count, no
/// branch.
const fn side_table(o_side: bool) -> [TwoBits; Bitboard::COUNT] {
    let mut table = [TwoBits::new(0); Bitboard::COUNT];
    let mut bits = 0;
    while bits < Bitboard::COUNT {
        let set = Bitboard::from_bits_truncate(bits as u16);
        table[bits] = TwoBits::new(match (o_side, set.has_line(), set.count() == 5) {
            (false, true, _) => 0,
            (false, false, true) => 3,
            (false, false, false) => 2,
            (true, true, _) => 3,
            (true, false, _) => 0,
        });
        bits += 1;
    }
    table
}

/// A number `0..4` whose type says so: XOR two of them and the compiler knows the result is
/// below 4, so [`Status::from_code`]'s `& 3` compiles to nothing.
#[derive(Clone, Copy)]
#[repr(u8)]
enum TwoBits {
    Zero,
    One,
    Two,
    Three,
}

impl TwoBits {
    /// The low two bits of `bits`.
    #[inline]
    const fn new(bits: u8) -> TwoBits {
        match bits & 3 {
            0 => TwoBits::Zero,
            1 => TwoBits::One,
            2 => TwoBits::Two,
            _ => TwoBits::Three,
        }
    }
}

/// X's half of a position's status code (see [`side_table`]).
const BY_X: [TwoBits; Bitboard::COUNT] = side_table(false);
/// O's half of a position's status code (see [`side_table`]).
const BY_O: [TwoBits; Bitboard::COUNT] = side_table(true);

/// For each 9-bit set: `Some(player)` when the set holds a line, else `None`. Two of these,
/// one per player, make [`Position::winner`]: X's entry, or else O's, which the compiler turns
/// into a compare and a conditional move (`Option<Player>`'s `None` is the byte 2). Reading the
/// winner out of [`side_table`]'s code instead costs a third, dependent load (a 4-entry table)
/// or a compare-and-select chain: every `match` on the code tried compiled to one of the two.
const fn winner_table(player: Player) -> [Option<Player>; Bitboard::COUNT] {
    let mut table = [None; Bitboard::COUNT];
    let mut bits = 0;
    while bits < Bitboard::COUNT {
        if Bitboard::from_bits_truncate(bits as u16).has_line() {
            table[bits] = Some(player);
        }
        bits += 1;
    }
    table
}

/// `Some(X)` for X's sets that hold a line (see [`winner_table`]).
const WINNER_BY_X: [Option<Player>; Bitboard::COUNT] = winner_table(Player::X);
/// `Some(O)` for O's sets that hold a line (see [`winner_table`]).
const WINNER_BY_O: [Option<Player>; Bitboard::COUNT] = winner_table(Player::O);

/// One of the 5,478 positions that can arise in play, the empty board included.
///
/// The only way to a `Position` is [`TryFrom<Board>`], which checks every rule; everything that
/// takes a `Position` relies on that and never checks again.
///
/// ```
/// use tictactoe::{Board, Player, Position, Status};
/// let position = Position::try_from("XO./XO./X..".parse::<Board>()?)?;
/// assert_eq!(position.status(), Status::Won(Player::X));
/// assert_eq!(position.to_move(), None);
/// assert!(Position::try_from("OO./.../...".parse::<Board>()?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Position(Board);

impl Position {
    /// The empty board, X to move.
    pub const EMPTY: Position = Position(Board::EMPTY);
    /// Number of reachable positions, the empty board included.
    pub const COUNT: usize = 5_478;
    /// Bytes of the four tables behind [`Position::status`] and [`Position::winner`].
    pub(crate) const STATUS_TABLE_BYTES: usize = 4 * Bitboard::COUNT;

    /// Wraps a board known to be reachable.
    ///
    /// Callers inside the crate guarantee `board.violations().is_empty()`; debug builds check.
    #[inline]
    pub(crate) const fn from_board_unchecked(board: Board) -> Position {
        debug_assert!(board.violations().is_empty());
        Position(board)
    }

    /// The board.
    #[must_use]
    #[inline]
    pub const fn board(self) -> Board {
        self.0
    }

    /// The player who made the last move, or `None` on the empty board.
    #[must_use]
    #[inline]
    pub const fn last_mover(self) -> Option<Player> {
        if self.0.occupied().is_empty() {
            None
        } else {
            Some(self.side_to_move().opponent())
        }
    }

    /// The player whose turn it would be by the mark count, finished or not: X when the count
    /// is even. The parity comes from one byte of a table (or `popcnt`), never a software count.
    #[must_use]
    #[inline]
    pub const fn side_to_move(self) -> Player {
        if self.0.occupied().count() & 1 == 0 {
            Player::X
        } else {
            Player::O
        }
    }

    /// The player to move, or `None` when the game is over.
    #[must_use]
    #[inline]
    pub const fn to_move(self) -> Option<Player> {
        match self.status() {
            Status::Ongoing => Some(self.side_to_move()),
            _ => None,
        }
    }

    /// The winner, if any: one table byte per player, X's unless it is `None`. No branch, no
    /// count.
    #[must_use]
    #[inline]
    pub const fn winner(self) -> Option<Player> {
        // Both loads first: with O's inside the `None` arm the compiler branches on X's byte.
        let (x, o) = (
            WINNER_BY_X[self.0.x().bits() as usize],
            WINNER_BY_O[self.0.o().bits() as usize],
        );
        match x {
            Some(player) => Some(player),
            None => o,
        }
    }

    /// Ongoing, won or drawn: one table byte per player and an XOR. No branch, no count.
    #[must_use]
    #[inline]
    pub const fn status(self) -> Status {
        Status::from_code(self.status_code())
    }

    /// The XOR of X's and O's [`side_table`] bytes.
    #[inline]
    const fn status_code(self) -> u8 {
        BY_X[self.0.x().bits() as usize] as u8 ^ BY_O[self.0.o().bits() as usize] as u8
    }

    /// All 5,478 positions, in increasing order of their base-3 code.
    pub fn all() -> impl Iterator<Item = Position> + Clone {
        Board::all().filter_map(|board| Position::try_from(board).ok())
    }
}

impl TryFrom<Board> for Position {
    type Error = InvalidBoard;

    #[inline]
    fn try_from(board: Board) -> Result<Position, InvalidBoard> {
        let violations = board.violations();
        if violations.is_empty() {
            Ok(Position(board))
        } else {
            Err(InvalidBoard { board, violations })
        }
    }
}

impl From<Position> for Board {
    #[inline]
    fn from(position: Position) -> Board {
        position.0
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.0)
    }
}
