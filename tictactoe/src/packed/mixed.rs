//! [`MixedRadix`]: five exact ranks per `u64`, 12.8 bits per position.

use alloc::vec::Vec;

use super::{PackError, Packable};
use crate::Board;
use crate::encoding::{DecodeError, Encoding, Kind, Rank};

/// The radix: the number of reachable positions.
const RADIX: u64 = Rank::COUNT as u64;
/// Positions per word.
const PER_WORD: usize = 5;
/// `RADIX^i` for `i` in `0..=5`.
const POWERS: [u64; 6] = {
    let mut table = [1u64; 6];
    let mut i = 1;
    while i < 6 {
        table[i] = table[i - 1] * RADIX;
        i += 1;
    }
    table
};

// Five digits fit in a word: 5478^5 = 4.93e18 < 2^64 = 1.84e19 (the multiply above would
// have failed to compile otherwise); six would not.
const _: () = assert!(POWERS[5].checked_mul(RADIX).is_none());

/// `(M, s)` per digit `d` with `floor(n / 5478^d) = (n * M) >> (63 + s)` for every `n < 2^63`:
/// `s = ceil(log2 5478^d)` and `M = ceil(2^(63 + s) / 5478^d)`, so `M < 2^64` and the error
/// `n (M 5478^d - 2^(63 + s)) < 2^63 5478^d <= 2^(63 + s)` never reaches the next multiple.
const RECIPROCALS: [(u64, u32); PER_WORD] = {
    let mut table = [(0u64, 0u32); PER_WORD];
    let mut d = 0;
    while d < PER_WORD {
        let divisor = POWERS[d] as u128;
        let log = u128::BITS - (divisor - 1).leading_zeros();
        table[d] = ((1u128 << (63 + log)).div_ceil(divisor) as u64, log);
        d += 1;
    }
    table
};

// Every stored word is below 5478^5, so below 2^63, as the reciprocals need.
const _: () = assert!(POWERS[5] < 1 << 63);

/// Digit `digit` of `word` (below `2^63`), without a branch or a division instruction:
/// `(n * M) >> (63 + s)` is the high word of `2n * M`, shifted right by `s`.
#[inline(always)]
fn digit_of(word: u64, digit: usize) -> u32 {
    let (multiplier, shift) = RECIPROCALS[digit];
    let high = (u128::from(word << 1) * u128::from(multiplier)) >> 64;
    ((high as u64 >> shift) % RADIX) as u32
}

/// The five digits of a full word, lowest first.
#[inline(always)]
fn split(word: u64) -> [u32; PER_WORD] {
    let mut out = [0u32; PER_WORD];
    let mut rest = word;
    for slot in &mut out[..PER_WORD - 1] {
        let next = rest / RADIX;
        *slot = (rest - next * RADIX) as u32;
        rest = next;
    }
    out[PER_WORD - 1] = rest as u32;
    out
}

/// The word of five digits, by Horner's rule.
#[inline(always)]
fn join(digits: &[u32; PER_WORD]) -> u64 {
    digits
        .iter()
        .rev()
        .fold(0, |acc, &digit| acc * RADIX + u64::from(digit))
}

/// Reachable positions as exact ranks, five to a `u64` word: 12.8 bits per position.
///
/// Word `k` holds positions `5k .. 5k + 5` as `r0 + 5478 r1 + ... + 5478^4 r4`; a partly
/// filled last word has zeros in its high digits.
///
/// ```
/// use tictactoe::{Board, Position, packed::MixedRadix};
/// let boards: Vec<Board> = Position::all().map(Position::board).collect();
/// let packed = MixedRadix::from_boards(&boards)?;
/// assert_eq!(packed.as_words().len(), 5_478 / 5 + 1);
/// assert_eq!(packed.get(1_000)?, boards[1_000]);
/// assert!(packed.get(5_478).is_err());
/// assert_eq!(packed.to_boards(), boards);
/// # Ok::<(), tictactoe::packed::PackError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MixedRadix {
    words: Vec<u64>,
    len: usize,
}

