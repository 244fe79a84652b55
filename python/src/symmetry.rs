//! The eight symmetries applied to boards, moves, move masks and observation planes: the data
//! augmentation of learning code.

use std::sync::OnceLock;

use numpy::{Element, PyArray1, PyArray2, PyArrayDyn, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::arrays::{
    Code, Ints, PerItem, PerItemSlice, contiguous, dtype_name, fill, output, typed, with_int_slice,
};
use crate::choice::{self, Choice};
use crate::planes::Layout;
use tictactoe::{Bitboard, Cell, Symmetry};

/// The symmetry tables, from the library.
struct Tables {
    /// `cell[s][i]`: the image of cell `i` under symmetry `s`.
    cell: [[u8; 9]; 8],
    /// `set[s][m]`: the image of the 9-bit set `m`.
    set: [[u16; 512]; 8],
    /// `inverse[s]`.
    inverse: [u8; 8],
}

fn symmetry_tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| Tables {
        cell: std::array::from_fn(|s| {
            std::array::from_fn(|i| Symmetry::ALL[s].apply_cell(Cell::ALL[i]).index() as u8)
        }),
        set: std::array::from_fn(|s| {
            std::array::from_fn(|m| {
                Symmetry::ALL[s]
                    .apply_bitboard(Bitboard::from_bits_truncate(m as u16))
                    .bits()
            })
        }),
        inverse: std::array::from_fn(|s| Symmetry::ALL[s].inverse().index() as u8),
    })
}

/// The names of the symmetries, in index order.
pub fn names() -> Vec<&'static str> {
    Symmetry::ALL.iter().map(|s| s.name()).collect()
}

fn read_symmetry<'py>(symmetry: &Bound<'py, PyAny>, items: &[usize]) -> PyResult<PerItem<'py>> {
    let per_item = PerItem::read("symmetry", symmetry, items)?;
    per_item.check_below("symmetry", 8, "symmetry indices")?;
    Ok(per_item)
}

/// Moves each item's 9 cells (each `width` elements, `stride` apart) to their images.
fn permute<T: Copy + Send + Sync>(
    src: &[T],
    dst: &mut [T],
    item: usize,
    width: usize,
    stride: usize,
    symmetry: PerItemSlice<'_>,
) {
    let cells = &symmetry_tables().cell;
    for (i, (from, to)) in src
        .chunks_exact(item)
        .zip(dst.chunks_exact_mut(item))
        .enumerate()
    {
        let image = &cells[symmetry.at(i) as usize];
        for (c, &target) in image.iter().enumerate() {
            for k in 0..width {
                to[target as usize * stride + k * (item / width)] =
                    from[c * stride + k * (item / width)];
            }
        }
    }
}

/// The image of boards under symmetries.
///
/// `boards`: int8 of shape `(..., 9)` (any cell values; they are moved, not read).
/// `symmetry`: an int (0 to 7, see `SYMMETRIES`) or an integer array of shape `(...)`, one per
/// board. Returns int8 `(..., 9)` with `out[..., s(i)] = boards[..., i]`. `out`: int8 of shape
/// `(..., 9)`, not `boards` itself.
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> t.apply_symmetry(np.array([1, 0, 0, 0, 0, 0, 0, 0, 0], np.int8), 1).tolist()
/// [0, 0, 1, 0, 0, 0, 0, 0, 0]
#[pyfunction]
#[pyo3(signature = (boards, symmetry, *, out = None))]
pub fn apply_symmetry<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    symmetry: &Bound<'py, PyAny>,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i8>>> {
    permute_rows::<i8>(py, "boards", boards, "int8", symmetry, out)
}

/// Rows of 9 cells (shape `(..., 9)`, dtype `T`) under symmetries.
fn permute_rows<'py, T: Element + Copy + Send + Sync + 'static>(
    py: Python<'py>,
    name: &str,
    rows: &Bound<'py, PyAny>,
    dtype: &str,
    symmetry: &Bound<'py, PyAny>,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<T>>> {
    let rows = typed::<T>(name, rows, dtype, &[9])?;
    let shape = rows.shape().to_vec();
    let symmetry = read_symmetry(symmetry, &shape[..shape.len() - 1])?;
    let out = output::<T>(py, out, dtype, &shape)?;
    let (src, sym) = (rows.as_slice()?, symmetry.slice()?);
    fill(py, &out, |dst| permute(src, dst, 9, 1, 1, sym))?;
    Ok(out)
}

