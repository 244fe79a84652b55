//! Codes of ultimate tic-tac-toe states, each with get and set on the code.
//!
//! | encoding | layout | bits | covers |
//! |---|---|---|---|
//! | [`Base4`] | cell `9 * board + cell` at bits `2i..2i + 2` (0 empty, 1 X, 2 O), the board to play (0-8, 9 any) at bits 162..166 | 166, in two `u128` | every [`Setup`] |
//! | [`Base3`] | small board `b`'s core [`Base3`](crate::encoding::Base3) code (`< 3^9`) at bits `15b..15b + 15`, the board to play at bits 135..139 | 139, in two `u128` | every [`Setup`] |
//! | [`Ranks`] | `sum rank_b * 5478^b + 5478^9 * next`, `rank_b` the core's exact [`Rank`] of small board `b` | 116, in one `u128` | the positions whose nine small boards are each a reachable 3×3 position |
//!
//! Why not one `u128` for every state: 81 cells in base 3 alone need `81 log2 3 = 128.38` bits,
//! and the board to play `log2 10 = 3.32` more. The states themselves fit: `docs/ultimate.md`
//! bounds their information content by 127.94 bits (each small board one of the 18,753 grids
//! a game can leave, turn order, the board to play), and measures how often [`Ranks`] applies
//! on states of random games.

use core::fmt;

use super::{Position, Setup};
use crate::encoding::Rank;
use crate::{Board, Cell, Player};

/// A code that is not a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// A 2-bit cell field of a [`Base4`] code holds 3.
    #[error("cell {cell} of board {board} holds 3 (expected 0 empty, 1 X or 2 O)")]
    BadCell {
        /// The small board.
        board: Cell,
        /// The cell.
        cell: Cell,
    },
    /// A 15-bit field of a [`Base3`] code is `3^9` or more.
    #[error("board {board} holds {value}, not a base-3 code below 19683")]
    BadBoard {
        /// The small board.
        board: Cell,
        /// The field's value.
        value: u32,
    },
    /// The board-to-play field is above 9.
    #[error("the board to play holds {value} (expected 0 to 8, or 9 for any)")]
    BadNext {
        /// The field's value.
        value: u32,
    },
    /// Bits are set above the layout's last field.
    #[error("bits are set above bit {bits}")]
    HighBits {
        /// The layout's width.
        bits: u32,
    },
    /// A [`Ranks`] code at or above [`Ranks::COUNT`].
    #[error("code {code} is not below {}", Ranks::COUNT)]
    OutOfRange {
        /// The code.
        code: u128,
    },
}

/// A state that an encoding cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// A small board is not a reachable 3×3 position (the core's rules: turn order, one
    /// winner), so it has no [`Rank`].
    #[error("board {board} has no 3x3 rank: {violations}")]
    NoRank {
        /// The small board.
        board: Cell,
        /// The core's rules it breaks.
        violations: crate::Violations,
    },
}

/// The value of the board-to-play field when the mover chooses.
const ANY: u32 = 9;

/// `next` as a field value.
fn next_value(next: Option<Cell>) -> u32 {
    next.map_or(ANY, |b| b.index() as u32)
}

/// A field value as `next`.
fn next_of(value: u32) -> Result<Option<Cell>, DecodeError> {
    match value {
        0..=8 => Ok(Some(Cell::ALL[value as usize])),
        ANY => Ok(None),
        _ => Err(DecodeError::BadNext { value }),
    }
}

/// `width` bits at `offset` of the 256-bit number `words` (low word first).
fn field(words: [u128; 2], offset: u32, width: u32) -> u32 {
    let wide = if offset >= 128 {
        words[1] >> (offset - 128)
    } else if offset + width <= 128 {
        words[0] >> offset
    } else {
        words[0] >> offset | words[1] << (128 - offset)
    };
    (wide & ((1 << width) - 1)) as u32
}

/// `words` with `width` bits at `offset` replaced by `value`.
fn with_field(mut words: [u128; 2], offset: u32, width: u32, value: u32) -> [u128; 2] {
    let mask = (1u128 << width) - 1;
    let value = u128::from(value) & mask;
    if offset >= 128 {
        let s = offset - 128;
        words[1] = words[1] & !(mask << s) | value << s;
    } else {
        words[0] = words[0] & !(mask << offset) | value << offset;
        if offset + width > 128 {
            let s = 128 - offset;
            words[1] = words[1] & !(mask >> s) | value >> s;
        }
    }
    words
}

