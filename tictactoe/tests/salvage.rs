//! What `Reader::salvage` guarantees (`docs/format.md`, "Salvage"), tested exhaustively on
//! small files (every single-bit flip, every truncation, every drop, duplicate and swap of
//! blocks, forged header fields) and by sampling on 1,000,000-record files.
//!
//! The guarantee, as checked by [`check`]: salvage never fails past the header and never
//! panics; it outputs whole original blocks, each at most once; every block with an intact
//! copy in the file is output (at its first copy, in file order) when the input's size is
//! known, and otherwise every such block except one met far ahead of its place with no
//! successor to confirm it; the lost ranges are disjoint, miss every output record, cover
//! every other record exactly once, and name no record past the end; blocks output after a
//! higher-numbered one are reported as moved, and every further copy as a duplicate.

use std::collections::BTreeSet;
use std::io::Cursor;

use tictactoe::file::{
    FormatError, HEADER_BYTES, Header, Lost, Part, Reader, TRAILER_BYTES, Writer,
};

#[path = "../../fuzz/shared/checks.rs"]
#[allow(dead_code, reason = "the fuzz checks are used in part here")]
mod checks;
use tictactoe::packed::Packing;
use tictactoe::{Board, Position};

/// `len` reachable boards from a fixed xorshift.
fn sample(len: usize, seed: u64) -> Vec<Board> {
    let all: Vec<Board> = Position::all().map(Position::board).collect();
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            all[(state % all.len() as u64) as usize]
        })
        .collect()
}

/// A file as written, cut into its parts.
struct Original {
    bytes: Vec<u8>,
    boards: Vec<Board>,
    per: usize,
    /// Byte range of each block.
    blocks: Vec<std::ops::Range<usize>>,
    seekable: bool,
}

impl Original {
    fn new(packing: Packing, len: usize, per: u32, seekable: bool, seed: u64) -> Original {
        let boards = sample(len, seed);
        let mut writer =
            Writer::with_records_per_block(Cursor::new(Vec::new()), packing, per).unwrap();
        writer.extend(&boards).unwrap();
        let bytes = if seekable {
            writer.finish_seekable().unwrap().into_inner()
        } else {
            writer.finish().unwrap().into_inner()
        };
        let mut blocks = Vec::new();
        let mut at = HEADER_BYTES;
        for chunk in boards.chunks(per as usize) {
            let end = at + 8 + packing.bytes_for(chunk.len());
            blocks.push(at..end);
            at = end;
        }
        assert_eq!(at + TRAILER_BYTES, bytes.len());
        Original {
            bytes,
            boards,
            per: per as usize,
            blocks,
            seekable,
        }
    }

    fn header(&self) -> &[u8] {
        &self.bytes[..HEADER_BYTES]
    }

    fn trailer(&self) -> &[u8] {
        &self.bytes[self.bytes.len() - TRAILER_BYTES..]
    }

    fn block(&self, k: usize) -> &[u8] {
        &self.bytes[self.blocks[k].clone()]
    }

    fn records(&self, k: usize) -> &[Board] {
        let end = ((k + 1) * self.per).min(self.boards.len());
        &self.boards[k * self.per..end]
    }

    /// The file with its blocks in this order (any may be left out or repeated).
    fn with_blocks(&self, order: &[usize]) -> Vec<u8> {
        let mut bytes = self.header().to_vec();
        for &k in order {
            bytes.extend_from_slice(self.block(k));
        }
        bytes.extend_from_slice(self.trailer());
        bytes
    }
}

/// What a salvaging read gave: the block numbers output, in order, and the reports.
struct Salvaged {
    order: Vec<usize>,
    lost: Vec<Lost>,
}

