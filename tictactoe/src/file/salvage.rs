//! Salvage: one pass over the bytes that finds every intact block by its own evidence.
//!
//! A block is recognised wherever it sits: a record count `n` in range, then a payload whose
//! CRC, with the right block number, matches. The number is not guessed: the CRC is affine
//! in it, so the one number below `2^32` that makes it match is computed
//! ([`NumberSolver`]), and then judged (see [`Salvage::accepts`]). After damage the scan
//! moves one byte at a time until the next block is recognised, so nothing after the damage
//! is lost to it. Memory: a window of four blocks, plus a few words per damaged or misplaced
//! range (the blocks already output, as ranges of block numbers, and the reports).

use std::io::Read;

use super::lost::Lost;
use super::solve::NumberSolver;
use super::{
    BLOCK_HEAD_BYTES, Damage, FormatError, HEADER_BYTES, Header, MAX_BLOCK_BYTES, Part,
    TRAILER_BYTES, crc32c, read_full,
};
use crate::Board;

/// Bytes wanted ahead of the scan: three whole blocks (one to check, two to confirm it).
const NEED: usize = 3 * MAX_BLOCK_BYTES + TRAILER_BYTES;
/// Bytes read at a time when fewer than `NEED` are left, so that a byte-by-byte scan moves
/// the window once per 64 KiB.
const WINDOW: usize = NEED + MAX_BLOCK_BYTES;
/// A block whose number is at most this far past the next expected one is taken on its CRC
/// alone (a damaged block passes for one of them with probability `17 / 2^32`).
const NEAR: u64 = 16;
/// Reports of moved and duplicated blocks kept; more are counted, not listed.
const MAX_REPORTS: usize = 1 << 16;

/// What the scan found where the next block should have started.
#[derive(Clone, Copy, Debug)]
enum Seen {
    Damaged(Damage),
    /// The file ended there (or inside the block).
    Truncated,
}

/// The state of a salvaging read.
#[derive(Debug)]
pub(super) struct Salvage {
    header: Header,
    /// Records per block, as the blocks show it (the header's unless they contradict it).
    per: u32,
    /// The most records any block of this packing can hold.
    max_per: u32,
    /// Size of the whole input, if known.
    input_len: Option<u64>,
    buf: Vec<u8>,
    pos: usize,
    /// File offset of `buf[0]`.
    base: u64,
    eof: bool,
    /// Block numbers output so far, as sorted disjoint ranges.
    emitted: Vec<(u64, u64)>,
    /// The highest block number output.
    max_k: Option<u64>,
    /// The next block in sequence: after the last block taken in sequence (not out of place),
    /// skipping blocks already taken.
    seq_next: u64,
    /// The first block output with fewer than `per` records (the last block of a whole file).
    short: Option<(u64, u32)>,
    /// The scan stands where the next block should start (after the header or a block).
    expected_place: bool,
    /// What stood at the expected place of a block that was not found there, by block.
    seen: Vec<(u64, Seen, u64)>,
    /// The trailer: (blocks, count, offset).
    trailer: Option<(u64, u64, u64)>,
    /// Where the bytes being skipped (not a block) began.
    skipped: Option<u64>,
    /// Where a damaged trailer stood.
    trailer_damage: Option<u64>,
    trailing_reported: bool,
    reports: Vec<Lost>,
    unlisted: u64,
    per_mismatch: bool,
    solvers: Vec<NumberSolver>,
    pub(super) done: bool,
    pub(super) lost: Vec<Lost>,
    /// The first record of the block taken last.
    pub(super) last_first: u64,
}

impl Salvage {
    pub(super) fn new(header: Header, input_len: Option<u64>) -> Salvage {
        Salvage {
            header,
            per: header.records_per_block,
            max_per: Header::max_records_per_block(header.packing),
            input_len,
            buf: Vec::new(),
            pos: 0,
            base: HEADER_BYTES as u64,
            eof: false,
            emitted: Vec::new(),
            max_k: None,
            seq_next: 0,
            short: None,
            expected_place: true,
            seen: Vec::new(),
            trailer: None,
            trailer_damage: None,
            skipped: None,
            trailing_reported: false,
            reports: Vec::new(),
            unlisted: 0,
            per_mismatch: false,
            solvers: Vec::new(),
            done: false,
            lost: Vec::new(),
            last_first: 0,
        }
    }

    /// Records passed so far: the end of the highest block output.
    pub(super) fn records(&self) -> u64 {
        self.max_k.map_or(0, |k| self.block_end(k))
    }

