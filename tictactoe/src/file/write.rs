//! [`Writer`]: streams boards into a `.ttt` file, one block at a time.

use std::io::{Seek, SeekFrom, Write};

use super::{BLOCK_HEAD_BYTES, FileError, FormatError, HEADER_BYTES, Header, VERSION, crc32c};
use crate::Board;
use crate::packed::{PackError, Packing};

/// Writes a `.ttt` file block by block: memory is one block whatever the number of records.
///
/// The header goes out first with the count unknown; [`finish`](Self::finish) writes the last
/// block and the trailer (which holds the count), and
/// [`finish_seekable`](Self::finish_seekable) also rewrites the header with the count.
///
/// ```
/// use tictactoe::{Board, file::Writer, packed::Packing};
/// let mut writer = Writer::new(Vec::new(), Packing::Rank)?;
/// writer.push(Board::EMPTY)?;
/// assert!(writer.push("XXX/XXX/XXX".parse()?).is_err()); // not reachable: not written
/// assert_eq!(writer.count(), 1);
/// let bytes = writer.finish()?;
/// assert_eq!(bytes.len(), 32 + 8 + 2 + 16);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Writer<W: Write> {
    inner: W,
    header: Header,
    /// The codes of the records of the block being filled, each computed once.
    pending: Vec<u32>,
    payload: Vec<u8>,
    blocks: u64,
    count: u64,
}

impl<W: Write> Writer<W> {
    /// Starts a file with the default block size for `packing` (as large as fits 64 KiB).
    ///
    /// # Errors
    /// [`FileError`] when the header cannot be written.
    pub fn new(inner: W, packing: Packing) -> Result<Self, FileError> {
        Self::with_records_per_block(inner, packing, Header::default_records_per_block(packing))
    }

    /// Starts a file with `records` records per block (small blocks are for tests).
    ///
    /// # Errors
    /// [`FileError`] for a block size of 0 or too large, or when the header cannot be written.
    pub fn with_records_per_block(
        mut inner: W,
        packing: Packing,
        records: u32,
    ) -> Result<Self, FileError> {
        let max = Header::max_records_per_block(packing);
        if records == 0 || records > max {
            return Err(FormatError::BlockTooLarge { records, max }.into());
        }
        let header = Header {
            version: VERSION,
            packing,
            records_per_block: records,
            count: None,
        };
        inner.write_all(&header.to_bytes())?;
        Ok(Writer {
            inner,
            header,
            pending: Vec::with_capacity(records as usize),
            payload: Vec::with_capacity(packing.bytes_for(records as usize)),
            blocks: 0,
            count: 0,
        })
    }

    /// The header as written so far (count unknown).
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Records accepted so far.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Appends a board, or refuses one the packing cannot hold (nothing is written then).
    ///
    /// # Errors
    /// [`PackError::Unencodable`] for a board the packing cannot hold; [`FileError`] for an I/O error.
    pub fn push(&mut self, board: Board) -> Result<(), FileError> {
        let packing = self.header.packing;
        let Some(code) = packing.code(board) else {
            return Err(PackError::Unencodable {
                encoding: packing.kind(),
                board,
                index: self.index(),
            }
            .into());
        };
        self.append(code)
    }

    /// Appends a record by its code in the packing's encoding ([`Packing::code`]: the rank for
    /// mixed radix), or refuses a code the packing does not store (nothing is written then).
    /// For a caller that has the codes already, from a table say, this skips the encoding.
    ///
    /// ```
    /// use tictactoe::{Board, file::Writer, packed::Packing};
    /// let mut writer = Writer::new(Vec::new(), Packing::MixedRadix)?;
    /// writer.push_code(5_477)?;
    /// assert!(writer.push_code(5_478).is_err()); // ranks stop at 5,477: not written
    /// let mut same = Writer::new(Vec::new(), Packing::MixedRadix)?;
    /// same.push(tictactoe::encoding::Rank::try_from_code(5_477)?.to_board())?;
    /// assert_eq!(writer.finish()?, same.finish()?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`PackError::InvalidCode`] for a code the packing does not store; [`FileError`] for an
    /// I/O error.
    #[inline]
    pub fn push_code(&mut self, code: u32) -> Result<(), FileError> {
        let packing = self.header.packing;
        // The table check first; the decoder, which says why, only for a code it refuses (the
        // two agree on every code: `fast_paths_match_every_encoding_on_every_grid_and_code`).
        if !packing.is_code(code)
            && let Err(error) = packing.kind().decode(code)
        {
            return Err(PackError::InvalidCode {
                index: self.index(),
                error,
            }
            .into());
        }
        self.append(code)
    }

    /// The index the next record takes, for errors.
    fn index(&self) -> usize {
        usize::try_from(self.count).unwrap_or(usize::MAX)
    }

    #[inline]
    fn append(&mut self, code: u32) -> Result<(), FileError> {
        self.pending.push(code);
        self.count += 1;
        if self.pending.len() == self.header.records_per_block as usize {
            self.write_block()?;
        }
        Ok(())
    }

    /// Appends boards, stopping at the first the packing cannot hold.
    ///
    /// # Errors
    /// As [`push`](Self::push), at the first board that fails.
    pub fn extend(&mut self, boards: &[Board]) -> Result<(), FileError> {
        boards.iter().try_for_each(|&board| self.push(board))
    }

    fn write_block(&mut self) -> Result<(), FileError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.payload.clear();
        self.header
            .packing
            .encode_codes(&self.pending, &mut self.payload);
        let n = self.pending.len() as u32;
        let crc = self.header.block_crc(self.blocks, n, &self.payload);
        let mut head = [0u8; BLOCK_HEAD_BYTES];
        head[..4].copy_from_slice(&n.to_le_bytes());
        head[4..].copy_from_slice(&crc.to_le_bytes());
        self.inner.write_all(&head)?;
        self.inner.write_all(&self.payload)?;
        self.blocks += 1;
        self.pending.clear();
        Ok(())
    }

    /// Writes the last block and the trailer, flushes, and hands back the output.
    ///
    /// # Errors
    /// [`FileError`] for an I/O error.
    pub fn finish(mut self) -> Result<W, FileError> {
        self.write_tail()?;
        Ok(self.inner)
    }

    fn write_tail(&mut self) -> Result<(), FileError> {
        self.write_block()?;
        let zero = 0u32.to_le_bytes();
        let count = self.count.to_le_bytes();
        let crc = crc32c(&[&self.blocks.to_le_bytes(), &zero, &count]);
        let mut trailer = [0u8; super::TRAILER_BYTES];
        trailer[4..8].copy_from_slice(&crc.to_le_bytes());
        trailer[8..].copy_from_slice(&count);
        self.inner.write_all(&trailer)?;
        self.inner.flush()?;
        Ok(())
    }
}

impl<W: Write + Seek> Writer<W> {
    /// As [`finish`](Self::finish), then rewrites the header with the record count.
    ///
    /// # Errors
    /// [`FileError`] for an I/O error.
    pub fn finish_seekable(mut self) -> Result<W, FileError> {
        self.write_tail()?;
        let header = Header {
            count: Some(self.count),
            ..self.header
        };
        let end = self.inner.stream_position()?;
        self.inner.seek(SeekFrom::Start(0))?;
        self.inner.write_all(&header.to_bytes())?;
        self.inner.seek(SeekFrom::Start(end))?;
        self.inner.flush()?;
        debug_assert!(end >= HEADER_BYTES as u64);
        Ok(self.inner)
    }
}
