//! Lookup tables over the 19,683 grids, built once from the library on first use.
//!
//! Every answer of the vectorised API is a table lookup by *grid index*: the grid's base-3 code
//! (`0..19,683`), or [`INVALID`] (19,683) for an input that is not a grid (a code the encoding
//! does not decode, a board with a cell outside 0, 1, 2). Each table has one entry per grid
//! and one more, the sentinel, at [`INVALID`]. This module is the only place that asks the
//! library about grids; it does so once per grid, through the small helpers at the bottom.

use std::sync::OnceLock;

use tictactoe::encoding::{
    Base3, Base4, Bitboards, Canonical, CountRank, Encoding, Oriented, Rank,
};
use tictactoe::{Board, Cell, Player, Position, Status, Violation, solver};

/// Number of grids.
pub const GRIDS: usize = Board::COUNT;
/// The grid index of inputs that are not grids.
pub const INVALID: u32 = GRIDS as u32;
/// Entries per table: every grid and the sentinel.
pub const ENTRIES: usize = GRIDS + 1;

/// The encodings, in the library's order, with the library's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Base4,
    Base3,
    Bitboards,
    CountRank,
    Rank,
    Canonical,
    Oriented,
}

impl Kind {
    /// Every encoding.
    pub const ALL: [Kind; 7] = [
        Kind::Base4,
        Kind::Base3,
        Kind::Bitboards,
        Kind::CountRank,
        Kind::Rank,
        Kind::Canonical,
        Kind::Oriented,
    ];

    /// The library's name of the encoding.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Base4 => Base4::NAME,
            Kind::Base3 => Base3::NAME,
            Kind::Bitboards => Bitboards::NAME,
            Kind::CountRank => CountRank::NAME,
            Kind::Rank => Rank::NAME,
            Kind::Canonical => Canonical::NAME,
            Kind::Oriented => Oriented::NAME,
        }
    }

    /// Codes lie in `0..limit`.
    pub const fn limit(self) -> u32 {
        match self {
            Kind::Base4 => <Base4 as Encoding>::LIMIT,
            Kind::Base3 => <Base3 as Encoding>::LIMIT,
            Kind::Bitboards => <Bitboards as Encoding>::LIMIT,
            Kind::CountRank => <CountRank as Encoding>::LIMIT,
            Kind::Rank => <Rank as Encoding>::LIMIT,
            Kind::Canonical => <Canonical as Encoding>::LIMIT,
            Kind::Oriented => <Oriented as Encoding>::LIMIT,
        }
    }

    /// Whether codes are decoded by a table indexed by code (the 13- and 10-bit codes); the
    /// others are decoded by arithmetic on their bits.
    pub const fn by_table(self) -> bool {
        !matches!(self, Kind::Base4 | Kind::Base3 | Kind::Bitboards)
    }

    /// The encoding of this name.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The code of `board`, or `None` when the encoding cannot hold it.
    fn encode(self, board: Board) -> Option<u32> {
        match self {
            Kind::Base4 => code_of::<Base4>(board),
            Kind::Base3 => code_of::<Base3>(board),
            Kind::Bitboards => code_of::<Bitboards>(board),
            Kind::CountRank => code_of::<CountRank>(board),
            Kind::Rank => code_of::<Rank>(board),
            Kind::Canonical => code_of::<Canonical>(board),
            Kind::Oriented => code_of::<Oriented>(board),
        }
    }

    /// The board of `code`, or `None` when it is not a code.
    fn decode(self, code: u32) -> Option<Board> {
        match self {
            Kind::Base4 => board_of::<Base4>(code),
            Kind::Base3 => board_of::<Base3>(code),
            Kind::Bitboards => board_of::<Bitboards>(code),
            Kind::CountRank => board_of::<CountRank>(code),
            Kind::Rank => board_of::<Rank>(code),
            Kind::Canonical => board_of::<Canonical>(code),
            Kind::Oriented => board_of::<Oriented>(code),
        }
    }
}

/// Sentinel of the `uint16` move masks: bit 15 set, so never a set of cells.
pub const NO_MASK: u16 = 0xffff;
/// Sentinel of the violation bits: all bits set.
pub const NO_VIOLATIONS: u8 = 0xff;

