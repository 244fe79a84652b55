//! Observation planes of the peers (PettingZoo, pgx, OpenSpiel) to and from boards, and move
//! masks between their bit and cell forms.

use numpy::{PyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrays::{PerItem, PerItemSlice, fill, output, typed};
use crate::choice::{self, Choice};

/// An observation layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `(..., 3, 3, 2)` int8: the perspective player's marks, then the opponent's.
    PettingZoo,
    /// `(..., 3, 3, 2)` bool: the same planes.
    Pgx,
    /// `(..., 3, 3, 3)` float32, channel first: empty, O (nought), X (cross).
    OpenSpiel,
}

impl Choice for Layout {
    const ALL: &'static [Self] = &[Layout::PettingZoo, Layout::Pgx, Layout::OpenSpiel];

    fn name(self) -> &'static str {
        match self {
            Layout::PettingZoo => "pettingzoo",
            Layout::Pgx => "pgx",
            Layout::OpenSpiel => "openspiel",
        }
    }
}

impl Layout {
    /// The shape of one observation, for error messages.
    pub const fn shape_text(self) -> &'static str {
        match self {
            Layout::PettingZoo | Layout::Pgx => "(..., 3, 3, C)",
            Layout::OpenSpiel => "(..., C, 3, 3)",
        }
    }
}

/// The perspective argument: `None` (the player to move by mark count) or players 1/2.
fn read_perspective<'py>(
    perspective: Option<&Bound<'py, PyAny>>,
    items: &[usize],
) -> PyResult<Option<PerItem<'py>>> {
    let Some(perspective) = perspective else {
        return Ok(None);
    };
    let per_item = PerItem::read("perspective", perspective, items)?;
    let bad = match per_item.slice()? {
        PerItemSlice::One(p) => !(1..=2).contains(&p),
        PerItemSlice::Each(_) => {
            let slice = per_item.slice()?;
            (0..items.iter().product()).any(|i| !(1..=2).contains(&slice.at(i)))
        }
    };
    if bad {
        return Err(PyValueError::new_err(
            "argument `perspective` must hold players: 1 (X) or 2 (O)",
        ));
    }
    Ok(Some(per_item))
}

/// Observation planes of boards, in the layout of a peer.
///
/// `boards`: int8 `(..., 9)`, cells 0 empty, 1 X, 2 O (a `ValueError` if any cell is not).
/// `layout`:
///
/// - `"pettingzoo"`: int8 `(..., 3, 3, 2)`, `[..., r, c, 0]` = the perspective player holds
///   cell `3r + c`, `[..., r, c, 1]` = the opponent does (PettingZoo `tictactoe_v3`).
/// - `"pgx"`: bool `(..., 3, 3, 2)`, the same planes (pgx `tic_tac_toe`, mover-relative).
/// - `"openspiel"`: float32 `(..., 3, 3, 3)`, planes empty, O, X (`pyspiel` `tic_tac_toe`
///   observation tensor; reshape to `(..., 27)` for the flat form); `perspective` is ignored.
///
/// `perspective`: `None` for the player to move by mark count (X when the count is even), or
/// 1 (X) / 2 (O), one int or an array of shape `(...)`. `out`: the result's dtype and shape.
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> t.boards_to_planes(np.array([1, 0, 0, 0, 0, 0, 0, 0, 0], np.int8))[0, 0].tolist()
/// [0, 1]
#[pyfunction]
#[pyo3(signature = (boards, layout = "pettingzoo", perspective = None, *, out = None))]
pub fn boards_to_planes<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    layout: &str,
    perspective: Option<&Bound<'py, PyAny>>,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let layout = choice::parse::<Layout>("layout", layout)?;
    let boards = typed::<i8>("boards", boards, "int8", &[9])?;
    let cells = boards.as_slice()?;
    if let Some(at) = cells.iter().position(|&c| !(0..=2).contains(&c)) {
        return Err(PyValueError::new_err(format!(
            "argument `boards` holds {} at flat index {at}; cells must be 0 (empty), 1 (X) or 2 (O)",
            cells[at]
        )));
    }
    let items = boards.shape()[..boards.ndim() - 1].to_vec();
    let perspective = read_perspective(perspective, &items)?;
    let me = match &perspective {
        Some(p) => Some(p.slice()?),
        None => None,
    };
    let mover = move |i: usize, row: &[i8]| -> i8 {
        match me {
            Some(p) => p.at(i) as i8,
            None => 1 + (row.iter().filter(|&&c| c != 0).count() % 2) as i8,
        }
    };
    let mut shape = items.clone();
    match layout {
        Layout::PettingZoo => {
            shape.extend([3, 3, 2]);
            let out = output::<i8>(py, out, "int8", &shape)?;
            fill(py, &out, |dst| relative_planes(cells, dst, mover))?;
            Ok(out.into_any())
        }
        Layout::Pgx => {
            shape.extend([3, 3, 2]);
            let out = output::<bool>(py, out, "bool", &shape)?;
            fill(py, &out, |dst| relative_planes(cells, dst, mover))?;
            Ok(out.into_any())
        }
        Layout::OpenSpiel => {
            shape.extend([3, 3, 3]);
            let out = output::<f32>(py, out, "float32", &shape)?;
            fill(py, &out, |dst| {
                for (row, o) in cells.chunks_exact(9).zip(dst.chunks_exact_mut(27)) {
                    for (c, &cell) in row.iter().enumerate() {
                        // Planes in OpenSpiel's CellState order: empty, nought (O), cross (X).
                        let plane = [0, 2, 1][cell as usize];
                        o[c] = 0.0;
                        o[9 + c] = 0.0;
                        o[18 + c] = 0.0;
                        o[9 * plane + c] = 1.0;
                    }
                }
            })?;
            Ok(out.into_any())
        }
    }
}

