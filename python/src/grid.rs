//! Inputs (boards or codes of any encoding) turned into grid indices and answered: codes one
//! item at a time ([`by_grid`]), boards a chunk at a time through a per-function kernel
//! ([`run`]), `bitboards` codes by their two sets where they can ([`by_sets`]).

use numpy::{PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrays::{IntSlice, Ints, typed, with_int_slice};
use crate::choice;
use crate::kernels::{Code, answer_by_sets, map_grids, map_unrolled};
use crate::tables::{BySets, INVALID, Kind, Tables, tables};

/// Items per chunk: the grid indices of one chunk stay in the L1 cache.
const CHUNK: usize = 2048;

/// The name of the pseudo-encoding for `(..., 9)` int8 boards.
pub const BOARDS: &str = "boards";

/// The encoding named by argument `arg`, or a `ValueError` listing the valid names.
pub fn kind(arg: &str, name: &str) -> PyResult<Kind> {
    choice::parse(arg, name)
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
                choice::names::<Kind>()
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

impl<'a> Source<'a> {
    fn len(self) -> usize {
        match self {
            Source::Boards(cells) => cells.len() / 9,
            Source::Codes(_, codes) => with_int_slice!(codes, |s| s.len()),
        }
    }

    /// The codes, when they are `bitboards` codes.
    pub fn bitboards(self) -> Option<IntSlice<'a>> {
        match self {
            Source::Codes(Kind::BitboardPair, codes) => Some(codes),
            _ => None,
        }
    }

    /// The grid indices of items `start..start + dst.len()`.
    fn grids(self, t: &Tables, start: usize, dst: &mut [u32]) {
        let end = start + dst.len();
        match self {
            Source::Boards(cells) => {
                let rows = cells[start * 9..end * 9].chunks_exact(9);
                for (g, row) in dst.iter_mut().zip(rows) {
                    *g = grid_of_cells(row);
                }
            }
            // A plain loop, which the compiler vectorises: measured 10% faster than
            // `map_grids`'s unrolled one on `decode(base3 codes)`.
            Source::Codes(Kind::Base3, codes) => with_int_slice!(codes, |s| {
                let pairs = dst.iter_mut().zip(&s[start..end]);
                pairs.for_each(|(g, c)| *g = c.to_code().min(INVALID));
            }),
            Source::Codes(kind, codes) => {
                with_int_slice!(codes, |s| map_grids(t, kind, &s[start..end], dst, |g| g));
            }
        }
    }
}

/// Low bit of each byte of a `u64`.
const LOW_BITS: u64 = 0x0101_0101_0101_0101;
/// The low byte of each 16-bit lane, and the low half of each 32-bit lane.
const BYTE_LANES: u64 = 0x00ff_00ff_00ff_00ff;
const HALF_LANES: u64 = 0x0000_ffff_0000_ffff;

/// The grid index (base-3 code) of 9 cells (0 empty, 1 X, 2 O), [`INVALID`] if a cell is
/// anything else. Cells 0-7 are read as one little-endian `u64` and their digits combined in
/// place, pairs of lanes at a time (`d0 + 3 d1` in 16-bit lanes, then `+ 9 *` the next pair
/// in 32-bit lanes, then `+ 81 *` the upper half): no table, no loop over cells.
#[inline]
fn grid_of_cells(row: &[i8]) -> u32 {
    let mut bytes = [0u8; 8];
    for (b, &c) in bytes.iter_mut().zip(&row[..8]) {
        *b = c as u8;
    }
    let head = u64::from_le_bytes(bytes);
    let last = row[8] as u8;
    // A byte is a cell when it is 0, 1 or 2: no bit above the lowest two, not both of them.
    let bad = head & !(LOW_BITS * 3) != 0 || head & head >> 1 & LOW_BITS != 0 || last > 2;
    let pairs = (head & BYTE_LANES) + 3 * (head >> 8 & BYTE_LANES);
    let quads = (pairs & HALF_LANES) + 9 * (pairs >> 16 & HALF_LANES);
    let eight = (quads & 0xffff_ffff) + 81 * (quads >> 32);
    let grid = eight as u32 + 6561 * u32::from(last);
    if bad { INVALID } else { grid }
}

/// `answer(sets.x[X's set] + sets.o[O's set])` for each `bitboards` code, `invalid` for codes
/// that do not decode (18 bits or more, or a cell in both sets): the direct path for answers
/// that are functions of the two sets through small tables (a status through the sets' facts,
/// a `base3` or `base4` code as a sum of per-set parts). One pass, no grid index, every table
/// in the L1 cache.
pub fn by_sets<P: Copy + Into<u32>, O: Copy>(
    codes: IntSlice<'_>,
    sets: &BySets<P>,
    out: &mut [O],
    answer: impl Fn(u32) -> O,
    invalid: O,
) {
    with_int_slice!(codes, |s| answer_by_sets(s, sets, out, answer, invalid));
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

/// `answer(grid index)` for each item (an entry of a grid-indexed table, say). Codes in one
/// pass, each grid index used as soon as it is computed ([`map_grids`]): measured faster than
/// a chunk of grid indices, then a chunk of answers, for `base4` codes (`status` 0.69 against
/// 0.50 x 10^9 per second, conversions 19-37% faster) and for `base3` (`status` 2.13 against
/// 1.77 x 10^9). Boards a chunk of grid indices at a time ([`run`]).
pub fn by_grid<O: Send>(src: Source<'_>, out: &mut [O], answer: impl Fn(u32) -> O + Copy) {
    match src {
        Source::Codes(kind, codes) => {
            with_int_slice!(codes, |s| map_grids(tables(), kind, s, out, answer));
        }
        Source::Boards(_) => run(src, out, 1, |grids, out| map_unrolled(grids, out, answer)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::{FACT_PAIRS, GRIDS, fact_tables};

    /// Every code of `kind`, a few past its range, and a few negative ones.
    fn codes_and_beyond(kind: Kind) -> Vec<i64> {
        let end = if kind == Kind::Base3 {
            GRIDS as i64
        } else {
            kind.limit().into()
        };
        let past = [
            end,
            end + 5,
            u32::MAX.into(),
            1 << 40,
            -1,
            -(1 << 40),
            i64::MIN,
        ];
        (0..end).chain(past).collect()
    }

    #[test]
    fn the_grids_of_codes_match_the_code_tables_on_every_code() {
        let t = tables();
        for kind in Kind::ALL {
            let codes = codes_and_beyond(kind);
            let mut grids = vec![0u32; codes.len()];
            map_grids(t, kind, &codes, &mut grids, |g| g);
            for (&code, &grid) in codes.iter().zip(&grids) {
                let expected = match (kind, u32::try_from(code)) {
                    (_, Err(_)) => INVALID,
                    (Kind::Base3, Ok(code)) => code.min(INVALID),
                    (_, Ok(code)) => {
                        let index = code.min(kind.limit()) as usize;
                        u32::from(t.grid_of_code[kind as usize][index])
                    }
                };
                assert_eq!(grid, expected, "{kind:?} code {code}");
            }
        }
    }

    /// Checks the direct path of `bitboards` codes, `answer_by_sets(sets, answer)`, against
    /// the grid path (the code-indexed table, then `grid_table`) on every code, a few past
    /// the range and a few negative ones.
    fn check_by_sets<P: Copy + Into<u32>, O: Copy + PartialEq + std::fmt::Debug>(
        sets: &BySets<P>,
        answer: impl Fn(u32) -> O,
        grid_table: impl Fn(usize) -> O,
    ) {
        let limit = Kind::BitboardPair.limit();
        let codes = codes_and_beyond(Kind::BitboardPair);
        let grids = &*tables().grid_of_code[Kind::BitboardPair as usize];
        let invalid = grid_table(INVALID as usize);
        let mut out = vec![invalid; codes.len()];
        answer_by_sets(&codes, sets, &mut out, answer, invalid);
        for (&code, &o) in codes.iter().zip(&out) {
            assert_eq!(
                o,
                grid_table(
                    grids[u32::try_from(code).map_or(limit, |c| c.min(limit)) as usize].into()
                ),
                "code {code}"
            );
        }
    }

    #[test]
    fn the_bitboards_paths_by_sets_match_the_grid_path_on_every_code() {
        fn by<T: Copy>(table: &'static [T; FACT_PAIRS]) -> impl Fn(u32) -> T {
            move |pair| table[pair as usize]
        }
        let (t, f) = (tables(), fact_tables());
        check_by_sets(&f.facts, by(&f.is_grid), |g| t.is_grid[g]);
        check_by_sets(&f.facts, by(&f.is_position), |g| t.is_position[g]);
        check_by_sets(&f.facts, by(&f.violations), |g| t.violations[g]);
        check_by_sets(&f.facts, by(&f.status), |g| t.status[g]);
        check_by_sets(&f.facts, by(&f.to_move), |g| t.to_move[g]);
        check_by_sets(&f.facts, by(&f.winner), |g| t.winner[g]);
        for kind in Kind::ALL {
            if let Some(sets) = &t.code_by_sets[kind as usize] {
                let code = |g: usize| t.code[kind as usize][g];
                check_by_sets(sets, |c| c as i32, code);
            }
        }
    }
}
