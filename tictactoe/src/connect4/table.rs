//! The transposition table: both bounds of a position's score, its best move and its depth,
//! in one `u64`, two entries to a bucket; its size chosen by the size of the search.
//!
//! | bits | field |
//! |---|---|
//! | 0-5 | lower bound of the score, plus 32 |
//! | 6-11 | upper bound of the score, plus 32 |
//! | 12-14 | best move's column plus 1 in the canonical orientation (0: none) |
//! | 15-20 | stones on the board (fewer stones: a bigger subtree, kept first) |
//! | 21-63 | quotient of the canonical key by the number of buckets (the bucket is the remainder, so the key is exact) |
//!
//! A zero word is an empty entry: every key is at least `BOTTOM` (2^42), so its quotient is
//! not zero. Entry 0 of a bucket keeps the position with the fewest stones (the most work to
//! redo), entry 1 takes the rest; a key already present is updated in place, its bounds
//! intersected with the new ones.
//!
//! The number of buckets is one of [`SIZES`], the smallest prime above a power of two: a
//! position with few empty cells has a small tree, and a table that stays in the processor's
//! caches answers it faster than one whose every probe is a miss. The solver picks the size
//! before a search ([`Table::fit`]); an empty table takes any size, a table in use only grows
//! (emptied first). Only the part in use is cleared.

use alloc::vec;
use alloc::vec::Vec;

/// Buckets of each size: the smallest prime above 2^12, 2^16, 2^19, 2^22 (64 KiB, 1 MiB,
/// 8 MiB and 64 MiB of entries). A prime spreads the structured keys and lets the key be
/// rebuilt from remainder and quotient; constants let the compiler divide by multiplying.
pub(crate) const SIZES: [u64; 4] = [
    next_prime(1 << 12),
    next_prime(1 << 16),
    next_prime(1 << 19),
    next_prime(1 << 22),
];
/// Bytes of the table at its largest: two `u64` entries per bucket.
pub const TABLE_BYTES: usize = SIZES[SIZES.len() - 1] as usize * 16;

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

const LOWER_SHIFT: u32 = 0;
const UPPER_SHIFT: u32 = LOWER_SHIFT + 6;
const BEST_SHIFT: u32 = UPPER_SHIFT + 6;
const STONES_SHIFT: u32 = BEST_SHIFT + 3;
const QUOTIENT_SHIFT: u32 = STONES_SHIFT + 6;
// Keys are below 2^49: the quotient by the smallest size fits above the other fields.
const _: () = assert!((1u64 << 49) / SIZES[0] < 1 << (64 - QUOTIENT_SHIFT));
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
    // The index in SIZES of the size in use.
    size: usize,
    // Whether an entry may be non-zero.
    used: bool,
}

impl Table {
    pub fn new() -> Table {
        Table {
            entries: vec![0; 2 * TABLE_BYTES / 16],
            size: SIZES.len() - 1,
            used: false,
        }
    }

    /// Empties the part of the table in use.
    pub fn clear(&mut self) {
        if self.used {
            self.entries[..2 * SIZES[self.size] as usize].fill(0);
            self.used = false;
        }
    }

    /// Makes the table at least the size for a search of a position with `empty` empty cells:
    /// an empty table takes that size, a smaller table in use is emptied and grows.
    pub fn fit(&mut self, empty: usize) {
        let size = match empty {
            0..=14 => 0,
            15..=22 => 1,
            23..=35 => 2,
            _ => 3,
        };
        if !self.used {
            self.size = size;
        } else if size > self.size {
            self.clear();
            self.size = size;
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> (usize, u64) {
        // One arm a size, each dividing by a constant; the arm taken is the same for a whole
        // search, so the branch is predicted.
        let (bucket, quotient) = match self.size {
            0 => (key % SIZES[0], key / SIZES[0]),
            1 => (key % SIZES[1], key / SIZES[1]),
            2 => (key % SIZES[2], key / SIZES[2]),
            _ => (key % SIZES[3], key / SIZES[3]),
        };
        (2 * bucket as usize, quotient)
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let (slot, quotient) = self.slot(key);
        let pair = &self.entries[slot..slot + 2];
        let word = if pair[0] >> QUOTIENT_SHIFT == quotient {
            pair[0]
        } else if pair[1] >> QUOTIENT_SHIFT == quotient {
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
        self.used = true;
        let (slot, quotient) = self.slot(key);
        let pair = &mut self.entries[slot..slot + 2];
        let (index, lower, upper, best) = if pair[0] >> QUOTIENT_SHIFT == quotient {
            let old = unpack(pair[0]);
            (
                0,
                lower.max(old.lower),
                upper.min(old.upper),
                best.or(old.best),
            )
        } else if pair[1] >> QUOTIENT_SHIFT == quotient {
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
        pair[index] = quotient << QUOTIENT_SHIFT
            | ((lower + OFFSET) as u64) << LOWER_SHIFT
            | ((upper + OFFSET) as u64) << UPPER_SHIFT
            | (best.map_or(0, |c| u64::from(c) + 1)) << BEST_SHIFT
            | (stones as u64) << STONES_SHIFT;
    }
}

impl Table {
    /// Every entry: canonical key, stones, lower and upper bound.
    pub fn iter(&self) -> impl Iterator<Item = (u64, usize, i32, i32)> + '_ {
        let buckets = SIZES[self.size];
        self.entries[..2 * buckets as usize]
            .iter()
            .enumerate()
            .filter(|e| *e.1 != 0)
            .map(move |(i, &word)| {
                let key = (word >> QUOTIENT_SHIFT) * buckets + (i / 2) as u64;
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
    fn entries_round_trip_and_merge_at_every_size() {
        for (size, empty) in [(0, 10), (1, 20), (2, 30), (3, 40)] {
            let mut table = Table::new();
            table.fit(empty);
            assert_eq!(table.size, size);
            let key = (1 << 49) - 12345;
            assert_eq!(table.get(key), None);
            table.put(key, 10, -3, 18, None);
            table.put(key, 10, -18, 5, Some(4));
            let entry = table.get(key).unwrap();
            assert_eq!((entry.lower, entry.upper, entry.best), (-3, 5, Some(4)));
            // Another key in the same bucket goes beside it.
            let other = key - SIZES[size];
            table.put(other, 20, 1, 1, Some(0));
            assert_eq!(table.get(other).unwrap().lower, 1);
            assert_eq!(table.get(key).unwrap().upper, 5);
            // The keys come back from bucket and quotient.
            let mut all: Vec<_> = table.iter().collect();
            all.sort_unstable();
            assert_eq!(all, [(other, 20, 1, 1), (key, 10, -3, 5)]);
        }
    }

    #[test]
    fn a_table_in_use_only_grows_and_empties_when_it_does() {
        let mut table = Table::new();
        table.fit(40);
        table.fit(10);
        assert_eq!(table.size, 0, "an empty table takes any size");
        let key = 1 << 48;
        table.put(key, 30, 0, 0, None);
        table.fit(40);
        assert_eq!(table.size, 3);
        assert_eq!(table.get(key), None, "emptied when it grows");
        table.put(key, 30, 0, 0, None);
        table.fit(10);
        assert_eq!(table.size, 3, "a table in use keeps its size");
        assert!(table.get(key).is_some());
        table.clear();
        assert_eq!(table.get(key), None);
        table.fit(10);
        assert_eq!(table.size, 0);
    }
}
