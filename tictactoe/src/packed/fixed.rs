//! [`PackedArray`]: codes of one encoding at exactly `E::BITS` bits each.

use alloc::vec::Vec;
use core::marker::PhantomData;

use super::{PackError, Packable};
use crate::Board;

/// Positions per chunk: 64 codes of `BITS` bits fill exactly `BITS` words of 8 bytes.
const CHUNK: usize = 64;
/// Zero bytes kept past the end, so that any code can be read with one 8-byte load.
const PAD: usize = 8;

/// Bytes holding `len` codes of `bits` bits, or `None` when that overflows `usize`.
const fn checked_bytes_for(len: usize, bits: u32) -> Option<usize> {
    match len.checked_mul(bits as usize) {
        Some(used) => Some(used.div_ceil(8)),
        None => None,
    }
}

/// Bytes holding `len` codes of `bits` bits, saturating at `usize::MAX` (which no slice has).
const fn bytes_for(len: usize, bits: u32) -> usize {
    match checked_bytes_for(len, bits) {
        Some(bytes) => bytes,
        None => usize::MAX,
    }
}

/// The 8 bytes at `at` as a little-endian word (one unaligned load).
#[inline(always)]
fn load(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// The code at `index`: one 8-byte load at its first byte (a code spans at most
/// 7 + 18 = 25 bits from there), a shift and a mask.
#[inline(always)]
fn read(bytes: &[u8], index: usize, bits: u32) -> u32 {
    let bit = index * bits as usize;
    (load(bytes, bit / 8) >> (bit % 8)) as u32 & ((1 << bits) - 1)
}

/// Writes `code` at `index` (the code must fit in `bits`).
#[inline(always)]
fn write(bytes: &mut [u8], index: usize, bits: u32, code: u32) {
    let bit = index * bits as usize;
    let (at, shift) = (bit / 8, bit % 8);
    let mask = ((1u64 << bits) - 1) << shift;
    let word = load(bytes, at) & !mask | u64::from(code) << shift;
    bytes[at..at + 8].copy_from_slice(&word.to_le_bytes());
}

/// Packs 64 codes into `bits` words with one running accumulator.
#[inline(always)]
fn pack_chunk(codes: &[u32; CHUNK], bits: u32, out: &mut [u64]) {
    let (mut acc, mut filled, mut next) = (0u64, 0u32, 0);
    for &code in codes {
        let code = u64::from(code);
        acc |= code << filled;
        filled += bits;
        if filled >= 64 {
            out[next] = acc;
            next += 1;
            filled -= 64;
            acc = if filled == 0 {
                0
            } else {
                code >> (bits - filled)
            };
        }
    }
}

/// Unpacks 64 codes from `bits` words; every shift is a constant once `bits` is.
#[inline(always)]
fn unpack_chunk(words: &[u64], bits: u32, out: &mut [u32; CHUNK]) {
    let mask = (1u64 << bits) - 1;
    for (j, slot) in out.iter_mut().enumerate() {
        let bit = j as u32 * bits;
        let (word, offset) = ((bit / 64) as usize, bit % 64);
        let mut value = words[word] >> offset;
        if offset + bits > 64 {
            value |= words[word + 1] << (64 - offset);
        }
        *slot = (value & mask) as u32;
    }
}

/// Positions stored as codes of the encoding `E`, each exactly `E::BITS` bits wide.
///
/// Every stored code decodes: boards go in through `E`'s encoder, and raw bytes are
/// checked on the way in.
///
/// ```
/// use tictactoe::{Board, encoding::Base3, packed::PackedArray};
/// let mut array = PackedArray::<Base3>::new();
/// array.push("XXX/XXX/XXX".parse()?)?; // any grid fits in base-3
/// array.push(Board::EMPTY)?;
/// assert_eq!(array.len(), 2);
/// assert_eq!(array.get(0)?.to_string(), "XXXXXXXXX");
/// assert!(array.get(2).is_err());
/// assert_eq!(array.iter().count(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct PackedArray<E> {
    /// The bit stream as little-endian bytes, then [`PAD`] zero bytes.
    bytes: Vec<u8>,
    len: usize,
    encoding: PhantomData<E>,
}