/// The image of moves (cell indices) under symmetries.
///
/// `moves`: any integer dtype, shape `(...)`. `symmetry`: an int or an integer array of shape
/// `(...)`. Returns int8 of shape `(...)`: the image cell, or -1 where the move is not a cell
/// (so -1 padding stays -1). `out`: int8 of shape `(...)`.
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> t.apply_symmetry_to_moves(np.array([0, 4, -1]), 1).tolist()
/// [2, 4, -1]
#[pyfunction]
#[pyo3(signature = (moves, symmetry, *, out = None))]
pub fn apply_symmetry_to_moves<'py>(
    py: Python<'py>,
    moves: &Bound<'py, PyAny>,
    symmetry: &Bound<'py, PyAny>,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i8>>> {
    let moves = Ints::read("moves", moves)?;
    let shape = moves.shape();
    let symmetry = read_symmetry(symmetry, &shape)?;
    let out = output::<i8>(py, out, "int8", &shape)?;
    let (src, sym) = (moves.slice()?, symmetry.slice()?);
    let cells = &symmetry_tables().cell;
    fill(py, &out, |dst| {
        with_int_slice!(src, |s| {
            for (i, (o, m)) in dst.iter_mut().zip(s).enumerate() {
                let cell = m.to_code();
                *o = if cell < 9 {
                    cells[sym.at(i) as usize][cell as usize] as i8
                } else {
                    -1
                };
            }
        });
    })?;
    Ok(out)
}

/// The image of move masks under symmetries.
///
/// `masks`: either uint16 bit masks of shape `(...)` (bit `i` = cell `i`, as `legal_moves`
/// returns; a mask with bits above 8, such as the 0xFFFF sentinel, is kept as it is), or bool
/// of shape `(..., 9)`. `symmetry`: an int or an integer array of shape `(...)`. Returns the
/// same dtype and shape. `out`: likewise.
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> t.apply_symmetry_to_masks(np.array([0b1], np.uint16), 1).tolist()
/// [4]
#[pyfunction]
#[pyo3(signature = (masks, symmetry, *, out = None))]
pub fn apply_symmetry_to_masks<'py>(
    py: Python<'py>,
    masks: &Bound<'py, PyAny>,
    symmetry: &Bound<'py, PyAny>,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let array = contiguous(masks)?;
    if array.cast::<PyArrayDyn<bool>>().is_ok() {
        return Ok(permute_rows::<bool>(py, "masks", &array, "bool", symmetry, out)?.into_any());
    }
    let masks = typed::<u16>("masks", &array, "uint16 (or bool of shape (..., 9))", &[])?;
    let shape = masks.shape().to_vec();
    let symmetry = read_symmetry(symmetry, &shape)?;
    let out = output::<u16>(py, out, "uint16", &shape)?;
    let (src, sym) = (masks.as_slice()?, symmetry.slice()?);
    let sets = &symmetry_tables().set;
    fill(py, &out, |dst| {
        for (i, (o, &m)) in dst.iter_mut().zip(src).enumerate() {
            *o = if m < 512 {
                sets[sym.at(i) as usize][m as usize]
            } else {
                m
            };
        }
    })?;
    Ok(out.into_any())
}

/// The image of observation planes under symmetries.
///
/// `planes`: bool, int8, uint8, float32 or float64, shape `(..., 3, 3, C)` for the
/// channel-last layouts (`"pettingzoo"`, `"pgx"`) or `(..., C, 3, 3)` for `"openspiel"`.
/// `symmetry`: an int or an integer array of shape `(...)`. Returns the same dtype and shape,
/// each plane's cells moved as `apply_symmetry` moves a board's. `out`: likewise.
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> p = t.boards_to_planes(np.array([1, 0, 0, 0, 0, 0, 0, 0, 0], np.int8))
/// >>> t.apply_symmetry_to_planes(p, 1)[0, 2].tolist()
/// [0, 1]
#[pyfunction]
#[pyo3(signature = (planes, symmetry, layout = "pettingzoo", *, out = None))]
pub fn apply_symmetry_to_planes<'py>(
    py: Python<'py>,
    planes: &Bound<'py, PyAny>,
    symmetry: &Bound<'py, PyAny>,
    layout: &str,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let layout = choice::parse::<Layout>("layout", layout)?;
    let array = contiguous(planes)?;
    macro_rules! try_dtype {
        ($($t:ty: $name:literal),*) => {$(
            if array.cast::<PyArrayDyn<$t>>().is_ok() {
                return planes_of::<$t>(py, &array, &symmetry, layout, out, $name);
            }
        )*};
    }
    try_dtype!(bool: "bool", i8: "int8", u8: "uint8", f32: "float32", f64: "float64");
    Err(PyTypeError::new_err(format!(
        "argument `planes` must have dtype bool, int8, uint8, float32 or float64, got {}",
        dtype_name(&array)
    )))
}

