//! Lookup tables over the 19,683 grids, built once from the library on first use.
//!
//! Every answer of the vectorised API is a table lookup by *grid index*: the grid's base-3 code
//! (`0..19,683`), or [`INVALID`] (19,683) for an input that is not a grid (a code the encoding
//! does not decode, a board with a cell outside 0, 1, 2). Each table has one entry per grid
//! and one more, the sentinel, at [`INVALID`]. `bitboards` codes skip the grid index where
//! they can: per-set tables ([`BySets`]) give the codes of three encodings, and the answers
//! that depend only on piece counts and lines ([`FactTables`]). This module is the only place
//! that asks the library about grids; it does so once per grid, through the small helpers at
//! the bottom.

use std::sync::OnceLock;

use tictactoe::encoding::{Base3, Oriented};
use tictactoe::{Bitboard, Board, Cell, Player, Position, Status, Violation, solver};

/// Number of grids.
pub const GRIDS: usize = Board::COUNT;
/// The grid index of inputs that are not grids.
pub const INVALID: u32 = GRIDS as u32;
/// Entries per table: every grid and the sentinel.
pub const ENTRIES: usize = GRIDS + 1;

/// The encodings, in the library's order ([`Kind::ALL`]), with the library's names; a
/// fieldless enum, so `kind as usize` indexes the per-encoding tables.
pub use tictactoe::encoding::Kind;

/// Entries of a per-set table: every 9-bit set of cells.
pub const SETS: usize = 512;
/// Entries of a table indexed by the facts of both players' sets ([`FactTables::facts`]): every
/// sum of two bytes.
pub const FACT_PAIRS: usize = 512;

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
    /// `code_by_sets[kind]`, for the encodings whose code is a sum of one digit per cell
    /// (`base3`, `base4`, `bitboards`): the code of a `bitboards` code's grid as X's part plus
    /// O's part (the code of the grid holding only X's set, and only O's).
    pub code_by_sets: [Option<BySets<u32>>; 7],
}

/// The answers that depend on a grid only through the piece counts of X and O and which of
/// them holds a line (checked on every grid when the tables are built), indexed by those facts
/// instead of the grid: the direct path for `bitboards` codes (`grid::by_sets`), with the
/// sentinel where no grid has the facts.
pub struct FactTables {
    /// The facts of each set, as decimal digits whose sum tells both players' facts apart:
    /// O's count (units), X's count (tens), lines (hundreds: 1 X holds one, 2 O does). X's
    /// part is `10 count + 100 line` (at most 190), O's `count + 200 line` (at most 209): two
    /// bytes, whose sum indexes a table of [`FACT_PAIRS`] entries with no bounds check.
    pub facts: BySets<u8>,
    /// [`Tables::is_grid`] by facts.
    pub is_grid: Box<[bool; FACT_PAIRS]>,
    /// [`Tables::is_position`] by facts.
    pub is_position: Box<[bool; FACT_PAIRS]>,
    /// [`Tables::violations`] by facts.
    pub violations: Box<[u8; FACT_PAIRS]>,
    /// [`Tables::status`] by facts.
    pub status: Box<[i8; FACT_PAIRS]>,
    /// [`Tables::to_move`] by facts.
    pub to_move: Box<[i8; FACT_PAIRS]>,
    /// [`Tables::winner`] by facts.
    pub winner: Box<[i8; FACT_PAIRS]>,
}

/// A function of `bitboards` codes read straight from the code's two 9-bit sets, with no grid
/// index: `x[X's set] + o[O's set]` for the codes that decode (`grid::by_sets`). Two tables of
/// 512 bytes ([`FactTables::facts`]) or 2 KiB ([`Tables::code_by_sets`]), which stay in the L1
/// cache where a 2^18-entry code-indexed table does not.
pub struct BySets<P> {
    /// X's part of each set.
    pub x: Box<[P; SETS]>,
    /// O's part of each set.
    pub o: Box<[P; SETS]>,
}

impl<P: Copy> BySets<P> {
    fn new(part: impl Fn(Player, Bitboard) -> P) -> BySets<P> {
        let table = |player| {
            let sets = (0..SETS).map(|set| part(player, set_of(set)));
            sets.collect::<Box<[P]>>()
                .try_into()
                .unwrap_or_else(|_| unreachable!())
        };
        BySets {
            x: table(Player::X),
            o: table(Player::O),
        }
    }
}

