//! [`Lost`]: the records a salvaging read could not recover, reported by both the
//! [`Reader`](super::Reader) and the salvage scan behind it.

use std::fmt;

use super::FormatError;

/// Records lost to damage, found by a salvaging [`Reader`](super::Reader).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lost {
    /// The first lost record.
    pub first: u64,
    /// One past the last lost record, if the count is known.
    pub end: Option<u64>,
    /// What was wrong.
    pub cause: FormatError,
}

impl Lost {
    /// Records lost, if the count is known.
    #[must_use]
    pub fn records(&self) -> Option<u64> {
        self.end.map(|end| end.saturating_sub(self.first))
    }
}

impl fmt::Display for Lost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.end {
            Some(end) if end <= self.first => write!(f, "no records lost: {}", self.cause),
            Some(end) => write!(
                f,
                "records {} to {} lost ({}): {}",
                self.first,
                end - 1,
                end - self.first,
                self.cause
            ),
            None => write!(
                f,
                "records from {} on lost (count unknown): {}",
                self.first, self.cause
            ),
        }
    }
}