impl<E: Packable> Default for PackedArray<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Packable> core::fmt::Debug for PackedArray<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PackedArray")
            .field("encoding", &E::KIND)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

impl<E: Packable> PackedArray<E> {
    /// Bits per position.
    pub const BITS: u32 = E::BITS;

    /// An empty array.
    #[must_use]
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty array with room for `capacity` positions (a hint: a capacity that cannot be
    /// allocated reserves nothing, and the array grows as needed).
    #[must_use]
    pub fn with_capacity(capacity: usize) -> Self {
        let mut bytes = Vec::new();
        if let Some(room) = checked_bytes_for(capacity, E::BITS).and_then(|b| b.checked_add(PAD)) {
            // Best effort, as the doc says: a failed reservation only means later growth.
            let _ = bytes.try_reserve_exact(room);
        }
        bytes.resize(PAD, 0);
        PackedArray {
            bytes,
            len: 0,
            encoding: PhantomData,
        }
    }

    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the array is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The packed bit stream, little-endian: `ceil(len * BITS / 8)` bytes.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..bytes_for(self.len, E::BITS)]
    }

    /// Bytes used by the bit stream (capacity and padding not counted).
    #[must_use]
    pub fn size_in_bytes(&self) -> usize {
        bytes_for(self.len, E::BITS)
    }

    fn check(&self, index: usize) -> Result<(), PackError> {
        PackError::check_index(index, self.len)
    }

    fn encode(board: Board, index: usize) -> Result<u32, PackError> {
        E::pack(board).ok_or(PackError::Unencodable {
            encoding: E::KIND,
            board,
            index,
        })
    }

    /// The raw code at `index`.
    ///
    /// # Errors
    /// [`PackError::IndexOutOfRange`] at or past the end.
    pub fn code(&self, index: usize) -> Result<u32, PackError> {
        self.check(index)?;
        Ok(read(&self.bytes, index, E::BITS))
    }

    /// The encoding's value at `index`.
    ///
    /// # Errors
    /// [`PackError::IndexOutOfRange`] at or past the end.
    pub fn value(&self, index: usize) -> Result<E, PackError> {
        let code = self.code(index)?;
        E::decode(code).map_err(|error| PackError::InvalidCode { index, error })
    }

    /// The board at `index`.
    ///
    /// # Errors
    /// [`PackError::IndexOutOfRange`] at or past the end.
    pub fn get(&self, index: usize) -> Result<Board, PackError> {
        self.code(index).map(E::unpack)
    }

    /// Replaces the board at `index`.
    ///
    /// # Errors
    /// [`PackError::IndexOutOfRange`] at or past the end, [`PackError::Unencodable`] for a board `E` cannot hold.
    pub fn set(&mut self, index: usize, board: Board) -> Result<(), PackError> {
        self.check(index)?;
        let code = Self::encode(board, index)?;
        write(&mut self.bytes, index, E::BITS, code);
        Ok(())
    }

    /// Appends a board.
    ///
    /// # Errors
    /// [`PackError::Unencodable`] for a board `E` cannot hold.
    pub fn push(&mut self, board: Board) -> Result<(), PackError> {
        let code = Self::encode(board, self.len)?;
        self.push_code(code);
        Ok(())
    }

    /// Appends a code known to decode.
    fn push_code(&mut self, code: u32) {
        self.len += 1;
        self.bytes.resize(bytes_for(self.len, E::BITS) + PAD, 0);
        write(&mut self.bytes, self.len - 1, E::BITS, code);
    }

    /// Removes and returns the last board.
    pub fn pop(&mut self) -> Option<Board> {
        let last = self.len.checked_sub(1)?;
        let board = E::unpack(read(&self.bytes, last, E::BITS));
        write(&mut self.bytes, last, E::BITS, 0);
        self.len = last;
        self.bytes.truncate(bytes_for(self.len, E::BITS) + PAD);
        Some(board)
    }

    /// The array of these boards, or the first that `E` cannot hold.
    ///
    /// # Errors
    /// [`PackError::Unencodable`] for the first board `E` cannot hold.
    pub fn from_boards(boards: &[Board]) -> Result<Self, PackError> {
        let mut array = Self::with_capacity(boards.len());
        array.extend_from_boards(boards)?;
        Ok(array)
    }

    /// Appends these boards, whole chunks of 64 at a time. On error nothing is appended.
    ///
    /// # Errors
    /// [`PackError::Unencodable`] for the first board `E` cannot hold.
    pub fn extend_from_boards(&mut self, boards: &[Board]) -> Result<(), PackError> {
        let start = self.len;
        let result =
            self.extend_with(boards, E::pack)
                .map_err(super::refused(E::KIND, boards, start));
        if result.is_err() {
            self.truncate(start);
        }
        result
    }

    /// Appends `items` by their codes, whole chunks of 64 at a time: the one bulk path of boards
    /// (`code` is the encoder, which refuses a board with `None`) and of codes. `Err` holds the
    /// index in `items` of the first refused item; the items before it are appended.
    pub(crate) fn extend_with<T: Copy>(
        &mut self,
        items: &[T],
        code: impl Fn(T) -> Option<u32>,
    ) -> Result<(), usize> {
        let bits = E::BITS;
        let mut done = 0;
        // Single pushes up to a chunk boundary, where the stream meets a word boundary.
        while !self.len.is_multiple_of(CHUNK) && done < items.len() {
            self.push_code(code(items[done]).ok_or(done)?);
            done += 1;
        }
        let (chunks, tail) = items[done..].as_chunks::<CHUNK>();
        // At a chunk boundary the stream ends on a word boundary: drop the padding, append
        // whole words, pad again.
        self.bytes.truncate(bytes_for(self.len, bits));
        self.bytes.reserve(chunks.len() * bits as usize * 8 + PAD);
        let mut codes = [0u32; CHUNK];
        let mut packed = [0u64; 64];
        for chunk in chunks {
            for (j, (slot, &item)) in codes.iter_mut().zip(chunk).enumerate() {
                *slot = match code(item) {
                    Some(code) => code,
                    None => {
                        self.bytes.resize(bytes_for(self.len, bits) + PAD, 0);
                        return Err(done + j);
                    }
                };
            }
            pack_chunk(&codes, bits, &mut packed[..bits as usize]);
            for word in &packed[..bits as usize] {
                self.bytes.extend_from_slice(&word.to_le_bytes());
            }
            self.len += CHUNK;
            done += CHUNK;
        }
        self.bytes.resize(bytes_for(self.len, bits) + PAD, 0);
        for &item in tail {
            self.push_code(code(item).ok_or(done)?);
            done += 1;
        }
        Ok(())
    }

    /// Shortens the array to `len` positions (no effect if it is not longer).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let used = len * E::BITS as usize;
        self.bytes.truncate(used.div_ceil(8));
        if let Some(last) = self.bytes.last_mut().filter(|_| !used.is_multiple_of(8)) {
            *last &= (1 << (used % 8)) - 1;
        }
        self.bytes.resize(used.div_ceil(8) + PAD, 0);
        self.len = len;
    }

    /// All boards, in order.
    #[must_use]
    pub fn to_boards(&self) -> Vec<Board> {
        let mut out = Vec::with_capacity(self.len);
        self.unpack_into(&mut out);
        out
    }

    /// Appends all boards to `out`, whole chunks of 64 at a time.
    pub fn unpack_into(&self, out: &mut Vec<Board>) {
        let bits = E::BITS as usize;
        out.reserve(self.len);
        let full = self.len / CHUNK;
        let mut codes = [0u32; CHUNK];
        let mut words = [0u64; 64];
        for chunk in self.bytes.chunks_exact(bits * 8).take(full) {
            for (word, eight) in words.iter_mut().zip(chunk.chunks_exact(8)) {
                *word = load(eight, 0);
            }
            unpack_chunk(&words[..bits], E::BITS, &mut codes);
            out.extend(codes.iter().map(|&code| E::unpack(code)));
        }
        out.extend((full * CHUNK..self.len).map(|i| E::unpack(read(&self.bytes, i, E::BITS))));
    }

    /// Iterates over the boards.
    #[must_use]
    pub fn iter(&self) -> Iter<'_, E> {
        Iter {
            array: self,
            next: 0,
        }
    }

    /// The array of `len` codes held in these little-endian bytes (`ceil(len * BITS / 8)` of
    /// them, unused high bits zero), each checked to decode.
    ///
    /// # Errors
    /// [`PackError::WrongByteLength`], [`PackError::NonZeroPadding`], or [`PackError::InvalidCode`] for the first code that does not decode.
    pub fn from_bytes(bytes: &[u8], len: usize) -> Result<Self, PackError> {
        let expected = checked_bytes_for(len, E::BITS).ok_or(PackError::TooLong { len })?;
        if bytes.len() != expected {
            return Err(PackError::WrongByteLength {
                len,
                expected,
                found: bytes.len(),
            });
        }
        // Cannot overflow: `bytes_for` just computed `used / 8` rounded up.
        let used = len.saturating_mul(E::BITS as usize);
        if !used.is_multiple_of(8) && bytes.last().is_some_and(|&last| last >> (used % 8) != 0) {
            return Err(PackError::NonZeroPadding);
        }
        let mut stream = Vec::with_capacity(expected + PAD);
        stream.extend_from_slice(bytes);
        stream.resize(expected + PAD, 0);
        let array = PackedArray {
            bytes: stream,
            len,
            encoding: PhantomData,
        };
        array.validate()?;
        Ok(array)
    }

    /// Checks that every stored code decodes.
    fn validate(&self) -> Result<(), PackError> {
        let bad = (0..self.len).find(|&i| !E::is_code(read(&self.bytes, i, E::BITS)));
        match bad {
            None => Ok(()),
            Some(index) => Err(PackError::InvalidCode {
                index,
                error: E::decode(read(&self.bytes, index, E::BITS))
                    .err()
                    .unwrap_or(crate::encoding::DecodeError::out_of_range(E::KIND, 0, 0)),
            }),
        }
    }

    /// Bytes that `len` codes take: `ceil(len * BITS / 8)`, saturating at `usize::MAX` when
    /// that does not fit a `usize` (no slice is that long, so such a length never matches).
    #[must_use]
    pub const fn bytes_for(len: usize) -> usize {
        bytes_for(len, E::BITS)
    }

    /// Appends the little-endian bytes of the bit stream (`ceil(len * BITS / 8)` bytes).
    pub fn write_bytes(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }
}

