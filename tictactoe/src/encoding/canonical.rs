//! Canonical: the 765 symmetry classes of reachable positions in 10 bits, and a position as
//! (class, symmetry) in 13.
//!
//! | type | layout | range |
//! |---|---|---|
//! | [`Canonical`] | class index | `0..765` (`2^9 < 765 <= 2^10`) |
//! | [`Oriented`] | `class * 8 + symmetry` (index in [`Symmetry::ALL`]) | `0..6,120`; 5,478 decode |
//!
//! The *representative* of a board is the image, among its 8, whose [`BitboardPair`] code
//! `x | o << 9` is least. Classes are numbered in increasing [`Rank`] order of their
//! representatives. For a position, the symmetry `s` is the first in [`Symmetry::ALL`] order
//! with `board = s(representative)`: `identity` whenever the board is its own representative.
//! An [`Oriented`] code whose symmetry is not that first one is rejected, so the encoding is a
//! bijection onto the positions.
//!
//! Tables (`lab::table_bytes::CANONICAL`): a 5,478-bit set of the ranks that are representatives with one
//! prefix count per byte (2,055 bytes) turns a representative's rank into its class by one
//! popcount lookup; the 765 representatives' ranks (1,530 bytes) decode; the first symmetry
//! of each coset (765 bytes) validates [`Oriented`] codes; the symmetry images of 9-bit sets
//! are shared with [`Symmetry`] (8 KiB).
//!
//! Cost: encode applies the 8 symmetries by 16 lookups, takes the least code without a
//! branch, ranks it ([`Rank`]) and counts bits; decode is a lookup, a [`Rank`] decode and one
//! symmetry; an [`Oriented`] decode checks its symmetry by one lookup. Medians in
//! docs/benchmarks.md.
//!
//! [`BitboardPair`]: super::BitboardPair
#![allow(
    clippy::cast_lossless,
    reason = "bit twiddling in const fns, where `From` cannot be called"
)]

use super::{DecodeError, DecodeReason, EncodeError, Rank};
use crate::bits::popcount9;
use crate::{Bitboard, Board, Position, Symmetry};

/// A symmetry class of reachable positions, as its index in `0..765`.
///
/// ```
/// use tictactoe::{Board, Position, Symmetry, encoding::Canonical};
/// let corner = Position::try_from("X../.../...".parse::<Board>()?)?;
/// let other = Position::try_from(".../.../..X".parse::<Board>()?)?;
/// assert_eq!(Canonical::from_position(corner), Canonical::from_position(other));
/// let (representative, symmetry) = Canonical::canonical_form(other.board());
/// assert_eq!(symmetry.apply(representative), other.board());
/// assert_eq!(Canonical::COUNT, 765);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Canonical(u16);

/// A position as its class and the symmetry that carries the class representative onto it.
///
/// ```
/// use tictactoe::{Board, Position, encoding::Oriented};
/// let position = Position::try_from("..X/.O./...".parse::<Board>()?)?;
/// let oriented = Oriented::from_position(position);
/// assert_eq!(oriented.to_position(), position);
/// assert_eq!(Oriented::try_from(u32::from(oriented.code()))?, oriented);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Oriented {
    class: Canonical,
    symmetry: Symmetry,
}

/// Ranks per word of [`IS_REPRESENTATIVE`]: a byte, so that the bits below a rank are counted
/// by one lookup in the shared 9-bit popcount table rather than a 64-bit software popcount
/// (the baseline x86-64 target has no `popcnt`).
const WORD: usize = 8;
/// Words in [`IS_REPRESENTATIVE`].
const WORDS: usize = (Rank::COUNT as usize).div_ceil(WORD);

/// Bit `r % 8` of byte `r / 8` is set when the position of rank `r` is its own class
/// representative.
static IS_REPRESENTATIVE: [u8; WORDS] = {
    let mut bits = [0u8; WORDS];
    let mut rank = 0;
    while rank < Rank::COUNT as usize {
        let board = super::rank::decode_board(rank as u16);
        if is_representative(board) {
            bits[rank / WORD] |= 1 << (rank % WORD);
        }
        rank += 1;
    }
    bits
};

/// `CLASSES_BEFORE[w]`: representatives among ranks below `8 * w`.
static CLASSES_BEFORE: [u16; WORDS] = {
    let mut table = [0u16; WORDS];
    let mut w = 1;
    while w < WORDS {
        table[w] = table[w - 1] + IS_REPRESENTATIVE[w - 1].count_ones() as u16;
        w += 1;
    }
    table
};