static TABLES: OnceLock<Tables> = OnceLock::new();
static FACT_TABLES: OnceLock<FactTables> = OnceLock::new();

/// The tables, built on first use (tens of milliseconds; about 2.5 MB, most of it the two
/// 512 KiB code-indexed tables of the 18-bit encodings).
pub fn tables() -> &'static Tables {
    TABLES.get_or_init(build)
}

/// The tables by facts, built on first use from [`tables`] (a few KiB).
pub fn fact_tables() -> &'static FactTables {
    FACT_TABLES.get_or_init(|| {
        let (t, facts) = (tables(), BySets::new(facts_of));
        FactTables {
            is_grid: by_facts(&t.is_grid, &facts),
            is_position: by_facts(&t.is_position, &facts),
            violations: by_facts(&t.violations, &facts),
            status: by_facts(&t.status, &facts),
            to_move: by_facts(&t.to_move, &facts),
            winner: by_facts(&t.winner, &facts),
            facts,
        }
    })
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
        code_by_sets: std::array::from_fn(|k| {
            let kind = Kind::ALL[k];
            ADDITIVE.contains(&kind).then(|| {
                BySets::new(|player, set| {
                    // Cannot fail: the additive encodings hold every grid, and this runs on the
                    // 512 one-player grids once, when the tables are built.
                    let code = kind.encode(board_of_set(player, set));
                    code.expect("the encoding holds every grid")
                })
            })
        }),
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
        t.status[grid] = status_code(position.status());
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

/// `table` (one entry per grid) indexed by the facts of the grid's two sets instead (its
/// sentinel where no grid has the facts); panics unless all grids with the same facts have the
/// same entry.
fn by_facts<T: Copy + PartialEq>(table: &[T; ENTRIES], facts: &BySets<u8>) -> Box<[T; FACT_PAIRS]> {
    let mut out = filled(table[INVALID as usize]);
    let mut seen = [false; FACT_PAIRS];
    for (grid, &entry) in table[..GRIDS].iter().enumerate() {
        let board = board_of_grid(grid);
        let (x, o) = (usize::from(board.x().bits()), usize::from(board.o().bits()));
        let pair = usize::from(facts.x[x]) + usize::from(facts.o[o]);
        assert!(
            !seen[pair] || out[pair] == entry,
            "grid {grid}: not a function of the facts"
        );
        (seen[pair], out[pair]) = (true, entry);
    }
    out
}

// The helpers below are the only calls into the library's encodings and positions.

/// The grid index of a board: its base-3 code.
fn grid_of(board: Board) -> u32 {
    u32::from(Base3::from_board(board).code())
}

fn board_of_grid(grid: usize) -> Board {
    // Cannot fail: called with the indices below `GRIDS` = 3^9 only, every one a base-3 code.
    Base3::try_from_code(grid as u32)
        .expect("every index below 3^9 is a base-3 code")
        .to_board()
}

/// The encodings whose code is a sum of one digit per cell: a grid's code is the code of the
/// grid with X's marks alone plus that of the grid with O's alone.
const ADDITIVE: [Kind; 3] = [Kind::Base3, Kind::Base4, Kind::BitboardPair];

/// The 9-bit set `set` (below [`SETS`]).
fn set_of(set: usize) -> Bitboard {
    // Cannot fail: called with the indices below `SETS` = 512 only.
    Bitboard::from_bits(set as u16).expect("a set is 9 bits")
}

/// The grid where `player` holds the cells of `set` and nobody else holds any.
fn board_of_set(player: Player, set: Bitboard) -> Board {
    let shift = if player == Player::X { 0 } else { 9 };
    let code = u32::from(set.bits()) << shift;
    // Cannot fail: one player's 9-bit set in its half of the pair never overlaps the other.
    Kind::BitboardPair
        .decode(code)
        .expect("a single set is a bitboards code")
}

/// `player`'s part of [`FactTables::facts`] for `set`.
fn facts_of(player: Player, set: Bitboard) -> u8 {
    let (count, line) = (set.count() as u8, u8::from(set.has_line()));
    match player {
        Player::X => 10 * count + 100 * line,
        Player::O => count + 200 * line,
    }
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

/// The status as every array of the package holds it (int8): 0 ongoing, 1 X won, 2 O won,
/// 3 draw (`tictactoe_rs.ONGOING`, `X_WON`, `O_WON`, `DRAW`); the one place that numbers it.
pub const fn status_code(status: Status) -> i8 {
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