    fn block_end(&self, k: u64) -> u64 {
        match self.short {
            Some((ks, n)) if ks == k => self.first_of(k).saturating_add(u64::from(n)),
            _ => self.first_of(k + 1),
        }
    }

    fn first_of(&self, k: u64) -> u64 {
        k.saturating_mul(u64::from(self.per))
    }

    fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// One past the highest block output.
    fn end_block(&self) -> u64 {
        self.max_k.map_or(0, |k| k + 1)
    }

    /// Makes at least `need` bytes available at the scan position, if the input has them;
    /// returns how many are.
    fn ensure(&mut self, inner: &mut impl Read, need: usize) -> std::io::Result<usize> {
        let have = self.buf.len() - self.pos;
        if have >= need || self.eof {
            return Ok(have);
        }
        self.buf.drain(..self.pos);
        self.base += self.pos as u64;
        self.pos = 0;
        let filled = self.buf.len();
        self.buf.resize(need.max(WINDOW), 0);
        let got = read_full(inner, &mut self.buf[filled..])?;
        self.eof = filled + got < self.buf.len();
        self.buf.truncate(filled + got);
        Ok(self.buf.len())
    }

    fn le32(&self, at: usize) -> u32 {
        let bytes = &self.buf[self.pos + at..self.pos + at + 4];
        u32::from_le_bytes(bytes.try_into().unwrap_or_default())
    }

    fn solver(&mut self, rest: usize) -> &NumberSolver {
        let at = match self.solvers.iter().position(|s| s.rest() == rest) {
            Some(at) => at,
            None => {
                if self.solvers.len() >= 8 {
                    self.solvers.remove(0);
                }
                self.solvers.push(NumberSolver::new(rest));
                self.solvers.len() - 1
            }
        };
        &self.solvers[at]
    }

    /// The number (below 2^32) of the block of `n` records at `at` bytes past the scan
    /// position (its bytes must be in the window).
    fn block_number(&mut self, at: usize, n: u32) -> u64 {
        let len = self.header.packing.bytes_for(n as usize);
        let start = self.pos + at;
        let stored = self.le32(at + 4);
        let payload = &self.buf[start + BLOCK_HEAD_BYTES..start + BLOCK_HEAD_BYTES + len];
        let zero = self.header.block_crc(0, n, payload);
        u64::from(self.solver(4 + len).solve(stored ^ zero))
    }

    /// The trailer at `at` bytes past the scan position, if it is one whose checksum matches
    /// for some block count: (blocks, count).
    fn trailer_at(&mut self, at: usize) -> Option<(u64, u64)> {
        let start = self.pos + at;
        let bytes = self.buf.get(start..start + TRAILER_BYTES)?;
        if bytes[..4] != [0; 4] {
            return None;
        }
        let count_bytes: [u8; 8] = bytes[8..].try_into().unwrap_or_default();
        let stored = u32::from_le_bytes(bytes[4..8].try_into().unwrap_or_default());
        let zero = crc32c(&[&0u64.to_le_bytes(), &[0; 4], &count_bytes]);
        let blocks = u64::from(self.solver(12).solve(stored ^ zero));
        let count = u64::from_le_bytes(count_bytes);
        // A trailer must agree with itself: its block count is the count's.
        (blocks == count.div_ceil(u64::from(self.per))).then_some((blocks, count))
    }

    fn is_emitted(&self, k: u64) -> bool {
        let at = self.emitted.partition_point(|&(_, end)| end <= k);
        self.emitted.get(at).is_some_and(|&(start, _)| start <= k)
    }

    fn mark_emitted(&mut self, k: u64) {
        let at = self.emitted.partition_point(|&(_, end)| end <= k);
        let joins_before = at > 0 && self.emitted[at - 1].1 == k;
        let joins_after = self
            .emitted
            .get(at)
            .is_some_and(|&(start, _)| start == k + 1);
        match (joins_before, joins_after) {
            (true, true) => {
                self.emitted[at - 1].1 = self.emitted[at].1;
                self.emitted.remove(at);
            }
            (true, false) => self.emitted[at - 1].1 = k + 1,
            (false, true) => self.emitted[at].0 = k,
            (false, false) => self.emitted.insert(at, (k, k + 1)),
        }
    }

    fn report(&mut self, cause: FormatError, at: u64) {
        if self.reports.len() < MAX_REPORTS {
            self.reports.push(Lost {
                first: at,
                end: Some(at),
                cause,
            });
        } else {
            self.unlisted += 1;
        }
    }

    fn part(&self, k: u64, n: u32) -> Part {
        let first = self.first_of(k);
        Part::Block {
            index: k,
            first,
            end: first.saturating_add(u64::from(n)),
        }
    }

