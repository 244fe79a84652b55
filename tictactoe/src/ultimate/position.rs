//! The position: nine small boards as 9-bit sets per player, the meta-board of won boards, the
//! open boards and the board to play; play, undo, legal moves and status.

use core::fmt;

use super::{Move, Moves, Setup};
use crate::{Bitboard, Board, Cell, Player, Status};

/// The value of [`Position::next`]'s byte when the mover may choose any open board.
pub(super) const ANY: u8 = 9;
/// The nine boards (or cells) as a set.
pub(super) const FULL: u16 = 0x1ff;
/// A set of the 81 cells (bit `9 * board + cell`) kept as two 64-bit words, each read and
/// written on its own. (As one `u128` field it was written in halves and read whole, or the
/// reverse, which defeats store forwarding: in `peers/` play + status took 16 ns instead of 4
/// with `-C target-cpu=native`, undo 47.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Cells([u64; 2]);

impl Cells {
    /// No cell.
    pub(super) const NONE: Cells = Cells([0; 2]);

    /// The 9-bit set `set` of board `b`.
    #[inline(always)]
    const fn of_board(b: usize, set: u16) -> Cells {
        let wide = (set as u128) << (9 * b);
        Cells([wide as u64, (wide >> 64) as u64])
    }

    /// Removes cell `i` (`9 * board + cell`), one word touched.
    #[inline(always)]
    const fn remove(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }

    /// Removes the cells of `other`.
    #[inline(always)]
    const fn remove_all(&mut self, other: Cells) {
        self.0[0] &= !other.0[0];
        self.0[1] &= !other.0[1];
    }

    /// Adds the cells of `other`.
    #[inline(always)]
    const fn insert_all(&mut self, other: Cells) {
        self.0[0] |= other.0[0];
        self.0[1] |= other.0[1];
    }

    /// The cells also in `mask`, as a `u128` (built in registers).
    #[inline(always)]
    const fn masked(self, mask: Cells) -> u128 {
        ((self.0[1] & mask.0[1]) as u128) << 64 | (self.0[0] & mask.0[0]) as u128
    }

    /// Number of cells.
    #[inline(always)]
    const fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones()
    }
}

/// `BOARD_CELLS[b]`: the cells of board `b`; `BOARD_CELLS[ANY]`: all 81 cells. Masking the
/// open cells with the entry of the board to play is the whole of move generation.
const BOARD_CELLS: [Cells; 10] = {
    let mut table = [Cells([u64::MAX, (1 << (81 - 64)) - 1]); 10];
    let mut b = 0;
    while b < 9 {
        table[b] = Cells::of_board(b, FULL);
        b += 1;
    }
    table
};

/// `WINS_WITH[set]`: the cells `c` for which `set` with `c` added holds a line (all nine when
/// `set` has one already), 1 KiB built at compile time from the core's line table. For a
/// player's marks in a small board: the cells that win that board; for a player's won boards:
/// the boards whose win completes a line of the meta-board. One table for both levels.
pub(super) static WINS_WITH: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut set = 0;
    while set < 512 {
        let mut c = 0;
        while c < 9 {
            if has_line(set as u16 | 1 << c) {
                table[set] |= 1 << c;
            }
            c += 1;
        }
        set += 1;
    }
    table
};

/// An index below 9 (a board or a cell) whose range the compiler knows: indexing an array of
/// nine with it needs no bound check.
#[derive(Clone, Copy)]
#[repr(u8)]
enum Nine {
    I0,
    I1,
    I2,
    I3,
    I4,
    I5,
    I6,
    I7,
    I8,
}

impl Nine {
    /// `i` (below 9) as a `Nine`.
    const fn new(i: usize) -> Nine {
        match i {
            0 => Nine::I0,
            1 => Nine::I1,
            2 => Nine::I2,
            3 => Nine::I3,
            4 => Nine::I4,
            5 => Nine::I5,
            6 => Nine::I6,
            7 => Nine::I7,
            _ => Nine::I8,
        }
    }
}

/// A move's board and cell as indices and as one-bit sets (8 bytes; see [`PARTS`]).
#[derive(Clone, Copy)]
#[repr(C, align(8))]
struct Parts {
    board: Nine,
    cell: Nine,
    board_bit: u16,
    cell_bit: u16,
}

