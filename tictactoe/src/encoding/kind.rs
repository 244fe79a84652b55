//! [`Kind`]: every encoding named at run time.

use crate::choice::choice_enum;

use super::{
    Base3, Base4, BitboardPair, Canonical, CountRank, DecodeError, EncodeError, Encoding, Oriented,
    Rank,
};
use crate::Board;

choice_enum! {
/// One of the seven board encodings, chosen at run time (a command-line flag, a file header).
///
/// Each implements [`Encoding`]; [`Kind::encode`] and [`Kind::decode`] run any of them on a
/// [`Board`] without naming its type. (The two game codes number move sequences, not boards:
/// they are [`game::GameCode`](crate::game::GameCode) and
/// [`game::PrefixCode`](crate::game::PrefixCode), named by
/// [`game::CodeKind`](crate::game::CodeKind).)
///
/// ```
/// use tictactoe::{Board, encoding::Kind};
/// let board: Board = "X.O/..O/.X.".parse()?;
/// let kind: Kind = "rank".parse()?;
/// assert_eq!((kind.bits(), kind.count()), (13, 5_478));
/// let code = kind.encode(board)?;
/// assert_eq!(kind.decode(code)?, board);
/// assert!(Kind::Rank.encode("XXX/XXX/XXX".parse()?).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// [`Base4`]: 2 bits per cell, 18 bits.
    Base4 = "base4",
    /// [`Base3`]: one base-3 digit per cell, 15 bits.
    Base3 = "base3",
    /// [`BitboardPair`]: one 9-bit bitboard per player, 18 bits.
    BitboardPair = "bitboards",
    /// [`CountRank`]: boards with possible piece counts, 13 bits.
    CountRank = "count-rank",
    /// [`Rank`]: the exact rank of the reachable positions, 13 bits.
    Rank = "rank",
    /// [`Canonical`]: the symmetry classes, 10 bits.
    Canonical = "canonical",
    /// [`Oriented`]: a position as (class, symmetry), 13 bits.
    Oriented = "oriented",
}
parse_error: |_text| -> ParseKindError { ParseKindError }
}

/// Text that names no encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown encoding: expected base4, base3, bitboards, count-rank, rank, canonical or oriented"
)]
pub struct ParseKindError;

impl Kind {
    /// Bits needed to store any code.
    #[must_use]
    pub const fn bits(self) -> u32 {
        match self {
            Kind::Base4 => Base4::BITS,
            Kind::Base3 => Base3::BITS,
            Kind::BitboardPair => BitboardPair::BITS,
            Kind::CountRank => CountRank::BITS,
            Kind::Rank => Rank::BITS,
            Kind::Canonical => Canonical::BITS,
            Kind::Oriented => Oriented::BITS,
        }
    }

    /// Codes lie in `0..limit()`.
    #[must_use]
    pub const fn limit(self) -> u32 {
        match self {
            Kind::Base4 => Base4::LIMIT,
            Kind::Base3 => Base3::LIMIT,
            Kind::BitboardPair => BitboardPair::LIMIT,
            Kind::CountRank => CountRank::LIMIT,
            Kind::Rank => Rank::LIMIT,
            Kind::Canonical => Canonical::LIMIT,
            Kind::Oriented => Oriented::LIMIT,
        }
    }

    /// How many codes in `0..limit()` decode.
    #[must_use]
    pub const fn count(self) -> u32 {
        match self {
            Kind::Base4 => Base4::COUNT,
            Kind::Base3 => Base3::COUNT,
            Kind::BitboardPair => BitboardPair::COUNT,
            Kind::CountRank => CountRank::COUNT,
            Kind::Rank => Rank::COUNT,
            Kind::Canonical => Canonical::COUNT,
            Kind::Oriented => Oriented::COUNT,
        }
    }

    /// The code of `board`.
    ///
    /// # Errors
    /// An [`EncodeError`] when the encoding cannot hold the board (an unreachable board for
    /// `rank`, say).
    pub fn encode(self, board: Board) -> Result<u32, EncodeError> {
        fn code<E: Encoding>(board: Board) -> Result<u32, EncodeError> {
            E::encode(board).map(|e| e.code().into())
        }
        match self {
            Kind::Base4 => code::<Base4>(board),
            Kind::Base3 => code::<Base3>(board),
            Kind::BitboardPair => code::<BitboardPair>(board),
            Kind::CountRank => code::<CountRank>(board),
            Kind::Rank => code::<Rank>(board),
            Kind::Canonical => code::<Canonical>(board),
            Kind::Oriented => code::<Oriented>(board),
        }
    }

    /// The board of `code` ([`Canonical`]: the class representative).
    ///
    /// # Errors
    /// A [`DecodeError`] naming this encoding, the code and why it does not decode.
    pub fn decode(self, code: u32) -> Result<Board, DecodeError> {
        fn board<E: Encoding>(code: u32) -> Result<Board, DecodeError> {
            E::decode(code).map(Encoding::to_board)
        }
        match self {
            Kind::Base4 => board::<Base4>(code),
            Kind::Base3 => board::<Base3>(code),
            Kind::BitboardPair => board::<BitboardPair>(code),
            Kind::CountRank => board::<CountRank>(code),
            Kind::Rank => board::<Rank>(code),
            Kind::Canonical => board::<Canonical>(code),
            Kind::Oriented => board::<Oriented>(code),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_sizes_match_the_types() {
        for kind in Kind::ALL {
            assert_eq!(kind.name().parse::<Kind>(), Ok(kind));
            assert!(kind.count() <= kind.limit());
            assert!(u64::from(kind.limit()) <= 1u64 << kind.bits());
            assert!(u64::from(kind.limit()) > 1u64 << (kind.bits() - 1));
        }
        assert_eq!("count_rank".parse::<Kind>(), Err(ParseKindError));
    }

    #[test]
    fn generic_encode_and_decode_round_trip_every_grid() {
        for kind in Kind::ALL {
            let mut held = 0;
            for board in Board::all() {
                if let Ok(code) = kind.encode(board) {
                    held += 1;
                    let back = kind.decode(code).unwrap();
                    if kind == Kind::Canonical {
                        assert_eq!(kind.encode(back), Ok(code));
                    } else {
                        assert_eq!(back, board, "{kind}");
                    }
                }
            }
            let expected = match kind {
                Kind::Canonical => Board::COUNT,
                _ => kind.count() as usize,
            };
            if kind == Kind::Canonical {
                assert_eq!(held, crate::Position::COUNT);
            } else {
                assert_eq!(held, expected, "{kind}");
            }
        }
    }
}
