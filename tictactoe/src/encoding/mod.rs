//! Integer codes for boards and positions, each its own type.
//!
//! | type | [`Kind`] name | bits | codes that decode | what it holds |
//! |---|---|---|---|---|
//! | [`Base4`] | `base4` | 18 | 19,683 of 2^18 | any grid, 2 bits per cell |
//! | [`Base3`] | `base3` | 15 | 19,683 = 3^9 | any grid, one base-3 digit per cell |
//! | [`BitboardPair`] | `bitboards` | 18 | 19,683 of 2^18 | any grid, one 9-bit bitboard per player |
//! | [`CountRank`] | `count-rank` | 13 | 6,046 | boards with possible piece counts |
//! | [`Rank`] | `rank` | 13 | 5,478 | exactly the reachable positions |
//! | [`Canonical`] | `canonical` | 10 | 765 | exactly the symmetry classes |
//! | [`Oriented`] | `oriented` | 13 | 5,478 of 6,120 | a position as (class, symmetry) |
//! | [`GameCode`](crate::game::GameCode) | `game` ([`CodeKind`](crate::game::CodeKind)) | 18 | 255,168 | a complete game (its moves, not a board) |
//! | [`PrefixCode`](crate::game::PrefixCode) | `prefix` ([`CodeKind`](crate::game::CodeKind)) | 20 | 549,946 | any game, finished or not |
//!
//! Every board encoding implements [`Encoding`]: one code type ([`Encoding::Code`], the same
//! type the inherent `code()` returns), a checked decoder (`TryFrom<u32>`, [`Encoding::decode`])
//! that names the encoding and the reason a code is rejected, and a lossless round trip
//! through [`Board`]. Total encodings (any grid) have `from_board` and `From<Board>`; partial
//! ones have `try_from_board` returning an [`EncodeError`] that says why a board is refused.
//! [`Kind`] names the seven at run time, with their sizes and a generic encode and decode.
//! The two game codes number move sequences rather than boards, so they live beside
//! [`Game`](crate::Game) in [`game`](crate::game).

pub(crate) mod base3;
pub(crate) mod base4;
pub(crate) mod bitboard_pair;
pub(crate) mod canonical;
pub(crate) mod count_rank;
mod kind;
pub(crate) mod rank;

pub use base3::Base3;
pub use base4::Base4;
pub use bitboard_pair::BitboardPair;
pub use canonical::{Canonical, Oriented};
pub use count_rank::CountRank;
pub use kind::{Kind, ParseKindError};
pub use rank::Rank;

use crate::{Board, Cell, Symmetry, Violations};

/// An integer that is not a code of an encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{encoding} code {code} is invalid: {reason}")]
pub struct DecodeError {
    /// The encoding.
    pub encoding: Kind,
    /// The rejected code.
    pub code: u64,
    /// Why it was rejected.
    pub reason: DecodeReason,
}

/// Why a code does not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeReason {
    /// The code is not below the size of the code space.
    #[error("out of range (codes are 0 to {})", .limit - 1)]
    OutOfRange {
        /// The first code past the end.
        limit: u64,
    },
    /// Both bits of a base-4 cell are set.
    #[error("cell pattern 11 at cell {cell}")]
    CellPattern11 {
        /// The lowest such cell.
        cell: Cell,
    },
    /// Both bitboards hold a cell.
    #[error("X and O both hold cell {cell}")]
    Overlap {
        /// The lowest such cell.
        cell: Cell,
    },
    /// The code stands for a board that is not a reachable position.
    #[error("not a reachable position ({0})")]
    Unreachable(Violations),
    /// The symmetry of an [`Oriented`] code is not the one the encoder picks for that board.
    #[error("symmetry {given} is not canonical here: {expected} gives the same board")]
    NonCanonicalSymmetry {
        /// The symmetry in the code.
        given: Symmetry,
        /// The first symmetry (in [`Symmetry::ALL`] order) that yields the same board.
        expected: Symmetry,
    },
}

impl DecodeError {
    pub(crate) const fn new(encoding: Kind, code: u64, reason: DecodeReason) -> Self {
        DecodeError {
            encoding,
            code,
            reason,
        }
    }

    pub(crate) const fn out_of_range(encoding: Kind, code: u64, limit: u64) -> Self {
        DecodeError::new(encoding, code, DecodeReason::OutOfRange { limit })
    }
}

/// A board that an encoding cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{encoding} cannot hold board {board}: {reason}")]
pub struct EncodeError {
    /// The encoding.
    pub encoding: Kind,
    /// The refused board.
    pub board: Board,
    /// Why it was refused.
    pub reason: EncodeReason,
}

/// Why a board has no code in an encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeReason {
    /// The piece counts are impossible: X has neither as many marks as O nor one more.
    #[error("{x} X and {o} O marks (X must have as many as O or one more)")]
    PieceCounts {
        /// X's marks.
        x: u8,
        /// O's marks.
        o: u8,
    },
    /// The board is not a reachable position.
    #[error("not a reachable position ({0})")]
    Unreachable(Violations),
}

impl EncodeError {
    pub(crate) const fn new(encoding: Kind, board: Board, reason: EncodeReason) -> Self {
        EncodeError {
            encoding,
            board,
            reason,
        }
    }
}

/// The code of `board` by `encode` when it is a reachable position, else the error of
/// `encoding` naming every rule it breaks: the `try_from_board` of the encodings of positions.
pub(crate) fn encode_position<T>(
    encoding: Kind,
    board: Board,
    encode: fn(crate::Position) -> T,
) -> Result<T, EncodeError> {
    crate::Position::try_from(board)
        .map(encode)
        .map_err(|invalid| {
            EncodeError::new(
                encoding,
                board,
                EncodeReason::Unreachable(invalid.violations),
            )
        })
}

