//! Inputs (boards or codes of any encoding) turned into grid indices, a chunk at a time, and the
//! loop that feeds those chunks to a per-function kernel.

use numpy::{PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrays::{Code, IntSlice, Ints, typed, with_int_slice};
use crate::tables::{BAD_BITS, INVALID, Kind, Tables, tables};

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
                    *g = grid_of_cells(t, row);
                }
            }
            Source::Codes(kind, codes) => {
                with_int_slice!(codes, |s| decode(t, kind, &s[start..end], dst))
            }
        }
    }
}

/// Low bit of each byte of a `u64`.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;
/// Multiplier that gathers the low bits of the 8 bytes into the top byte, byte `i` to bit `i`
/// (the partial products land on distinct bits, so nothing carries).
const GATHER: u64 = 0x0102_0408_1020_4080;

/// The X and O sets of 9 cells (0 empty, 1 X, 2 O) as a bitboards code `x | o << 9`, or with
/// [`BAD_BITS`] set if a cell is anything else: cells 0-7 read as one little-endian `u64`.
#[inline]
pub fn bits_of_cells(row: &[i8]) -> u32 {
    let mut bytes = [0u8; 8];
    for (b, &c) in bytes.iter_mut().zip(&row[..8]) {
        *b = c as u8;
    }
    let head = u64::from_le_bytes(bytes);
    let last = row[8] as u8;
    // A byte is a cell when it is 0, 1 or 2: no bit above the lowest two, not both of them.
    let bad = head & !(LOW_BITS * 3) != 0 || head & head >> 1 & LOW_BITS != 0 || last > 2;
    let x = ((head & LOW_BITS).wrapping_mul(GATHER) >> 56) as u32 | u32::from(last & 1) << 8;
    let o = ((head >> 1 & LOW_BITS).wrapping_mul(GATHER) >> 56) as u32 | u32::from(last >> 1) << 8;
    x | o << 9 | if bad { BAD_BITS } else { 0 }
}

/// The grid index of 9 cells, [`INVALID`] if a cell is not 0, 1 or 2.
#[inline]
fn grid_of_cells(t: &Tables, row: &[i8]) -> u32 {
    grid_of_bits(t, bits_of_cells(row))
}

/// The grid index of a bitboards code (with [`BAD_BITS`] or overlapping sets: [`INVALID`]).
#[inline]
fn grid_of_bits(t: &Tables, bits: u32) -> u32 {
    let (x, o) = (bits & 511, bits >> 9 & 511);
    let grid = u32::from(t.base3_of_set[x as usize]) + 2 * u32::from(t.base3_of_set[o as usize]);
    if bits >> 18 == 0 && x & o == 0 {
        grid
    } else {
        INVALID
    }
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

/// Whether an encoding is converted by arithmetic on its bits (no per-grid table).
pub const fn is_cheap(kind: Kind) -> bool {
    matches!(kind, Kind::Base3 | Kind::Base4 | Kind::Bitboards)
}

/// The bitboards code of a code of a cheap encoding, with [`BAD_BITS`] set for non-codes.
#[inline]
fn bits_of_code(t: &Tables, kind: Kind, code: u32) -> u32 {
    match kind {
        Kind::Base3 => {
            let (high, low) = (code / 243, code % 243);
            let bits = t.base3_low_bits[low as usize] | t.base3_high_bits[(high % 81) as usize];
            if code < INVALID { bits } else { BAD_BITS }
        }
        Kind::Base4 => {
            let bits = t.base4_low_bits[(code & 1023) as usize]
                | t.base4_high_bits[(code >> 10 & 255) as usize];
            if code >> 18 == 0 { bits } else { BAD_BITS }
        }
        _ => {
            let overlap = code & code >> 9 & 511;
            if code >> 18 == 0 && overlap == 0 {
                code
            } else {
                BAD_BITS
            }
        }
    }
}

/// The code of a bitboards code in a cheap encoding, -1 for [`BAD_BITS`].
#[inline]
fn code_of_bits(t: &Tables, kind: Kind, bits: u32) -> i32 {
    let (x, o) = ((bits & 511) as usize, (bits >> 9 & 511) as usize);
    let code = match kind {
        Kind::Base3 => u32::from(t.base3_of_set[x]) + 2 * u32::from(t.base3_of_set[o]),
        Kind::Base4 => t.spread[x] | t.spread[o] << 1,
        _ => bits,
    };
    if bits & BAD_BITS == 0 {
        code as i32
    } else {
        -1
    }
}

/// Converts between two cheap encodings in one pass, without grid indices.
fn convert_cheap<C: Code>(t: &Tables, from: Kind, to: Kind, src: &[C], dst: &mut [i32]) {
    fn each<C: Code>(src: &[C], dst: &mut [i32], f: impl Fn(u32) -> i32) {
        for (o, c) in dst.iter_mut().zip(src) {
            *o = f(c.to_code());
        }
    }
    macro_rules! pairs {
        ($($from:ident => $to:ident),*) => {
            match (from, to) {
                $((Kind::$from, Kind::$to) => each(src, dst, |c| {
                    code_of_bits(t, Kind::$to, bits_of_code(t, Kind::$from, c))
                }),)*
                _ => unreachable!("only cheap encodings"),
            }
        };
    }
    pairs!(
        Base3 => Base3, Base3 => Base4, Base3 => Bitboards,
        Base4 => Base3, Base4 => Base4, Base4 => Bitboards,
        Bitboards => Base3, Bitboards => Base4, Bitboards => Bitboards
    );
}

/// Codes of a cheap encoding from boards or codes of a cheap encoding, in one pass; `None`
/// when the input or the target is not cheap.
pub fn cheap_codes(src: Source<'_>, to: Kind, dst: &mut [i32]) -> Option<()> {
    if !is_cheap(to) {
        return None;
    }
    let t = tables();
    match src {
        Source::Boards(cells) => {
            macro_rules! targets {
                ($($to:ident),*) => {
                    match to {
                        $(Kind::$to => {
                            for (o, row) in dst.iter_mut().zip(cells.chunks_exact(9)) {
                                *o = code_of_bits(t, Kind::$to, bits_of_cells(row));
                            }
                        })*
                        _ => unreachable!("only cheap encodings"),
                    }
                };
            }
            targets!(Base3, Base4, Bitboards);
        }
        Source::Codes(from, codes) if is_cheap(from) => {
            with_int_slice!(codes, |s| convert_cheap(t, from, to, s, dst));
        }
        Source::Codes(..) => return None,
    }
    Some(())
}

/// Boards of grid indices, by two small tables (cells 0-4 and 5-8); -1 rows for [`INVALID`].
pub fn boards_of_grids(t: &Tables, grids: &[u32], rows: &mut [i8]) {
    for (row, &g) in rows.chunks_exact_mut(9).zip(grids) {
        if g < INVALID {
            let (high, low) = (g / 243, g % 243);
            row[..5].copy_from_slice(&t.cells_low[low as usize]);
            row[5..].copy_from_slice(&t.cells_high[high as usize]);
        } else {
            row.fill(-1);
        }
    }
}