impl MixedRadix {
    /// The name used on the command line and in files.
    pub const NAME: &'static str = "mixed-radix";
    /// Positions per word.
    pub const PER_WORD: usize = PER_WORD;

    /// An empty array.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty array with room for `capacity` positions.
    #[must_use]
    ///
    /// The capacity is a hint: one that cannot be allocated reserves nothing.
    pub fn with_capacity(capacity: usize) -> Self {
        let mut words = Vec::new();
        // Best effort, as the doc says: a failed reservation only means later growth.
        let _ = words.try_reserve_exact(capacity.div_ceil(PER_WORD));
        MixedRadix { words, len: 0 }
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

    /// The words: `ceil(len / 5)` of them.
    #[must_use]
    pub fn as_words(&self) -> &[u64] {
        &self.words
    }

    /// Heap bytes used by the words (capacity not counted).
    #[must_use]
    pub fn size_in_bytes(&self) -> usize {
        self.words.len() * 8
    }

    fn check(&self, index: usize) -> Result<(), PackError> {
        PackError::check_index(index, self.len)
    }

    fn encode(board: Board, index: usize) -> Result<u32, PackError> {
        Rank::pack(board).ok_or(PackError::Unencodable {
            encoding: Kind::Rank,
            board,
            index,
        })
    }

    /// The rank at `index`.
    ///
    /// # Errors
    /// [`PackError::IndexOutOfRange`] at or past the end.
    pub fn rank(&self, index: usize) -> Result<Rank, PackError> {
        self.check(index)?;
        let code = digit_of(self.words[index / PER_WORD], index % PER_WORD);
        Rank::decode(code).map_err(|error| PackError::InvalidCode { index, error })
    }

    /// The board at `index`.
    ///
    /// # Errors
    /// [`PackError::IndexOutOfRange`] at or past the end.
    pub fn get(&self, index: usize) -> Result<Board, PackError> {
        self.check(index)?;
        let code = digit_of(self.words[index / PER_WORD], index % PER_WORD);
        Ok(Rank::unpack(code))
    }

    /// Replaces the board at `index`.
    ///
    /// # Errors
    /// [`PackError::IndexOutOfRange`] at or past the end, [`PackError::Unencodable`] for a board that is not a reachable position.
    pub fn set(&mut self, index: usize, board: Board) -> Result<(), PackError> {
        self.check(index)?;
        let code = Self::encode(board, index)?;
        self.set_code(index, code);
        Ok(())
    }

    fn set_code(&mut self, index: usize, code: u32) {
        let (word, digit) = (index / PER_WORD, index % PER_WORD);
        let old = digit_of(self.words[word], digit);
        let place = POWERS[digit];
        self.words[word] = self.words[word] - u64::from(old) * place + u64::from(code) * place;
    }

    /// Appends a board.
    ///
    /// # Errors
    /// [`PackError::Unencodable`] for a board that is not a reachable position.
    pub fn push(&mut self, board: Board) -> Result<(), PackError> {
        let code = Self::encode(board, self.len)?;
        self.push_code(code);
        Ok(())
    }

    fn push_code(&mut self, code: u32) {
        if self.len.is_multiple_of(PER_WORD) {
            self.words.push(0);
        }
        self.len += 1;
        self.set_code(self.len - 1, code);
    }

    /// Removes and returns the last board.
    pub fn pop(&mut self) -> Option<Board> {
        let last = self.len.checked_sub(1)?;
        let code = digit_of(self.words[last / PER_WORD], last % PER_WORD);
        self.set_code(last, 0);
        self.len = last;
        self.words.truncate(self.len.div_ceil(PER_WORD));
        Some(Rank::unpack(code))
    }

    /// Shortens the array to `len` positions (no effect if it is not longer).
    pub fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        self.words.truncate(len.div_ceil(PER_WORD));
        if let Some(last) = self
            .words
            .last_mut()
            .filter(|_| !len.is_multiple_of(PER_WORD))
        {
            *last %= POWERS[len % PER_WORD];
        }
        self.len = len;
    }

