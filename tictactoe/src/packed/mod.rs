//! Bulk storage: arrays of positions packed at exactly the bit width of an encoding.
//!
//! | packing | type | bits per position | holds | MB per 10^9 positions |
//! |---|---|---|---|---|
//! | `base4` | [`PackedArray<Base4>`] | 18 | any of the 19,683 grids | 2,250 |
//! | `base3` | [`PackedArray<Base3>`] | 15 | any of the 19,683 grids | 1,875 |
//! | `count-rank` | [`PackedArray<CountRank>`] | 13 | the 6,046 boards with possible piece counts | 1,625 |
//! | `rank` | [`PackedArray<Rank>`] | 13 | the 5,478 reachable positions | 1,625 |
//! | `mixed-radix` | [`MixedRadix`] | 12.8 (5 ranks per `u64`) | the 5,478 reachable positions | 1,600 |
//!
//! The information limits are `log2(19,683) = 14.27`, `log2(6,046) = 12.56` and
//! `log2(5,478) = 12.42` bits. Mixed radix stores five exact ranks as one number
//! `r0 + 5478 r1 + 5478^2 r2 + 5478^3 r3 + 5478^4 r4 < 5478^5 < 2^64`, 3.1% above the limit.
//!
//! # Layout
//!
//! A fixed-width array is a little-endian bit stream in bytes: position `i` holds bits
//! `i * BITS .. (i + 1) * BITS`, bit `j` of the stream being bit `j % 8` of byte `j / 8` (so
//! also bit `j % 64` of little-endian word `j / 64`). Every 64 positions fill exactly `BITS`
//! words, which is the unit of the bulk paths; a get is one unaligned 8-byte load. A mixed
//! radix array holds positions `5k .. 5k + 5` in word `k`, the first in the lowest digit.
//!
//! # Cost
//!
//! Get and set touch one or two words; bulk packing and unpacking work on whole chunks (64
//! positions or one word) and turn boards into codes and back with one table read each way
//! (`lab::table_bytes::PACKED`). Medians: docs/benchmarks.md (`cargo bench -p tictactoe-kit --bench packed`).
//!
//! Needs the `alloc` feature (on with `std`).
//!
//! ```
//! use tictactoe::{Board, encoding::Rank, packed::{MixedRadix, PackedArray}};
//!
//! let boards: Vec<Board> = ["X.O/..O/.X.", ".........", "XOX/XOO/OXX"]
//!     .iter()
//!     .map(|text| text.parse())
//!     .collect::<Result<_, _>>()?;
//! let mut ranks = PackedArray::<Rank>::from_boards(&boards)?;
//! assert_eq!(ranks.as_bytes().len(), 5); // 3 x 13 bits
//! assert_eq!(ranks.get(2)?, boards[2]);
//! ranks.set(0, Board::EMPTY)?;
//! assert!(ranks.push("XXX/XXX/XXX".parse()?).is_err()); // not reachable
//! let mixed = MixedRadix::from_boards(&boards)?;
//! assert_eq!(mixed.to_boards(), boards);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod fixed;
mod mixed;
mod packing;
mod tables;

pub use fixed::{Iter, PackedArray};
pub use mixed::{MixedRadix, MixedRadixIter};
pub use packing::{Packing, ParsePackingError};
pub(crate) use tables::TABLE_BYTES;

use crate::Board;
use crate::encoding::{
    Base3, Base4, BitboardPair, CountRank, DecodeError, Encoding, Kind, Rank, base4,
};

/// Why a packed array refused an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PackError {
    /// An index at or past the end.
    #[error("index {index} is out of range for {len} positions")]
    IndexOutOfRange {
        /// The index asked for.
        index: usize,
        /// The number of positions held.
        len: usize,
    },
    /// A board the encoding cannot hold (an unreachable board for `rank`, say).
    #[error("{encoding} cannot hold board {board} (position {index})")]
    Unencodable {
        /// The encoding (`rank` for mixed radix, which holds ranks).
        encoding: Kind,
        /// The board.
        board: Board,
        /// Where it was to go.
        index: usize,
    },
    /// A stored code that does not decode (raw words or bytes from outside).
    #[error("position {index}: {error}")]
    InvalidCode {
        /// Where the code was.
        index: usize,
        /// Why it does not decode.
        error: DecodeError,
    },
    /// Raw bytes of the wrong length for the number of positions.
    #[error("{len} positions take {expected} bytes, got {found}")]
    WrongByteLength {
        /// Positions asked for.
        len: usize,
        /// Bytes they take.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
    /// A number of positions whose size in bytes does not fit a `usize`.
    #[error("{len} positions take more bytes than a usize can count")]
    TooLong {
        /// Positions asked for.
        len: usize,
    },
    /// Bits past the last position are not zero.
    #[error("the bits past the last position are not zero")]
    NonZeroPadding,
}

impl PackError {
    /// `Ok` when `index < len`, else [`PackError::IndexOutOfRange`].
    pub(crate) const fn check_index(index: usize, len: usize) -> Result<(), PackError> {
        if index < len {
            Ok(())
        } else {
            Err(PackError::IndexOutOfRange { index, len })
        }
    }
}

