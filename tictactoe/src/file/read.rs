//! [`Reader`]: streams the boards of a `.ttt` file, one checked block at a time.

use std::io::Read;

use super::lost::Lost;
use super::salvage::Salvage;
use super::{
    BLOCK_HEAD_BYTES, Damage, FileError, FormatError, HEADER_BYTES, Header, MAGIC, Part,
    TRAILER_BYTES, crc32c, read_full,
};
use crate::Board;

/// Reads a `.ttt` file block by block; memory is one block whatever the file size.
///
/// By default any damage is an error naming the block and its records. A salvaging reader
/// ([`salvage`](Self::salvage)) skips damaged blocks instead, returns every intact record and
/// lists what was lost in [`lost`](Self::lost).
///
/// ```
/// use tictactoe::{Board, file::{Reader, Writer, FormatError}, packed::Packing};
/// let mut writer = Writer::with_records_per_block(Vec::new(), Packing::Base3, 2)?;
/// writer.extend(&[Board::EMPTY; 5])?;
/// let mut bytes = writer.finish()?;
/// bytes[32 + 8] ^= 1; // a bit of block 0's payload
/// let error = Reader::new(&bytes[..])?.read_all().unwrap_err();
/// assert_eq!(error.to_string(), "block 0 (records 0 to 1) is damaged: checksum mismatch");
/// let mut reader = Reader::new(&bytes[..])?.salvage();
/// assert_eq!(reader.read_all_salvaged()?.len(), 3);
/// assert_eq!(reader.lost()[0].to_string(),
///     "records 0 to 1 lost (2): block 0 (records 0 to 1) is damaged: checksum mismatch");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Reader<R: Read> {
    inner: R,
    header: Header,
    salvage: bool,
    /// Bytes consumed so far.
    offset: u64,
    /// Blocks passed so far.
    block: u64,
    /// Records passed so far, lost ones included.
    records: u64,
    /// A block with fewer than R records was seen: the trailer must follow.
    after_partial: bool,
    done: bool,
    buffer: Vec<u8>,
    lost: Vec<Lost>,
    /// The state of a salvaging read.
    scan: Option<Box<Salvage>>,
    /// Size of the whole input, if the caller knows it.
    input_len: Option<u64>,
    /// The first record of the block last read.
    last_first: u64,
}

impl<R: Read> Reader<R> {
    /// Reads and checks the header.
    ///
    /// # Errors
    /// [`FileError`] when the header cannot be read or does not check out.
    pub fn new(mut inner: R) -> Result<Self, FileError> {
        let mut bytes = [0u8; HEADER_BYTES];
        let got = read_full(&mut inner, &mut bytes)?;
        if got < HEADER_BYTES {
            let seen = got.min(MAGIC.len());
            if bytes[..seen] != MAGIC[..seen] {
                let mut found = [0u8; 8];
                found[..seen].copy_from_slice(&bytes[..seen]);
                return Err(FormatError::WrongMagic { found }.into());
            }
            return Err(FormatError::Truncated {
                offset: got as u64,
                part: Part::Header,
            }
            .into());
        }
        let header = Header::from_bytes(&bytes)?;
        Ok(Reader {
            inner,
            header,
            salvage: false,
            offset: HEADER_BYTES as u64,
            block: 0,
            records: 0,
            after_partial: false,
            done: false,
            buffer: Vec::new(),
            lost: Vec::new(),
            scan: None,
            input_len: None,
            last_first: 0,
        })
    }

    /// Skips damage instead of failing: returns every intact block, wherever it sits, and
    /// lists what was lost (and what was out of place) in [`lost`](Self::lost) once the input
    /// is read to its end. See `docs/format.md`, "Salvage", for exactly what it guarantees.
    #[must_use]
    pub fn salvage(mut self) -> Self {
        self.salvage = true;
        if self.offset == HEADER_BYTES as u64 {
            self.scan = Some(Box::new(Salvage::new(self.header, self.input_len)));
        }
        self
    }

    /// Tells the reader the size of the whole input in bytes (header included), when known
    /// (a file, not a pipe). Salvage then also takes a block found far ahead of its place
    /// without waiting for the block after it to confirm it.
    #[must_use]
    pub fn input_len(mut self, len: u64) -> Self {
        self.input_len = Some(len);
        if self.scan.is_some() {
            self.scan = Some(Box::new(Salvage::new(self.header, Some(len))));
        }
        self
    }

    /// The file's header.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Records passed so far (lost ones included).
    #[must_use]
    pub fn records_read(&self) -> u64 {
        match &self.scan {
            Some(scan) => scan.records(),
            None => self.records,
        }
    }