    /// The array of these boards, or the first that is not a reachable position.
    ///
    /// # Errors
    /// [`PackError::Unencodable`] for the first board that is not a reachable position.
    pub fn from_boards(boards: &[Board]) -> Result<Self, PackError> {
        let mut array = Self::with_capacity(boards.len());
        array.extend_from_boards(boards)?;
        Ok(array)
    }

    /// Appends these boards, a whole word at a time. On error nothing is appended.
    ///
    /// # Errors
    /// [`PackError::Unencodable`] for the first board that is not a reachable position.
    pub fn extend_from_boards(&mut self, boards: &[Board]) -> Result<(), PackError> {
        let start = self.len;
        let result =
            self.extend_with(boards, Rank::pack)
                .map_err(super::refused(Kind::Rank, boards, start));
        if result.is_err() {
            self.truncate(start);
        }
        result
    }

    /// Appends `items` by their ranks, a whole word at a time: the one bulk path of boards
    /// (`rank` is the encoder, which refuses a board with `None`) and of ranks. `Err` holds the
    /// index in `items` of the first refused item; the items before it are appended.
    pub(crate) fn extend_with<T: Copy>(
        &mut self,
        items: &[T],
        rank: impl Fn(T) -> Option<u32>,
    ) -> Result<(), usize> {
        let mut done = 0;
        while !self.len.is_multiple_of(PER_WORD) && done < items.len() {
            self.push_code(rank(items[done]).ok_or(done)?);
            done += 1;
        }
        let (chunks, tail) = items[done..].as_chunks::<PER_WORD>();
        self.words.reserve(chunks.len() + 1);
        for chunk in chunks {
            let mut digits = [0u32; PER_WORD];
            let mut all = true;
            for (slot, &item) in digits.iter_mut().zip(chunk) {
                let code = rank(item);
                all &= code.is_some();
                *slot = code.unwrap_or(0);
            }
            if !all {
                let bad = chunk.iter().position(|&item| rank(item).is_none());
                return Err(done + bad.unwrap_or(0));
            }
            self.words.push(join(&digits));
            self.len += PER_WORD;
            done += PER_WORD;
        }
        for &item in tail {
            self.push_code(rank(item).ok_or(done)?);
            done += 1;
        }
        Ok(())
    }

    /// All boards, in order.
    #[must_use]
    pub fn to_boards(&self) -> Vec<Board> {
        let mut out = Vec::with_capacity(self.len);
        self.unpack_into(&mut out);
        out
    }

    /// Appends all boards to `out`, a whole word at a time.
    pub fn unpack_into(&self, out: &mut Vec<Board>) {
        out.reserve(self.len);
        let full = self.len / PER_WORD;
        for &word in &self.words[..full] {
            out.extend(split(word).map(Rank::unpack));
        }
        if let Some(&last) = self.words.get(full) {
            let digits = split(last);
            out.extend(
                digits[..self.len % PER_WORD]
                    .iter()
                    .map(|&c| Rank::unpack(c)),
            );
        }
    }

