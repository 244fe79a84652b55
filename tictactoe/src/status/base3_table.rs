//! The status of every grid, looked up by its base-3 code.
//!
//! | representation | table | state bytes | table bytes |
//! |---|---|---|---|
//! | [`Base3`] code, `0..19,683` | 2 bits per code: 0 X won, 1 O won, 2 ongoing, 3 draw | 2 | 4,928 |
//!
//! The table is built at compile time from [`Line::ALL`]; on a grid where both players hold a
//! line it says X, as [`reference_winner`](super::reference_winner) does. 4,928 bytes fit in
//! the L1 cache next to everything else a status loop reads.

use super::{Check, Method};
use crate::encoding::Base3;
use crate::{Board, Line, Player, Status};

/// Number of grids, `3^9`.
const GRIDS: usize = 19_683;

/// Thirty-two 2-bit statuses per word, code `c` in bits `2 (c % 32)..` of word `c / 32`.
///
/// 64-bit words rather than bytes: the `& 63` on the shift count in [`entry`] costs nothing, as
/// x86-64 and AArch64 take a 64-bit shift count modulo 64 already and the compiler drops it
/// (`ttt bench --method base3`: 1.12 ns per check; the byte layout measured 1.31 in an earlier
/// session on the same machine).
static STATUS: [u64; GRIDS.div_ceil(32)] = {
    let mut table = [0u64; GRIDS.div_ceil(32)];
    let mut code = 0;
    while code < GRIDS {
        table[code / 32] |= (status_code(code) as u64) << (2 * (code % 32));
        code += 1;
    }
    table
};

/// 0 X won, 1 O won, 2 ongoing, 3 draw, for the grid with base-3 code `code`. The first three
/// are the order of `Option<Player>`: `Some(X)`, `Some(O)`, `None`.
const fn status_code(code: usize) -> u8 {
    let board = crate::board::from_base3_code(code as u16);
    let (x, o) = (board.x().bits(), board.o().bits());
    let (mut x_line, mut o_line, mut l) = (false, false, 0);
    while l < 8 {
        let cells = Line::ALL[l].cells().bits();
        x_line |= x & cells == cells;
        o_line |= o & cells == cells;
        l += 1;
    }
    match (x_line, o_line, x | o == 0x1ff) {
        (true, _, _) => 0,
        (false, true, _) => 1,
        (false, false, false) => 2,
        (false, false, true) => 3,
    }
}

/// Winner by table entry.
const WINNERS: [Option<Player>; 4] = [Some(Player::X), Some(Player::O), None, None];
/// Status by table entry.
const STATUSES: [Status; 4] = [
    Status::Won(Player::X),
    Status::Won(Player::O),
    Status::Ongoing,
    Status::Draw,
];

/// The table entry for a code.
#[inline]
fn entry(code: Base3) -> u64 {
    let c = code.code() as usize;
    STATUS[c / 32] >> ((2 * c as u32) & 63) & 3
}

/// The base-3 status table method.
///
/// ```
/// use tictactoe::{Board, Status, lab::{Base3Table, Check}};
/// let code = Base3Table::prepare("XOX/XOO/OXX".parse::<Board>()?);
/// assert_eq!(Base3Table::status(code), Some(Status::Draw));
/// assert_eq!(Base3Table::TABLE_BYTES, 4_928);
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Base3Table;

impl Check for Base3Table {
    const METHOD: Method = Method::Base3;
    type State = Base3;
    const TABLE_BYTES: usize = core::mem::size_of_val(&STATUS);

    #[inline]
    fn prepare(board: Board) -> Base3 {
        Base3::from_board(board)
    }

    #[inline]
    fn winner(code: Base3) -> Option<Player> {
        WINNERS[entry(code) as usize]
    }

    #[inline]
    fn status(code: Base3) -> Option<Status> {
        Some(STATUSES[entry(code) as usize])
    }
}