/// What all board encodings share, for code that is generic over them (packing, the CLI).
///
/// ```
/// use tictactoe::{Board, encoding::{Encoding, Rank, Base3}};
/// fn round_trip<E: Encoding>(board: Board) -> Option<Board> {
///     let code = E::encode(board).ok()?.code();
///     Some(E::decode(code.into()).ok()?.to_board())
/// }
/// let board: Board = "X.O/..O/.X.".parse()?;
/// assert_eq!(round_trip::<Rank>(board), Some(board));
/// assert_eq!(round_trip::<Base3>(board), Some(board));
/// # Ok::<(), tictactoe::ParseBoardError>(())
/// ```
pub trait Encoding: Copy + Eq + core::fmt::Debug + Sized {
    /// Which encoding this is; its name is used on the command line and in errors.
    const KIND: Kind;
    /// Bits needed to store any code.
    const BITS: u32;
    /// Codes lie in `0..LIMIT`.
    const LIMIT: u32;
    /// How many codes in `0..LIMIT` decode.
    const COUNT: u32;
    /// The integer type of a code (`u16` up to 16 bits, else `u32`).
    type Code: Copy + Into<u32> + Into<u64> + core::fmt::Debug;

    /// The code, below [`Self::LIMIT`].
    fn code(self) -> Self::Code;
    /// Decodes a code, or says why it is not one.
    ///
    /// # Errors
    /// A [`DecodeError`] naming the encoding, the code and the reason.
    fn decode(code: u32) -> Result<Self, DecodeError>;
    /// The board the code stands for ([`Canonical`]: the class representative).
    fn to_board(self) -> Board;
    /// Encodes a board, or says why this encoding cannot hold it.
    ///
    /// # Errors
    /// An [`EncodeError`] for a board outside the encoding's domain (never for a total one).
    fn encode(board: Board) -> Result<Self, EncodeError>;
}

/// The trait impl and the checked integer conversion of one encoding, from its inherent
/// `BITS`, `LIMIT`, `COUNT`, `code`, `try_from_code` and `to_board`, and either a total
/// `from_board` (`total`) or a partial `try_from_board` (`partial`).
macro_rules! impl_encoding {
    ($ty:ident, $kind:ident, $code:ty, total) => {
        impl From<Board> for $ty {
            fn from(board: Board) -> $ty {
                $ty::from_board(board)
            }
        }
        $crate::encoding::impl_encoding!(@common $ty, $kind, $code, |board| Ok($ty::from_board(board)));
    };
    ($ty:ident, $kind:ident, $code:ty, partial) => {
        impl TryFrom<Board> for $ty {
            type Error = $crate::encoding::EncodeError;
            fn try_from(board: Board) -> Result<$ty, $crate::encoding::EncodeError> {
                $ty::try_from_board(board)
            }
        }
        $crate::encoding::impl_encoding!(@common $ty, $kind, $code, $ty::try_from_board);
    };
    (@common $ty:ident, $kind:ident, $code:ty, $encode:expr) => {
        impl $ty {
            /// Which encoding this is.
            pub const KIND: $crate::encoding::Kind = $crate::encoding::Kind::$kind;
        }

        impl TryFrom<u32> for $ty {
            type Error = $crate::encoding::DecodeError;
            fn try_from(code: u32) -> Result<$ty, $crate::encoding::DecodeError> {
                $ty::try_from_code(code)
            }
        }

        impl From<$ty> for u32 {
            fn from(value: $ty) -> u32 {
                value.code().into()
            }
        }

        impl $crate::encoding::Encoding for $ty {
            const KIND: $crate::encoding::Kind = $crate::encoding::Kind::$kind;
            const BITS: u32 = $ty::BITS;
            const LIMIT: u32 = $ty::LIMIT;
            const COUNT: u32 = $ty::COUNT;
            type Code = $code;

            fn code(self) -> $code {
                $ty::code(self)
            }
            fn decode(code: u32) -> Result<$ty, $crate::encoding::DecodeError> {
                $ty::try_from_code(code)
            }
            fn to_board(self) -> Board {
                $ty::to_board(self)
            }
            fn encode(board: Board) -> Result<$ty, $crate::encoding::EncodeError> {
                let encode: fn(Board) -> Result<$ty, $crate::encoding::EncodeError> = $encode;
                encode(board)
            }
        }
    };
}
pub(crate) use impl_encoding;

/// `code` and `try_from_code` of an encoding whose codes are exactly `0..LIMIT` in a `u16`
/// newtype (base-3, count rank, rank, canonical): the only reason to reject a code is its range.
macro_rules! impl_range_code {
    ($ty:ident, $limit:literal) => {
        impl $ty {
            #[doc = concat!("The integer, below ", $limit, ".")]
            #[must_use]
            pub const fn code(self) -> u16 {
                self.0
            }

            #[doc = concat!("Decodes, rejecting codes of ", $limit, " or more.")]
            ///
            /// # Errors
            /// [`DecodeReason::OutOfRange`]($crate::encoding::DecodeReason::OutOfRange) past the
            /// range.
            pub const fn try_from_code(code: u32) -> Result<$ty, $crate::encoding::DecodeError> {
                if code < Self::LIMIT {
                    Ok($ty(code as u16))
                } else {
                    Err($crate::encoding::DecodeError::out_of_range(
                        Self::KIND,
                        code as u64,
                        Self::LIMIT as u64,
                    ))
                }
            }
        }
    };
}
pub(crate) use impl_range_code;