    /// Iterates over the boards.
    #[must_use]
    pub fn iter(&self) -> MixedRadixIter<'_> {
        MixedRadixIter {
            array: self,
            next: 0,
        }
    }

    /// Bytes that `len` positions take: 8 per started word, saturating at `usize::MAX` when
    /// that does not fit a `usize` (no slice is that long, so such a length never matches).
    #[must_use]
    pub const fn bytes_for(len: usize) -> usize {
        match Self::checked_bytes_for(len) {
            Some(bytes) => bytes,
            None => usize::MAX,
        }
    }

    /// Bytes that `len` positions take, or `None` when that overflows `usize`.
    const fn checked_bytes_for(len: usize) -> Option<usize> {
        len.div_ceil(PER_WORD).checked_mul(8)
    }

    /// Appends the words as little-endian bytes.
    pub fn write_bytes(&self, out: &mut Vec<u8>) {
        for word in &self.words {
            out.extend_from_slice(&word.to_le_bytes());
        }
    }

    /// The array of `len` positions held in these little-endian words, each checked: a word
    /// with `d` positions must be below `5478^d`.
    ///
    /// # Errors
    /// [`PackError::WrongByteLength`], or [`PackError::InvalidCode`] for the first word or position out of range.
    pub fn from_bytes(bytes: &[u8], len: usize) -> Result<Self, PackError> {
        let expected = Self::checked_bytes_for(len).ok_or(PackError::TooLong { len })?;
        if bytes.len() != expected {
            return Err(PackError::WrongByteLength {
                len,
                expected,
                found: bytes.len(),
            });
        }
        let mut words = Vec::with_capacity(expected / 8);
        for (k, chunk) in bytes.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
            // `k * 5 < len`: word `k` exists because `len` positions take `bytes.len()` bytes.
            let digits = len.saturating_sub(k.saturating_mul(PER_WORD)).min(PER_WORD);
            if word >= POWERS[digits] {
                return Err(Self::bad_word(word, k, digits));
            }
            words.push(word);
        }
        Ok(MixedRadix { words, len })
    }

    /// The error for a word that is too large: the first digit past the range.
    fn bad_word(word: u64, k: usize, digits: usize) -> PackError {
        let spill = word / POWERS[digits];
        let (digit, code) = if digits < PER_WORD {
            (digits, spill)
        } else {
            (PER_WORD - 1, word / POWERS[PER_WORD - 1])
        };
        PackError::InvalidCode {
            index: k * PER_WORD + digit,
            error: DecodeError::out_of_range(Kind::Rank, code, RADIX),
        }
    }
}

/// Iterator over the boards of a [`MixedRadix`] array.
#[derive(Clone, Debug)]
pub struct MixedRadixIter<'a> {
    array: &'a MixedRadix,
    next: usize,
}

impl Iterator for MixedRadixIter<'_> {
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

impl ExactSizeIterator for MixedRadixIter<'_> {}

impl<'a> IntoIterator for &'a MixedRadix {
    type Item = Board;
    type IntoIter = MixedRadixIter<'a>;
    fn into_iter(self) -> MixedRadixIter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::tests_support::sample;

    /// The slow twin: digit `i` by repeated plain division.
    fn slow_digit(word: u64, digit: usize) -> u32 {
        let mut rest = word;
        for _ in 0..digit {
            rest /= RADIX;
        }
        (rest % RADIX) as u32
    }