    /// Whether block `k` of `n` records at the scan position (not a duplicate) is taken:
    /// `Some(false)` in sequence, `Some(true)` out of place, `None` not taken.
    ///
    /// In sequence or a little ahead (`NEAR`): on its checksum; a jump ahead counts as in
    /// sequence when the scan skipped damage to get here or the block after it is its
    /// successor (or the trailer counting it). Further ahead, in sequence with that successor.
    /// Out of place: filling a gap left behind, on its checksum (the numbers of the gaps are
    /// few), or further ahead when the size of the input is known and the number fits in it.
    /// A count above the header's records per block (which proves the header wrong) only in
    /// or near sequence.
    fn accepts(&mut self, k: u64, n: u32, size: usize) -> Option<bool> {
        let next = self.seq_next;
        if k == next {
            return Some(false);
        }
        if k > next && k - next <= NEAR {
            // A jump ahead is in sequence when damage was skipped to get here, or when the
            // next block follows on (the blocks between were dropped); else this block was
            // moved here.
            return Some(self.expected_place && !self.confirmed(k, size, 1));
        }
        if n > self.per {
            return None;
        }
        if k < next {
            return Some(true);
        }
        // Far ahead: never past the header's count, when it is one a file could have.
        let count = self.header.count;
        if let Some(count) = count.filter(|&c| self.header.file_bytes(c) < u64::MAX)
            && k >= count.div_ceil(u64::from(self.per))
        {
            return None;
        }
        if self.confirmed(k, size, 2) {
            return Some(false);
        }
        let len = self.input_len?;
        let block = (BLOCK_HEAD_BYTES + self.header.packing.bytes_for(self.per as usize)) as u64;
        (k < len.saturating_sub(HEADER_BYTES as u64) / block + 1).then_some(true)
    }

    /// Whether the `depth` blocks after the one of `size` bytes at the scan position are
    /// `k + 1`, `k + 2`, ... (or the trailer comes first, counting the blocks so far).
    fn confirmed(&mut self, k: u64, size: usize, depth: u32) -> bool {
        self.follows(k + 1, size, depth)
    }

    /// Whether block `k` starts `at` bytes past the scan position and is followed by the next
    /// `depth - 1` blocks in sequence, or the trailer counting `k` blocks stands there. Two
    /// successors, not one: blocks damaged alike (the same bits flipped at the same place,
    /// as a fault with a stride would) solve to numbers off by the same pattern, so one
    /// damaged successor can pass for the next number; two rarely both do.
    fn follows(&mut self, k: u64, at: usize, depth: u32) -> bool {
        if depth == 0 {
            return true;
        }
        let avail = self.buf.len() - self.pos;
        if avail < at + BLOCK_HEAD_BYTES {
            return false;
        }
        let n = self.le32(at);
        if n == 0 {
            return self.trailer_at(at).is_some_and(|(blocks, _)| blocks == k);
        }
        let size = BLOCK_HEAD_BYTES + self.header.packing.bytes_for(n as usize);
        if n > self.per || avail < at + size {
            return false;
        }
        self.block_number(at, n) == k && self.follows(k + 1, at + size, depth - 1)
    }

    /// One step: `Ok(true)` when a block's boards were appended to `out`.
    pub(super) fn step(
        &mut self,
        inner: &mut impl Read,
        out: &mut Vec<Board>,
    ) -> std::io::Result<bool> {
        // Enough for a block and the two after it, so that `accepts` can look ahead.
        let avail = self.ensure(inner, NEED)?;
        if avail == 0 {
            self.note(Seen::Truncated);
            self.finish();
            return Ok(false);
        }
        if avail < BLOCK_HEAD_BYTES {
            self.note(Seen::Truncated);
            self.pos = self.buf.len();
            return Ok(false);
        }
        let n = self.le32(0);
        if n == 0 {
            if avail < TRAILER_BYTES {
                self.note(Seen::Truncated);
            } else if let Some((blocks, count)) = self.trailer_at(0) {
                let offset = self.offset();
                if self.trailer.is_none() {
                    self.trailer = Some((blocks, count, offset));
                }
                self.report_skipped(offset, self.seq_next == blocks);
                self.pos += TRAILER_BYTES;
                self.expected_place = false;
                self.trailing(inner)?;
                return Ok(false);
            } else {
                self.note_trailer(Damage::Checksum);
            }
        } else if n > self.max_per {
            self.note(Seen::Damaged(Damage::RecordCount { found: n }));
        } else {
            let size = BLOCK_HEAD_BYTES + self.header.packing.bytes_for(n as usize);
            if avail < size {
                self.note(Seen::Truncated);
            } else {
                let k = self.block_number(0, n);
                let offset = self.offset();
                if self.is_emitted(k) {
                    let part = self.part(k, n);
                    self.report(
                        FormatError::DuplicateBlock { part, offset },
                        self.first_of(k),
                    );
                    self.skipped = None;
                    self.pos += size;
                    self.expected_place = true;
                    return Ok(false);
                }
                if let Some(moved) = self.accepts(k, n, size) {
                    let before = out.len();
                    let payload = &self.buf[self.pos + BLOCK_HEAD_BYTES..self.pos + size];
                    match self.header.packing.decode(payload, n as usize, out) {
                        Ok(()) => {
                            self.report_skipped(offset, k == self.seq_next);
                            self.take(k, n, offset, moved);
                            self.pos += size;
                            self.expected_place = true;
                            return Ok(true);
                        }
                        Err(error) => {
                            out.truncate(before);
                            self.note(Seen::Damaged(Damage::Code(error)));
                        }
                    }
                } else {
                    self.note(Seen::Damaged(Damage::Checksum));
                }
            }
        }
        self.expected_place = false;
        if self.skipped.is_none() {
            self.skipped = Some(self.offset());
        }
        self.pos += 1;
        Ok(false)
    }