/// The error of a bulk append to an array of `start` positions that refused `boards[j]`.
fn refused(encoding: Kind, boards: &[Board], start: usize) -> impl FnOnce(usize) -> PackError {
    move |j| PackError::Unencodable {
        encoding,
        board: boards[j],
        index: start + j,
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::encoding::Base4 {}
    impl Sealed for crate::encoding::Base3 {}
    impl Sealed for crate::encoding::BitboardPair {}
    impl Sealed for crate::encoding::CountRank {}
    impl Sealed for crate::encoding::Rank {}
}

/// The encodings a [`PackedArray`] can hold: [`Base4`], [`Base3`], [`BitboardPair`],
/// [`CountRank`] and [`Rank`]. Sealed: its methods are the packed arrays' own access to the
/// encodings' codes, not a second encoder.
///
/// Each method is the encoding's own [`Encoding::encode`] / [`Encoding::decode`] seen as a raw
/// `u32`, read from the one shared grid table of this module where that is faster (see
/// `lab::table_bytes::PACKED`); the tests compare both on every grid and every code.
pub trait Packable: Encoding + sealed::Sealed {
    /// The code of `board`, or `None` when the encoding cannot hold it.
    #[inline]
    #[doc(hidden)]
    fn pack(board: Board) -> Option<u32> {
        Self::encode(board).ok().map(|e| e.code().into())
    }

    /// The board of a code that decodes ([`Self::is_code`]); any board for other codes.
    #[inline]
    #[doc(hidden)]
    fn unpack(code: u32) -> Board {
        Self::decode(code).map_or(Board::EMPTY, Self::to_board)
    }

    /// Whether `code` decodes.
    #[inline]
    #[doc(hidden)]
    fn is_code(code: u32) -> bool {
        Self::decode(code).is_ok()
    }
}

impl Packable for Base4 {
    #[inline]
    fn pack(board: Board) -> Option<u32> {
        Some(base4::spread(board.x().bits()) | base4::spread(board.o().bits()) << 1)
    }
    #[inline]
    fn unpack(code: u32) -> Board {
        tables::base4_board(code)
    }
    #[inline]
    fn is_code(code: u32) -> bool {
        code < 1 << 18 && code & code >> 1 & 0x15555 == 0
    }
}

impl Packable for BitboardPair {}

impl Packable for Base3 {
    #[inline]
    fn pack(board: Board) -> Option<u32> {
        Some(tables::grid_index(board) as u32)
    }
    #[inline]
    fn unpack(code: u32) -> Board {
        tables::grid_board_table(code)
    }
    #[inline]
    fn is_code(code: u32) -> bool {
        code < Base3::COUNT
    }
}

impl Packable for Rank {
    #[inline]
    fn pack(board: Board) -> Option<u32> {
        let code = tables::GRID_RANK[tables::grid_index(board)];
        (code != tables::NONE).then_some(u32::from(code))
    }
    #[inline]
    fn unpack(code: u32) -> Board {
        tables::RANK_BOARD
            .get(code as usize)
            .copied()
            .unwrap_or(Board::EMPTY)
    }
    #[inline]
    fn is_code(code: u32) -> bool {
        code < Rank::COUNT
    }
}

impl Packable for CountRank {
    #[inline]
    fn pack(board: Board) -> Option<u32> {
        let code = tables::GRID_COUNT_RANK[tables::grid_index(board)];
        (code != tables::NONE).then_some(u32::from(code))
    }
    #[inline]
    fn unpack(code: u32) -> Board {
        tables::COUNT_RANK_BOARD
            .get(code as usize)
            .copied()
            .unwrap_or(Board::EMPTY)
    }
    #[inline]
    fn is_code(code: u32) -> bool {
        code < CountRank::COUNT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fast_paths_match_the_encoding<E: Packable>() {
        for board in Board::all() {
            let slow = E::encode(board).ok().map(|e| e.code().into());
            assert_eq!(E::pack(board), slow, "{} {board}", E::KIND);
        }
        for code in 0..E::LIMIT.max(1 << 15) {
            let slow = E::decode(code).ok();
            assert_eq!(E::is_code(code), slow.is_some(), "{} {code}", E::KIND);
            if let Some(value) = slow {
                assert_eq!(E::unpack(code), value.to_board(), "{} {code}", E::KIND);
            }
        }
    }

    #[test]
    fn fast_paths_match_every_encoding_on_every_grid_and_code() {
        fast_paths_match_the_encoding::<Base4>();
        fast_paths_match_the_encoding::<Base3>();
        fast_paths_match_the_encoding::<BitboardPair>();
        fast_paths_match_the_encoding::<CountRank>();
        fast_paths_match_the_encoding::<Rank>();
    }

    #[test]
    fn table_bytes_add_up() {
        assert_eq!(
            TABLE_BYTES,
            1_024 + 4 * 19_683 + 1_024 + 2 * 39_366 + 4 * (5_478 + 6_046)
        );
    }
}

#[cfg(test)]
pub(crate) mod tests_support {
    use alloc::vec::Vec;

    use crate::{Board, Position};

    /// `len` reachable positions drawn by a fixed xorshift from `seed`.
    pub(crate) fn sample(len: usize, seed: u64) -> Vec<Board> {
        let all: Vec<Board> = Position::all().map(Position::board).collect();
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                all[(state % all.len() as u64) as usize]
            })
            .collect()
    }
}
