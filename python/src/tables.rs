//! Lookup tables over the 19,683 grids, built once from the library on first use.
//!
//! Every answer of the vectorised API is a table lookup by *grid index*: the grid's base-3 code
//! (`0..19,683`), or [`INVALID`] (19,683) for an input that is not a grid (a code the encoding
//! does not decode, a board with a cell outside 0, 1, 2). Each table has one entry per grid
//! and one more, the sentinel, at [`INVALID`]. This module is the only place that asks the
//! library about grids; it does so once per grid, through the small helpers at the bottom.

use std::sync::OnceLock;

use tictactoe::encoding::{Base3, Oriented};
use tictactoe::{Board, Cell, Player, Position, Status, Violation, solver};

/// Number of grids.
pub const GRIDS: usize = Board::COUNT;
/// The grid index of inputs that are not grids.
pub const INVALID: u32 = GRIDS as u32;
/// Entries per table: every grid and the sentinel.
pub const ENTRIES: usize = GRIDS + 1;

/// The encodings, in the library's order ([`Kind::ALL`]), with the library's names; a
/// fieldless enum, so `kind as usize` indexes the per-encoding tables.
pub use tictactoe::encoding::Kind;

/// Sentinel of the `uint16` move masks: bit 15 set, so never a set of cells.
pub const NO_MASK: u16 = 0xffff;
/// Sentinel of the violation bits: all bits set.
pub const NO_VIOLATIONS: u8 = 0xff;

/// Every table of the vectorised API.
pub struct Tables {
    /// `code[kind][grid]`: the code, -1 when the encoding cannot hold the grid.
    pub code: [Box<[i32; ENTRIES]>; 7],
    /// `grid_of_code[kind][code]`: the grid index, [`INVALID`] for non-codes, with one more
    /// entry (the sentinel) at `limit`; empty for `base3`, whose codes are grid indices.
    pub grid_of_code: [Box<[u16]>; 7],
    /// Cells 0-7 of each grid as the bytes of a little-endian `u64`; all -1 for the sentinel.
    pub head: Box<[u64; ENTRIES]>,
    /// Cell 8 of each grid; -1 for the sentinel.
    pub last: Box<[i8; ENTRIES]>,
    /// Whether the input is a grid.
    pub is_grid: Box<[bool; ENTRIES]>,
    /// Whether the grid is a reachable position.
    pub is_position: Box<[bool; ENTRIES]>,
    /// Violation bits ([`Violation::ALL`] order), [`NO_VIOLATIONS`] for the sentinel.
    pub violations: Box<[u8; ENTRIES]>,
    /// 0 ongoing, 1 X won, 2 O won, 3 draw; -1 for boards that are not positions.
    pub status: Box<[i8; ENTRIES]>,
    /// 1 X, 2 O, 0 when the game is over; -1 for boards that are not positions.
    pub to_move: Box<[i8; ENTRIES]>,
    /// 0 nobody, 1 X, 2 O; -1 for boards that are not positions.
    pub winner: Box<[i8; ENTRIES]>,
    /// Legal moves (bit `i` = cell `i`), [`NO_MASK`] for boards that are not positions.
    pub legal: Box<[u16; ENTRIES]>,
    /// Perfect-play value: 1 X wins, 2 O wins, 3 draw; -1 for boards that are not positions.
    pub value: Box<[i8; ENTRIES]>,
    /// Moves to the end under perfect play; -1 for boards that are not positions.
    pub distance: Box<[i8; ENTRIES]>,
    /// Best moves under perfect play, [`NO_MASK`] for boards that are not positions.
    pub best: Box<[u16; ENTRIES]>,
    /// The symmetry taking the class representative to the position; -1 for non-positions.
    pub symmetry: Box<[i8; ENTRIES]>,
}

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The tables, built on first use (tens of milliseconds; about 2.5 MB, most of it the two
/// 512 KiB code-indexed tables of the 18-bit encodings).
pub fn tables() -> &'static Tables {
    TABLES.get_or_init(build)
}

fn filled<T: Copy, const N: usize>(value: T) -> Box<[T; N]> {
    vec![value; N]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!())
}

fn build() -> Tables {
    let mut t = Tables {
        code: std::array::from_fn(|_| filled(-1)),
        grid_of_code: std::array::from_fn(|k| match Kind::ALL[k] {
            Kind::Base3 => Box::new([]),
            kind => vec![INVALID as u16; kind.limit() as usize + 1].into_boxed_slice(),
        }),
        head: filled(u64::MAX),
        last: filled(-1),
        is_grid: filled(false),
        is_position: filled(false),
        violations: filled(NO_VIOLATIONS),
        status: filled(-1),
        to_move: filled(-1),
        winner: filled(-1),
        legal: filled(NO_MASK),
        value: filled(-1),
        distance: filled(-1),
        best: filled(NO_MASK),
        symmetry: filled(-1),
    };
    for grid in 0..GRIDS {
        let board = board_of_grid(grid);
        for kind in Kind::ALL {
            if let Ok(code) = kind.encode(board) {
                t.code[kind as usize][grid] = code as i32;
            }
        }
        let cells = cells(board);
        let mut head = [0u8; 8];
        for (byte, &cell) in head.iter_mut().zip(&cells) {
            *byte = cell as u8;
        }
        t.head[grid] = u64::from_le_bytes(head);
        t.last[grid] = cells[8];
        t.is_grid[grid] = true;
        t.violations[grid] = violation_bits(board);
        let Ok(position) = Position::try_from(board) else {
            continue;
        };
        let solution = solver::solve(position);
        t.is_position[grid] = true;
        t.status[grid] = status_number(position.status());
        t.to_move[grid] = position.to_move().map_or(0, player_number);
        t.winner[grid] = position.winner().map_or(0, player_number);
        t.legal[grid] = position.legal_moves().bits();
        t.value[grid] = match solution.value.winner() {
            Some(player) => player_number(player),
            None => 3,
        };
        t.distance[grid] = solution.distance as i8;
        t.best[grid] = solution.best_moves.bits();
        t.symmetry[grid] = Oriented::from_position(position).symmetry().index() as i8;
    }
    for kind in Kind::ALL.into_iter().filter(|&kind| kind != Kind::Base3) {
        for code in 0..kind.limit() {
            if let Ok(board) = kind.decode(code) {
                t.grid_of_code[kind as usize][code as usize] = grid_of(board) as u16;
            }
        }
    }
    t
}

// The helpers below are the only calls into the library's encodings and positions.

/// The grid index of a board: its base-3 code.
fn grid_of(board: Board) -> u32 {
    u32::from(Base3::from_board(board).code())
}

fn board_of_grid(grid: usize) -> Board {
    Base3::try_from_code(grid as u32)
        .expect("every index below 3^9 is a base-3 code")
        .to_board()
}

fn cells(board: Board) -> [i8; 9] {
    Cell::ALL.map(|cell| board.at(cell).map_or(0, player_number))
}

const fn player_number(player: Player) -> i8 {
    match player {
        Player::X => 1,
        Player::O => 2,
    }
}

const fn status_number(status: Status) -> i8 {
    match status {
        Status::Ongoing => 0,
        Status::Won(Player::X) => 1,
        Status::Won(Player::O) => 2,
        Status::Draw => 3,
    }
}

fn violation_bits(board: Board) -> u8 {
    let found = board.violations();
    Violation::ALL
        .iter()
        .enumerate()
        .filter(|(_, violation)| found.contains(**violation))
        .map(|(bit, _)| 1 << bit)
        .sum()
}