/// Iterator over the boards of a [`PackedArray`].
#[derive(Clone)]
pub struct Iter<'a, E> {
    array: &'a PackedArray<E>,
    next: usize,
}

impl<E: Packable> core::fmt::Debug for Iter<'_, E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Iter").field("next", &self.next).finish()
    }
}

impl<E: Packable> Iterator for Iter<'_, E> {
    type Item = Board;

    fn next(&mut self) -> Option<Board> {
        let board = self.array.get(self.next).ok()?;
        self.next += 1;
        Some(board)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.array.len - self.next;
        (left, Some(left))
    }
}

impl<E: Packable> ExactSizeIterator for Iter<'_, E> {}

impl<'a, E: Packable> IntoIterator for &'a PackedArray<E> {
    type Item = Board;
    type IntoIter = Iter<'a, E>;
    fn into_iter(self) -> Iter<'a, E> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::{Base3, Base4, CountRank, Rank};
    use crate::{Position, packed::tests_support::sample};

    /// The slow twin: bit `j` of the stream read one bit at a time.
    fn slow_code(bytes: &[u8], index: usize, bits: u32) -> u32 {
        (0..bits as usize)
            .map(|b| {
                let j = index * bits as usize + b;
                u32::from((bytes[j / 8] >> (j % 8)) & 1)
            })
            .enumerate()
            .map(|(b, bit)| bit << b)
            .sum()
    }

