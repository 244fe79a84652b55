//! The opening book: proven bounds on the scores of positions near the start, read from text.
//!
//! Two kinds of line, blank lines and lines starting with `#` skipped:
//!
//! | line | meaning |
//! |---|---|
//! | `4453 2` | a move sequence and its exact score |
//! | `0x40810204081 1 1` | a [`Position::key`] in hex, a lower and an upper bound of its score |
//!
//! A position and its mirror image share one entry (the one with the smaller key).
//!
//! | storage | per position |
//! |---|---|
//! | sorted `(canonical key, lower, upper)`, found by binary search | 16 bytes |
//!
//! Three books are shipped and read together by [`Book::shipped`]:
//!
//! | file | what it holds | made by |
//! |---|---|---|
//! | `data/connect4-book.txt` (text) | the bounds that solving the empty board (its score and every best move) proved for the positions of up to 12 stones still in the table at the end | `examples/connect4_book.rs` |
//! | `data/connect4-exact.bin` (binary, [`Book::to_bytes`]) | exact scores of every position of up to a number of stones (the leaves solved, every shallower position's score derived from its children's, [`Book::with_derived_scores`]) | `examples/connect4_book.rs --exact N` |
//! | `data/connect4-replies.txt` (text) | won, drawn or lost (bounds 1..18, 0..0, -18..-1) for the positions where the second player moves in the games of its first replies (every first-player move, [`Solver::perfect_move`](super::Solver::perfect_move)'s replies), and for the positions its replies make | `examples/connect4_book.rs --replies N` |
//!
//! A position whose player to move can win at once is never stored: its score is immediate.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use super::position::{CELLS, Column, MAX_SCORE, MIN_SCORE, ParseMovesError, Position, WIDTH};

/// Why a book's text cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// A line whose move sequence is not a position.
    #[error("line {line}: {error}")]
    Moves {
        /// The line, counting from 1.
        line: usize,
        /// What is wrong with the sequence.
        error: ParseMovesError,
    },
    /// A line whose key is not the key of a position.
    #[error("line {line}: not the hex key of a position")]
    Key {
        /// The line, counting from 1.
        line: usize,
    },
    /// A line without its scores, or with one that is not an integer in -18..=18, or with a
    /// lower bound above the upper.
    #[error(
        "line {line}: expected `MOVES SCORE` or `0xKEY LOWER UPPER`, scores in -18..=18, lower <= upper"
    )]
    Score {
        /// The line, counting from 1.
        line: usize,
    },
    /// Binary book data ([`Book::from_bytes`]) that is not a book: a wrong header or length, or
    /// an entry that is not a position's key with bounds in -18..=18, or out of key order.
    #[error(
        "byte {offset}: not a binary Connect Four book (header `C4BOOK1`, then 8-byte entries: key, lower and upper bound, keys increasing)"
    )]
    Bytes {
        /// Where the bad header or entry starts.
        offset: usize,
    },
    /// Two books whose bounds for one position leave no score ([`Book::merged`]).
    #[error("the books disagree on the position of key {key:#x}: their bounds leave no score")]
    Conflict {
        /// The canonical key of the position.
        key: u64,
    },
}

/// The first 8 bytes of a binary book.
const MAGIC: &[u8; 8] = b"C4BOOK1\n";
// A binary entry: the canonical key in bits 0-48, lower and upper bound plus 18 in bits 49-54
// and 55-60.
const KEY_BITS: u32 = 49;
const BOUND_OFFSET: i32 = -MIN_SCORE;

/// Bounds on the scores of positions, consulted by
/// [`Solver::with_book`](super::Solver::with_book).
///
/// ```
/// use tictactoe::connect4::{Book, Position};
///
/// let book: Book = "# two positions\n4 -1\n1 -4\n".parse()?;
/// assert_eq!(book.len(), 2);
/// assert_eq!(book.bounds("7".parse()?), Some((-4, -4))); // the mirror image of "1"
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<(u64, i8, i8)>,
    // The range of stones of the positions, so the search skips the lookup everywhere else.
    min_stones: usize,
    max_stones: usize,
}