/// Number of classes, counted from the table.
const CLASS_COUNT: usize =
    CLASSES_BEFORE[WORDS - 1] as usize + IS_REPRESENTATIVE[WORDS - 1].count_ones() as usize;

/// `REPRESENTATIVE[c]`: the rank of the representative of class `c`.
static REPRESENTATIVE: [u16; CLASS_COUNT] = {
    let mut table = [0u16; CLASS_COUNT];
    let mut class = 0;
    let mut rank = 0;
    while rank < Rank::COUNT as usize {
        if IS_REPRESENTATIVE[rank / WORD] >> (rank % WORD) & 1 != 0 {
            table[class] = rank as u16;
            class += 1;
        }
        rank += 1;
    }
    table
};

/// `FIRST_SYMMETRIES[c]`: bit `s` is set when no symmetry before `s` in [`Symmetry::ALL`]
/// carries the representative of class `c` to the same board as `s` does, i.e. when
/// `c * 8 + s` is an [`Oriented`] code: 765 bytes.
static FIRST_SYMMETRIES: [u8; CLASS_COUNT] = {
    let mut table = [0u8; CLASS_COUNT];
    let mut class = 0;
    while class < CLASS_COUNT {
        let representative = super::rank::decode_board(REPRESENTATIVE[class]);
        let mut s = 0;
        while s < 8 {
            let image = image_key_const(s, representative);
            let mut t = 0;
            while t < s && image_key_const(t, representative) != image {
                t += 1;
            }
            if t == s {
                table[class] |= 1 << s;
            }
            s += 1;
        }
        class += 1;
    }
    table
};

/// Bytes of the static tables owned by the canonical encoding (the symmetry image table it
/// shares is [`Symmetry::TABLE_BYTES`]).
pub(crate) const TABLE_BYTES: usize = core::mem::size_of_val(&IS_REPRESENTATIVE)
    + core::mem::size_of_val(&CLASSES_BEFORE)
    + core::mem::size_of_val(&REPRESENTATIVE)
    + core::mem::size_of_val(&FIRST_SYMMETRIES);

/// The [`super::BitboardPair`] code of a board, the order that picks representatives.
const fn key(board: Board) -> u32 {
    board.x().bits() as u32 | (board.o().bits() as u32) << 9
}

/// The key of the image of `board` under `Symmetry::ALL[s]`, cell by cell (compile time).
const fn image_key_const(s: usize, board: Board) -> u32 {
    key(crate::symmetry::apply_const(Symmetry::ALL[s], board))
}

/// The board of a [`key`].
const fn board_of_key(key: u32) -> Board {
    Board::from_disjoint(
        Bitboard::from_bits_truncate(key as u16),
        Bitboard::from_bits_truncate((key >> 9) as u16),
    )
}

/// The keys of the 8 images of `board`, in [`Symmetry::ALL`] order: 16 table lookups.
// Inlined so that the eight keys stay in registers rather than going through memory.
#[inline(always)]
fn image_keys(board: Board) -> [u32; 8] {
    let (x, o) = (board.x(), board.o());
    // A plain loop: `array::map` is not always inlined, and then each key is a call.
    let mut keys = [0; 8];
    for (key, s) in keys.iter_mut().zip(Symmetry::ALL) {
        *key = s.apply_bitboard(x).bits() as u32 | (s.apply_bitboard(o).bits() as u32) << 9;
    }
    keys
}

/// The least of eight keys, by a branch-free tree of minimums.
#[inline]
fn least(keys: [u32; 8]) -> u32 {
    let [a, b, c, d, e, f, g, h] = keys;
    a.min(b).min(c.min(d)).min(e.min(f).min(g.min(h)))
}

/// Whether no image of `board` has a smaller key (compile-time version, cell by cell).
const fn is_representative(board: Board) -> bool {
    let mut s = 1;
    while s < 8 {
        if image_key_const(s, board) < key(board) {
            return false;
        }
        s += 1;
    }
    true
}

impl Canonical {
    /// `2^9 < 765 <= 2^10`.
    pub const BITS: u32 = 10;
    /// Codes lie below 765.
    pub const LIMIT: u32 = CLASS_COUNT as u32;
    /// Classes, counted from the tables: every code below [`Self::LIMIT`].
    pub const COUNT: u32 = CLASS_COUNT as u32;