    /// Bytes skipped just before `offset`, where nothing is missing: data that belongs to no
    /// block (inserted), reported so that the file is not taken as whole.
    fn report_skipped(&mut self, offset: u64, nothing_missing: bool) {
        if let Some(start) = self.skipped.take()
            && nothing_missing
        {
            let at = self.records();
            self.report(
                FormatError::SkippedData {
                    offset: start,
                    len: offset - start,
                },
                at,
            );
        }
    }

    /// Bytes after a trailer: reported once, and scanned like the rest.
    fn trailing(&mut self, inner: &mut impl Read) -> std::io::Result<()> {
        if self.ensure(inner, 1)? > 0 && !self.trailing_reported {
            self.trailing_reported = true;
            let offset = self.offset();
            let at = self.records();
            self.report(FormatError::TrailingData { offset }, at);
        }
        Ok(())
    }

    /// Takes block `k` of `n` records, found at `offset`.
    fn take(&mut self, k: u64, n: u32, offset: u64, moved: bool) {
        if n > self.per {
            // More records than the header allows: the header's R is wrong.
            self.per = n;
            self.per_mismatch = true;
        }
        // Two blocks of the same short count: that is R, and the header's is wrong.
        if let Some((ks, ns)) = self.short
            && k > ks
            && n == ns
            && n < self.per
        {
            self.per = n;
            self.per_mismatch = true;
            self.short = None;
        }
        if n < self.per && self.short.is_none_or(|(ks, _)| k > ks) {
            self.short = Some((k, n));
        }
        if moved {
            let part = self.part(k, n);
            self.report(FormatError::MovedBlock { part, offset }, self.first_of(k));
        }
        self.mark_emitted(k);
        self.last_first = self.first_of(k);
        self.max_k = Some(self.max_k.map_or(k, |max| max.max(k)));
        if !moved {
            self.seq_next = k + 1;
        }
        // Blocks taken out of place ahead of the sequence are not expected again.
        while self.is_emitted(self.seq_next) {
            self.seq_next += 1;
        }
    }

    /// Records what stood where the next block should have been (once per gap).
    fn note(&mut self, seen: Seen) {
        if self.expected_place {
            let (next, offset) = (self.seq_next, self.offset());
            // `seq_next` never decreases, so `seen` is sorted and a repeat can only be last.
            if self.seen.last().is_none_or(|&(k, _, _)| k != next) && self.seen.len() < MAX_REPORTS
            {
                self.seen.push((next, seen, offset));
            }
        }
    }

    fn note_trailer(&mut self, damage: Damage) {
        if self.expected_place && self.trailer_damage.is_none() {
            self.trailer_damage = Some(self.offset());
        }
        self.note(Seen::Damaged(damage));
    }