/// Every table of the vectorised API.
pub struct Tables {
    /// `code[kind][grid]`: the code, -1 when the encoding cannot hold the grid.
    pub code: [Box<[i32; ENTRIES]>; 7],
    /// `grid_of_code[kind][code]` for the table-decoded encodings (count rank and after): the
    /// grid index, [`INVALID`] for non-codes; one extra entry (the sentinel) at `limit`.
    pub grid_of_code: [Box<[u32]>; 7],
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
    /// `base3_of_set[s]`: the base-3 value of the 9-bit set `s` with digit 1 per cell.
    pub base3_of_set: [u16; 512],
    /// `base4_low[c]`: grid-index part of the low 10 bits (cells 0-4) of a base-4 code;
    /// above [`INVALID`] when a cell pattern is `11`.
    pub base4_low: [u32; 1024],
    /// The same for the high 8 bits (cells 5-8).
    pub base4_high: [u32; 256],
    /// Bitboards code (`x | o << 9`) of the low 5 base-3 digits (cells 0-4), by their value.
    pub base3_low_bits: [u32; 243],
    /// Bitboards code of the high 4 base-3 digits (cells 5-8), by their value.
    pub base3_high_bits: [u32; 81],
    /// Bitboards code of the low 10 bits of a base-4 code; [`BAD_BITS`] when a cell is `11`.
    pub base4_low_bits: [u32; 1024],
    /// Bitboards code of the high 8 bits of a base-4 code; [`BAD_BITS`] when a cell is `11`.
    pub base4_high_bits: [u32; 256],
    /// `spread[s]`: the base-4 code of X holding the 9-bit set `s`.
    pub spread: [u32; 512],
    /// Cells 0-4 of the low 5 base-3 digits, by their value.
    pub cells_low: [[i8; 5]; 243],
    /// Cells 5-8 of the high 4 base-3 digits, by their value.
    pub cells_high: [[i8; 4]; 81],
}

/// Marks a bitboards code that stands for no grid (set in no valid code, which has 18 bits).
pub const BAD_BITS: u32 = 1 << 31;

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The tables, built on first use (a few milliseconds).
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
        grid_of_code: std::array::from_fn(|k| match Kind::ALL[k].by_table() {
            true => vec![INVALID; Kind::ALL[k].limit() as usize + 1].into_boxed_slice(),
            false => Box::new([]),
        }),
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
        base3_of_set: [0; 512],
        base4_low: [0; 1024],
        base4_high: [0; 256],
        base3_low_bits: [0; 243],
        base3_high_bits: [0; 81],
        base4_low_bits: [BAD_BITS; 1024],
        base4_high_bits: [BAD_BITS; 256],
        spread: [0; 512],
        cells_low: [[0; 5]; 243],
        cells_high: [[0; 4]; 81],
    };
    for grid in 0..GRIDS {
        let board = board_of_grid(grid);
        for kind in Kind::ALL {
            if let Some(code) = kind.encode(board) {
                t.code[kind as usize][grid] = code as i32;
            }
        }
        t.is_grid[grid] = true;
        t.violations[grid] = violation_bits(board);
        let Ok(position) = Position::try_from(board) else {
            continue;
        };
        let solution = solver::solve(&position);
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
        t.symmetry[grid] = Oriented::from_position(&position).symmetry().index() as i8;
    }
    for kind in Kind::ALL.into_iter().filter(|kind| kind.by_table()) {
        for code in 0..kind.limit() {
            if let Some(board) = kind.decode(code) {
                t.grid_of_code[kind as usize][code as usize] = grid_of(board);
            }
        }
    }
    for set in 0..512u32 {
        t.base3_of_set[set as usize] = (0..9)
            .filter(|i| set >> i & 1 != 0)
            .map(|i| 3u16.pow(i))
            .sum();
    }
    // Base-4 digit pattern `p` of a cell is the base-3 digit `p` (00, 01, 10), 11 is no grid.
    let base4_part = |bits: u32, cells: u32, first: u32| -> u32 {
        (0..cells)
            .map(|i| match bits >> (2 * i) & 3 {
                3 => 1 << 20,
                digit => digit * 3u32.pow(first + i),
            })
            .sum()
    };
    for bits in 0..1024 {
        t.base4_low[bits as usize] = base4_part(bits, 5, 0);
    }
    for bits in 0..256 {
        t.base4_high[bits as usize] = base4_part(bits, 4, 5);
    }
    for low in 0..243 {
        let board = board_of_grid(low);
        t.base3_low_bits[low] = bits_of(board);
        t.cells_low[low].copy_from_slice(&cells(board)[..5]);
    }
    for high in 0..81 {
        let board = board_of_grid(high * 243);
        t.base3_high_bits[high] = bits_of(board);
        t.cells_high[high].copy_from_slice(&cells(board)[5..]);
    }
    for bits in 0..1024 {
        if let Some(board) = Kind::Base4.decode(bits) {
            t.base4_low_bits[bits as usize] = bits_of(board);
        }
    }
    for bits in 0..256 {
        if let Some(board) = Kind::Base4.decode(bits << 10) {
            t.base4_high_bits[bits as usize] = bits_of(board);
        }
    }
    for set in 0..512 {
        let x = Kind::Bitboards.decode(set).expect("a set of X is a grid");
        t.spread[set as usize] = Kind::Base4.encode(x).expect("base-4 holds every grid");
    }
    t
}

// The helpers below are the only calls into the library's encodings and positions.

fn code_of<E: Encoding>(board: Board) -> Option<u32> {
    E::encode(board).map(Encoding::code)
}

fn board_of<E: Encoding>(code: u32) -> Option<Board> {
    E::decode(code).ok().map(Encoding::to_board)
}

/// The bitboards code of a board.
fn bits_of(board: Board) -> u32 {
    Kind::Bitboards
        .encode(board)
        .expect("bitboards hold every grid")
}

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