    fn bulk_and_single_paths_agree<E: Packable>() {
        for len in [0, 1, 5, 63, 64, 65, 127, 128, 200, 1000] {
            let boards = sample(len, 7 * len as u64 + 1);
            let bulk = PackedArray::<E>::from_boards(&boards).unwrap();
            let mut single = PackedArray::<E>::new();
            for &board in &boards {
                single.push(board).unwrap();
            }
            assert_eq!(bulk, single, "{} {len}", E::KIND);
            assert_eq!(bulk.as_bytes().len(), (len * E::BITS as usize).div_ceil(8));
            for (i, &board) in boards.iter().enumerate() {
                let code = slow_code(bulk.as_bytes(), i, E::BITS);
                assert_eq!(E::pack(board), Some(code));
                assert_eq!(bulk.get(i), Ok(board));
            }
            assert_eq!(bulk.to_boards(), boards);
            assert_eq!(bulk.iter().collect::<Vec<_>>(), boards);
            let mut bytes = Vec::new();
            bulk.write_bytes(&mut bytes);
            assert_eq!(PackedArray::<E>::from_bytes(&bytes, len), Ok(bulk.clone()));
            // Extending an unaligned array takes both paths.
            let mut split = PackedArray::<E>::from_boards(&boards[..len / 3]).unwrap();
            split.extend_from_boards(&boards[len / 3..]).unwrap();
            assert_eq!(split, bulk);
        }
    }