/// Bits above `bits` in `words`.
fn high_bits(words: [u128; 2], bits: u32) -> bool {
    words[1] >> (bits - 128) != 0
}

fn mark_value(mark: Option<Player>) -> u32 {
    match mark {
        None => 0,
        Some(Player::X) => 1,
        Some(Player::O) => 2,
    }
}

/// Two bits per cell: cell `9 * board + cell` at bits `2i..2i + 2` of a 256-bit number held
/// as two `u128` (low word first), 0 empty, 1 X, 2 O; the board to play at bits 162..166.
///
/// ```
/// use tictactoe::Cell;
/// use tictactoe::ultimate::{Setup, encoding::Base4};
/// let code = Base4::from_setup(&Setup::EMPTY);
/// assert_eq!(code.words(), [0, 9 << 34]);
/// let (b, c) = (Cell::new(8)?, Cell::new(8)?);
/// let code = code.with(b, c, Some(tictactoe::Player::O));
/// assert_eq!(code.cell(b, c), Some(tictactoe::Player::O));
/// assert_eq!(Base4::try_from(code.words()), Ok(code));
/// assert!(Base4::try_from([3, 0]).is_err());
/// # Ok::<(), tictactoe::CellError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Base4([u128; 2]);

impl Base4 {
    /// Bits of the layout: 81 cells at 2 bits and 4 for the board to play.
    pub const BITS: u32 = 2 * 81 + 4;
    const NEXT_AT: u32 = 2 * 81;

    /// The code of a setup.
    #[must_use]
    pub fn from_setup(setup: &Setup) -> Base4 {
        let mut words = [0u128; 2];
        for (b, board) in setup.boards.iter().enumerate() {
            for c in Cell::ALL {
                let i = (9 * b + c.index()) as u32;
                words = with_field(words, 2 * i, 2, mark_value(board.at(c)));
            }
        }
        Base4(with_field(words, Self::NEXT_AT, 4, next_value(setup.next)))
    }

    /// The code of a position.
    #[must_use]
    pub fn from_position(position: &Position) -> Base4 {
        Base4::from_setup(&position.to_setup())
    }

    /// The two words, low first.
    #[must_use]
    pub const fn words(self) -> [u128; 2] {
        self.0
    }

    /// The mark in `cell` of small board `board`, read from the code.
    #[must_use]
    pub fn cell(self, board: Cell, cell: Cell) -> Option<Player> {
        let i = (9 * board.index() + cell.index()) as u32;
        match field(self.0, 2 * i, 2) {
            1 => Some(Player::X),
            2 => Some(Player::O),
            _ => None,
        }
    }

    /// The code with `cell` of `board` set to `mark`.
    #[must_use]
    pub fn with(self, board: Cell, cell: Cell, mark: Option<Player>) -> Base4 {
        let i = (9 * board.index() + cell.index()) as u32;
        Base4(with_field(self.0, 2 * i, 2, mark_value(mark)))
    }

    /// The board to play, read from the code (`None`: any).
    #[must_use]
    pub fn next(self) -> Option<Cell> {
        next_of(field(self.0, Self::NEXT_AT, 4)).unwrap_or(None)
    }

    /// The code with the board to play set.
    #[must_use]
    pub fn with_next(self, next: Option<Cell>) -> Base4 {
        Base4(with_field(self.0, Self::NEXT_AT, 4, next_value(next)))
    }

    /// The setup of the code.
    #[must_use]
    pub fn to_setup(self) -> Setup {
        let mut setup = Setup {
            next: self.next(),
            ..Setup::EMPTY
        };
        for b in Cell::ALL {
            for c in Cell::ALL {
                setup.boards[b.index()].set(c, self.cell(b, c));
            }
        }
        setup
    }
}

impl TryFrom<[u128; 2]> for Base4 {
    type Error = DecodeError;

    fn try_from(words: [u128; 2]) -> Result<Base4, DecodeError> {
        for i in 0..81u32 {
            if field(words, 2 * i, 2) == 3 {
                let (board, cell) = (Cell::ALL[i as usize / 9], Cell::ALL[i as usize % 9]);
                return Err(DecodeError::BadCell { board, cell });
            }
        }
        next_of(field(words, Base4::NEXT_AT, 4))?;
        if high_bits(words, Base4::BITS) {
            return Err(DecodeError::HighBits { bits: Base4::BITS });
        }
        Ok(Base4(words))
    }
}