/// Salvages `bytes`, and checks the guarantee. `intact`: the blocks that have an intact copy,
/// in file order of their first copy, with the number of further copies of each; `None`
/// when not known (the universal checks only). `sized`: tell the reader the input's size.
fn check(
    original: &Original,
    bytes: &[u8],
    intact: Option<(&[usize], usize)>,
    sized: bool,
    what: &str,
) -> Option<Salvaged> {
    let reader = Reader::new(bytes).ok()?;
    let mut reader = if sized {
        reader.input_len(bytes.len() as u64).salvage()
    } else {
        reader.salvage()
    };
    let mut output = Vec::new();
    loop {
        let mut chunk = Vec::new();
        let more = reader.read_block(&mut chunk).unwrap();
        if !more {
            assert!(chunk.is_empty(), "{what}");
            break;
        }
        output.push(chunk);
    }
    let originals: Vec<&[Board]> = original.boards.chunks(original.per).collect();
    let order = checks::block_numbers(&originals, &output, what);
    let lost = reader.lost().to_vec();
    let lens: Vec<usize> = originals.iter().map(|b| b.len()).collect();
    checks::assert_lost_covers(&lens, original.per, &order, &lost, what);
    if let Some((expected, copies)) = intact {
        assert_eq!(order, expected, "{what}: {lost:?}");
        // Moved: of every two blocks output in the wrong order, at least one is reported,
        // and no block in order with every other is.
        let moved: BTreeSet<usize> = lost
            .iter()
            .filter_map(|l| match l.cause {
                FormatError::MovedBlock {
                    part: Part::Block { index, .. },
                    ..
                } => Some(index as usize),
                _ => None,
            })
            .collect();
        let mut place = vec![None; original.blocks.len()];
        for (i, &k) in order.iter().enumerate() {
            place[k] = Some(i);
        }
        let inverted = |a: usize, b: usize| {
            let (i, j) = (place[a], place[b]);
            i.zip(j).is_some_and(|(i, j)| (i < j) != (a < b))
        };
        for &a in &order {
            for &b in &order {
                if a < b && inverted(a, b) {
                    assert!(
                        moved.contains(&a) || moved.contains(&b),
                        "{what}: {a} {b} {lost:?}"
                    );
                }
            }
        }
        for &m in &moved {
            assert!(
                order.iter().any(|&b| inverted(m, b)),
                "{what}: {m} reported moved"
            );
        }
        let count_of = |f: fn(&FormatError) -> bool| lost.iter().filter(|l| f(&l.cause)).count();
        assert_eq!(
            count_of(|c| matches!(c, FormatError::DuplicateBlock { .. })),
            copies,
            "{what}: {lost:?}"
        );
    }
    Some(Salvaged { order, lost })
}

fn lost_records(lost: &[Lost]) -> u64 {
    lost.iter().filter_map(Lost::records).sum()
}

/// Small files: 23 records in blocks of 5 (five blocks, the last short), every packing,
/// written both ways.
fn small_files() -> Vec<Original> {
    let mut files = Vec::new();
    for packing in Packing::ALL {
        for seekable in [false, true] {
            files.push(Original::new(packing, 23, 5, seekable, 3));
            files.push(Original::new(packing, 20, 5, seekable, 4));
        }
    }
    files
}

/// Issue 14, defect 1 (a flip in a block's `n` of a stream file lost everything after it)
/// and the guarantee for every single-bit flip of every byte.
#[test]
fn every_single_bit_flip_loses_exactly_the_block_it_hits() {
    let mut runs = 0;
    for original in small_files() {
        for bit in 0..original.bytes.len() * 8 {
            let mut bytes = original.bytes.clone();
            bytes[bit / 8] ^= 1 << (bit % 8);
            let at = bit / 8;
            let hit = original.blocks.iter().position(|r| r.contains(&at));
            let intact: Vec<usize> = (0..original.blocks.len())
                .filter(|&k| Some(k) != hit)
                .collect();
            for sized in [false, true] {
                let what = format!("bit {bit} sized {sized} seekable {}", original.seekable);
                let Some(salvaged) = check(&original, &bytes, Some((&intact, 0)), sized, &what)
                else {
                    assert!(at < HEADER_BYTES, "{what}: header refused");
                    continue;
                };
                runs += 1;
                assert!(!salvaged.lost.is_empty(), "{what}: damage not reported");
                if let Some(k) = hit {
                    let lost = original.records(k).len() as u64;
                    // The exact range of the block hit, and nothing else.
                    let ranges: Vec<_> = salvaged
                        .lost
                        .iter()
                        .filter(|l| l.end.is_none_or(|e| e > l.first))
                        .collect();
                    if ranges.iter().all(|l| l.end.is_some()) {
                        assert_eq!(
                            lost_records(&salvaged.lost),
                            lost,
                            "{what}: {:?}",
                            salvaged.lost
                        );
                    }
                }
            }
        }
    }
    assert!(runs > 20_000, "{runs}");
}