/// `PARTS[m]`: move `m`'s board and cell, and the two as one-bit sets (648 bytes): one load in
/// place of the division by 9 and two variable shifts.
static PARTS: [Parts; 81] = {
    let mut table = [Parts {
        board: Nine::I0,
        cell: Nine::I0,
        board_bit: 1,
        cell_bit: 1,
    }; 81];
    let mut m = 0;
    while m < 81 {
        let (b, c) = (m / 9, m % 9);
        table[m] = Parts {
            board: Nine::new(b),
            cell: Nine::new(c),
            board_bit: 1 << b,
            cell_bit: 1 << c,
        };
        m += 1;
    }
    table
};

/// Bytes of [`WINS_WITH`] and [`PARTS`].
pub(super) const PLAY_TABLE_BYTES: usize =
    core::mem::size_of::<[u16; 512]>() + core::mem::size_of::<[Parts; 81]>();

/// A move that cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game is won or drawn: nobody is to move.
    #[error("the game is over: {status}")]
    GameOver {
        /// How it ended.
        status: Status,
    },
    /// The move is in another board than the one the last move sends the mover to.
    #[error("move {played} is in board {}, but the last move sends the mover to board {next}", played.board())]
    WrongBoard {
        /// The move asked for.
        played: Move,
        /// The board the mover must play in.
        next: Cell,
    },
    /// The move's board is won or full.
    #[error("move {played} is in board {}, which is {status}", played.board())]
    ClosedBoard {
        /// The move asked for.
        played: Move,
        /// The small board's status (won or drawn).
        status: Status,
    },
    /// The cell already holds a mark.
    #[error("move {played}: the cell is occupied by {by}")]
    Occupied {
        /// The move asked for.
        played: Move,
        /// Who holds it.
        by: Player,
    },
}

/// What [`Position::undo`] needs to take a move back: the move, and the fields the move may
/// change as they were before it (24 bytes: the open cells, the board to play, the side to
/// move, the count of open cells, the open boards, the mover's won boards), so that taking
/// it back writes them without a branch or a recount. (It was the move and the board to play,
/// 2 bytes, and `undo` rebuilt the rest: play + status + undo in place took 8.7 ns a move in
/// `peers/` against 5.5 now.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Undo {
    open_cells: Cells,
    played: Move,
    next: u8,
    side: Player,
    free: u8,
    open: u16,
    /// The mover's won boards.
    won: u16,
}

impl Undo {
    /// The move this takes back.
    #[must_use]
    #[inline]
    pub const fn played(self) -> Move {
        self.played
    }
}

/// A position of ultimate tic-tac-toe that can arise in play from the empty board.
///
/// It holds each player's marks in each small board as a 9-bit set (a [`Bitboard`] of the 3×3
/// core: bit `i` is cell `i`), the boards each player has won, the open boards (neither won nor
/// full), their empty cells as one 81-bit set (the legal moves when the mover chooses) and the
/// board the side to move must play in. Playing a move costs one bit test in a 1 KiB table of
/// winning cells per 9-bit set (built from the core's line table, [`Bitboard::has_line`]) for
/// the small board, and a second one in the same table, for the meta-board, only when the move
/// wins the small board.
///
/// It is 64 bytes aligned to 64: one cache line, so a copy is never split across two (in
/// `peers/`, playing a move on a copy took 4.5 ns in one process and 9 in another, with the
/// same binary, before the alignment).
///
/// The only ways to a `Position` are [`Position::EMPTY`] and the moves from it, and
/// [`TryFrom<Setup>`](Position#impl-TryFrom<Setup>-for-Position), which checks every rule of
/// `docs/ultimate.md#validity`.
///
/// ```
/// use tictactoe::ultimate::{Move, Position};
/// use tictactoe::{Cell, Status};
///
/// let mut position = Position::EMPTY;
/// assert_eq!(position.legal_moves().count(), 81);
/// // X plays the centre cell of the top-left board: O must play in the centre board.
/// let undo = position.play(Move::new(Cell::new(0)?, Cell::new(4)?))?;
/// assert_eq!(position.next_board(), Some(Cell::new(4)?));
/// assert_eq!(position.legal_moves().count(), 9);
/// assert_eq!(position.status(), Status::Ongoing);
/// position.undo(undo);
/// assert_eq!(position, Position::EMPTY);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(align(64))]
pub struct Position {
    /// `marks[p][b]`: player `p`'s cells in board `b` (X is 0).
    pub(super) marks: [[u16; 9]; 2],
    /// `won[p]`: the boards player `p` has won.
    pub(super) won: [u16; 2],
    /// The boards neither won nor full.
    pub(super) open: u16,
    /// The empty cells of the open boards, bit `9 * board + cell` (none once the game is over):
    /// the legal moves when the mover may choose the board.
    pub(super) open_cells: Cells,
    /// The board to play, or [`ANY`] (the mover chooses; also after the game ended).
    pub(super) next: u8,
    /// The side to move (the last mover once the game is over).
    pub(super) side: Player,
    /// The meta-board's status.
    pub(super) status: Status,
    /// Marks on the board.
    pub(super) plies: u8,
    /// The number of `open_cells`: of legal moves when the mover chooses.
    pub(super) free: u8,
}

