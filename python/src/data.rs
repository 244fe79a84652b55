//! `.ttt` files for the data layer (`tictactoe_rs.data`): the library's block reader and
//! atomic writer, and one block's payload packed and unpacked on its own (for an Arrow batch
//! function inside an engine). Records cross the boundary as `base3` codes (int32), the grid
//! index every other function of the module reads fastest.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tictactoe::Board;

use crate::choice;
use tictactoe::encoding::Base3;
use tictactoe::file::{AtomicFile, FileError, Reader, Writer};
use tictactoe::packed::Packing;

/// An error that names the file: `OSError` for the operating system, `ValueError` for a file
/// that is not well formed or a board its encoding cannot hold.
fn file_error(path: &std::path::Path, error: FileError) -> PyErr {
    let message = format!("{}: {error}", path.display());
    match error {
        FileError::Io(_) => PyOSError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// The packing of a name, or a `ValueError` listing the names.
fn packing(name: &str) -> PyResult<Packing> {
    choice::parse("encoding", name)
}

/// The boards of `base3` codes, or a `ValueError` naming the first bad one.
fn boards_of(codes: &[i32]) -> PyResult<Vec<Board>> {
    codes
        .iter()
        .enumerate()
        .map(|(i, &code)| {
            u32::try_from(code)
                .ok()
                .and_then(|code| Base3::try_from(code).ok())
                .map(Base3::to_board)
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "item {i}: {code} is not a base3 code (0 to 19,682)"
                    ))
                })
        })
        .collect()
}

/// The `base3` codes of boards, as a new int32 array.
fn codes_of<'py>(py: Python<'py>, boards: &[Board]) -> Bound<'py, PyArray1<i32>> {
    let codes: Vec<i32> = boards
        .iter()
        .map(|&board| i32::from(Base3::from_board(board).code()))
        .collect();
    PyArray1::from_vec(py, codes)
}

/// A `.ttt` file read block by block (the library's `tictactoe::file::Reader`).
#[pyclass(module = "tictactoe_rs._native")]
pub struct TttReader {
    path: PathBuf,
    reader: Reader<BufReader<File>>,
    boards: Vec<Board>,
}

#[pymethods]
impl TttReader {
    /// Opens `path` and checks its header; `salvage=True` skips damaged blocks (see `lost`).
    #[new]
    #[pyo3(signature = (path, salvage = false))]
    fn new(path: PathBuf, salvage: bool) -> PyResult<TttReader> {
        let file = File::open(&path).map_err(|error| file_error(&path, error.into()))?;
        // The size of a regular file lets salvage take blocks found far from their place
        // (as `ttt unpack --salvage` does).
        let len = file
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| m.len());
        let reader = Reader::new(BufReader::with_capacity(1 << 17, file))
            .map_err(|error| file_error(&path, error))?;
        let reader = match len {
            Some(len) => reader.input_len(len),
            None => reader,
        };
        let reader = if salvage { reader.salvage() } else { reader };
        Ok(TttReader {
            path,
            reader,
            boards: Vec::new(),
        })
    }

    /// The next intact block as `(first_record, base3_codes)`, or `None` after the trailer.
    /// `first_record` is the block's place in the file's record order: a salvaging reader
    /// returns a block found out of place where it finds it.
    fn read_block<'py>(
        &mut self,
        py: Python<'py>,
    ) -> PyResult<Option<(u64, Bound<'py, PyArray1<i32>>)>> {
        self.boards.clear();
        let (reader, boards) = (&mut self.reader, &mut self.boards);
        let more = py
            .detach(|| reader.read_block(boards))
            .map_err(|error| file_error(&self.path, error))?;
        if !more {
            return Ok(None);
        }
        let first = self.reader.block_first_record();
        Ok(Some((first, codes_of(py, &self.boards))))
    }

    /// The encoding of the file (`base4`, `base3`, `count-rank`, `rank` or `mixed-radix`).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.reader.header().packing.name()
    }

    /// The record count in the header, or `None` (a file written to a pipe).
    #[getter]
    fn count(&self) -> Option<u64> {
        self.reader.header().count
    }

    /// Records per block (R).
    #[getter]
    fn records_per_block(&self) -> u32 {
        self.reader.header().records_per_block
    }

    /// Damage skipped so far by a salvaging reader, one message per lost block.
    #[getter]
    fn lost(&self) -> Vec<String> {
        self.reader.lost().iter().map(ToString::to_string).collect()
    }

    /// The records lost so far by a salvaging reader, and whether the count is complete
    /// (`False` when a loss has no known end: a file cut where a block ends).
    #[getter]
    fn lost_records(&self) -> (u64, bool) {
        let lost = self.reader.lost();
        let known = lost.iter().filter_map(tictactoe::file::Lost::records).sum();
        (known, lost.iter().all(|lost| lost.records().is_some()))
    }

    /// The `n` records of a block's payload packed as `encoding`, as `base3` codes (int32); a
    /// `ValueError` if the payload has the wrong size or holds a code that does not decode.
    #[staticmethod]
    fn unpack<'py>(
        py: Python<'py>,
        payload: &[u8],
        n: usize,
        encoding: &str,
    ) -> PyResult<Bound<'py, PyArray1<i32>>> {
        let packing = packing(encoding)?;
        let expected = packing.bytes_for(n);
        if payload.len() != expected {
            return Err(PyValueError::new_err(format!(
                "a {encoding} payload of {n} records has {expected} bytes, got {}",
                payload.len()
            )));
        }
        let mut boards = Vec::with_capacity(n);
        packing
            .decode(payload, n, &mut boards)
            .map_err(|error| PyValueError::new_err(format!("bad payload: {error}")))?;
        Ok(codes_of(py, &boards))
    }
}