/// Every truncation: the blocks wholly before the cut are output, the rest is lost from the
/// first record of the block cut (to the count when it is known).
#[test]
fn every_truncation_keeps_every_whole_block() {
    for original in small_files() {
        for len in HEADER_BYTES..original.bytes.len() {
            let bytes = &original.bytes[..len];
            let intact: Vec<usize> = (0..original.blocks.len())
                .filter(|&k| original.blocks[k].end <= len)
                .collect();
            for sized in [false, true] {
                let what = format!("cut {len} sized {sized} seekable {}", original.seekable);
                let salvaged = check(&original, bytes, Some((&intact, 0)), sized, &what).unwrap();
                assert!(!salvaged.lost.is_empty(), "{what}");
                let cut = (intact.len() * original.per).min(original.boards.len()) as u64;
                let ranges: Vec<&Lost> = salvaged
                    .lost
                    .iter()
                    .filter(|l| l.end.is_none_or(|end| end > l.first))
                    .collect();
                if cut < original.boards.len() as u64 {
                    assert_eq!(ranges.len(), 1, "{what}: {:?}", salvaged.lost);
                    assert_eq!(ranges[0].first, cut, "{what}");
                    if original.seekable {
                        assert_eq!(ranges[0].end, Some(original.boards.len() as u64));
                    }
                } else {
                    // Only the trailer is cut: nothing lost when the end is known.
                    assert!(ranges.iter().all(|l| l.end.is_none()), "{what}");
                }
            }
        }
    }
}

/// A file of 40 blocks, so that blocks move further than salvage takes on the checksum
/// alone.
fn long_files() -> Vec<Original> {
    let mut files = Vec::new();
    for packing in [Packing::MixedRadix, Packing::Base4, Packing::Rank] {
        for seekable in [false, true] {
            files.push(Original::new(packing, 198, 5, seekable, 7));
        }
    }
    files
}

/// Block orders with each block dropped, and with each block twice in a row.
fn drops_and_repeats(blocks: usize) -> Vec<Vec<usize>> {
    let all: Vec<usize> = (0..blocks).collect();
    let mut orders = Vec::new();
    for i in 0..blocks {
        let mut dropped = all.clone();
        dropped.remove(i);
        orders.push(dropped);
        let mut twice = all.clone();
        twice.insert(i + 1, i);
        orders.push(twice);
    }
    orders
}

/// The file order of first copies, and the number of further copies.
fn first_copies(order: &[usize]) -> (Vec<usize>, usize) {
    let mut seen = BTreeSet::new();
    let firsts: Vec<usize> = order.iter().copied().filter(|&k| seen.insert(k)).collect();
    let copies = order.len() - firsts.len();
    (firsts, copies)
}

/// Issue 14, defect 3: a dropped, duplicated or moved block lost every block after it.
#[test]
fn every_drop_duplicate_and_swap_of_blocks() {
    let mut runs = 0;
    for original in long_files().into_iter().chain(small_files()) {
        let blocks = original.blocks.len();
        let all: Vec<usize> = (0..blocks).collect();
        let mut orders = drops_and_repeats(blocks);
        for i in 0..blocks {
            // A copy at the end, and at the start.
            let mut late = all.clone();
            late.push(i);
            orders.push(late);
            let mut early = all.clone();
            early.insert(0, i);
            orders.push(early);
            for j in i + 1..blocks {
                let mut swapped = all.clone();
                swapped.swap(i, j);
                orders.push(swapped);
            }
        }
        for order in &orders {
            let bytes = original.with_blocks(order);
            let (firsts, copies) = first_copies(order);
            let what = format!("order {order:?} seekable {}", original.seekable);
            let salvaged = check(&original, &bytes, Some((&firsts, copies)), true, &what).unwrap();
            // Exactly the records of the blocks that are nowhere are lost.
            let gone: usize = (0..blocks)
                .filter(|k| !firsts.contains(k))
                .map(|k| original.records(k).len())
                .sum();
            assert_eq!(lost_records(&salvaged.lost), gone as u64, "{what}");
            // One swap, one copy or one drop: at most two blocks are reported out of place.
            let moved = salvaged
                .lost
                .iter()
                .filter(|l| matches!(l.cause, FormatError::MovedBlock { .. }))
                .count();
            assert!(moved <= 2, "{what}: {:?}", salvaged.lost);
            // Without the size: every block but one moved far ahead with nothing to confirm it.
            let stream = check(&original, &bytes, None, false, &what).unwrap();
            let missing = firsts.len() - stream.order.len();
            assert!(missing <= 1, "{what}: {:?}", stream.lost);
            runs += 2;
        }
    }
    assert!(runs > 10_000, "{runs}");
}