impl fmt::Debug for Base4 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Base4({:#x}, {:#x})", self.0[1], self.0[0])
    }
}

/// Base 3 per small board: board `b`'s core [`Base3`](crate::encoding::Base3) code (cell `i`
/// the digit of `3^i`, 1 X, 2 O) at bits `15b..15b + 15`, the board to play at bits 135..139.
///
/// ```
/// use tictactoe::{Cell, Player};
/// use tictactoe::ultimate::{Setup, encoding::Base3};
/// let code = Base3::from_setup(&Setup::EMPTY).with(Cell::new(1)?, Cell::new(2)?, Some(Player::X));
/// assert_eq!(code.words()[0], 9 << 15);
/// assert_eq!(code.cell(Cell::new(1)?, Cell::new(2)?), Some(Player::X));
/// assert!(Base3::try_from([19_683, 0]).is_err());
/// # Ok::<(), tictactoe::CellError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Base3([u128; 2]);

impl Base3 {
    /// Bits of the layout: nine 15-bit board codes and 4 for the board to play.
    pub const BITS: u32 = 9 * 15 + 4;
    const NEXT_AT: u32 = 9 * 15;

    fn board_code(self, board: Cell) -> crate::encoding::Base3 {
        let value = field(self.0, 15 * board.index() as u32, 15);
        crate::encoding::Base3::try_from(value).expect("checked when the code was made")
    }

    fn with_board_code(self, board: Cell, code: crate::encoding::Base3) -> Base3 {
        let offset = 15 * board.index() as u32;
        Base3(with_field(self.0, offset, 15, u32::from(code.code())))
    }

    /// The code of a setup.
    #[must_use]
    pub fn from_setup(setup: &Setup) -> Base3 {
        let mut code = Base3([0; 2]).with_next(setup.next);
        for b in Cell::ALL {
            let board = crate::encoding::Base3::from_board(setup.boards[b.index()]);
            code = code.with_board_code(b, board);
        }
        code
    }

    /// The code of a position.
    #[must_use]
    pub fn from_position(position: &Position) -> Base3 {
        Base3::from_setup(&position.to_setup())
    }

    /// The two words, low first.
    #[must_use]
    pub const fn words(self) -> [u128; 2] {
        self.0
    }

    /// Small board `board`, read from the code.
    #[must_use]
    pub fn board(self, board: Cell) -> Board {
        self.board_code(board).to_board()
    }

    /// The mark in `cell` of small board `board`, read from the code.
    #[must_use]
    pub fn cell(self, board: Cell, cell: Cell) -> Option<Player> {
        self.board_code(board).cell(cell)
    }

    /// The code with `cell` of `board` set to `mark`.
    #[must_use]
    pub fn with(self, board: Cell, cell: Cell, mark: Option<Player>) -> Base3 {
        self.with_board_code(board, self.board_code(board).with(cell, mark))
    }

    /// The board to play, read from the code (`None`: any).
    #[must_use]
    pub fn next(self) -> Option<Cell> {
        next_of(field(self.0, Self::NEXT_AT, 4)).unwrap_or(None)
    }

    /// The code with the board to play set.
    #[must_use]
    pub fn with_next(self, next: Option<Cell>) -> Base3 {
        Base3(with_field(self.0, Self::NEXT_AT, 4, next_value(next)))
    }

    /// The setup of the code.
    #[must_use]
    pub fn to_setup(self) -> Setup {
        Setup {
            boards: Cell::ALL.map(|b| self.board(b)),
            next: self.next(),
        }
    }
}

impl TryFrom<[u128; 2]> for Base3 {
    type Error = DecodeError;

    fn try_from(words: [u128; 2]) -> Result<Base3, DecodeError> {
        for board in Cell::ALL {
            let value = field(words, 15 * board.index() as u32, 15);
            if crate::encoding::Base3::try_from(value).is_err() {
                return Err(DecodeError::BadBoard { board, value });
            }
        }
        next_of(field(words, Base3::NEXT_AT, 4))?;
        if high_bits(words, Base3::BITS) {
            return Err(DecodeError::HighBits { bits: Base3::BITS });
        }
        Ok(Base3(words))
    }
}

impl fmt::Debug for Base3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Base3({:#x}, {:#x})", self.0[1], self.0[0])
    }
}