/// The text of the book the crate ships (`data/connect4-book.txt`: the proof of the empty
/// board, positions of up to 12 stones; its command and checks are in `docs/solver.md`).
const SHIPPED: &str = include_str!("../../data/connect4-book.txt");
/// The exact scores the crate ships (`data/connect4-exact.bin`, [`Book::to_bytes`]; its
/// command, coverage and checks are in `docs/solver.md`).
const SHIPPED_EXACT: &[u8] = include_bytes!("../../data/connect4-exact.bin");
/// The second player's replies the crate ships (`data/connect4-replies.txt`; its command and
/// checks are in `docs/solver.md`).
const SHIPPED_REPLIES: &str = include_str!("../../data/connect4-replies.txt");

impl Book {
    /// The opening book the crate ships: the bounds its solve of the empty board proved for
    /// 36,586 positions of up to 12 stones (714 KB of text, parsed on each call). With it
    /// [`Solver::with_book`](super::Solver::with_book) answers the empty board and the
    /// positions on its proof at once.
    ///
    /// ```
    /// use tictactoe::connect4::{Book, Position, Solver};
    ///
    /// let mut solver = Solver::with_book(Book::shipped());
    /// assert_eq!(solver.score(Position::EMPTY), 1); // the first player wins, with its 21st stone
    /// assert!(solver.nodes() < 1_000);
    /// ```
    ///
    /// It also holds the exact scores of `data/connect4-exact.bin` ([`Book::shipped_exact`])
    /// and the second player's replies of `data/connect4-replies.txt`
    /// ([`Book::shipped_replies`]).
    #[must_use]
    pub fn shipped() -> Book {
        // The shipped books are read and merged by the test `the_shipped_books_agree`; were
        // any ever unreadable, the others (or an empty book) only make the solver search.
        let proof = Book::shipped_proof();
        let exact = Book::shipped_exact();
        let both = proof.merged(&exact).unwrap_or(proof);
        both.merged(&Book::shipped_replies()).unwrap_or(both)
    }

    /// The second player's replies the crate ships alone (`data/connect4-replies.txt`): won,
    /// drawn or lost for the positions of the perfect player's first replies as the second
    /// player and for the positions they make (`docs/solver.md` says how many). Part of
    /// [`Book::shipped`].
    #[must_use]
    pub fn shipped_replies() -> Book {
        SHIPPED_REPLIES.parse().unwrap_or_default()
    }

    /// The proof of the empty board the crate ships alone (`data/connect4-book.txt`): bounds
    /// for 36,586 positions of up to 12 stones. Part of [`Book::shipped`].
    #[must_use]
    pub fn shipped_proof() -> Book {
        SHIPPED.parse().unwrap_or_default()
    }

    /// The exact scores the crate ships alone (`data/connect4-exact.bin`): the positions of
    /// up to the number of stones its build reached, all of them (`docs/solver.md` says how
    /// many and the command that goes further). Part of [`Book::shipped`].
    #[must_use]
    pub fn shipped_exact() -> Book {
        Book::from_bytes(SHIPPED_EXACT).unwrap_or_default()
    }

    // A book of sorted entries; an empty one is the default book, whatever the stone range.
    fn of(entries: Vec<(u64, i8, i8)>, min_stones: usize, max_stones: usize) -> Book {
        if entries.is_empty() {
            return Book::default();
        }
        Book {
            entries,
            min_stones,
            max_stones,
        }
    }

    /// The number of positions (a position and its mirror image count once).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The lower and upper bound of the score of `position`, if the book holds it.
    #[must_use]
    pub fn bounds(&self, position: Position) -> Option<(i32, i32)> {
        self.bounds_of_key(position.canonical_key(), position.moves())
    }

    /// The exact score of `position` if the book holds it (both bounds equal), or if the player
    /// to move can win at once (then it needs no book).
    #[must_use]
    pub fn score(&self, position: Position) -> Option<i32> {
        if position.can_win_next() {
            return Some(win_now(position.moves()));
        }
        match self.bounds(position) {
            Some((lower, upper)) if lower == upper => Some(lower),
            _ => None,
        }
    }

