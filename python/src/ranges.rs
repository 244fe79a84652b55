//! `.ttt` files read by block range, for engines that split one file among workers (Spark's
//! executors each read their own blocks): every block but the last holds R records and has the
//! same size, so block `k` starts at a computed offset, and a range is read without reading
//! what comes before it. Each block is checked as the library's `Reader` checks it: its record
//! count, its checksum (`Header::block_crc`, which covers the block number, so a block read at
//! the wrong place fails) and its codes.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use numpy::PyArray1;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use tictactoe::Board;
use tictactoe::encoding::Base3;
use tictactoe::file::{BLOCK_HEAD_BYTES, FileError, HEADER_BYTES, Header, Reader, check_layout};

/// A `ValueError` (or `OSError` for the operating system) naming the file.
fn error(path: &Path, error: FileError) -> PyErr {
    let message = format!("{}: {error}", path.display());
    match error {
        FileError::Io(_) => PyOSError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// The header and the record count (checked against the trailer and the file size by the
/// library's `check_layout`) of an open file.
fn layout(path: &Path, file: &mut File) -> PyResult<(Header, u64)> {
    let header = *Reader::new(&mut *file)
        .map_err(|e| error(path, e))?
        .header();
    let count = check_layout(file, &header).map_err(|e| error(path, e))?;
    Ok((header, count))
}

fn open(path: &Path) -> PyResult<File> {
    File::open(path).map_err(|e| error(path, e.into()))
}

/// The layout of a `.ttt` file as `(encoding, records_per_block, count, blocks)`, checked
/// without reading the blocks (header, trailer, first block and size).
#[pyfunction]
pub fn ttt_layout(py: Python<'_>, path: PathBuf) -> PyResult<(&'static str, u32, u64, u64)> {
    py.detach(|| {
        let mut file = open(&path)?;
        let (header, count) = layout(&path, &mut file)?;
        Ok((
            header.packing.name(),
            header.records_per_block,
            count,
            header.blocks_for(count),
        ))
    })
}

/// Blocks `first_block .. first_block + blocks` of a `.ttt` file (cut at its last block) as
/// `(first_record, base3_codes)`: the records in file order, int32. A `ValueError` names the
/// file and the first damaged block; an `OSError` the file and the operating system's error.
#[pyfunction]
pub fn read_ttt_blocks(
    py: Python<'_>,
    path: PathBuf,
    first_block: u64,
    blocks: u64,
) -> PyResult<(u64, Bound<'_, PyArray1<i32>>)> {
    let (first, codes) = py.detach(|| read_range(&path, first_block, blocks))?;
    Ok((first, PyArray1::from_vec(py, codes)))
}

fn read_range(path: &Path, first_block: u64, blocks: u64) -> PyResult<(u64, Vec<i32>)> {
    let mut file = open(path)?;
    let (header, count) = layout(path, &mut file)?;
    let per = u64::from(header.records_per_block);
    let total = header.blocks_for(count);
    let end_block = first_block.saturating_add(blocks).min(total);
    let first_record = first_block.saturating_mul(per).min(count);
    let block_bytes = (BLOCK_HEAD_BYTES + header.packing.bytes_for(per as usize)) as u64;
    let start = HEADER_BYTES as u64 + first_block.min(total) * block_bytes;
    file.seek(SeekFrom::Start(start))
        .map_err(|e| error(path, e.into()))?;
    let mut input = BufReader::with_capacity(1 << 17, file);
    let mut boards: Vec<Board> = Vec::new();
    let mut payload = Vec::new();
    for k in first_block..end_block {
        let (a, b) = (k * per, ((k + 1) * per).min(count));
        let damaged = |what: String| {
            PyValueError::new_err(format!(
                "{}: block {k} (records {a} to {}) is damaged: {what}",
                path.display(),
                b - 1
            ))
        };
        let mut head = [0u8; BLOCK_HEAD_BYTES];
        // `b - a` is at most R, a u32.
        let expected = (b - a) as u32;
        payload.resize(header.packing.bytes_for(expected as usize), 0);
        if input
            .read_exact(&mut head)
            .and_then(|()| input.read_exact(&mut payload))
            .is_err()
        {
            return Err(damaged("the file ends inside it".into()));
        }
        let [n0, n1, n2, n3, c0, c1, c2, c3] = head;
        let n = u32::from_le_bytes([n0, n1, n2, n3]);
        if n != expected {
            return Err(damaged(format!("{n} records where {expected} belong")));
        }
        if header.block_crc(k, n, &payload) != u32::from_le_bytes([c0, c1, c2, c3]) {
            return Err(damaged("checksum mismatch".into()));
        }
        header
            .packing
            .decode(&payload, n as usize, &mut boards)
            .map_err(|e| damaged(e.to_string()))?;
    }
    let codes = boards
        .iter()
        .map(|&board| i32::from(Base3::from_board(board).code()))
        .collect();
    Ok((first_record, codes))
}

/// Registers the functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ttt_layout, m)?)?;
    m.add_function(wrap_pyfunction!(read_ttt_blocks, m)?)?;
    Ok(())
}