impl Default for Position {
    fn default() -> Position {
        Position::EMPTY
    }
}

/// The index of a player in the per-player arrays.
#[inline(always)]
pub(super) const fn index_of(player: Player) -> usize {
    match player {
        Player::X => 0,
        Player::O => 1,
    }
}

/// Whether the 9-bit set holds a line: the core's 64-byte table.
#[inline(always)]
pub(super) const fn has_line(set: u16) -> bool {
    Bitboard::from_bits_truncate(set).has_line()
}

/// One in each byte of a word.
const BYTES_ONE: u64 = 0x0101_0101_0101_0101;
/// The top bit of each byte.
const BYTES_TOP: u64 = 0x8080_8080_8080_8080;

/// `SELECT_IN_BYTE[byte][k]`: the bit index of the `k`-th set bit of `byte` (2 KiB, computed
/// at compile time; entries past the byte's count are 0).
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0u8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 != 0 {
                table[byte][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The running counts of set bits of `word` by byte: byte `i` holds the number in bytes
/// `0..=i` (at most 64, so no byte carries); the top byte is the count of the word.
#[inline(always)]
const fn byte_sums(word: u64) -> u64 {
    let mut s = word - (word >> 1 & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + (s >> 2 & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    s.wrapping_mul(BYTES_ONE)
}

/// The bit index of the `k`-th lowest set bit of `word` (`k` below its count), without a
/// loop (Vigna's broadword select): the bytes whose running count is at most `k`, marked by
/// one subtraction in every byte at once and counted by a multiply, are the bytes before the
/// one holding it; a table finds the bit in that byte.
#[inline(always)]
fn select64(word: u64, k: u64) -> usize {
    let sums = byte_sums(word);
    let at_most = (((k * BYTES_ONE) | BYTES_TOP) - sums) & BYTES_TOP;
    let byte = ((at_most >> 7).wrapping_mul(BYTES_ONE) >> 56) as u32;
    let before = (sums << 8) >> (8 * byte) & 0xFF;
    let bits = (word >> (8 * byte) & 0xFF) as usize;
    8 * byte as usize + SELECT_IN_BYTE[bits][((k - before) & 7) as usize] as usize
}

impl Position {
    /// The empty board: X to move, in any board.
    pub const EMPTY: Position = Position {
        marks: [[0; 9]; 2],
        won: [0; 2],
        open: FULL,
        open_cells: BOARD_CELLS[ANY as usize],
        next: ANY,
        side: Player::X,
        status: Status::Ongoing,
        plies: 0,
        free: 81,
    };

    /// Builds a position from its boards and board to play, deriving everything else; the
    /// caller has checked the rules (see `validate.rs`).
    pub(super) fn from_parts(boards: [Board; 9], next: Option<Cell>) -> Position {
        let mut position = Position::EMPTY;
        let mut plies = 0;
        for (b, board) in boards.iter().enumerate() {
            let (x, o) = (board.x().bits(), board.o().bits());
            position.marks[0][b] = x;
            position.marks[1][b] = o;
            plies += board.marks();
            if has_line(x) {
                position.won[0] |= 1 << b;
            } else if has_line(o) {
                position.won[1] |= 1 << b;
            }
            if has_line(x) || has_line(o) || x | o == FULL {
                position.open &= !(1 << b);
            }
        }
        position.plies = plies as u8;
        position.side = if plies % 2 == 0 { Player::X } else { Player::O };
        let meta = Board::from_bitboards(
            Bitboard::from_bits_truncate(position.won[0]),
            Bitboard::from_bits_truncate(position.won[1]),
        )
        .expect("a board is won by one player");
        if let Some(winner) = [Player::X, Player::O]
            .into_iter()
            .find(|p| meta.has_line(*p))
        {
            position.status = Status::Won(winner);
            position.side = winner;
        } else if position.open == 0 {
            position.status = Status::Draw;
            position.side = position.side.opponent();
        }
        position.next = match next {
            Some(cell) if !position.status.is_finished() => cell.index() as u8,
            _ => ANY,
        };
        position.count_open_cells();
        position
    }

    /// Sets `open_cells` and `free` from the marks, the open boards and the status.
    #[cold]
    #[inline(never)]
    fn count_open_cells(&mut self) {
        self.open_cells = Cells::NONE;
        if !self.status.is_finished() {
            for b in 0..9 {
                if self.open >> b & 1 != 0 {
                    self.open_cells
                        .insert_all(Cells::of_board(b, self.empty_in(b)));
                }
            }
        }
        self.free = self.open_cells.count() as u8;
    }

    /// The board and board to play as plain data.
    #[must_use]
    pub fn to_setup(&self) -> Setup {
        Setup {
            boards: core::array::from_fn(|b| self.board(Cell::ALL[b])),
            next: self.next_board(),
        }
    }

    /// Small board `board` as a 3×3 [`Board`] of the core.
    #[must_use]
    #[inline]
    pub fn board(&self, board: Cell) -> Board {
        let b = board.index();
        Board::from_bitboards(
            Bitboard::from_bits_truncate(self.marks[0][b]),
            Bitboard::from_bits_truncate(self.marks[1][b]),
        )
        .expect("the players' sets are disjoint")
    }

    /// The mark at `cell` of small board `board`.
    #[must_use]
    #[inline]
    pub fn at(&self, board: Cell, cell: Cell) -> Option<Player> {
        self.board(board).at(cell)
    }

    /// The meta-board: each player's won boards, as a 3×3 [`Board`] (a drawn board is empty
    /// there, as it counts for nobody).
    #[must_use]
    #[inline]
    pub fn meta(&self) -> Board {
        Board::from_bitboards(
            Bitboard::from_bits_truncate(self.won[0]),
            Bitboard::from_bits_truncate(self.won[1]),
        )
        .expect("a board is won by one player")
    }

    /// The status of small board `board`: won, drawn (full without a line) or ongoing.
    #[must_use]
    #[inline]
    pub const fn board_status(&self, board: Cell) -> Status {
        let bit = 1 << board.index();
        if self.won[0] & bit != 0 {
            Status::Won(Player::X)
        } else if self.won[1] & bit != 0 {
            Status::Won(Player::O)
        } else if self.open & bit == 0 {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }

    /// The boards still open (neither won nor full).
    #[must_use]
    #[inline]
    pub const fn open_boards(&self) -> Bitboard {
        Bitboard::from_bits_truncate(self.open)
    }

    /// The status of the game: won by three won boards in a row, drawn when every board is
    /// closed without that, ongoing otherwise.
    #[must_use]
    #[inline]
    pub const fn status(&self) -> Status {
        self.status
    }

    /// The player to move, or `None` once the game is over.
    #[must_use]
    #[inline]
    pub const fn to_move(&self) -> Option<Player> {
        if self.status.is_finished() {
            None
        } else {
            Some(self.side)
        }
    }

    /// The player who made the last move, `None` on the empty board.
    #[must_use]
    #[inline]
    pub const fn last_mover(&self) -> Option<Player> {
        if self.plies == 0 {
            None
        } else if self.plies % 2 == 1 {
            Some(Player::X)
        } else {
            Some(Player::O)
        }
    }

    /// Marks on the board (moves played).
    #[must_use]
    #[inline]
    pub const fn plies(&self) -> u32 {
        self.plies as u32
    }

    /// The board the side to move must play in, or `None` when it may choose any open board
    /// (at the start, after a move that sends it to a closed board, and once the game is over).
    #[must_use]
    #[inline]
    pub const fn next_board(&self) -> Option<Cell> {
        if self.next == ANY {
            None
        } else {
            Some(Cell::ALL[self.next as usize])
        }
    }

    /// The empty cells of small board `b` (index `0..9`).
    #[inline(always)]
    pub(super) const fn empty_in(&self, b: usize) -> u16 {
        !(self.marks[0][b] | self.marks[1][b]) & FULL
    }

    /// The legal moves in small board `board`: its empty cells when the mover may play there,
    /// else none. One mask.
    #[must_use]
    #[inline]
    pub const fn moves_in(&self, board: Cell) -> Bitboard {
        let b = board.index();
        let allowed = if self.status.is_finished() {
            0
        } else if self.next == ANY {
            self.open
        } else {
            1 << self.next
        };
        if allowed >> b & 1 == 0 {
            Bitboard::EMPTY
        } else {
            Bitboard::from_bits_truncate(self.empty_in(b))
        }
    }

    /// The legal moves, as an 81-bit set (bit `9 * board + cell`): the open cells (kept up
    /// to date by play and undo, none once the game is over) masked by the board to play, one
    /// load and one AND, without a branch.
    #[must_use]
    #[inline]
    pub const fn legal_moves(&self) -> Moves {
        Moves::from_bits(self.open_cells.masked(BOARD_CELLS[self.next as usize]))
    }

    /// Why `played` is not legal here, if it is not.
    ///
    /// # Errors
    ///
    /// [`PlayError`] names the rule the move breaks.
    pub fn check(&self, played: Move) -> Result<(), PlayError> {
        if self.status.is_finished() {
            return Err(PlayError::GameOver {
                status: self.status,
            });
        }
        let (b, c) = (played.board(), played.cell());
        if self.next != ANY && self.next as usize != b.index() {
            return Err(PlayError::WrongBoard {
                played,
                next: Cell::ALL[self.next as usize],
            });
        }
        let status = self.board_status(b);
        if status.is_finished() {
            return Err(PlayError::ClosedBoard { played, status });
        }
        if let Some(by) = self.at(b, c) {
            return Err(PlayError::Occupied { played, by });
        }
        Ok(())
    }

    /// The status the game would have after the legal move `played`, without playing it: the
    /// question a search asks of every move (does it win?). The move's board and cell come as
    /// one-bit sets from a 648-byte table (no division by 9, no variable shift); the two
    /// lookups in a 1 KiB table of winning cells per 9-bit set (`WINS_WITH`), the cells that
    /// win the mover's set of the move's board and the boards that win the mover's
    /// meta-board, depend only on the position, not on each other, so they issue together.
    /// The move wins the game when both name it; it draws when it closes (wins or fills) the
    /// last open board without that.
    ///
    /// Without a branch: the status is chosen from the tests by conditional moves
    /// ([`select_unpredictable`](core::hint::select_unpredictable)). A branch on whether the
    /// move wins its board (12% of the moves of random games) mispredicts on positions that
    /// follow no pattern; it cost more than the lookups (see `docs/benchmarks.md`).
    ///
    /// The move must be in [`legal_moves`](Position::legal_moves); debug builds check, release
    /// builds give an unspecified status for an illegal one (never memory-unsafe).
    ///
    /// ```
    /// use tictactoe::ultimate::{Move, Position};
    /// use tictactoe::Status;
    /// let position = Position::EMPTY;
    /// let played = Move::try_from(40)?;
    /// assert_eq!(position.status_after(played), Status::Ongoing);
    /// let mut child = position;
    /// child.play(played)?;
    /// assert_eq!(child.status(), position.status_after(played));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn status_after(&self, played: Move) -> Status {
        debug_assert!(self.check(played).is_ok(), "{played} is not legal here");
        let parts = PARTS[played.index()];
        let b = parts.board as usize;
        let (x, o) = (self.marks[0][b], self.marks[1][b]);
        let p = index_of(self.side);
        let mine = core::hint::select_unpredictable(p != 0, o, x);
        let small = WINS_WITH[(mine & FULL) as usize] & parts.cell_bit != 0;
        let meta = WINS_WITH[(self.won[p] & FULL) as usize] & parts.board_bit != 0;
        let full = x | o | parts.cell_bit == FULL;
        // The move closes board b, the only open one.
        let last_closed = (small | full) & (self.open == parts.board_bit);
        // The code is the compiler's layout of `Status` (Won(X) 0, Won(O) 1, Ongoing 2, Draw 3;
        // see the type), so the match below compiles to nothing.
        let code =
            core::hint::select_unpredictable(small & meta, p as u8, 2 | u8::from(last_closed));
        match code {
            0 => Status::Won(Player::X),
            1 => Status::Won(Player::O),
            2 => Status::Ongoing,
            _ => Status::Draw,
        }
    }

    /// Plays `played` for the side to move after checking it; returns what
    /// [`undo`](Position::undo) needs to take it back.
    ///
    /// # Errors
    ///
    /// [`PlayError`] when the move is not legal; the position is unchanged then.
    #[inline]
    pub fn play(&mut self, played: Move) -> Result<Undo, PlayError> {
        self.check(played)?;
        Ok(self.play_unchecked(played))
    }

    /// Plays a legal move without checking it: the playout loop's step. Returns what
    /// [`undo`](Position::undo) needs.
    ///
    /// The move must be in [`legal_moves`](Position::legal_moves); debug builds check, release
    /// builds leave an illegal move's result unspecified (never memory-unsafe).
    #[inline(always)]
    pub fn play_unchecked(&mut self, played: Move) -> Undo {
        debug_assert!(self.check(played).is_ok(), "{played} is not legal here");
        let undo = Undo {
            open_cells: self.open_cells,
            played,
            next: self.next,
            side: self.side,
            free: self.free,
            open: self.open,
            won: self.won[index_of(self.side)],
        };
        self.play_parts(PARTS[played.index()]);
        undo
    }

    /// Plays the move `parts` (legal) for the side to move.
    ///
    /// One load and store of the mover's set, one lookup in [`WINS_WITH`] (does the move win
    /// its board: a bit test, issued before the set is written), the cell's removal from the
    /// open cells; only when the move closes its board, a second lookup in the same table (does
    /// that board win the game) and the board's cells removed. The branch on closing stays: a
    /// playout's next move reads what this writes, and a predicted branch lets it start before
    /// the lookup is back (without the branch, every field waits for both lookups: `pick` +
    /// `play` games took 1,100 ns instead of 800 in `peers/`).
    #[inline(always)]
    fn play_parts(&mut self, parts: Parts) {
        let (b, c) = (parts.board as usize, parts.cell as usize);
        let p = index_of(self.side);
        let mine = self.marks[p][b];
        let small = WINS_WITH[(mine & FULL) as usize] & parts.cell_bit != 0;
        let set = mine | parts.cell_bit;
        self.marks[p][b] = set;
        self.plies += 1;
        self.free -= 1;
        self.open_cells.remove(9 * b + c);
        let full = set | self.marks[1 - p][b] == FULL;
        if small | full {
            self.close(b, p, small, parts.board_bit);
            if self.status.is_finished() {
                return;
            }
        }
        self.next = if self.open & parts.cell_bit != 0 {
            c as u8
        } else {
            ANY
        };
        self.side = self.side.opponent();
    }

    /// Board `b` (`board`: as a one-bit set) closes after the move of player `p`: won if
    /// `small`, else full. Ends the game when that completes a line of the meta-board or no
    /// board is open.
    #[inline(always)]
    fn close(&mut self, b: usize, p: usize, small: bool, board: u16) {
        self.open &= !board;
        self.free -= Bitboard::from_bits_truncate(self.empty_in(b)).count() as u8;
        self.open_cells.remove_all(BOARD_CELLS[b]);
        if small {
            let game = WINS_WITH[(self.won[p] & FULL) as usize] & board != 0;
            self.won[p] |= board;
            if game {
                self.status = Status::Won(self.side);
                self.next = ANY;
                self.open_cells = Cells::NONE;
                self.free = 0;
                return;
            }
        }
        if self.open == 0 {
            self.status = Status::Draw;
            self.next = ANY;
        }
    }

    /// Takes back the move `undo` came from; it must be the last move played. The fields the
    /// move changed come back from `undo` (no branch, no recount).
    #[inline]
    pub fn undo(&mut self, undo: Undo) {
        let (b, c) = (undo.played.board_index(), undo.played.cell_index());
        let p = index_of(undo.side);
        debug_assert!(
            self.marks[p][b] >> c & 1 != 0,
            "{} is not the last move",
            undo.played
        );
        self.marks[p][b] &= !(1 << c);
        self.won[p] = undo.won;
        self.open = undo.open;
        self.open_cells = undo.open_cells;
        self.free = undo.free;
        self.status = Status::Ongoing;
        self.next = undo.next;
        self.side = undo.side;
        self.plies -= 1;
    }

    /// The legal move chosen by 32 random bits (uniform over the legal moves, by the
    /// multiply-shift of [`Bitboard::pick`]), or `None` once the game is over.
    #[must_use]
    #[inline]
    pub fn pick(&self, random: u32) -> Option<Move> {
        if self.status.is_finished() {
            return None;
        }
        if self.next != ANY {
            let b = self.next as usize;
            let cell = Bitboard::from_bits_truncate(self.empty_in(b)).pick(random)?;
            return Some(Move::from_parts(b, cell.index()));
        }
        self.pick_any(random)
    }

    /// The legal move chosen by 64 random bits under the board-first policy of CodinGame bots'
    /// playouts (not uniform over the legal moves), or `None` once the game is over:
    ///
    /// - the board: the one the mover is sent to; when the mover chooses, the `j`-th open board
    ///   in index order, `j = (lo * m) >> 32`, where `lo` is the low 32 bits of `random` and
    ///   `m` the number of open boards (each open board `1/m`);
    /// - the cell: the `k`-th empty cell of that board in index order, `k = (hi * e) >> 32`,
    ///   where `hi` is the high 32 bits and `e` the board's number of empty cells (each `1/e`).
    ///
    /// So when the mover chooses, cell `c` of open board `b` comes with probability
    /// `1 / (m * e_b)`, where [`pick`](Position::pick) gives every legal move `1 / n`. This is
    /// the policy of DiMasta's `simulateRandomGame` (the peer in `docs/benchmarks.md`);
    /// `play_random_by_board` (feature `rand`) plays a whole game of it.
    ///
    /// ```
    /// use tictactoe::ultimate::{Move, Position};
    /// let mut position = Position::EMPTY;
    /// // Board 0 (low bits 0: the first of the 9 open boards), cell 8 (high bits all ones).
    /// let played = position.pick_by_board(u64::from(u32::MAX) << 32).unwrap();
    /// assert_eq!(played, Move::try_from(8)?);
    /// position.play(played)?;
    /// // Sent to board 8: the low bits are not used, the high ones pick among its 9 cells.
    /// assert_eq!(position.pick_by_board(0).map(|m| m.index()), Some(72));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn pick_by_board(&self, random: u64) -> Option<Move> {
        if self.status.is_finished() {
            return None;
        }
        let b = if self.next == ANY {
            self.open_boards().pick(random as u32)?.index()
        } else {
            self.next as usize
        };
        let cell = Bitboard::from_bits_truncate(self.empty_in(b)).pick((random >> 32) as u32)?;
        Some(Move::from_parts(b, cell.index()))
    }

    /// [`pick`](Position::pick) when the mover may choose the board: the `k`-th of the empty
    /// cells of the open boards (their number kept up to date by play and undo).
    #[inline(never)]
    fn pick_any(&self, random: u32) -> Option<Move> {
        let (b, c) = self.pick_any_parts(random)?;
        Some(Move::from_parts(b, c))
    }

    /// The board and cell of [`pick_any`](Position::pick_any): the `k`-th of the open cells
    /// in the order of their bits (boards in order, cells in order), without a loop or a
    /// branch on `k`: the word holding it (the low one if `k` is below its count), then
    /// [`select64`] in it. (A loop over the open boards, each passed by its count, stops early
    /// but mispredicts where it stops: in the batched environment this took 8% of a step.)
    #[inline]
    fn pick_any_parts(&self, random: u32) -> Option<(usize, usize)> {
        if self.free == 0 {
            return None;
        }
        let k = (u64::from(random) * u64::from(self.free)) >> 32;
        let [low, high] = self.open_cells.0;
        let in_low = byte_sums(low) >> 56;
        let (word, k, base) = if k < in_low {
            (low, k, 0)
        } else {
            (high, k - in_low, 64)
        };
        let i = base + select64(word, k);
        Some((i / 9, i % 9))
    }

    /// The number of move sequences of length `depth` from here, stopping at finished games
    /// (the leaves' moves counted, not played).
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        if self.status.is_finished() {
            return u64::from(depth == 0);
        }
        match depth {
            0 => 1,
            1 => u64::from(self.legal_moves().count()),
            _ => {
                let mut total = 0;
                let mut child = *self;
                for played in self.legal_moves() {
                    let undo = child.play_unchecked(played);
                    total += child.perft(depth - 1);
                    child.undo(undo);
                }
                total
            }
        }
    }
}

/// `{}` prints the one-line text form, `{:#}` the nine-line drawing (see [`Setup`]).
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_setup())
    }
}
