//! The opening book: exact scores of positions near the start, read from text.
//!
//! One position per line: its move sequence, a space, its score (`"44 -1"` would say the
//! position after two stones in column 4 scores -1); blank lines and lines starting with `#`
//! are skipped. A position and its mirror image share one entry.
//!
//! | storage | per position |
//! |---|---|
//! | sorted `(canonical key, score)` pairs, found by binary search | 16 bytes |

use alloc::vec::Vec;

use super::position::{ParseMovesError, Position};
use super::solver::{MAX_SCORE, MIN_SCORE};

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
    /// A line without a score, or with one that is not an integer in -18..=18.
    #[error("line {line}: expected a move sequence, a space and a score in -18..=18")]
    Score {
        /// The line, counting from 1.
        line: usize,
    },
    /// Two lines give one position (or its mirror image) different scores.
    #[error("line {line}: the position has another score on an earlier line")]
    Conflict {
        /// The later of the two lines, counting from 1.
        line: usize,
    },
}

/// Exact scores of positions, consulted by [`Solver::with_book`](super::Solver::with_book).
///
/// ```
/// use tictactoe::connect4::{Book, Position};
///
/// let book: Book = "# two positions\n4 -1\n1 -4\n".parse()?;
/// assert_eq!(book.len(), 2);
/// assert_eq!(book.score("7".parse()?), Some(-4)); // the mirror image of "1"
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    // Sorted by key; the stones of a position are in its key, but keeping the range of them
    // lets the search skip the lookup everywhere else.
    entries: Vec<(u64, i8)>,
    min_stones: usize,
    max_stones: usize,
}

impl Book {
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

    /// The score of `position`, if the book holds it.
    #[must_use]
    pub fn score(&self, position: Position) -> Option<i32> {
        self.score_of_key(position.canonical_key(), position.moves())
    }

    #[inline]
    pub(crate) fn score_of_key(&self, canonical: u64, stones: usize) -> Option<i32> {
        if stones < self.min_stones || stones > self.max_stones {
            return None;
        }
        let i = self
            .entries
            .binary_search_by_key(&canonical, |e| e.0)
            .ok()?;
        Some(i32::from(self.entries[i].1))
    }

    /// A book of these positions and scores.
    ///
    /// # Errors
    ///
    /// [`BookError::Conflict`] (with `line` counting positions from 1) when one position has
    /// two scores.
    pub fn from_scores(
        scores: impl IntoIterator<Item = (Position, i32)>,
    ) -> Result<Book, BookError> {
        let mut entries: Vec<(u64, i8, usize)> = Vec::new();
        let (mut min_stones, mut max_stones) = (usize::MAX, 0);
        for (i, (position, score)) in scores.into_iter().enumerate() {
            if !(MIN_SCORE..=MAX_SCORE).contains(&score) {
                return Err(BookError::Score { line: i + 1 });
            }
            min_stones = min_stones.min(position.moves());
            max_stones = max_stones.max(position.moves());
            entries.push((position.canonical_key(), score as i8, i + 1));
        }
        entries.sort_unstable_by_key(|e| (e.0, e.2));
        let mut kept: Vec<(u64, i8)> = Vec::with_capacity(entries.len());
        for (key, score, line) in entries {
            match kept.last() {
                Some(&(k, s)) if k == key => {
                    if s != score {
                        return Err(BookError::Conflict { line });
                    }
                }
                _ => kept.push((key, score)),
            }
        }
        Ok(Book {
            entries: kept,
            min_stones,
            max_stones,
        })
    }
}

impl core::str::FromStr for Book {
    type Err = BookError;

    fn from_str(text: &str) -> Result<Book, BookError> {
        let mut scores = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (moves, score) = line
                .split_once(' ')
                .ok_or(BookError::Score { line: line_no })?;
            let position = Position::from_moves(moves).map_err(|error| BookError::Moves {
                line: line_no,
                error,
            })?;
            let score: i32 = score
                .trim()
                .parse()
                .map_err(|_| BookError::Score { line: line_no })?;
            scores.push((position, score, line_no));
        }
        let lines: Vec<usize> = scores.iter().map(|s| s.2).collect();
        Book::from_scores(scores.into_iter().map(|(p, s, _)| (p, s))).map_err(|e| match e {
            BookError::Score { line } => BookError::Score {
                line: lines[line - 1],
            },
            BookError::Conflict { line } => BookError::Conflict {
                line: lines[line - 1],
            },
            other => other,
        })
    }
}