    #[test]
    fn bulk_and_single_paths_agree_for_every_encoding() {
        bulk_and_single_paths_agree::<Base4>();
        bulk_and_single_paths_agree::<Base3>();
        bulk_and_single_paths_agree::<CountRank>();
        bulk_and_single_paths_agree::<Rank>();
    }

    #[test]
    fn set_changes_only_its_position() {
        let boards = sample(300, 3);
        let mut array = PackedArray::<Rank>::from_boards(&boards).unwrap();
        let mut expected = boards.clone();
        let all: Vec<Board> = Position::all().map(Position::board).collect();
        for i in 0..300 {
            let board = all[(i * 37) % all.len()];
            array.set(i, board).unwrap();
            expected[i] = board;
            assert_eq!(array.to_boards(), expected);
        }
    }

    #[test]
    fn errors_name_the_index_and_the_board() {
        let full: Board = "XXX/XXX/XXX".parse().unwrap();
        let mut array = PackedArray::<Rank>::from_boards(&sample(70, 1)).unwrap();
        assert_eq!(
            array.get(70),
            Err(PackError::IndexOutOfRange { index: 70, len: 70 })
        );
        assert_eq!(
            array.set(3, full),
            Err(PackError::Unencodable {
                encoding: crate::encoding::Kind::Rank,
                board: full,
                index: 3
            })
        );
        let mut boards = sample(200, 2);
        boards[150] = full;
        let before = array.clone();
        let error = array.extend_from_boards(&boards).unwrap_err();
        assert_eq!(
            error,
            PackError::Unencodable {
                encoding: crate::encoding::Kind::Rank,
                board: full,
                index: 220
            }
        );
        assert_eq!(array, before, "a failed extend appends nothing");
        assert_eq!(
            error.to_string(),
            "rank cannot hold board XXXXXXXXX (position 220)"
        );
    }

    #[test]
    fn bad_bytes_are_rejected() {
        // 13 bits of 5,478 = 0b1_0101_0110_0110: one past the last rank.
        let bytes = 5_478u16.to_le_bytes();
        assert!(matches!(
            PackedArray::<Rank>::from_bytes(&bytes, 1),
            Err(PackError::InvalidCode { index: 0, .. })
        ));
        assert_eq!(
            PackedArray::<Rank>::from_bytes(&[0, 0x20], 1),
            Err(PackError::NonZeroPadding)
        );
        assert_eq!(
            PackedArray::<Rank>::from_bytes(&[0], 1),
            Err(PackError::WrongByteLength {
                len: 1,
                expected: 2,
                found: 1
            })
        );
        assert!(PackedArray::<Base4>::from_bytes(&[3, 0, 0], 1).is_err());
    }

    /// Issue 14, defect 5: `len * BITS` overflowed (a panic in debug builds, a wrong length
    /// in release builds) instead of returning an error.
    #[test]
    fn huge_lengths_are_errors_not_panics() {
        for len in [usize::MAX, usize::MAX / 13 + 1, usize::MAX / 8, 1 << 62] {
            assert_eq!(
                PackedArray::<Rank>::from_bytes(&[0; 8], len),
                Err(PackError::TooLong { len })
            );
            assert!(PackedArray::<Base4>::from_bytes(&[], len).is_err());
            assert!(PackedArray::<Base3>::from_bytes(&[0; 3], len).is_err());
            assert!(PackedArray::<CountRank>::from_bytes(&[0; 2], len).is_err());
            assert_eq!(PackedArray::<Base4>::bytes_for(len), usize::MAX);
            assert!(PackedArray::<Base4>::with_capacity(len).is_empty());
        }
    }
}