/// A header with a valid checksum whose fields are wrong.
fn forge(original: &Original, count: Option<u64>, per: u32) -> Vec<u8> {
    let header = *Reader::new(&original.bytes[..]).unwrap().header();
    let forged = Header {
        count,
        records_per_block: per,
        ..header
    };
    let mut bytes = original.bytes.clone();
    bytes[..HEADER_BYTES].copy_from_slice(&forged.to_bytes());
    bytes
}

/// Issue 14, defects 2 and 4: a forged count or records-per-block (valid checksum) defeated
/// salvage; now every block is recovered and the header is reported as contradicted.
#[test]
fn forged_header_fields_are_reported_and_every_block_recovered() {
    for original in small_files().into_iter().chain(long_files()) {
        let n = original.boards.len() as u64;
        let all: Vec<usize> = (0..original.blocks.len()).collect();
        let per = original.per as u32;
        let packing = Reader::new(&original.bytes[..]).unwrap().header().packing;
        let max = Header::max_records_per_block(packing);
        for count in [
            Some(0),
            Some(n - 1),
            Some(n + 1),
            Some(2 * n),
            Some(1 << 62),
            Some(u64::MAX - 1),
        ] {
            let bytes = forge(&original, count, per);
            for sized in [false, true] {
                let what = format!("count {count:?} {sized}");
                let salvaged = check(&original, &bytes, Some((&all, 0)), sized, &what).unwrap();
                assert_eq!(lost_records(&salvaged.lost), 0, "{what}");
                assert!(
                    salvaged.lost.iter().any(|l| matches!(
                        l.cause,
                        FormatError::CountMismatch { source_: "header", stated, found } if Some(stated) == count && found == n
                    )),
                    "{what}: {:?}",
                    salvaged.lost
                );
            }
        }
        for forged_per in [1, per - 1, per + 1, per + 2, max] {
            for count in [None, Some(n)] {
                let bytes = forge(&original, count, forged_per);
                for sized in [false, true] {
                    let what = format!("per {forged_per} count {count:?} {sized}");
                    let salvaged = check(&original, &bytes, Some((&all, 0)), sized, &what).unwrap();
                    assert_eq!(lost_records(&salvaged.lost), 0, "{what}");
                    assert!(
                        salvaged.lost.iter().any(|l| l.cause
                            == FormatError::RecordsPerBlockMismatch {
                                stated: forged_per,
                                found: per
                            }),
                        "{what}: {:?}",
                        salvaged.lost
                    );
                }
            }
        }
    }
}

/// Sampling on 1,000,000-record files of default block size, both ways: bit flips anywhere,
/// cuts, every drop and duplicate, swaps, and forged headers.
#[test]
fn sampled_damage_on_million_record_files() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut random = move |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    };
    let mut runs = 0;
    for packing in [Packing::MixedRadix, Packing::Base4, Packing::Rank] {
        let per = Header::default_records_per_block(packing);
        for seekable in [false, true] {
            let original = Original::new(packing, 1_000_000, per, seekable, 11);
            let blocks = original.blocks.len();
            let all: Vec<usize> = (0..blocks).collect();
            for _ in 0..40 {
                let bit = HEADER_BYTES * 8 + random((original.bytes.len() - HEADER_BYTES) * 8);
                let mut bytes = original.bytes.clone();
                bytes[bit / 8] ^= 1 << (bit % 8);
                let hit = original.blocks.iter().position(|r| r.contains(&(bit / 8)));
                let intact: Vec<usize> = all.iter().copied().filter(|&k| Some(k) != hit).collect();
                let sized = runs % 2 == 0;
                check(
                    &original,
                    &bytes,
                    Some((&intact, 0)),
                    sized,
                    &format!("bit {bit}"),
                );
                runs += 1;
            }
            for _ in 0..20 {
                let len = HEADER_BYTES + random(original.bytes.len() - HEADER_BYTES);
                let intact: Vec<usize> = all
                    .iter()
                    .copied()
                    .filter(|&k| original.blocks[k].end <= len)
                    .collect();
                let sized = runs % 2 == 0;
                let bytes = &original.bytes[..len];
                check(
                    &original,
                    bytes,
                    Some((&intact, 0)),
                    sized,
                    &format!("cut {len}"),
                );
                runs += 1;
            }
            let mut orders = drops_and_repeats(blocks);
            for _ in 0..20 {
                let mut swapped = all.clone();
                swapped.swap(random(blocks), random(blocks));
                orders.push(swapped);
            }
            // The short last block swapped with every other.
            for i in 0..blocks - 1 {
                let mut swapped = all.clone();
                swapped.swap(i, blocks - 1);
                orders.push(swapped);
            }
            for order in &orders {
                let bytes = original.with_blocks(order);
                let (firsts, copies) = first_copies(order);
                check(
                    &original,
                    &bytes,
                    Some((&firsts, copies)),
                    true,
                    &format!("{order:?}"),
                );
                runs += 1;
            }
            let n = original.boards.len() as u64;
            for (count, forged_per) in [
                (Some(0), per),
                (Some(n + 1), per),
                (Some(u64::MAX - 1), per),
                (None, 1),
                (Some(n), per - 1),
            ] {
                let bytes = forge(&original, count, forged_per);
                let salvaged = check(&original, &bytes, Some((&all, 0)), false, "forged").unwrap();
                assert_eq!(lost_records(&salvaged.lost), 0, "{count:?} {forged_per}");
                runs += 1;
            }
        }
    }
    eprintln!("{runs} salvaged 1,000,000-record files");
    assert!(runs > 500, "{runs}");
}