    #[test]
    fn split_join_and_digit_agree_with_plain_division() {
        let mut state = 1u64;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let word = state % POWERS[5];
            let digits = split(word);
            assert_eq!(join(&digits), word);
            for (i, &digit) in digits.iter().enumerate() {
                assert_eq!(digit, slow_digit(word, i));
                assert_eq!(digit_of(word, i), digit);
            }
        }
        assert_eq!(split(POWERS[5] - 1), [5_477; 5]);
        // Around every multiple of every power, where a reciprocal would be off first.
        for d in 0..5 {
            for m in [1, 2, 3, 5_477, 5_478, POWERS[5 - d] - 1] {
                let base = m * POWERS[d];
                for word in [base - 1, base, base + 1] {
                    if word < POWERS[5] {
                        assert_eq!(digit_of(word, d), slow_digit(word, d), "{word} {d}");
                    }
                }
            }
        }
        assert_eq!(digit_of((1 << 63) - 1, 4), slow_digit((1 << 63) - 1, 4));
    }

    #[test]
    fn bulk_and_single_paths_agree() {
        for len in [0, 1, 4, 5, 6, 11, 100, 1001] {
            let boards = sample(len, len as u64 + 9);
            let bulk = MixedRadix::from_boards(&boards).unwrap();
            let mut single = MixedRadix::new();
            for &board in &boards {
                single.push(board).unwrap();
            }
            assert_eq!(bulk, single);
            assert_eq!(bulk.to_boards(), boards);
            assert_eq!(bulk.iter().collect::<Vec<_>>(), boards);
            for (i, &board) in boards.iter().enumerate() {
                assert_eq!(bulk.get(i), Ok(board));
                let code = slow_digit(bulk.words[i / 5], i % 5);
                assert_eq!(Rank::pack(board), Some(code));
            }
            let mut bytes = Vec::new();
            bulk.write_bytes(&mut bytes);
            assert_eq!(MixedRadix::from_bytes(&bytes, len), Ok(bulk.clone()));
            let mut split = MixedRadix::from_boards(&boards[..len / 3]).unwrap();
            split.extend_from_boards(&boards[len / 3..]).unwrap();
            assert_eq!(split, bulk);
            let mut popped = bulk.clone();
            let mut back = Vec::new();
            while let Some(board) = popped.pop() {
                back.push(board);
            }
            back.reverse();
            assert_eq!(back, boards);
            assert!(popped.as_words().is_empty());
        }
    }

    #[test]
    fn set_and_errors() {
        let boards = sample(23, 5);
        let mut array = MixedRadix::from_boards(&boards).unwrap();
        let mut expected = boards.clone();
        for i in 0..23 {
            array.set(i, boards[22 - i]).unwrap();
            expected[i] = boards[22 - i];
            assert_eq!(array.to_boards(), expected);
        }
        let full: Board = "XXX/XXX/XXX".parse().unwrap();
        assert_eq!(
            array.set(2, full),
            Err(PackError::Unencodable {
                encoding: Kind::Rank,
                board: full,
                index: 2
            })
        );
        assert_eq!(
            array.get(23),
            Err(PackError::IndexOutOfRange { index: 23, len: 23 })
        );
        let mut many = sample(40, 6);
        many[17] = full;
        let before = array.clone();
        assert_eq!(
            array.extend_from_boards(&many),
            Err(PackError::Unencodable {
                encoding: Kind::Rank,
                board: full,
                index: 40
            })
        );
        assert_eq!(array, before);
    }

    #[test]
    fn words_out_of_range_are_rejected() {
        let one_past = POWERS[2].to_le_bytes();
        assert!(matches!(
            MixedRadix::from_bytes(&one_past, 2),
            Err(PackError::InvalidCode { index: 2, .. })
        ));
        assert!(MixedRadix::from_bytes(&(POWERS[2] - 1).to_le_bytes(), 2).is_ok());
        assert!(MixedRadix::from_bytes(&u64::MAX.to_le_bytes(), 5).is_err());
    }

    /// Issue 14, defect 5: `ceil(len / 5) * 8` wrapped in release builds, so a huge length
    /// could match a short slice, `from_bytes` returned `Ok` and a later `get` panicked.
    #[test]
    fn huge_lengths_are_errors_not_panics() {
        // ceil(len / 5) * 8 wraps to 8 for this length: one word.
        let wraps = (((1u128 << 64) + 8) / 8 * 5) as usize;
        for len in [usize::MAX, wraps, (usize::MAX / 8) * 5 + 1] {
            let result = MixedRadix::from_bytes(&0u64.to_le_bytes(), len);
            assert_eq!(result, Err(PackError::TooLong { len }), "{len}");
            assert_eq!(MixedRadix::bytes_for(len), usize::MAX);
            assert!(MixedRadix::with_capacity(len).is_empty());
        }
        assert!(MixedRadix::from_bytes(&[0; 8], usize::MAX / 2).is_err());
    }
}