    /// The first record of the block that the last [`read_block`](Self::read_block)
    /// returning `Ok(true)` appended: its place in the file's record order. A salvaging reader
    /// returns an intact block found out of place where it finds it, so its blocks may come
    /// out of order; this says where each belongs.
    #[must_use]
    pub fn block_first_record(&self) -> u64 {
        match &self.scan {
            Some(scan) => scan.last_first,
            None => self.last_first,
        }
    }

    /// What a salvaging reader lost (and found out of place), complete once
    /// [`read_block`](Self::read_block) has returned `Ok(false)`: a block missing from its
    /// place may still turn up later in the file, so losses are only known at the end.
    #[must_use]
    pub fn lost(&self) -> &[Lost] {
        &self.lost
    }

    /// Appends the next intact block's boards to `out`; `Ok(false)` once the trailer has been
    /// read and checked.
    ///
    /// # Errors
    /// [`FileError`] for an I/O error or a damaged block or trailer (a salvaging reader skips damaged blocks instead).
    pub fn read_block(&mut self, out: &mut Vec<Board>) -> Result<bool, FileError> {
        if let Some(scan) = &mut self.scan {
            while !scan.done {
                if scan.step(&mut self.inner, out)? {
                    return Ok(true);
                }
            }
            if !self.done {
                self.done = true;
                self.lost = std::mem::take(&mut scan.lost);
            }
            return Ok(false);
        }
        while !self.done {
            if self.next_block(out)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Every record, or the first error.
    ///
    /// # Errors
    /// The first [`FileError`] of [`read_block`](Self::read_block).
    pub fn read_all(mut self) -> Result<Vec<Board>, FileError> {
        let mut out = Vec::new();
        while self.read_block(&mut out)? {}
        Ok(out)
    }

    /// Every intact record (for a salvaging reader; see [`lost`](Self::lost) afterwards).
    ///
    /// # Errors
    /// [`FileError`] only for what salvage cannot skip (an I/O error).
    pub fn read_all_salvaged(&mut self) -> Result<Vec<Board>, FileError> {
        let mut out = Vec::new();
        while self.read_block(&mut out)? {}
        Ok(out)
    }

    /// Fails, or (salvaging) records the loss and goes on.
    fn damage(&mut self, lost: Lost) -> Result<(), FileError> {
        if self.salvage {
            self.lost.push(lost);
            Ok(())
        } else {
            Err(lost.cause.into())
        }
    }

    /// Reads exactly `len` bytes into the buffer, or reports how far the file went.
    fn fill(&mut self, len: usize) -> Result<Option<u64>, FileError> {
        self.buffer.resize(len, 0);
        let got = read_full(&mut self.inner, &mut self.buffer)?;
        self.offset += got as u64;
        Ok((got < len).then_some(self.offset))
    }

    /// The file ended early, inside `part`.
    fn truncated(&mut self, offset: u64, part: Part) -> Result<bool, FileError> {
        self.done = true;
        let cause = FormatError::Truncated { offset, part };
        let end = self.header.count.filter(|&count| count >= self.records);
        self.damage(Lost {
            first: self.records,
            end,
            cause,
        })?;
        Ok(false)
    }

    /// One step: a block (true if it was intact and appended), or the trailer.
    fn next_block(&mut self, out: &mut Vec<Board>) -> Result<bool, FileError> {
        let per = self.header.records_per_block;
        let expected: Option<u32> = match self.header.count {
            Some(count) => Some(count.saturating_sub(self.records).min(u64::from(per)) as u32),
            None if self.after_partial => Some(0),
            None => None,
        };
        let head_offset = self.offset;
        if let Some(offset) = self.fill(BLOCK_HEAD_BYTES)? {
            let part = match expected {
                Some(0) => Part::Trailer,
                _ => self.part(expected.unwrap_or(per)),
            };
            return self.truncated(offset, part);
        }
        let n = u32::from_le_bytes(self.buffer[..4].try_into().unwrap_or_default());
        let stored = u32::from_le_bytes(self.buffer[4..8].try_into().unwrap_or_default());
        if expected == Some(0) || (expected.is_none() && n == 0) {
            return self.trailer(n, stored, head_offset);
        }
        let size = expected.unwrap_or(if (1..=per).contains(&n) { n } else { per });
        let part = self.part(size);
        let payload_len = self.header.packing.bytes_for(size as usize);
        if let Some(offset) = self.fill(payload_len)? {
            return self.truncated(offset, part);
        }
        let (first, end) = (self.records, self.records + u64::from(size));
        self.last_first = first;
        let index = self.block;
        self.block += 1;
        self.records = end;
        self.after_partial = size < per;
        let damage = if n != size {
            if self.header_count_is_wrong(index, n, stored, size)? {
                let cause = FormatError::CountMismatch {
                    source_: "header",
                    stated: self.header.count.unwrap_or_default(),
                    found: first + u64::from(n),
                };
                self.done = true;
                self.damage(Lost {
                    first,
                    end: self.header.count,
                    cause,
                })?;
                return Ok(false);
            }
            Some(Damage::RecordCount { found: n })
        } else if self.header.block_crc(index, n, &self.buffer) != stored {
            Some(Damage::Checksum)
        } else {
            let before = out.len();
            match self.header.packing.decode(&self.buffer, size as usize, out) {
                Ok(()) => None,
                Err(error) => {
                    out.truncate(before);
                    Some(Damage::Code(error))
                }
            }
        };
        match damage {
            None => Ok(true),
            Some(damage) => {
                let cause = FormatError::DamagedBlock { part, damage };
                self.damage(Lost {
                    first,
                    end: Some(end),
                    cause,
                })?;
                Ok(false)
            }
        }
    }

    /// Whether a block whose head disagrees with the header's count is intact as its head says
    /// (then the header is what is wrong). Reads the rest of a longer block if need be.
    fn header_count_is_wrong(
        &mut self,
        index: u64,
        n: u32,
        stored: u32,
        size: u32,
    ) -> Result<bool, FileError> {
        if self.header.count.is_none() || !(1..=self.header.records_per_block).contains(&n) {
            return Ok(false);
        }
        let need = self.header.packing.bytes_for(n as usize);
        let have = self.buffer.len();
        if need > have {
            let mut more = vec![0u8; need - have];
            let got = read_full(&mut self.inner, &mut more)?;
            self.offset += got as u64;
            if got < more.len() {
                return Ok(false);
            }
            self.buffer.extend_from_slice(&more);
        }
        debug_assert_ne!(n, size);
        let crc = self.header.block_crc(index, n, &self.buffer[..need]);
        Ok(crc == stored)
    }

    /// The part for the next block, holding `size` records.
    fn part(&self, size: u32) -> Part {
        Part::Block {
            index: self.block,
            first: self.records,
            end: self.records + u64::from(size),
        }
    }

    /// Checks the trailer (its head is in the buffer) and that nothing follows it.
    fn trailer(&mut self, n: u32, stored: u32, offset: u64) -> Result<bool, FileError> {
        let head: [u8; 4] = n.to_le_bytes();
        if let Some(end) = self.fill(TRAILER_BYTES - BLOCK_HEAD_BYTES)? {
            return self.truncated(end, Part::Trailer);
        }
        self.done = true;
        let count_bytes: [u8; 8] = self.buffer[..8].try_into().unwrap_or_default();
        let count = u64::from_le_bytes(count_bytes);
        let crc = crc32c(&[&self.block.to_le_bytes(), &head, &count_bytes]);
        let records = self.records;
        let lost = move |cause| Lost {
            first: records,
            end: Some(records),
            cause,
        };
        if n != 0 || crc != stored {
            let cause = FormatError::DamagedTrailer { offset };
            self.damage(lost(cause))?;
            return Ok(false);
        }
        if let Some(stated) = self.header.count.filter(|&stated| stated != count) {
            let cause = FormatError::CountMismatch {
                source_: "header",
                stated,
                found: count,
            };
            self.damage(lost(cause))?;
        } else if count != self.records {
            let cause = FormatError::CountMismatch {
                source_: "trailer",
                stated: count,
                found: self.records,
            };
            self.damage(Lost {
                first: self.records.min(count),
                end: Some(self.records.max(count)),
                cause,
            })?;
        }
        let mut extra = [0u8; 1];
        if read_full(&mut self.inner, &mut extra)? > 0 {
            let cause = FormatError::TrailingData {
                offset: self.offset,
            };
            self.damage(lost(cause))?;
        }
        Ok(false)
    }
}

/// The record count in the trailer of a complete file, read from its end and checked (for a
/// file written as a stream, whose header does not hold the count).
///
/// # Errors
/// [`FileError`] for an I/O error or a trailer that is missing or damaged.
pub fn trailer_count<R: Read + std::io::Seek>(
    input: &mut R,
    header: &Header,
) -> Result<u64, FileError> {
    let (_, offset, bytes) = last_bytes(input)?;
    let count_bytes: [u8; 8] = bytes[8..].try_into().unwrap_or_default();
    let count = u64::from_le_bytes(count_bytes);
    let stored = u32::from_le_bytes(bytes[4..8].try_into().unwrap_or_default());
    let blocks = header.blocks_for(count).to_le_bytes();
    if bytes[..4] != [0; 4] || crc32c(&[&blocks, &bytes[..4], &count_bytes]) != stored {
        return Err(FormatError::DamagedTrailer { offset }.into());
    }
    Ok(count)
}

/// Checks a header against the file it heads, without reading every block: the trailer at
/// the end (found by its own checksum, whatever the header says), the first block, and the
/// file's size. Returns the record count. An error names the field that the file
/// contradicts (a forged or corrupted header whose checksum still matches) or the damage
/// found (`ttt info` uses this; `ttt info --verify` then reads every block).
///
/// # Errors
/// [`FileError`] for an I/O error, a missing or damaged trailer or first block, or a header
/// field the file contradicts (count, records per block, size).
pub fn check_layout<R: Read + std::io::Seek>(
    input: &mut R,
    header: &Header,
) -> Result<u64, FileError> {
    use std::io::SeekFrom;
    // The trailer, by its checksum alone: the block count it was written with.
    let (size, offset, bytes) = last_bytes(input)?;
    let count_bytes: [u8; 8] = bytes[8..].try_into().unwrap_or_default();
    let count = u64::from_le_bytes(count_bytes);
    let stored = u32::from_le_bytes(bytes[4..8].try_into().unwrap_or_default());
    let zero = crc32c(&[&0u64.to_le_bytes(), &bytes[..4], &count_bytes]);
    let blocks = u64::from(super::solve::NumberSolver::new(12).solve(stored ^ zero));
    let per = u64::from(header.records_per_block);
    // The first block: its count is R when there is more than one block.
    let mut first = None;
    if blocks > 0 {
        input.seek(SeekFrom::Start(HEADER_BYTES as u64))?;
        let mut head = [0u8; BLOCK_HEAD_BYTES];
        if read_full(input, &mut head)? == BLOCK_HEAD_BYTES {
            let n = u32::from_le_bytes(head[..4].try_into().unwrap_or_default());
            let stored = u32::from_le_bytes(head[4..].try_into().unwrap_or_default());
            if (1..=Header::max_records_per_block(header.packing)).contains(&n) {
                let mut payload = vec![0u8; header.packing.bytes_for(n as usize)];
                if read_full(input, &mut payload)? == payload.len()
                    && header.block_crc(0, n, &payload) == stored
                {
                    first = Some(u64::from(n));
                }
            }
        }
    }
    let trailer_ok = bytes[..4] == [0; 4] && blocks < 1 << 32;
    let per_found = match first {
        Some(n) if blocks > 1 || n > per => n,
        _ => per,
    };
    if !trailer_ok || blocks != count.div_ceil(per_found.max(1)) {
        return Err(FormatError::DamagedTrailer { offset }.into());
    }
    if per_found != per {
        return Err(FormatError::RecordsPerBlockMismatch {
            stated: header.records_per_block,
            found: u32::try_from(per_found).unwrap_or(u32::MAX),
        }
        .into());
    }
    if let Some(stated) = header.count.filter(|&stated| stated != count) {
        return Err(FormatError::CountMismatch {
            source_: "header",
            stated,
            found: count,
        }
        .into());
    }
    let expected = header.file_bytes(count);
    if expected != size {
        return Err(FormatError::SizeMismatch {
            count,
            expected,
            found: size,
        }
        .into());
    }
    if blocks > 0 && first.is_none() {
        let part = Part::Block {
            index: 0,
            first: 0,
            end: count.min(per),
        };
        return Err(FormatError::DamagedBlock {
            part,
            damage: Damage::Checksum,
        }
        .into());
    }
    Ok(count)
}

/// The file's size, and the offset and bytes of the trailer's place (its last 16 bytes).
fn last_bytes<R: Read + std::io::Seek>(
    input: &mut R,
) -> Result<(u64, u64, [u8; TRAILER_BYTES]), FileError> {
    let size = input.seek(std::io::SeekFrom::End(0))?;
    if size < (HEADER_BYTES + TRAILER_BYTES) as u64 {
        return Err(FormatError::Truncated {
            offset: size,
            part: Part::Trailer,
        }
        .into());
    }
    let offset = size - TRAILER_BYTES as u64;
    input.seek(std::io::SeekFrom::Start(offset))?;
    let mut bytes = [0u8; TRAILER_BYTES];
    input.read_exact(&mut bytes)?;
    Ok((size, offset, bytes))
}