fn planes_of<'py, T: Element + Copy + Send + Sync + 'static>(
    py: Python<'py>,
    array: &Bound<'py, PyUntypedArray>,
    symmetry: &Bound<'py, PyAny>,
    layout: Layout,
    out: Option<Bound<'py, PyAny>>,
    dtype: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let shape = array.shape().to_vec();
    let nd = shape.len();
    let channels = match layout {
        Layout::OpenSpiel if nd >= 3 && shape[nd - 2..] == [3, 3] => shape[nd - 3],
        Layout::PettingZoo | Layout::Pgx if nd >= 3 && shape[nd - 3..nd - 1] == [3, 3] => {
            shape[nd - 1]
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "argument `planes` must have shape {} for layout {:?}, got {shape:?}",
                layout.shape_text(),
                layout.name()
            )));
        }
    };
    let planes = typed::<T>("planes", array, dtype, &[])?;
    let symmetry = read_symmetry(symmetry, &shape[..nd - 3])?;
    let out = output::<T>(py, out, dtype, &shape)?;
    let (src, sym) = (planes.as_slice()?, symmetry.slice()?);
    let item = 9 * channels;
    // Channel-last: cell `c` is elements `c * C .. c * C + C`; channel-first: plane `k` is
    // elements `9k .. 9k + 9`.
    let (stride, width) = match layout {
        Layout::OpenSpiel => (1, channels),
        Layout::PettingZoo | Layout::Pgx => (channels, 1),
    };
    if item > 0 {
        fill(py, &out, |dst| {
            permute_planes(src, dst, item, stride, width, channels, sym);
        })?;
    }
    Ok(out.into_any())
}

fn permute_planes<T: Copy + Send + Sync>(
    src: &[T],
    dst: &mut [T],
    item: usize,
    stride: usize,
    width: usize,
    channels: usize,
    symmetry: PerItemSlice<'_>,
) {
    if width == 1 {
        // Channel-last: each cell is a run of `channels` elements.
        let cells = &symmetry_tables().cell;
        for (i, (from, to)) in src
            .chunks_exact(item)
            .zip(dst.chunks_exact_mut(item))
            .enumerate()
        {
            let image = &cells[symmetry.at(i) as usize];
            for (c, &target) in image.iter().enumerate() {
                let t = target as usize * stride;
                to[t..t + stride].copy_from_slice(&from[c * stride..c * stride + stride]);
            }
        }
    } else {
        // Channel-first: each plane is 9 cells.
        let _ = channels;
        permute(src, dst, item, width, 1, symmetry);
    }
}

/// The image of each cell under each symmetry: int8 of shape `(8, 9)`, `[s, i]` = `s(i)`.
///
/// >>> import tictactoe_rs as t
/// >>> t.symmetry_permutations()[1].tolist()
/// [2, 5, 8, 1, 4, 7, 0, 3, 6]
#[pyfunction]
pub fn symmetry_permutations(py: Python<'_>) -> PyResult<Bound<'_, PyArray2<i8>>> {
    let rows: Vec<Vec<i8>> = symmetry_tables()
        .cell
        .iter()
        .map(|row| row.iter().map(|&c| c as i8).collect())
        .collect();
    // Eight rows of nine: `from_vec2` refuses only rows of unequal length.
    PyArray2::from_vec2(py, &rows).map_err(|error| PyValueError::new_err(error.to_string()))
}

/// The inverse of each symmetry: int8 of shape `(8,)`.
///
/// >>> import tictactoe_rs as t
/// >>> t.symmetry_inverses().tolist()
/// [0, 3, 2, 1, 4, 5, 6, 7]
#[pyfunction]
pub fn symmetry_inverses(py: Python<'_>) -> Bound<'_, PyArray1<i8>> {
    PyArray1::from_iter(py, symmetry_tables().inverse.iter().map(|&s| s as i8))
}
