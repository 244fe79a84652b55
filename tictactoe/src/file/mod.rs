//! The `.ttt` file format: packed positions in checksummed blocks (needs the `std` feature).
//!
//! The full specification is `docs/format.md`; in short (all integers little-endian):
//!
//! | part | bytes | content |
//! |---|---|---|
//! | header | 32 | magic `89 54 54 54 0D 0A 1A 0A`, version `u16` = 2, [`Packing`] id `u8`, flags `u8` = 0, records per block `u32`, record count `u64` (`u64::MAX` if not known when written), reserved `u32` = 0, CRC-32C of bytes `0..28` |
//! | block `k` | 8 + payload, at most 65,536 | records `n` (`u32`, 1 to R), CRC-32C of (header bytes `8..12`: version, packing id, flags; `k` as `u64`; `n`; payload), payload = `n` positions packed as in [`packed`](crate::packed) |
//! | trailer | 16 | `0u32`, CRC-32C of (number of blocks as `u64`, `0u32`, count), record count `u64` |
//!
//! Every block but the last holds exactly R records, so block `k` holds records
//! `k R .. k R + n`, and a damaged block is located and named with its record range. The
//! trailer makes a file written as a stream (count unknown at the start) self-terminating and
//! catches truncation at a block boundary; a file written with [`Writer::finish_seekable`]
//! also has the count in its header.
//!
//! ```
//! use tictactoe::{Board, file::{Reader, Writer}, packed::Packing};
//!
//! let boards = vec![Board::EMPTY, "X.O/..O/.X.".parse()?];
//! let mut writer = Writer::new(Vec::new(), Packing::MixedRadix)?;
//! writer.extend(&boards)?;
//! let bytes = writer.finish()?;
//! assert_eq!(bytes.len(), 32 + 8 + 8 + 16);
//! let read = Reader::new(&bytes[..])?.read_all()?;
//! assert_eq!(read, boards);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod atomic;
mod lost;
mod read;
mod salvage;
mod solve;
mod write;

use std::fmt;
use std::io::{ErrorKind, Read};

pub use atomic::AtomicFile;
pub use lost::Lost;
pub use read::{Reader, check_layout, trailer_count};
pub use write::Writer;

use crate::packed::{PackError, Packing};

/// The first eight bytes of every `.ttt` file (PNG-style: a high byte, the name, CR LF, ^Z, LF,
/// so text-mode transfers and truncated copies show).
pub const MAGIC: [u8; 8] = *b"\x89TTT\r\n\x1a\n";
/// The format version this crate writes (it also reads [`OLDEST_VERSION`] and every version
/// between).
///
/// Version 2 binds every block to its header: a block's checksum starts with the header's
/// version, encoding id and flags, so a header whose encoding is changed (its own checksum
/// recomputed) makes every block fail its check instead of decoding as other boards.
pub const VERSION: u16 = 2;
/// The oldest format version this crate reads (version 1: block checksums that do not cover
/// the header).
pub const OLDEST_VERSION: u16 = 1;
/// Bytes in the header.
pub const HEADER_BYTES: usize = 32;
/// Bytes before each block's payload: record count and CRC.
pub const BLOCK_HEAD_BYTES: usize = 8;
/// Bytes in the trailer.
pub const TRAILER_BYTES: usize = 16;
/// Largest block, head included: 64 KiB.
pub const MAX_BLOCK_BYTES: usize = 65_536;
/// The record count stored in the header of a file written as a stream.
const COUNT_UNKNOWN: u64 = u64::MAX;

/// CRC-32C (Castagnoli, the iSCSI polynomial), slice-by-16.
const CRC32C: crc::Crc<u32, crc::Table<16>> =
    crc::Crc::<u32, crc::Table<16>>::new(&crc::CRC_32_ISCSI);

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(inner: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match inner.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}

/// CRC-32C of the parts, in order.
fn crc32c(parts: &[&[u8]]) -> u32 {
    let mut digest = CRC32C.digest();
    for part in parts {
        digest.update(part);
    }
    digest.finalize()
}