    /// The score of playing each column of `position` (index 0 for column 1), for the player
    /// to move, as far as the book decides it: a winning move's score; else minus the exact
    /// score of the position the move makes ([`Book::score`]); `None` for a full column or a
    /// position the book has no exact score for. These are the hints of an analysis board.
    ///
    /// ```
    /// use tictactoe::connect4::{Book, Position};
    ///
    /// let book = Book::shipped();
    /// let hints = book.move_scores(Position::EMPTY);
    /// assert_eq!(hints[3], Some(1)); // the centre wins, with the 21st stone
    /// ```
    #[must_use]
    pub fn move_scores(&self, position: Position) -> [Option<i32>; WIDTH] {
        let mut scores = [None; WIDTH];
        for (slot, column) in scores.iter_mut().zip(Column::ALL) {
            if position.is_winning_move(column) {
                *slot = Some(win_now(position.moves()));
            } else if let Ok(child) = position.play(column) {
                *slot = self.score(child).map(|s| -s);
            }
        }
        scores
    }

    /// This book with the exact score of every position of `levels` whose every move's score
    /// it gives ([`Book::move_scores`]): the best of them. The levels are taken from the last
    /// to the first, each with the scores derived in the ones after it: given the lists of
    /// [`positions_up_to`]`(n - 1)`, a book holding every position of `n` stones ends up holding
    /// every position of fewer. A position whose player to move can win at once, or that
    /// already has an exact score, is left as it is.
    ///
    /// # Errors
    ///
    /// [`BookError::Conflict`] when a derived score lies outside bounds the book holds for the
    /// position (one of the book's entries is wrong).
    pub fn with_derived_scores(&self, levels: &[Vec<Position>]) -> Result<Book, BookError> {
        let mut book = self.clone();
        for level in levels.iter().rev() {
            let mut derived = Vec::new();
            let (mut min_stones, mut max_stones) = (usize::MAX, 0);
            for &position in level {
                if position.can_win_next() || book.score(position).is_some() {
                    continue;
                }
                let mut best = None;
                let mut complete = true;
                for (column, score) in Column::ALL.into_iter().zip(book.move_scores(position)) {
                    match score {
                        Some(s) => best = Some(best.map_or(s, |b: i32| b.max(s))),
                        None if position.can_play(column) => complete = false,
                        None => {}
                    }
                }
                if let (true, Some(best)) = (complete, best) {
                    derived.push((position.canonical_key(), best as i8, best as i8));
                    min_stones = min_stones.min(position.moves());
                    max_stones = max_stones.max(position.moves());
                }
            }
            if derived.is_empty() {
                continue;
            }
            derived.sort_unstable_by_key(|e| e.0);
            derived.dedup_by_key(|e| e.0);
            let add = Book {
                entries: derived,
                min_stones,
                max_stones,
            };
            // Derived scores only fill positions the book had no exact score for; bounds it
            // held must contain them (a contradiction is a wrong entry).
            book = book.merged(&add)?;
        }
        Ok(book)
    }