    /// At the end of the input: the lost ranges, the header checked against what was found.
    fn finish(&mut self) {
        self.done = true;
        let end_offset = self.offset();
        let per = u64::from(self.per);
        let mut lost = std::mem::take(&mut self.reports);
        if self.per_mismatch {
            lost.push(Lost {
                first: 0,
                end: Some(0),
                cause: FormatError::RecordsPerBlockMismatch {
                    stated: self.header.records_per_block,
                    found: self.per,
                },
            });
        }
        let found = self.records();
        // The end of the records, by the evidence of the trailer or of the last block.
        let mut trailer_total = None;
        if let Some((blocks, count, _)) = self.trailer {
            let agrees = blocks == count.div_ceil(per)
                && self.max_k.is_none_or(|k| k < blocks)
                && self.short.is_none_or(|(ks, ns)| {
                    ks + 1 == blocks && self.first_of(ks) + u64::from(ns) == count
                });
            if agrees {
                trailer_total = Some(count);
            } else {
                lost.push(Lost {
                    first: found.min(count),
                    end: Some(found.min(count)),
                    cause: FormatError::CountMismatch {
                        source_: "trailer",
                        stated: count,
                        found,
                    },
                });
            }
        }
        let last_block = self
            .short
            .filter(|&(ks, _)| Some(ks) == self.max_k)
            .map(|(ks, ns)| self.first_of(ks) + u64::from(ns));
        let evidence = trailer_total.or(last_block);
        let total = match (self.header.count, evidence) {
            (Some(stated), Some(count)) => {
                if stated != count {
                    lost.push(Lost {
                        first: count.min(stated),
                        end: Some(count.min(stated)),
                        cause: FormatError::CountMismatch {
                            source_: "header",
                            stated,
                            found: count,
                        },
                    });
                }
                Some(count)
            }
            (Some(stated), None) => {
                // No end found: the header's count stands if the blocks found fit in it and
                // a file of that many records could exist.
                let possible = self.header.file_bytes(stated) < u64::MAX;
                if stated >= found && possible {
                    Some(stated)
                } else {
                    lost.push(Lost {
                        first: found,
                        end: Some(found),
                        cause: FormatError::CountMismatch {
                            source_: "header",
                            stated,
                            found,
                        },
                    });
                    None
                }
            }
            (None, evidence) => evidence,
        };
        let blocks = match total {
            Some(total) => total.div_ceil(per),
            None => self.end_block(),
        };
        // The gaps: every block number below `blocks` not output.
        let mut start = 0;
        let mut gaps = Vec::new();
        for &(from, to) in &self.emitted {
            if from > start {
                gaps.push((start, from.min(blocks)));
            }
            start = to;
        }
        if start < blocks {
            gaps.push((start, blocks));
        }
        for (a, b) in gaps.into_iter().filter(|&(a, b)| a < b) {
            let first = self.first_of(a);
            let end = match total {
                Some(total) => self.first_of(b).min(total),
                None => self.first_of(b),
            };
            let at = self.seen.partition_point(|&(k, _, _)| k < a);
            let seen = self
                .seen
                .get(at)
                .filter(|&&(k, _, _)| k == a)
                .map(|&(_, s, _)| s);
            let part = Part::Block {
                index: a,
                first,
                end: self.first_of(a + 1).min(end),
            };
            let cause = match seen {
                Some(Seen::Truncated) => FormatError::Truncated {
                    offset: end_offset,
                    part,
                },
                Some(Seen::Damaged(damage)) if b == a + 1 => {
                    FormatError::DamagedBlock { part, damage }
                }
                _ => FormatError::MissingBlocks {
                    first_block: a,
                    end_block: b,
                    first,
                    end,
                },
            };
            lost.push(Lost {
                first,
                end: Some(end),
                cause,
            });
        }
        match total {
            None => {
                // The end was not found: whatever followed the last block found is unknown.
                let first = self.first_of(blocks);
                let cause = match self.trailer_damage {
                    Some(offset) => FormatError::DamagedTrailer { offset },
                    None => FormatError::Truncated {
                        offset: end_offset,
                        part: Part::Block {
                            index: blocks,
                            first,
                            end: first.saturating_add(per),
                        },
                    },
                };
                lost.push(Lost {
                    first,
                    end: None,
                    cause,
                });
            }
            Some(total) if self.trailer.is_none() => {
                let cause = match self.trailer_damage {
                    Some(offset) => FormatError::DamagedTrailer { offset },
                    None => FormatError::Truncated {
                        offset: end_offset,
                        part: Part::Trailer,
                    },
                };
                // Reported only when nothing else explains the missing end.
                if !lost.iter().any(|l| l.end == Some(total) && l.first < total) {
                    lost.push(Lost {
                        first: total,
                        end: Some(total),
                        cause,
                    });
                }
            }
            Some(_) => {}
        }
        if self.unlisted > 0 {
            lost.push(Lost {
                first: 0,
                end: Some(0),
                cause: FormatError::UnlistedReports {
                    count: self.unlisted,
                },
            });
        }
        lost.sort_by_key(|l| (l.first, l.end.is_none(), l.end));
        self.lost = lost;
    }
}