/// A `.ttt` file written atomically (`tictactoe::file::{AtomicFile, Writer}`): nothing appears
/// at `path` until `close` succeeds.
#[pyclass(module = "tictactoe_rs._native")]
pub struct TttWriter {
    path: PathBuf,
    writer: Option<Writer<AtomicFile>>,
}

#[pymethods]
impl TttWriter {
    /// Starts a temporary file next to `path` in `encoding`.
    #[new]
    fn new(path: PathBuf, encoding: &str) -> PyResult<TttWriter> {
        let packing = packing(encoding)?;
        let file = AtomicFile::create(&path).map_err(|error| file_error(&path, error.into()))?;
        let writer = Writer::new(file, packing).map_err(|error| file_error(&path, error))?;
        Ok(TttWriter {
            path,
            writer: Some(writer),
        })
    }

    /// Appends the boards of `base3` codes (int32); a `ValueError` if a code is not a grid or
    /// the file's encoding cannot hold its board.
    fn write(&mut self, py: Python<'_>, codes: PyReadonlyArray1<'_, i32>) -> PyResult<()> {
        let boards = boards_of(codes.as_slice()?)
            .map_err(|error| PyValueError::new_err(format!("{}: {error}", self.path.display())))?;
        let writer = self.writer.as_mut().ok_or_else(|| closed(&self.path))?;
        py.detach(|| writer.extend(&boards))
            .map_err(|error| file_error(&self.path, error))
    }

    /// Writes the trailer and the count, syncs and renames into place; returns the count.
    fn close(&mut self, py: Python<'_>) -> PyResult<u64> {
        let writer = self.writer.take().ok_or_else(|| closed(&self.path))?;
        let count = writer.count();
        py.detach(|| {
            writer
                .finish_seekable()
                .and_then(|file| file.commit().map_err(FileError::from))
        })
        .map_err(|error| file_error(&self.path, error))?;
        Ok(count)
    }

    /// Drops the temporary file: nothing is written at `path`.
    fn abort(&mut self) {
        self.writer = None;
    }

    /// One block's payload: `base3` codes (int32) packed as `encoding` packs them in a `.ttt` block.
    #[staticmethod]
    fn pack<'py>(
        py: Python<'py>,
        codes: PyReadonlyArray1<'_, i32>,
        encoding: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let packing = packing(encoding)?;
        let boards = boards_of(codes.as_slice()?)?;
        let mut out = Vec::with_capacity(packing.bytes_for(boards.len()));
        packing
            .encode(&boards, &mut out)
            .map_err(|error| PyValueError::new_err(error.to_string()))?;
        Ok(PyBytes::new(py, &out))
    }
}

fn closed(path: &std::path::Path) -> PyErr {
    PyValueError::new_err(format!("{}: the writer is closed", path.display()))
}

/// Registers the classes and functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<TttReader>()?;
    m.add_class::<TttWriter>()?;
    Ok(())
}