    /// The bounds of both books, intersected where both hold a position.
    ///
    /// # Errors
    ///
    /// [`BookError::Conflict`] when the bounds of a position leave no score.
    pub fn merged(&self, other: &Book) -> Result<Book, BookError> {
        let (a, b) = (&self.entries, &other.entries);
        let mut entries = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let next = match (a.get(i), b.get(j)) {
                (Some(x), Some(y)) if x.0 == y.0 => {
                    i += 1;
                    j += 1;
                    let (lower, upper) = (x.1.max(y.1), x.2.min(y.2));
                    if lower > upper {
                        return Err(BookError::Conflict { key: x.0 });
                    }
                    (x.0, lower, upper)
                }
                (Some(x), Some(y)) if x.0 < y.0 => {
                    i += 1;
                    *x
                }
                (Some(x), None) => {
                    i += 1;
                    *x
                }
                (_, Some(y)) => {
                    j += 1;
                    *y
                }
                (None, None) => break,
            };
            entries.push(next);
        }
        let (min_stones, max_stones) = match (self.is_empty(), other.is_empty()) {
            (true, true) => (usize::MAX, 0),
            (false, true) => (self.min_stones, self.max_stones),
            (true, false) => (other.min_stones, other.max_stones),
            (false, false) => (
                self.min_stones.min(other.min_stones),
                self.max_stones.max(other.max_stones),
            ),
        };
        Ok(Book::of(entries, min_stones, max_stones))
    }

    /// The book in its binary form: the header `C4BOOK1` and a newline, then 8 bytes a
    /// position, little-endian, by increasing key: the canonical key ([`Position::key`], 49
    /// bits), then the lower and the upper bound plus 18 in 6 bits each. Half the size of the
    /// text or less, and read without parsing.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(MAGIC.len() + 8 * self.entries.len());
        bytes.extend_from_slice(MAGIC);
        for &(key, lower, upper) in &self.entries {
            let word = key
                | ((i32::from(lower) + BOUND_OFFSET) as u64) << KEY_BITS
                | ((i32::from(upper) + BOUND_OFFSET) as u64) << (KEY_BITS + 6);
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes
    }

    /// The book of [`Book::to_bytes`].
    ///
    /// # Errors
    ///
    /// [`BookError::Bytes`] at the header, or at the first entry that is not a position's key
    /// with bounds in -18..=18 (lower at most upper), or whose key is not above the one before.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let body = bytes
            .strip_prefix(MAGIC.as_slice())
            .ok_or(BookError::Bytes { offset: 0 })?;
        let mut entries = Vec::with_capacity(body.len() / 8);
        let (mut min_stones, mut max_stones) = (usize::MAX, 0);
        let mut chunks = body.chunks_exact(8);
        for (i, chunk) in chunks.by_ref().enumerate() {
            let offset = MAGIC.len() + 8 * i;
            let bad = BookError::Bytes { offset };
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            let word = u64::from_le_bytes(word);
            let key = word & ((1 << KEY_BITS) - 1);
            let lower = ((word >> KEY_BITS) & 63) as i32 - BOUND_OFFSET;
            let upper = ((word >> (KEY_BITS + 6)) & 63) as i32 - BOUND_OFFSET;
            let range = MIN_SCORE..=MAX_SCORE;
            if word >> (KEY_BITS + 12) != 0
                || !range.contains(&lower)
                || !range.contains(&upper)
                || lower > upper
                || entries.last().is_some_and(|e: &(u64, i8, i8)| e.0 >= key)
            {
                return Err(bad);
            }
            let position = Position::from_key(key).ok_or(bad)?;
            if position.canonical_key() != key {
                return Err(bad);
            }
            min_stones = min_stones.min(position.moves());
            max_stones = max_stones.max(position.moves());
            entries.push((key, lower as i8, upper as i8));
        }
        if !chunks.remainder().is_empty() {
            return Err(BookError::Bytes {
                offset: bytes.len() - chunks.remainder().len(),
            });
        }
        Ok(Book::of(entries, min_stones, max_stones))
    }

    /// Every position with its bounds, by key.
    pub fn iter(&self) -> impl Iterator<Item = (Position, i32, i32)> + '_ {
        self.entries.iter().filter_map(|&(key, lower, upper)| {
            Some((Position::from_key(key)?, i32::from(lower), i32::from(upper)))
        })
    }

    #[inline]
    pub(crate) fn bounds_of_key(&self, canonical: u64, stones: usize) -> Option<(i32, i32)> {
        if stones < self.min_stones || stones > self.max_stones {
            return None;
        }
        let i = self
            .entries
            .binary_search_by_key(&canonical, |e| e.0)
            .ok()?;
        let (_, lower, upper) = self.entries[i];
        Some((i32::from(lower), i32::from(upper)))
    }

    /// A book of these positions and bounds (`(position, lower, upper)`); bounds given twice
    /// for one position are intersected.
    ///
    /// # Errors
    ///
    /// [`BookError::Score`] (with `line` counting items from 1) for a bound outside
    /// -18..=18, or bounds that leave no score.
    pub fn from_bounds(
        bounds: impl IntoIterator<Item = (Position, i32, i32)>,
    ) -> Result<Book, BookError> {
        let mut entries: Vec<(u64, i8, i8)> = Vec::new();
        let (mut min_stones, mut max_stones) = (usize::MAX, 0);
        for (i, (position, lower, upper)) in bounds.into_iter().enumerate() {
            let range = MIN_SCORE..=MAX_SCORE;
            if !range.contains(&lower) || !range.contains(&upper) || lower > upper {
                return Err(BookError::Score { line: i + 1 });
            }
            min_stones = min_stones.min(position.moves());
            max_stones = max_stones.max(position.moves());
            entries.push((position.canonical_key(), lower as i8, upper as i8));
        }
        entries.sort_unstable_by_key(|e| e.0);
        let mut kept: Vec<(u64, i8, i8)> = Vec::with_capacity(entries.len());
        for (key, lower, upper) in entries {
            match kept.last_mut() {
                Some(last) if last.0 == key => {
                    last.1 = last.1.max(lower);
                    last.2 = last.2.min(upper);
                }
                _ => kept.push((key, lower, upper)),
            }
        }
        Ok(Book::of(kept, min_stones, max_stones))
    }

    /// The book as text: one `0xKEY LOWER UPPER` line a position, by key.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for &(key, lower, upper) in &self.entries {
            let _ = writeln!(text, "{key:#x} {lower} {upper}");
        }
        text
    }
}