/// `5478^b` for `b` in `0..=9`.
const POWERS: [u128; 10] = {
    let mut table = [1u128; 10];
    let mut b = 1;
    while b < 10 {
        table[b] = table[b - 1] * Rank::COUNT as u128;
        b += 1;
    }
    table
};

/// The core's exact rank of each small board in mixed radix 5,478, the board to play as the
/// top digit: `sum rank_b * 5478^b + 5478^9 * next` (`next` 0-8, 9 for any), below
/// `10 * 5478^9 < 2^116`. It holds the positions whose every small board is a reachable 3×3
/// position (turn order inside the board too); others are an [`EncodeError`].
///
/// ```
/// use tictactoe::Cell;
/// use tictactoe::ultimate::{Move, Position, encoding::Ranks};
/// let mut position = Position::EMPTY;
/// position.play(Move::try_from(40)?)?;
/// let code = Ranks::from_position(&position)?;
/// assert_eq!(code.to_position(), Ok(position));
/// assert_eq!(code.next(), Some(Cell::new(4)?));
/// assert!(Ranks::try_from(Ranks::COUNT).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ranks(u128);

impl Ranks {
    /// Number of codes, `10 * 5478^9`.
    pub const COUNT: u128 = 10 * POWERS[9];
    /// Bits of a code: `ceil(log2 COUNT)`.
    pub const BITS: u32 = 128 - (Ranks::COUNT - 1).leading_zeros();

    /// The code of a setup whose small boards are reachable 3×3 positions.
    ///
    /// # Errors
    ///
    /// [`EncodeError::NoRank`] names the first small board that is not.
    pub fn try_from_setup(setup: &Setup) -> Result<Ranks, EncodeError> {
        let mut code = POWERS[9] * u128::from(next_value(setup.next));
        for b in Cell::ALL {
            let board = setup.boards[b.index()];
            let position = crate::Position::try_from(board).map_err(|e| EncodeError::NoRank {
                board: b,
                violations: e.violations,
            })?;
            code += POWERS[b.index()] * u128::from(Rank::from_position(position).code());
        }
        Ok(Ranks(code))
    }

    /// The code of a position whose small boards are reachable 3×3 positions.
    ///
    /// # Errors
    ///
    /// As [`Ranks::try_from_setup`].
    pub fn from_position(position: &Position) -> Result<Ranks, EncodeError> {
        Ranks::try_from_setup(&position.to_setup())
    }

    /// The code.
    #[must_use]
    pub const fn code(self) -> u128 {
        self.0
    }

    /// Small board `board`'s rank, read from the code.
    #[must_use]
    pub fn rank(self, board: Cell) -> Rank {
        let digit = self.0 / POWERS[board.index()] % POWERS[1];
        Rank::try_from(digit as u32).expect("every digit is below 5478")
    }

    /// The code with small board `board` set to `position`.
    #[must_use]
    pub fn with_board(self, board: Cell, position: crate::Position) -> Ranks {
        let old = u128::from(self.rank(board).code());
        let new = u128::from(Rank::from_position(position).code());
        Ranks(self.0 - old * POWERS[board.index()] + new * POWERS[board.index()])
    }

    /// The board to play, read from the code (`None`: any).
    #[must_use]
    pub fn next(self) -> Option<Cell> {
        next_of((self.0 / POWERS[9]) as u32).unwrap_or(None)
    }

    /// The code with the board to play set.
    #[must_use]
    pub fn with_next(self, next: Option<Cell>) -> Ranks {
        Ranks(self.0 % POWERS[9] + POWERS[9] * u128::from(next_value(next)))
    }

    /// The setup of the code (every code in range is one).
    #[must_use]
    pub fn to_setup(self) -> Setup {
        Setup {
            boards: Cell::ALL.map(|b| self.rank(b).to_board()),
            next: self.next(),
        }
    }

    /// The position of the code.
    ///
    /// # Errors
    ///
    /// The setup's broken rules, when the nine boards do not make a position together.
    pub fn to_position(self) -> Result<Position, super::InvalidSetup> {
        Position::try_from(self.to_setup())
    }
}

impl TryFrom<u128> for Ranks {
    type Error = DecodeError;

    fn try_from(code: u128) -> Result<Ranks, DecodeError> {
        if code < Ranks::COUNT {
            Ok(Ranks(code))
        } else {
            Err(DecodeError::OutOfRange { code })
        }
    }
}