/// Boards of observation planes: the inverse of `boards_to_planes`.
///
/// `planes`: int8 `(..., 3, 3, 2)` for `"pettingzoo"`, bool `(..., 3, 3, 2)` for `"pgx"`,
/// float32 `(..., 3, 3, 3)` for `"openspiel"`. `perspective`: whose marks the first plane
/// holds (pettingzoo, pgx): `None` to infer it from the counts (the player to move: equal
/// counts mean X, one more opponent mark means O), or 1 / 2 as an int or an array of shape
/// `(...)`. Returns int8 boards `(..., 9)`; a row of -1 where the planes are not a board
/// (values other than 0 and 1, a cell in two planes, an OpenSpiel cell in no plane, counts
/// that fit no player to move).
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> b = np.array([1, 0, 2, 0, 0, 0, 0, 0, 0], np.int8)
/// >>> t.planes_to_boards(t.boards_to_planes(b, "pgx"), "pgx").tolist()
/// [1, 0, 2, 0, 0, 0, 0, 0, 0]
#[pyfunction]
#[pyo3(signature = (planes, layout = "pettingzoo", perspective = None, *, out = None))]
pub fn planes_to_boards<'py>(
    py: Python<'py>,
    planes: &Bound<'py, PyAny>,
    layout: &str,
    perspective: Option<&Bound<'py, PyAny>>,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i8>>> {
    match choice::parse::<Layout>("layout", layout)? {
        Layout::PettingZoo => {
            let planes = typed::<i8>("planes", planes, "int8", &[3, 3, 2])?;
            relative_to_boards(
                py,
                planes.shape(),
                planes.as_slice()?,
                |v| match v {
                    0 | 1 => Some(v == 1),
                    _ => None,
                },
                perspective,
                out,
            )
        }
        Layout::Pgx => {
            let planes = typed::<bool>("planes", planes, "bool", &[3, 3, 2])?;
            relative_to_boards(
                py,
                planes.shape(),
                planes.as_slice()?,
                Some,
                perspective,
                out,
            )
        }
        Layout::OpenSpiel => {
            let planes = typed::<f32>("planes", planes, "float32", &[3, 3, 3])?;
            let shape = planes.shape();
            let items = &shape[..shape.len() - 3];
            let mut board_shape = items.to_vec();
            board_shape.push(9);
            let out = output::<i8>(py, out, "int8", &board_shape)?;
            let src = planes.as_slice()?;
            fill(py, &out, |dst| {
                for (p, row) in src.chunks_exact(27).zip(dst.chunks_exact_mut(9)) {
                    let mut ok = true;
                    for (c, cell) in row.iter_mut().enumerate() {
                        let (empty, nought, cross) = (p[c], p[9 + c], p[18 + c]);
                        *cell = match (empty, nought, cross) {
                            (1.0, 0.0, 0.0) => 0,
                            (0.0, 1.0, 0.0) => 2,
                            (0.0, 0.0, 1.0) => 1,
                            _ => {
                                ok = false;
                                -1
                            }
                        };
                    }
                    if !ok {
                        row.fill(-1);
                    }
                }
            })?;
            Ok(out)
        }
    }
}