impl fmt::Display for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// The score of a position of `stones` stones whose player to move wins with the next stone.
const fn win_now(stones: usize) -> i32 {
    (CELLS as i32 + 1 - stones as i32) / 2
}

/// Every position of exactly `stones` stones that a game can reach (no four in a row on the
/// board), one of each mirror pair (the one [`Position::canonical_key`] names), in the order a
/// depth-first walk from the empty board, columns from the centre out, first meets them: the
/// positions next to each other in the list share most of their stones, so a solver that keeps
/// its table from one to the next finds much of the work done (the book's build).
///
/// ```
/// use tictactoe::connect4::positions_of;
///
/// assert_eq!(positions_of(1).len(), 4); // columns 1 to 4, the others their mirror images
/// assert_eq!(positions_of(2).len(), 25);
/// ```
#[must_use]
pub fn positions_of(stones: usize) -> Vec<Position> {
    positions_up_to(stones).pop().unwrap_or_default()
}

/// [`positions_of`] for every number of stones from 0 to `stones`, each list in its
/// depth-first order.
#[must_use]
pub fn positions_up_to(stones: usize) -> Vec<Vec<Position>> {
    fn walk(
        position: Position,
        stones: usize,
        seen: &mut [BTreeSet<u64>],
        levels: &mut [Vec<Position>],
    ) {
        let depth = position.moves();
        if !seen[depth].insert(position.canonical_key()) {
            return;
        }
        let canonical = if position.key() == position.canonical_key() {
            position
        } else {
            position.mirror()
        };
        levels[depth].push(canonical);
        if depth == stones {
            return;
        }
        for column in CENTRE_OUT {
            if let Some(column) = Column::new(column)
                && let Ok(child) = position.play(column)
            {
                walk(child, stones, seen, levels);
            }
        }
    }
    let mut seen = vec![BTreeSet::new(); stones + 1];
    let mut levels = vec![Vec::new(); stones + 1];
    walk(Position::EMPTY, stones, &mut seen, &mut levels);
    levels
}

// Columns from the centre out.
const CENTRE_OUT: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

fn parse_line(line: &str, line_no: usize) -> Result<(Position, i32, i32), BookError> {
    let bad = BookError::Score { line: line_no };
    let fields: Vec<&str> = line.split_whitespace().collect();
    let score = |s: &str| s.parse::<i32>().map_err(|_| bad);
    match fields[..] {
        [moves, exact] => {
            let position = Position::from_moves(moves).map_err(|error| BookError::Moves {
                line: line_no,
                error,
            })?;
            let exact = score(exact)?;
            Ok((position, exact, exact))
        }
        [key, lower, upper] => {
            let position = key
                .strip_prefix("0x")
                .and_then(|hex| u64::from_str_radix(hex, 16).ok())
                .and_then(Position::from_key)
                .ok_or(BookError::Key { line: line_no })?;
            Ok((position, score(lower)?, score(upper)?))
        }
        _ => Err(bad),
    }
}

impl core::str::FromStr for Book {
    type Err = BookError;

    fn from_str(text: &str) -> Result<Book, BookError> {
        let mut items = Vec::new();
        let mut lines = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            items.push(parse_line(line, i + 1)?);
            lines.push(i + 1);
        }
        Book::from_bounds(items).map_err(|e| match e {
            BookError::Score { line } => BookError::Score {
                line: lines[line - 1],
            },
            other => other,
        })
    }
}
