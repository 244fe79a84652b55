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
//! The book that `examples/connect4_book.rs` builds holds the bounds that solving the empty
//! board (its score and every best move) proved for every position of up to a given number of
//! stones still in the table at the end: with it, the same questions are answered at once.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

use super::position::{MAX_SCORE, MIN_SCORE, ParseMovesError, Position};

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
}

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
    #[must_use]
    pub fn shipped() -> Book {
        // The shipped text is parsed by the test `the_shipped_book_answers_the_empty_board`;
        // were it ever unreadable, an empty book only makes the solver search.
        SHIPPED.parse().unwrap_or_default()
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
        Ok(Book {
            entries: kept,
            min_stones,
            max_stones,
        })
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