/// The two planes of PettingZoo and pgx: the perspective player's marks, then the opponent's.
fn relative_planes<T: From<bool>>(cells: &[i8], dst: &mut [T], mover: impl Fn(usize, &[i8]) -> i8) {
    for (i, (row, o)) in cells
        .chunks_exact(9)
        .zip(dst.chunks_exact_mut(18))
        .enumerate()
    {
        let me = mover(i, row);
        for (c, &cell) in row.iter().enumerate() {
            o[2 * c] = T::from(cell == me);
            o[2 * c + 1] = T::from(cell != 0 && cell != me);
        }
    }
}

fn relative_to_boards<'py, T: Copy + Send + Sync>(
    py: Python<'py>,
    shape: &[usize],
    src: &[T],
    bit: impl Fn(T) -> Option<bool> + Send + Sync,
    perspective: Option<&Bound<'py, PyAny>>,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i8>>> {
    let items = &shape[..shape.len() - 3];
    let perspective = read_perspective(perspective, items)?;
    let me = match &perspective {
        Some(p) => Some(p.slice()?),
        None => None,
    };
    let mut board_shape = items.to_vec();
    board_shape.push(9);
    let out = output::<i8>(py, out, "int8", &board_shape)?;
    fill(py, &out, |dst| {
        for (i, (p, row)) in src
            .chunks_exact(18)
            .zip(dst.chunks_exact_mut(9))
            .enumerate()
        {
            let (mut mine, mut theirs, mut ok) = (0u16, 0u16, true);
            for c in 0..9 {
                match (bit(p[2 * c]), bit(p[2 * c + 1])) {
                    (Some(a), Some(b)) if !(a && b) => {
                        mine |= u16::from(a) << c;
                        theirs |= u16::from(b) << c;
                    }
                    _ => ok = false,
                }
            }
            let player = match me {
                Some(p) => p.at(i) as i8,
                None => match (mine.count_ones(), theirs.count_ones()) {
                    (m, t) if m == t => 1,
                    (m, t) if t == m + 1 => 2,
                    _ => {
                        ok = false;
                        0
                    }
                },
            };
            if !ok {
                row.fill(-1);
                continue;
            }
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = if mine >> c & 1 != 0 {
                    player
                } else if theirs >> c & 1 != 0 {
                    3 - player
                } else {
                    0
                };
            }
        }
    })?;
    Ok(out)
}

/// uint16 move masks (bit `i` = cell `i`) as bool cells of shape `(..., 9)`.
///
/// A `ValueError` if a mask has a bit above 8 (such as the 0xFFFF sentinel of `legal_moves`
/// and `best_moves`: filter those items out first, with `is_position`).
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> t.masks_to_cells(np.array(0b101, np.uint16)).tolist()
/// [True, False, True, False, False, False, False, False, False]
#[pyfunction]
#[pyo3(signature = (masks, *, out = None))]
pub fn masks_to_cells<'py>(
    py: Python<'py>,
    masks: &Bound<'py, PyAny>,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<bool>>> {
    let masks = typed::<u16>("masks", masks, "uint16", &[])?;
    let src = masks.as_slice()?;
    if let Some(at) = src.iter().position(|&m| m >= 512) {
        return Err(PyValueError::new_err(format!(
            "argument `masks` holds {:#x} at flat index {at}, which is not a set of cells (bits 0 to 8)",
            src[at]
        )));
    }
    let mut shape = masks.shape().to_vec();
    shape.push(9);
    let out = output::<bool>(py, out, "bool", &shape)?;
    fill(py, &out, |dst| {
        for (row, &m) in dst.chunks_exact_mut(9).zip(src) {
            for (c, cell) in row.iter_mut().enumerate() {
                *cell = m >> c & 1 != 0;
            }
        }
    })?;
    Ok(out)
}

/// bool cells of shape `(..., 9)` as uint16 move masks (bit `i` = cell `i`).
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> t.cells_to_masks(np.array([True, False, True] + [False] * 6)).tolist()
/// 5
#[pyfunction]
#[pyo3(signature = (cells, *, out = None))]
pub fn cells_to_masks<'py>(
    py: Python<'py>,
    cells: &Bound<'py, PyAny>,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<u16>>> {
    let cells = typed::<bool>("cells", cells, "bool", &[9])?;
    let src = cells.as_slice()?;
    let out = output::<u16>(py, out, "uint16", &cells.shape()[..cells.ndim() - 1])?;
    fill(py, &out, |dst| {
        for (m, row) in dst.iter_mut().zip(src.chunks_exact(9)) {
            *m = row
                .iter()
                .enumerate()
                .map(|(c, &b)| u16::from(b) << c)
                .sum();
        }
    })?;
    Ok(out)
}
