//! [`Packing`]: the five packings chosen at run time (by files and the command line).

use alloc::vec::Vec;

use super::{MixedRadix, PackError, Packable, PackedArray};
use crate::Board;
use crate::choice::choice_enum;
use crate::encoding::{Base3, Base4, CountRank, Kind, Rank};

choice_enum! {
/// One of the packings of [`packed`](super), chosen at run time (`ALL` is in the order of
/// their file identifiers).
///
/// ```
/// use tictactoe::{Board, packed::Packing};
/// let packing: Packing = "mixed-radix".parse()?;
/// assert_eq!(packing.bits_per_position(), (64, 5));
/// let boards = vec![Board::EMPTY; 7];
/// let mut bytes = Vec::new();
/// packing.encode(&boards, &mut bytes)?;
/// assert_eq!(bytes.len(), packing.bytes_for(7));
/// let mut back = Vec::new();
/// packing.decode(&bytes, 7, &mut back)?;
/// assert_eq!(back, boards);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Packing {
    /// [`Base4`], 18 bits: any grid.
    Base4 = "base4",
    /// [`Base3`], 15 bits: any grid.
    Base3 = "base3",
    /// [`CountRank`], 13 bits: boards with possible piece counts.
    CountRank = "count-rank",
    /// [`Rank`], 13 bits: reachable positions.
    Rank = "rank",
    /// [`MixedRadix`], 12.8 bits: reachable positions, five ranks per word.
    MixedRadix = "mixed-radix",
}
parse_error: |text| -> ParsePackingError { ParsePackingError(text.into()) }
}

/// A name that is not a packing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown encoding {0:?} (expected base4, base3, count-rank, rank or mixed-radix)")]
pub struct ParsePackingError(pub alloc::string::String);

impl Packing {
    /// The encoding whose codes the packing stores (`rank` for mixed radix).
    #[must_use]
    pub const fn kind(self) -> Kind {
        match self {
            Packing::Base4 => Kind::Base4,
            Packing::Base3 => Kind::Base3,
            Packing::CountRank => Kind::CountRank,
            Packing::Rank | Packing::MixedRadix => Kind::Rank,
        }
    }

    /// The byte that names the packing in a `.ttt` header (1 to 5).
    #[must_use]
    pub const fn id(self) -> u8 {
        match self {
            Packing::Base4 => 1,
            Packing::Base3 => 2,
            Packing::CountRank => 3,
            Packing::Rank => 4,
            Packing::MixedRadix => 5,
        }
    }

    /// The packing of a header byte.
    #[must_use]
    pub const fn from_id(id: u8) -> Option<Packing> {
        match id {
            1 => Some(Packing::Base4),
            2 => Some(Packing::Base3),
            3 => Some(Packing::CountRank),
            4 => Some(Packing::Rank),
            5 => Some(Packing::MixedRadix),
            _ => None,
        }
    }

    /// Bits per group of positions: `(18, 1)` for base-4, `(64, 5)` for mixed radix.
    #[must_use]
    pub const fn bits_per_position(self) -> (u32, u32) {
        match self {
            Packing::Base4 => (Base4::BITS, 1),
            Packing::Base3 => (Base3::BITS, 1),
            Packing::CountRank => (CountRank::BITS, 1),
            Packing::Rank => (Rank::BITS, 1),
            Packing::MixedRadix => (64, MixedRadix::PER_WORD as u32),
        }
    }

    /// How many boards the packing can hold: 19,683, 6,046 or 5,478.
    #[must_use]
    pub const fn holds(self) -> u32 {
        match self {
            Packing::Base4 => Base4::COUNT,
            Packing::Base3 => Base3::COUNT,
            Packing::CountRank => CountRank::COUNT,
            Packing::Rank | Packing::MixedRadix => Rank::COUNT,
        }
    }

