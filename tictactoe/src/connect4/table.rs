//! The transposition table: both bounds of a position's score, its best move and its depth,
//! in one `u64`, two entries to a bucket.
//!
//! | bits | field |
//! |---|---|
//! | 0-24 | quotient of the canonical key by the number of buckets (the bucket is the remainder, so the key is exact) |
//! | 25-30 | lower bound of the score, plus 32 |
//! | 31-36 | upper bound of the score, plus 32 |
//! | 37-39 | best move's column plus 1 in the canonical orientation (0: none) |
//! | 40-45 | stones on the board (fewer stones: a bigger subtree, kept first) |
//!
//! A zero word is an empty entry: every key is at least `BOTTOM` (2^42), so its quotient is
//! not zero. Entry 0 of a bucket keeps the position with the fewest stones (the most work to
//! redo), entry 1 takes the rest; a key already present is updated in place, its bounds
//! intersected with the new ones.

use alloc::vec;
use alloc::vec::Vec;

/// Buckets in the table: the smallest prime above 2^24 (a prime spreads the structured keys
/// and lets the key be rebuilt from remainder and quotient).
pub(crate) const BUCKETS: u64 = next_prime(1 << LOG_BUCKETS);
const LOG_BUCKETS: u32 = 22;
/// Bytes of the table: two `u64` entries per bucket.
pub const TABLE_BYTES: usize = BUCKETS as usize * 16;

const fn next_prime(mut n: u64) -> u64 {
    loop {
        let mut d = 2;
        let mut prime = true;
        while d * d <= n {
            if n.is_multiple_of(d) {
                prime = false;
                break;
            }
            d += 1;
        }
        if prime {
            return n;
        }
        n += 1;
    }
}

// Keys are below 2^49 and BUCKETS above 2^LOG_BUCKETS.
const QUOTIENT_BITS: u32 = 49 - LOG_BUCKETS;
const _: () = assert!((1u64 << 49) / BUCKETS < 1 << QUOTIENT_BITS);
const LOWER_SHIFT: u32 = QUOTIENT_BITS;
const UPPER_SHIFT: u32 = LOWER_SHIFT + 6;
const BEST_SHIFT: u32 = UPPER_SHIFT + 6;
const STONES_SHIFT: u32 = BEST_SHIFT + 3;
const _: () = assert!(STONES_SHIFT + 6 <= 64);
const QUOTIENT: u64 = (1 << QUOTIENT_BITS) - 1;
const OFFSET: i32 = 32;

/// What the table knows about one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The score is at least this.
    pub lower: i32,
    /// The score is at most this.
    pub upper: i32,
    /// The best move found, as a column index in the canonical orientation.
    pub best: Option<u8>,
}

pub(crate) struct Table {
    entries: Vec<u64>,
}

impl Table {
    pub fn new() -> Table {
        Table {
            entries: vec![0; 2 * BUCKETS as usize],
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    #[inline]
    fn slot(key: u64) -> (usize, u64) {
        (2 * (key % BUCKETS) as usize, key / BUCKETS)
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let (slot, quotient) = Table::slot(key);
        let pair = &self.entries[slot..slot + 2];
        let word = if pair[0] & QUOTIENT == quotient {
            pair[0]
        } else if pair[1] & QUOTIENT == quotient {
            pair[1]
        } else {
            return None;
        };
        Some(unpack(word))
    }

    /// Records that the score of `key` (a position of `stones` stones) lies in
    /// `lower..=upper`, and its best move if known.
    #[inline]
    pub fn put(&mut self, key: u64, stones: usize, lower: i32, upper: i32, best: Option<u8>) {
        let (slot, quotient) = Table::slot(key);
        let pair = &mut self.entries[slot..slot + 2];
        let (index, lower, upper, best) = if pair[0] & QUOTIENT == quotient {
            let old = unpack(pair[0]);
            (
                0,
                lower.max(old.lower),
                upper.min(old.upper),
                best.or(old.best),
            )
        } else if pair[1] & QUOTIENT == quotient {
            let old = unpack(pair[1]);
            (
                1,
                lower.max(old.lower),
                upper.min(old.upper),
                best.or(old.best),
            )
        } else if pair[0] == 0 || stones as u64 <= (pair[0] >> STONES_SHIFT) & 63 {
            // Entry 0 keeps the biggest subtree; what it held moves to entry 1.
            pair[1] = pair[0];
            (0, lower, upper, best)
        } else {
            (1, lower, upper, best)
        };
        pair[index] = quotient
            | ((lower + OFFSET) as u64) << LOWER_SHIFT
            | ((upper + OFFSET) as u64) << UPPER_SHIFT
            | (best.map_or(0, |c| u64::from(c) + 1)) << BEST_SHIFT
            | (stones as u64) << STONES_SHIFT;
    }
}

impl Table {
    /// Every entry: canonical key, stones, lower and upper bound.
    pub fn iter(&self) -> impl Iterator<Item = (u64, usize, i32, i32)> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter(|e| *e.1 != 0)
            .map(|(i, &word)| {
                let key = (word & QUOTIENT) * BUCKETS + (i / 2) as u64;
                let entry = unpack(word);
                let stones = ((word >> STONES_SHIFT) & 63) as usize;
                (key, stones, entry.lower, entry.upper)
            })
    }
}

#[inline]
fn unpack(word: u64) -> Entry {
    let best = ((word >> BEST_SHIFT) & 7) as u8;
    Entry {
        lower: ((word >> LOWER_SHIFT) & 63) as i32 - OFFSET,
        upper: ((word >> UPPER_SHIFT) & 63) as i32 - OFFSET,
        best: best.checked_sub(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_merge() {
        let mut table = Table::new();
        let key = (1 << 48) + 12345;
        assert_eq!(table.get(key), None);
        table.put(key, 10, -3, 18, None);
        table.put(key, 10, -18, 5, Some(4));
        let entry = table.get(key).unwrap();
        assert_eq!((entry.lower, entry.upper, entry.best), (-3, 5, Some(4)));
        // Another key in the same bucket goes beside it.
        let other = key + BUCKETS;
        table.put(other, 20, 1, 1, Some(0));
        assert_eq!(table.get(other).unwrap().lower, 1);
        assert_eq!(table.get(key).unwrap().upper, 5);
    }
}