/// The header of a `.ttt` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Format version.
    pub version: u16,
    /// How positions are packed.
    pub packing: Packing,
    /// Records in every block but the last.
    pub records_per_block: u32,
    /// Record count, if known when the header was written.
    pub count: Option<u64>,
}

impl Header {
    /// The largest number of records per block that keeps a block within 64 KiB, rounded down
    /// to whole chunks (64 positions for fixed widths, one word for mixed radix).
    #[must_use]
    pub fn default_records_per_block(packing: Packing) -> u32 {
        let chunk = match packing {
            Packing::MixedRadix => 5,
            _ => 64,
        };
        let mut records = Self::max_records_per_block(packing);
        records -= records % chunk;
        records
    }

    /// The largest number of records whose block fits in 64 KiB.
    #[must_use]
    pub fn max_records_per_block(packing: Packing) -> u32 {
        let room = MAX_BLOCK_BYTES - BLOCK_HEAD_BYTES;
        let (bits, per) = packing.bits_per_position();
        let mut records = (room as u64 * 8 * u64::from(per) / u64::from(bits)) as u32;
        while packing.bytes_for(records as usize) > room {
            records -= 1;
        }
        records
    }

    /// The 32 header bytes.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; HEADER_BYTES] {
        let mut bytes = [0u8; HEADER_BYTES];
        bytes[..8].copy_from_slice(&MAGIC);
        bytes[8..10].copy_from_slice(&self.version.to_le_bytes());
        bytes[10] = self.packing.id();
        bytes[12..16].copy_from_slice(&self.records_per_block.to_le_bytes());
        let count = self.count.unwrap_or(COUNT_UNKNOWN);
        bytes[16..24].copy_from_slice(&count.to_le_bytes());
        let crc = crc32c(&[&bytes[..28]]);
        bytes[28..].copy_from_slice(&crc.to_le_bytes());
        bytes
    }

    /// Parses and checks a header: magic, then version, then checksum, then fields.
    ///
    /// # Errors
    /// [`FormatError`] for the first check that fails, in that order.
    pub fn from_bytes(bytes: &[u8; HEADER_BYTES]) -> Result<Header, FormatError> {
        let magic: [u8; 8] = bytes[..8].try_into().unwrap_or_default();
        if magic != MAGIC {
            return Err(FormatError::WrongMagic { found: magic });
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if !(OLDEST_VERSION..=VERSION).contains(&version) {
            return Err(FormatError::UnknownVersion { version });
        }
        let stored = u32::from_le_bytes(bytes[28..].try_into().unwrap_or_default());
        if crc32c(&[&bytes[..28]]) != stored {
            return Err(FormatError::HeaderChecksum);
        }
        let packing =
            Packing::from_id(bytes[10]).ok_or(FormatError::UnknownPacking { id: bytes[10] })?;
        if bytes[11] != 0 || bytes[24..28] != [0; 4] {
            return Err(FormatError::ReservedNotZero);
        }
        let records_per_block = u32::from_le_bytes(bytes[12..16].try_into().unwrap_or_default());
        if records_per_block == 0 || records_per_block > Self::max_records_per_block(packing) {
            return Err(FormatError::BadRecordsPerBlock {
                records: records_per_block,
                max: Self::max_records_per_block(packing),
            });
        }
        let count = u64::from_le_bytes(bytes[16..24].try_into().unwrap_or_default());
        Ok(Header {
            version,
            packing,
            records_per_block,
            count: (count != COUNT_UNKNOWN).then_some(count),
        })
    }

    /// The checksum of block `index` holding `n` records packed as `payload`. From version 2 it
    /// covers the header's version, encoding id and flags (bytes `8..12`) first, so a block
    /// read under another header's encoding fails its check; version 1 covered only the block.
    /// The block number comes right after that prefix, at the same distance from the end of
    /// the message in both versions, so salvage solves it the same way.
    #[must_use]
    pub fn block_crc(&self, index: u64, n: u32, payload: &[u8]) -> u32 {
        let n = n.to_le_bytes();
        let index = index.to_le_bytes();
        if self.version >= 2 {
            let mut prefix = [0u8; 4];
            prefix[..2].copy_from_slice(&self.version.to_le_bytes());
            prefix[2] = self.packing.id();
            crc32c(&[&prefix, &index, &n, payload])
        } else {
            crc32c(&[&index, &n, payload])
        }
    }

    /// Blocks that `count` records take.
    #[must_use]
    pub fn blocks_for(&self, count: u64) -> u64 {
        match self.records_per_block {
            // Only a header built by hand has no records per block: no count fits it.
            0 if count > 0 => u64::MAX,
            0 => 0,
            per => count.div_ceil(u64::from(per)),
        }
    }

    /// The size of a complete file of `count` records.
    #[must_use]
    pub fn file_bytes(&self, count: u64) -> u64 {
        let per = u64::from(self.records_per_block);
        let Some((full, rest)) = count.checked_div(per).zip(count.checked_rem(per)) else {
            // Only a header built by hand has no records per block.
            return if count == 0 {
                (HEADER_BYTES + TRAILER_BYTES) as u64
            } else {
                u64::MAX
            };
        };
        let block = |n: u64| (BLOCK_HEAD_BYTES + self.packing.bytes_for(n as usize)) as u64;
        let last = if rest > 0 { block(rest) } else { 0 };
        // Saturating: a forged header may claim any count.
        full.saturating_mul(block(per))
            .saturating_add(last)
            .saturating_add((HEADER_BYTES + TRAILER_BYTES) as u64)
    }
}