    /// What the packing holds, in words.
    #[must_use]
    pub const fn description(self) -> &'static str {
        match self {
            Packing::Base4 | Packing::Base3 => "any grid",
            Packing::CountRank => "boards with possible piece counts",
            Packing::Rank | Packing::MixedRadix => "reachable positions",
        }
    }

    /// Whether the packing can hold `board`.
    #[must_use]
    pub fn can_hold(self, board: Board) -> bool {
        self.code(board).is_some()
    }

    /// The code the packing stores for `board`, in the encoding [`kind`](Self::kind) (the
    /// rank for mixed radix), or `None` when it cannot hold the board.
    ///
    /// ```
    /// use tictactoe::{Board, packed::Packing};
    /// assert_eq!(Packing::MixedRadix.code(Board::EMPTY), Some(0));
    /// assert_eq!(Packing::Rank.code("XXXXXXXXX".parse()?), None);
    /// assert_eq!(Packing::Base3.code("XXXXXXXXX".parse()?), Some(9_841));
    /// # Ok::<(), tictactoe::ParseBoardError>(())
    /// ```
    #[must_use]
    pub fn code(self, board: Board) -> Option<u32> {
        match self {
            Packing::Base4 => Base4::pack(board),
            Packing::Base3 => Base3::pack(board),
            Packing::CountRank => CountRank::pack(board),
            Packing::Rank | Packing::MixedRadix => Rank::pack(board),
        }
    }

    /// Whether `code` is one the packing stores (one [`code`](Self::code) gives).
    #[must_use]
    pub fn is_code(self, code: u32) -> bool {
        match self {
            Packing::Base4 => Base4::is_code(code),
            Packing::Base3 => Base3::is_code(code),
            Packing::CountRank => CountRank::is_code(code),
            Packing::Rank | Packing::MixedRadix => Rank::is_code(code),
        }
    }

    /// Bytes that `len` positions take in [`encode`](Self::encode)'s output.
    #[must_use]
    pub const fn bytes_for(self, len: usize) -> usize {
        match self {
            Packing::Base4 => PackedArray::<Base4>::bytes_for(len),
            Packing::Base3 => PackedArray::<Base3>::bytes_for(len),
            Packing::CountRank => PackedArray::<CountRank>::bytes_for(len),
            Packing::Rank => PackedArray::<Rank>::bytes_for(len),
            Packing::MixedRadix => MixedRadix::bytes_for(len),
        }
    }

    /// Appends the packed bytes of `boards` to `out` (nothing on error).
    ///
    /// # Errors
    /// [`PackError::Unencodable`] for the first board the packing cannot hold.
    pub fn encode(self, boards: &[Board], out: &mut Vec<u8>) -> Result<(), PackError> {
        match self {
            Packing::Base4 => PackedArray::<Base4>::from_boards(boards)?.write_bytes(out),
            Packing::Base3 => PackedArray::<Base3>::from_boards(boards)?.write_bytes(out),
            Packing::CountRank => PackedArray::<CountRank>::from_boards(boards)?.write_bytes(out),
            Packing::Rank => PackedArray::<Rank>::from_boards(boards)?.write_bytes(out),
            Packing::MixedRadix => MixedRadix::from_boards(boards)?.write_bytes(out),
        }
        Ok(())
    }

    /// Appends the packed bytes of `codes`, each one [`is_code`](Self::is_code) accepts.
    #[cfg_attr(not(feature = "std"), allow(dead_code))] // the `.ttt` writer uses it
    pub(crate) fn encode_codes(self, codes: &[u32], out: &mut Vec<u8>) {
        debug_assert!(codes.iter().all(|&code| self.is_code(code)));
        // `Some` refuses no code.
        let stored = match self {
            Packing::Base4 => fixed::<Base4>(codes, out),
            Packing::Base3 => fixed::<Base3>(codes, out),
            Packing::CountRank => fixed::<CountRank>(codes, out),
            Packing::Rank => fixed::<Rank>(codes, out),
            Packing::MixedRadix => {
                let mut array = MixedRadix::with_capacity(codes.len());
                let stored = array.extend_with(codes, Some);
                array.write_bytes(out);
                stored
            }
        };
        debug_assert!(stored.is_ok());

        fn fixed<E: Packable>(codes: &[u32], out: &mut Vec<u8>) -> Result<(), usize> {
            let mut array = PackedArray::<E>::with_capacity(codes.len());
            let stored = array.extend_with(codes, Some);
            array.write_bytes(out);
            stored
        }
    }

    /// Appends the `len` boards packed in `bytes` to `out`, checking every code first.
    ///
    /// # Errors
    /// [`PackError`] as the packing's `from_bytes` reports it.
    pub fn decode(self, bytes: &[u8], len: usize, out: &mut Vec<Board>) -> Result<(), PackError> {
        match self {
            Packing::Base4 => PackedArray::<Base4>::from_bytes(bytes, len)?.unpack_into(out),
            Packing::Base3 => PackedArray::<Base3>::from_bytes(bytes, len)?.unpack_into(out),
            Packing::CountRank => {
                PackedArray::<CountRank>::from_bytes(bytes, len)?.unpack_into(out);
            }
            Packing::Rank => PackedArray::<Rank>::from_bytes(bytes, len)?.unpack_into(out),
            Packing::MixedRadix => MixedRadix::from_bytes(bytes, len)?.unpack_into(out),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::tests_support::sample;

    #[test]
    fn names_ids_and_sizes() {
        for packing in Packing::ALL {
            assert_eq!(packing.name().parse(), Ok(packing));
            assert_eq!(Packing::from_id(packing.id()), Some(packing));
            let boards = sample(301, u64::from(packing.id()));
            let mut bytes = Vec::new();
            packing.encode(&boards, &mut bytes).unwrap();
            assert_eq!(bytes.len(), packing.bytes_for(301));
            let mut back = Vec::new();
            packing.decode(&bytes, 301, &mut back).unwrap();
            assert_eq!(back, boards);
            let held = Board::all().filter(|&b| packing.can_hold(b)).count();
            assert_eq!(held, packing.holds() as usize);
        }
        assert_eq!(Packing::from_id(0), None);
        assert_eq!(Packing::from_id(6), None);
        assert!("base5".parse::<Packing>().is_err());
    }

    /// The codes path (the `.ttt` writer's) packs the same bytes as the boards path, at every
    /// length around the chunk and word boundaries, and takes exactly the codes `code` gives.
    #[test]
    fn codes_pack_as_boards_do() {
        for packing in Packing::ALL {
            for len in [0, 1, 4, 5, 6, 63, 64, 65, 129, 1_500] {
                let boards = sample(len, u64::from(packing.id()) + 7);
                let codes: Vec<u32> = boards.iter().map(|&b| packing.code(b).unwrap()).collect();
                let (mut by_boards, mut by_codes) = (Vec::new(), Vec::new());
                packing.encode(&boards, &mut by_boards).unwrap();
                packing.encode_codes(&codes, &mut by_codes);
                assert_eq!(by_codes, by_boards, "{packing} {len}");
            }
            for board in Board::all() {
                let code = packing.code(board);
                assert_eq!(code.is_some(), packing.can_hold(board));
                assert_eq!(code, packing.kind().encode(board).ok(), "{packing} {board}");
            }
            for code in 0..1 << 18 {
                assert_eq!(packing.is_code(code), packing.kind().decode(code).is_ok());
            }
        }
    }

    /// Issue 14, defect 5: `decode` multiplied the length without a check.
    #[test]
    fn decode_of_a_huge_length_is_an_error() {
        let wraps = (((1u128 << 64) + 8) / 8 * 5) as usize;
        for packing in Packing::ALL {
            for len in [usize::MAX, usize::MAX / 13 + 1, wraps, 1 << 61] {
                let mut out = Vec::new();
                for bytes in [&[][..], &[0; 8][..], &[0; 64][..]] {
                    assert!(
                        packing.decode(bytes, len, &mut out).is_err(),
                        "{packing} {len}"
                    );
                }
                assert!(out.is_empty());
            }
        }
    }
}
