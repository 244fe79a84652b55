//! Inputs (boards or codes of any encoding) turned into grid indices, a chunk at a time, and the
//! loop that feeds those chunks to a per-function kernel.

use numpy::{PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrays::{Code, IntSlice, Ints, typed, with_int_slice};
use crate::tables::{INVALID, Kind, Tables, tables};

/// Items per chunk: the grid indices of one chunk stay in the L1 cache.
const CHUNK: usize = 2048;

/// The name of the pseudo-encoding for `(..., 9)` int8 boards.
pub const BOARDS: &str = "boards";

/// The encoding named by argument `arg`, or a `ValueError` listing the valid names.
pub fn kind(arg: &str, name: &str) -> PyResult<Kind> {
    Kind::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "argument `{arg}` must be one of {}, got {name:?}",
            Kind::ALL.map(|k| format!("{:?}", k.name())).join(", ")
        ))
    })
}

/// A borrowed input: boards or codes.
pub enum Input<'py> {
    Boards(PyReadonlyArrayDyn<'py, i8>),
    Codes(Kind, Ints<'py>),
}

/// The data of an [`Input`], free of the GIL.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    Boards(&'a [i8]),
    Codes(Kind, IntSlice<'a>),
}

impl<'py> Input<'py> {
    /// Reads `x` as boards (`encoding == "boards"`: int8 of shape `(..., 9)`) or as codes of
    /// the named encoding (any integer dtype, any shape).
    pub fn read(arg: &str, x: &Bound<'py, PyAny>, encoding: &str) -> PyResult<Input<'py>> {
        if encoding == BOARDS {
            return Ok(Input::Boards(typed::<i8>(arg, x, "int8", &[9])?));
        }
        let kind = kind("encoding", encoding).map_err(|_| {
            PyValueError::new_err(format!(
                "argument `encoding` must be one of \"boards\", {}, got {encoding:?}",
                Kind::ALL.map(|k| format!("{:?}", k.name())).join(", ")
            ))
        })?;
        Ok(Input::Codes(kind, Ints::read(arg, x)?))
    }

    /// The shape of the items: the array's shape, without the last axis for boards.
    pub fn items(&self) -> Vec<usize> {
        match self {
            Input::Boards(boards) => boards.shape()[..boards.ndim() - 1].to_vec(),
            Input::Codes(_, codes) => codes.shape(),
        }
    }

    /// The data.
    pub fn source(&self) -> PyResult<Source<'_>> {
        Ok(match self {
            Input::Boards(boards) => Source::Boards(boards.as_slice()?),
            Input::Codes(kind, codes) => Source::Codes(*kind, codes.slice()?),
        })
    }
}

impl Source<'_> {
    fn len(self) -> usize {
        match self {
            Source::Boards(cells) => cells.len() / 9,
            Source::Codes(_, codes) => with_int_slice!(codes, |s| s.len()),
        }
    }

    /// The grid indices of items `start..start + dst.len()`.
    fn grids(self, t: &Tables, start: usize, dst: &mut [u32]) {
        let end = start + dst.len();
        match self {
            Source::Boards(cells) => {
                for (g, row) in dst
                    .iter_mut()
                    .zip(cells[start * 9..end * 9].chunks_exact(9))
                {
                    *g = grid_of_cells(row);
                }
            }
            Source::Codes(kind, codes) => {
                with_int_slice!(codes, |s| decode(t, kind, &s[start..end], dst))
            }
        }
    }
}

const POW3: [u32; 9] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561];

/// The grid index of 9 cells (0 empty, 1 X, 2 O), [`INVALID`] if a cell is anything else.
#[inline]
fn grid_of_cells(row: &[i8]) -> u32 {
    let mut grid = 0;
    let mut highest = 0;
    for (&cell, pow) in row.iter().zip(POW3) {
        let digit = cell as u8;
        highest = highest.max(digit);
        grid += u32::from(digit) * pow;
    }
    if highest <= 2 { grid } else { INVALID }
}

/// The grid indices of codes of one encoding.
fn decode<C: Code>(t: &Tables, kind: Kind, codes: &[C], dst: &mut [u32]) {
    let pairs = dst.iter_mut().zip(codes);
    match kind {
        Kind::Base3 => pairs.for_each(|(g, c)| *g = c.to_code().min(INVALID)),
        Kind::Bitboards => pairs.for_each(|(g, c)| {
            let code = c.to_code();
            let (x, o) = (code & 511, code >> 9 & 511);
            let grid =
                u32::from(t.base3_of_set[x as usize]) + 2 * u32::from(t.base3_of_set[o as usize]);
            *g = if code >> 18 == 0 && x & o == 0 {
                grid
            } else {
                INVALID
            };
        }),
        Kind::Base4 => pairs.for_each(|(g, c)| {
            let code = c.to_code();
            let grid =
                t.base4_low[(code & 1023) as usize] + t.base4_high[(code >> 10 & 255) as usize];
            *g = if code >> 18 == 0 {
                grid.min(INVALID)
            } else {
                INVALID
            };
        }),
        _ => {
            let table = &t.grid_of_code[kind as usize];
            let limit = kind.limit();
            pairs.for_each(|(g, c)| *g = table[c.to_code().min(limit) as usize]);
        }
    }
}

/// Runs `emit(grids, out)` over the input a chunk at a time; `out` has `width` entries per
/// item.
pub fn run<O: Send>(src: Source<'_>, out: &mut [O], width: usize, emit: impl Fn(&[u32], &mut [O])) {
    let t = tables();
    let mut grids = [0u32; CHUNK];
    let n = src.len();
    let mut start = 0;
    while start < n {
        let m = CHUNK.min(n - start);
        src.grids(t, start, &mut grids[..m]);
        emit(&grids[..m], &mut out[start * width..(start + m) * width]);
        start += m;
    }
}

/// One table entry per item.
#[inline]
pub fn lookup<O: Copy>(table: &[O; crate::tables::ENTRIES], grids: &[u32], out: &mut [O]) {
    for (o, &g) in out.iter_mut().zip(grids) {
        *o = table[g as usize];
    }
}