    /// The representative of any board and the first symmetry `s` with `board = s(rep)`.
    #[must_use]
    pub fn canonical_form(board: Board) -> (Board, Symmetry) {
        let keys = image_keys(board);
        let best = least(keys);
        // Branch-free: which images reach the least key is unpredictable from board to board.
        let mut reaching = 0u8;
        for (s, image) in keys.into_iter().enumerate() {
            reaching |= u8::from(image == best) << s;
        }
        // `reaching` holds every t with t(board) = rep; the wanted s are their inverses, and
        // inversion only swaps rot90 (bit 1) with rot270 (bit 3).
        let swapped = reaching & !0b1010 | (reaching >> 2 & 0b10) | (reaching << 2 & 0b1000);
        let symmetry = Symmetry::ALL[swapped.trailing_zeros() as usize];
        (board_of_key(best), symmetry)
    }

    /// The class of a position.
    #[must_use]
    pub fn from_position(position: Position) -> Canonical {
        let representative = board_of_key(least(image_keys(position.board())));
        Canonical::from_representative(representative)
    }

    /// The class of a board known to be a reachable class representative.
    fn from_representative(representative: Board) -> Canonical {
        let rank = Rank::from_position(Position::from_board_unchecked(representative));
        Canonical::from_representative_rank(rank)
    }

    /// The class of a board.
    ///
    /// # Errors
    /// [`EncodeReason::Unreachable`](super::EncodeReason::Unreachable) with every rule the board breaks.
    pub fn try_from_board(board: Board) -> Result<Canonical, EncodeError> {
        super::encode_position(Self::KIND, board, Canonical::from_position)
    }

    /// The board: the class representative.
    #[must_use]
    pub fn to_board(self) -> Board {
        self.to_position().board()
    }

    /// The class's representative.
    #[must_use]
    pub fn to_position(self) -> Position {
        // Every entry of REPRESENTATIVE is a rank below 5,478, by construction.
        Position::from_board_unchecked(super::rank::decode_board(REPRESENTATIVE[self.0 as usize]))
    }

    fn from_representative_rank(rank: Rank) -> Canonical {
        let r = rank.code() as usize;
        let below = IS_REPRESENTATIVE[r / WORD] as u16 & ((1 << (r % WORD)) - 1);
        Canonical(CLASSES_BEFORE[r / WORD] + popcount9(below) as u16)
    }
}

impl Oriented {
    /// `class * 8 + symmetry < 765 * 8 = 6,120 <= 2^13`.
    pub const BITS: u32 = 13;
    /// Codes lie below `765 * 8`.
    pub const LIMIT: u32 = Canonical::COUNT * 8;
    /// One code per reachable position decodes (the first symmetry of each): 5,478.
    pub const COUNT: u32 = Rank::COUNT;

    /// The class and symmetry of a position.
    #[must_use]
    pub fn from_position(position: Position) -> Oriented {
        let (representative, symmetry) = Canonical::canonical_form(position.board());
        Oriented {
            class: Canonical::from_representative(representative),
            symmetry,
        }
    }

    /// The position.
    #[must_use]
    pub fn to_position(self) -> Position {
        let representative = self.class.to_position().board();
        Position::from_board_unchecked(self.symmetry.apply(representative))
    }

    /// The class and symmetry of a board.
    ///
    /// # Errors
    /// [`EncodeReason::Unreachable`](super::EncodeReason::Unreachable) with every rule the board breaks.
    pub fn try_from_board(board: Board) -> Result<Oriented, EncodeError> {
        super::encode_position(Self::KIND, board, Oriented::from_position)
    }

    /// The board: the position.
    #[must_use]
    pub fn to_board(self) -> Board {
        self.to_position().board()
    }

    /// The class.
    #[must_use]
    pub const fn class(self) -> Canonical {
        self.class
    }

    /// The symmetry carrying the class representative onto the position.
    #[must_use]
    pub const fn symmetry(self) -> Symmetry {
        self.symmetry
    }

    /// `class * 8 + symmetry index`.
    #[must_use]
    pub const fn code(self) -> u16 {
        self.class.0 * 8 + self.symmetry as u16
    }