/// Every inserted byte: the block it falls inside is lost, every other block is output, and
/// the damage is always reported (bytes that belong to no block, when nothing is missing).
#[test]
fn every_inserted_byte_is_reported_and_costs_at_most_its_block() {
    for original in small_files() {
        for at in HEADER_BYTES..=original.bytes.len() {
            for value in [0x00, 0x5a] {
                let mut bytes = original.bytes.clone();
                bytes.insert(at, value);
                // A block survives where its bytes are, or one byte later (an inserted byte
                // equal to its neighbour may count on either side).
                let survives = |k: usize| {
                    let r = original.blocks[k].clone();
                    bytes[r.clone()] == original.bytes[r.clone()]
                        || bytes[r.start + 1..r.end + 1] == original.bytes[r]
                };
                let intact: Vec<usize> = (0..original.blocks.len())
                    .filter(|&k| survives(k))
                    .collect();
                let inside = (intact.len() < original.blocks.len()).then_some(());
                for sized in [false, true] {
                    let what = format!("insert {value} at {at} sized {sized}");
                    let salvaged =
                        check(&original, &bytes, Some((&intact, 0)), sized, &what).unwrap();
                    assert!(!salvaged.lost.is_empty(), "{what}: not reported");
                    if inside.is_none() && at < original.bytes.len() - TRAILER_BYTES {
                        assert_eq!(lost_records(&salvaged.lost), 0, "{what}");
                        assert!(
                            salvaged.lost.iter().any(|l| matches!(
                                l.cause,
                                // In a run of equal bytes, any of them may be the extra one.
                                FormatError::SkippedData { len: 1, .. }
                            )),
                            "{what}: {:?}",
                            salvaged.lost
                        );
                    }
                }
            }
        }
    }
}

/// Found by the `ttt_reader` fuzz target: two consecutive blocks damaged alike (the same bits
/// flipped at the same place) solve, by the CRC's linearity, to block numbers off by the same
/// pattern, so the second seemed to confirm the first as a block far ahead; salvage output
/// records of no block. Now a far jump needs two successors, and no wrong record comes out.
#[test]
fn blocks_damaged_alike_are_not_taken_for_blocks_far_ahead() {
    let mut runs = 0;
    for seekable in [false, true] {
        let original = Original::new(Packing::MixedRadix, 400, 2, seekable, 13);
        for first in [3, 100, 196] {
            for at in 0..16 {
                for xor in 1..=255u8 {
                    let mut bytes = original.bytes.clone();
                    for k in first..first + 2 {
                        bytes[original.blocks[k].start + at] ^= xor;
                    }
                    let intact: Vec<usize> = (0..original.blocks.len())
                        .filter(|&k| k != first && k != first + 1)
                        .collect();
                    for sized in [false, true] {
                        let what = format!("blocks {first}+1 byte {at} ^ {xor} sized {sized}");
                        check(&original, &bytes, Some((&intact, 0)), sized, &what);
                        runs += 1;
                    }
                }
            }
        }
    }
    assert!(runs > 20_000, "{runs}");
}