/// Where in a file something went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The 32-byte header.
    Header,
    /// Block `index`, which holds (or should hold) records `first..end`.
    Block {
        /// Block number, from 0.
        index: u64,
        /// First record of the block.
        first: u64,
        /// One past its last record.
        end: u64,
    },
    /// The trailer after the last block.
    Trailer,
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Part::Header => f.write_str("the header"),
            Part::Block { index, first, end } => write!(
                f,
                "block {index} (records {first} to {})",
                end.saturating_sub(1)
            ),
            Part::Trailer => f.write_str("the trailer"),
        }
    }
}

/// What is wrong with a damaged block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damage {
    /// The CRC-32C does not match.
    Checksum,
    /// The record count in the block head is not what the layout requires.
    RecordCount {
        /// The count found.
        found: u32,
    },
    /// The checksum matches but a code does not decode (a writer bug or a forged file).
    Code(PackError),
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Damage::Checksum => f.write_str("checksum mismatch"),
            Damage::RecordCount { found } => write!(f, "bad record count {found} in block head"),
            Damage::Code(error) => write!(f, "bad code: {error}"),
        }
    }
}

/// A `.ttt` file that is not well formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// The file does not start with [`MAGIC`].
    #[error("not a .ttt file (wrong magic b\"{}\")", found.escape_ascii())]
    WrongMagic {
        /// The first eight bytes.
        found: [u8; 8],
    },
    /// A format version this build does not read.
    #[error("unknown format version {version} (this build reads versions 1 and 2)")]
    UnknownVersion {
        /// The version in the header.
        version: u16,
    },
    /// The header's CRC-32C does not match.
    #[error("the header is damaged (checksum mismatch)")]
    HeaderChecksum,
    /// A packing id (the header's encoding byte) that names no [`Packing`].
    #[error("unknown encoding id {id} in the header")]
    UnknownPacking {
        /// The id.
        id: u8,
    },
    /// Flags or reserved bytes that are not zero.
    #[error("reserved header bytes are not zero")]
    ReservedNotZero,
    /// Records per block of zero, or too many for a 64 KiB block.
    #[error("{records} records per block is not between 1 and {max}")]
    BadRecordsPerBlock {
        /// The value in the header.
        records: u32,
        /// The largest that fits the packing.
        max: u32,
    },
    /// The file ends early.
    #[error("the file is truncated at byte {offset}, in {part}")]
    Truncated {
        /// File size.
        offset: u64,
        /// The part that is cut short or missing.
        part: Part,
    },
    /// A block fails its check.
    #[error("{part} is damaged: {damage}")]
    DamagedBlock {
        /// The block and its records.
        part: Part,
        /// What is wrong.
        damage: Damage,
    },
    /// The trailer fails its checksum, or is not where the layout puts it.
    #[error("the trailer is damaged (at byte {offset})")]
    DamagedTrailer {
        /// Where the trailer starts.
        offset: u64,
    },
    /// The header or trailer count differs from the records in the blocks.
    #[error("record count does not match: the {source_} says {stated}, the file holds {found}")]
    CountMismatch {
        /// `header` or `trailer`.
        source_: &'static str,
        /// The stated count.
        stated: u64,
        /// The records found.
        found: u64,
    },
    /// Bytes after the trailer.
    #[error("unexpected data after the trailer at byte {offset}")]
    TrailingData {
        /// Where the extra data starts.
        offset: u64,
    },
    /// Salvage found an intact block out of sequence (moved), and output it there.
    #[error("{part} was out of place, at byte {offset}; its records were output there")]
    MovedBlock {
        /// The block and its records.
        part: Part,
        /// Where it was found.
        offset: u64,
    },
    /// Salvage found another copy of a block it had already output, and skipped it.
    #[error("{part} appears again at byte {offset} (a duplicate, skipped)")]
    DuplicateBlock {
        /// The block and its records.
        part: Part,
        /// Where the copy was found.
        offset: u64,
    },
    /// Blocks that salvage found nowhere intact (damaged beyond recognition, or dropped).
    #[error(
        "{} (records {first} to {}) {}",
        blocks_text(*first_block, *end_block),
        end.saturating_sub(1),
        if *end_block > first_block + 1 { "are missing or damaged" } else { "is missing or damaged" }
    )]
    MissingBlocks {
        /// The first block number.
        first_block: u64,
        /// One past the last.
        end_block: u64,
        /// The first record of the first block.
        first: u64,
        /// One past the last record of the last block.
        end: u64,
    },
    /// The header's records per block contradicts the blocks (whose checksums match).
    #[error("the header says {stated} records per block, but the blocks hold {found}")]
    RecordsPerBlockMismatch {
        /// The header's value.
        stated: u32,
        /// What the blocks show.
        found: u32,
    },
    /// The file's size is not what its record count requires (blocks missing or added).
    #[error("{count} records take {expected} bytes, but the file has {found}")]
    SizeMismatch {
        /// The record count (from the trailer).
        count: u64,
        /// The size the layout requires.
        expected: u64,
        /// The file's size.
        found: u64,
    },
    /// Salvage skipped bytes that belong to no block, where no block is missing.
    #[error("{len} bytes at byte {offset} belong to no block (skipped)")]
    SkippedData {
        /// Where they start.
        offset: u64,
        /// How many.
        len: u64,
    },
    /// More reports of moved and duplicated blocks than salvage lists.
    #[error("{count} more moved or duplicated blocks (not listed)")]
    UnlistedReports {
        /// How many were not listed.
        count: u64,
    },
    /// Records per block for a writer that does not fit a 64 KiB block.
    #[error("cannot write {records} records per block (at most {max} fit in 64 KiB)")]
    BlockTooLarge {
        /// Requested.
        records: u32,
        /// Largest possible.
        max: u32,
    },
}

/// "block 3" or "blocks 3 to 5".
fn blocks_text(first: u64, end: u64) -> String {
    if end > first + 1 {
        format!("blocks {first} to {}", end - 1)
    } else {
        format!("block {first}")
    }
}

/// Any failure reading or writing a `.ttt` file.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The operating system failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The file is not well formed.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// A board the file's packing cannot hold.
    #[error(transparent)]
    Pack(#[from] PackError),
}

impl FileError {
    /// The format error, if that is what this is.
    #[must_use]
    pub fn format(&self) -> Option<FormatError> {
        match self {
            FileError::Format(error) => Some(*error),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
