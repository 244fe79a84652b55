//! Conversions: boards to codes, codes to boards, codes to codes.

use numpy::PyArrayDyn;
use pyo3::prelude::*;

use crate::arrays::{Ints, fill, output, typed};
use crate::grid::{Input, Source, by_grid, by_sets, kind, run};
use crate::kernels::boards_of_grids;
use crate::tables::{INVALID, Kind, tables};

/// Codes of boards in an encoding.
///
/// `boards` is an int8 array of shape `(..., 9)` (cell `i` = row `i // 3`, column `i % 3`;
/// 0 empty, 1 X, 2 O). Returns int32 codes of shape `(...)`; -1 where the encoding cannot
/// hold the board (`count-rank`, `rank`, `canonical`, `oriented` hold only some boards) or a
/// cell is not 0, 1 or 2. `out`: an int32 array of shape `(...)` to write into.
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> t.encode(np.array([[1, 0, 2, 0, 0, 2, 0, 1, 0]], np.int8), "base3").tolist()
/// [2692]
#[pyfunction]
#[pyo3(signature = (boards, encoding, *, out = None))]
pub fn encode<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    encoding: &str,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i32>>> {
    let kind = kind("encoding", encoding)?;
    let boards = typed::<i8>("boards", boards, "int8", &[9])?;
    let input = Input::Boards(boards);
    to_codes(py, &input, kind, out)
}

/// Boards of codes in an encoding.
///
/// `codes`: an array of any integer dtype and any shape `(...)`. Returns int8 boards of shape
/// `(..., 9)` (0 empty, 1 X, 2 O); a code that does not decode (out of range, negative, or not
/// a code of the encoding) gives a row of -1. `canonical` codes decode to the class
/// representative. `out`: an int8 array of shape `(..., 9)`.
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> t.decode(np.array([2692, -5]), "base3").tolist()
/// [[1, 0, 2, 0, 0, 2, 0, 1, 0], [-1, -1, -1, -1, -1, -1, -1, -1, -1]]
#[pyfunction]
#[pyo3(signature = (codes, encoding, *, out = None))]
pub fn decode<'py>(
    py: Python<'py>,
    codes: &Bound<'py, PyAny>,
    encoding: &str,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i8>>> {
    let kind = kind("encoding", encoding)?;
    let input = Input::Codes(kind, Ints::read("codes", codes)?);
    let mut shape = input.items();
    shape.push(9);
    let out = output::<i8>(py, out, "int8", &shape)?;
    let src = input.source()?;
    let t = tables();
    fill(py, &out, |dst| {
        run(src, dst, 9, |grids, rows| boards_of_grids(t, grids, rows));
    })?;
    Ok(out)
}

/// Codes in one encoding to codes in another.
///
/// `codes`: any integer dtype, any shape `(...)`. Returns int32 codes of shape `(...)`, -1
/// where the code does not decode or `to_encoding` cannot hold its board. `out`: int32 of
/// shape `(...)`.
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> t.convert(np.array([0, 2692]), "base3", "rank").tolist()
/// [0, 782]
#[pyfunction]
#[pyo3(signature = (codes, from_encoding, to_encoding, *, out = None))]
pub fn convert<'py>(
    py: Python<'py>,
    codes: &Bound<'py, PyAny>,
    from_encoding: &str,
    to_encoding: &str,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i32>>> {
    let from = kind("from_encoding", from_encoding)?;
    let to = kind("to_encoding", to_encoding)?;
    let input = Input::Codes(from, Ints::read("codes", codes)?);
    to_codes(py, &input, to, out)
}

fn to_codes<'py>(
    py: Python<'py>,
    input: &Input<'py>,
    to: Kind,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i32>>> {
    let out = output::<i32>(py, out, "int32", &input.items())?;
    let src: Source<'_> = input.source()?;
    let t = tables();
    let table = &*t.code[to as usize];
    fill(py, &out, |dst| {
        if let (Some(codes), Some(sets)) = (src.bitboards(), &t.code_by_sets[to as usize]) {
            by_sets(codes, sets, dst, |code| code as i32, -1);
        } else if to == Kind::Base3 {
            // The grid index is the base-3 code.
            by_grid(src, dst, |g| if g < INVALID { g as i32 } else { -1 });
        } else {
            by_grid(src, dst, |g| table[g as usize]);
        }
    })?;
    Ok(out)
}