    /// Decodes, rejecting codes out of range and codes whose symmetry is not the first one
    /// that yields their board.
    ///
    /// # Errors
    /// [`DecodeReason::OutOfRange`] past `765 * 8`, [`DecodeReason::NonCanonicalSymmetry`] naming the symmetry the encoder would pick.
    pub fn try_from_code(code: u32) -> Result<Oriented, DecodeError> {
        if code >= Self::LIMIT {
            return Err(DecodeError::out_of_range(
                Self::KIND,
                code as u64,
                Self::LIMIT as u64,
            ));
        }
        let class = Canonical(code as u16 / 8);
        let given = Symmetry::ALL[code as usize % 8];
        let oriented = Oriented {
            class,
            symmetry: given,
        };
        if FIRST_SYMMETRIES[class.0 as usize] >> (code % 8) & 1 != 0 {
            Ok(oriented)
        } else {
            // The slow way, only to name the symmetry in the error.
            let expected = Oriented::from_position(oriented.to_position()).symmetry;
            Err(DecodeError::new(
                Self::KIND,
                code as u64,
                DecodeReason::NonCanonicalSymmetry { given, expected },
            ))
        }
    }
}

super::impl_range_code!(Canonical, "765");
super::impl_encoding!(Canonical, Canonical, u16, partial);
super::impl_encoding!(Oriented, Oriented, u16, partial);

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashMap};

    /// Representative by brute force: the least key among the 8 images, cell by cell.
    fn slow_representative(board: Board) -> Board {
        Symmetry::ALL
            .iter()
            .map(|s| {
                let mut image = Board::EMPTY;
                for cell in crate::Cell::ALL {
                    image.set(s.apply_cell(cell), board.at(cell));
                }
                image
            })
            .min_by_key(|b| key(*b))
            .unwrap()
    }

    #[test]
    fn canonical_form_matches_brute_force_on_every_grid() {
        for board in Board::all() {
            let (representative, symmetry) = Canonical::canonical_form(board);
            assert_eq!(representative, slow_representative(board));
            let first = Symmetry::ALL
                .into_iter()
                .find(|s| s.apply(representative) == board);
            assert_eq!(Some(symmetry), first, "{board}");
            for s in Symmetry::ALL {
                assert_eq!(Canonical::canonical_form(s.apply(board)).0, representative);
            }
        }
    }

    #[test]
    fn classes_are_numbered_by_the_rank_of_their_representatives() {
        let representatives: BTreeSet<u16> = Position::all()
            .map(|p| {
                Rank::from_position(Position::from_board_unchecked(slow_representative(
                    p.board(),
                )))
                .code()
            })
            .collect();
        assert_eq!(representatives.len(), 765);
        let mut sizes = HashMap::new();
        for position in Position::all() {
            let class = Canonical::from_position(position);
            let rank = Rank::from_position(Position::from_board_unchecked(slow_representative(
                position.board(),
            )));
            assert_eq!(
                class.code() as usize,
                representatives.range(..rank.code()).count()
            );
            *sizes.entry(class).or_insert(0) += 1;
            let oriented = Oriented::from_position(position);
            assert_eq!(oriented.to_position(), position);
            assert_eq!(
                oriented.symmetry().apply(class.to_position().board()),
                position.board()
            );
        }
        assert_eq!(sizes.len(), 765);
        assert_eq!(sizes.values().sum::<usize>(), 5_478);
        assert!(sizes.values().all(|size| 8 % size == 0));
    }

    #[test]
    fn every_code_decodes_to_itself_or_is_rejected() {
        for code in 0..1u32 << 10 {
            match Canonical::try_from_code(code) {
                Ok(class) => assert_eq!(Canonical::from_position(class.to_position()), class),
                Err(_) => assert!(code >= 765),
            }
        }
        let mut valid = 0;
        for code in 0..1u32 << 13 {
            match Oriented::try_from_code(code) {
                Ok(oriented) => {
                    valid += 1;
                    assert_eq!(
                        Oriented::from_position(oriented.to_position()).code() as u32,
                        code
                    );
                }
                Err(DecodeError {
                    reason: DecodeReason::NonCanonicalSymmetry { given, expected },
                    ..
                }) => {
                    assert!(code < 6_120 && expected < given);
                }
                Err(DecodeError {
                    reason: DecodeReason::OutOfRange { limit },
                    ..
                }) => {
                    assert!(code >= 6_120 && limit == 6_120);
                }
                Err(other) => panic!("unexpected {other}"),
            }
        }
        assert_eq!(valid, 5_478);
    }
}
