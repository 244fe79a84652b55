//! The k-in-a-row family as data (`tictactoe_rs.data.family`): positions as compact integer
//! keys, expanded one ply at a time on numpy arrays, so that a layer of millions of positions
//! is one call (in a Spark `mapInArrow` task, or a local loop) and deduplication is the
//! engine's.
//!
//! Keys: the column-height key (`mnk::encoding::HeightKey<1>`, 49 bits for Connect Four) with
//! gravity, the base-3 code (`mnk::encoding::Base3`) without; both are the library's own
//! encodings, as int64.
//!
//! The family's analysis over arrays, the shape of the 3 × 3 API (`tictactoe_rs.status(x,
//! encoding)`): `tictactoe_rs.mnk.status(x, game, encoding)`, `legal_moves` and `solve` take
//! numpy arrays of boards (int8 `(..., cells)`, row-major from the top, 0 empty, 1 X, 2 O) or
//! of these keys (any integer dtype, `(...)`), and answer one item each, read by the library
//! (`AnyPosition::from_board`, the key decoders).

use numpy::{PyArray1, PyArrayDyn, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tictactoe::mnk::encoding::{Base3, HeightKey};
use tictactoe::mnk::{AnyBoard, AnyPosition, Board, Position, Rules};
use tictactoe::{Player, Status};

use crate::arrays::{Code, Ints, fill, output, typed, with_int_slice};
use crate::mnk::{Labels, game_arg, read_budget, rules_arg, solve_all};
use crate::tables::status_code;

/// The position of key `key` (item `index` of the input), checked by the library.
fn decode(rules: Rules, index: usize, key: i64) -> PyResult<Position<1>> {
    let bad = |why: String| PyValueError::new_err(format!("keys[{index}]: {key} {why}"));
    let code = u64::try_from(key).map_err(|_| bad("is negative".to_owned()))?;
    let board: Board<1> = if rules.gravity() {
        HeightKey::try_from_code(rules, code)
            .map_err(|error| bad(format!("is not a height key of {rules}: {error}")))?
            .to_board()
    } else {
        Base3::try_from_code(rules, code)
            .map_err(|error| bad(format!("is not a base-3 code of {rules}: {error}")))?
            .to_board()
    }
    .map_err(|error| bad(format!("does not fit one word: {error}")))?;
    Position::from_board(board).map_err(|error| bad(format!("is not a position: {error}")))
}

/// The key of a position (its board encodes: the rules were checked by `key_kind`).
fn encode(position: &Position<1>) -> PyResult<i64> {
    let board = position.board();
    let code = if position.rules().gravity() {
        HeightKey::from_board(&board)
            .map(|key| key.code())
            .map_err(|e| e.to_string())
    } else {
        Base3::from_board(&board)
            .map(Base3::code)
            .map_err(|e| e.to_string())
    }
    .map_err(PyValueError::new_err)?;
    i64::try_from(code).map_err(|_| PyValueError::new_err(format!("key {code} passes 2^63")))
}

/// Rules whose keys fit an int64 and whose boards fit one word: with gravity
/// `cols × (rows + 1) ≤ 63`, without at most 39 cells (3^39 < 2^63).
fn check_rules(rules: Rules) -> PyResult<()> {
    check_key_rules(rules, "rules")
}

/// [`check_rules`], the error naming argument `name`.
fn check_key_rules(rules: Rules, name: &str) -> PyResult<()> {
    let fits = if rules.gravity() {
        rules.cols() * (rules.rows() + 1) <= 63
    } else {
        rules.cells() <= 39 && Position::<1>::new(rules).is_ok()
    };
    if fits {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "argument `{name}`: the keys of {rules} do not fit an int64 (gravity: cols × (rows + 1) \
             at most 63; without: at most 39 cells)"
        )))
    }
}

/// The key of the empty board of `rules`.
#[pyfunction]
pub fn mnk_root_key(rules: &Bound<'_, PyAny>) -> PyResult<i64> {
    let rules = rules_arg(rules)?;
    check_rules(rules)?;
    let root = Position::<1>::new(rules).map_err(|e| PyValueError::new_err(e.to_string()))?;
    encode(&root)
}

/// Every move from every ongoing position of `keys`: `(parent, key, status)`, the index of
/// the parent in `keys`, the child's key and its status (0 ongoing, 1 X won, 2 O won, 3 draw).
/// Finished positions have no children. Children repeat across parents: deduplicate them.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn mnk_expand<'py>(
    py: Python<'py>,
    rules: &Bound<'_, PyAny>,
    keys: PyReadonlyArray1<'_, i64>,
) -> PyResult<(
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i8>>,
)> {
    let rules = rules_arg(rules)?;
    check_rules(rules)?;
    let keys = keys.as_slice()?;
    let (parents, children, statuses) = py.detach(|| -> PyResult<_> {
        let mut parents = Vec::with_capacity(keys.len() * 4);
        let mut children = Vec::with_capacity(keys.len() * 4);
        let mut statuses = Vec::with_capacity(keys.len() * 4);
        for (index, &key) in keys.iter().enumerate() {
            let position = decode(rules, index, key)?;
            if position.status() != Status::Ongoing {
                continue;
            }
            for action in position.legal_actions() {
                let mut child = position;
                child
                    .play(action)
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                parents.push(index as i64);
                children.push(encode(&child)?);
                statuses.push(status_code(child.status()));
            }
        }
        Ok((parents, children, statuses))
    })?;
    Ok((
        PyArray1::from_vec(py, parents),
        PyArray1::from_vec(py, children),
        PyArray1::from_vec(py, statuses),
    ))
}

/// How the items of an analysis array are given.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// int8 `(..., cells)`: 0 empty, 1 X, 2 O, row-major from the top.
    Boards,
    /// Integers `(...)`: the key of `expand` (height key with gravity, base-3 code without).
    Keys,
}

impl Encoding {
    fn read(encoding: &str) -> PyResult<Encoding> {
        match encoding {
            "boards" => Ok(Encoding::Boards),
            "keys" => Ok(Encoding::Keys),
            other => Err(PyValueError::new_err(format!(
                "argument `encoding` must be \"boards\" or \"keys\", got {other:?}"
            ))),
        }
    }
}

/// The items of `x` (named `name`) for `rules`: the shape of the items (`x`'s shape without
/// its cell axis for boards) and each item's position, `None` for an item that is not one (a
/// cell other than 0, 1 or 2, a board the rules cannot reach by their counts and lines, a key
/// that does not decode). A wrong dtype is a `TypeError`, a wrong cell axis a `ValueError`,
/// both naming `name`. Read without the GIL.
fn read_items(
    py: Python<'_>,
    rules: Rules,
    x: &Bound<'_, PyAny>,
    encoding: Encoding,
    name: &str,
) -> PyResult<(Vec<usize>, Vec<Option<AnyPosition>>)> {
    match encoding {
        Encoding::Boards => {
            let cells = rules.cells() as usize;
            let boards = typed::<i8>(name, x, "int8", &[cells])?;
            let shape = boards.shape();
            let items = shape[..shape.len() - 1].to_vec();
            let data = boards.as_slice()?;
            let positions = py.detach(|| {
                data.chunks_exact(cells.max(1))
                    .map(|row| board_position(rules, row))
                    .collect()
            });
            Ok((items, positions))
        }
        Encoding::Keys => {
            check_key_rules(rules, "game")?;
            let keys = Ints::read(name, x)?;
            let items = keys.shape();
            let slice = keys.slice()?;
            let positions = py.detach(|| {
                with_int_slice!(slice, |s| s
                    .iter()
                    .enumerate()
                    .map(|(i, v)| decode(rules, i, v.to_bits() as i64)
                        .ok()
                        .map(AnyPosition::from))
                    .collect())
            });
            Ok((items, positions))
        }
    }
}

/// The position of one board row, if it is one.
fn board_position(rules: Rules, row: &[i8]) -> Option<AnyPosition> {
    let mut board = AnyBoard::empty(rules);
    for (index, &v) in (0u32..).zip(row) {
        let mark = match v {
            0 => continue,
            1 => Player::X,
            2 => Player::O,
            _ => return None,
        };
        board.set(rules.square_at(index)?, Some(mark));
    }
    AnyPosition::from_board(board).ok()
}

/// The arguments of `status` and `legal_moves`: the rules of `game`, the shape of the items
/// of `x` and their positions ([`read_items`]).
type Call = (Rules, Vec<usize>, Vec<Option<AnyPosition>>);

/// Reads the arguments of `status` and `legal_moves` (see [`Call`]).
fn read_call(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    game: &Bound<'_, PyAny>,
    encoding: &str,
) -> PyResult<Call> {
    let rules = game_arg(game, "game")?;
    let encoding = Encoding::read(encoding)?;
    let (items, positions) = read_items(py, rules, x, encoding, "x")?;
    Ok((rules, items, positions))
}

/// The status of each item of `x` for `game` (int8, shape `(...)`): 0 ongoing, 1 X won, 2 O
/// won, 3 draw (the 3 × 3 `status` numbers); -1 when the item is not a position of `game`.
///
/// `x`: boards (int8 `(..., cells)`, row-major from the top, 0 empty, 1 X, 2 O) when
/// `encoding` is `"boards"`; with `"keys"`, the keys of `tictactoe_rs.data.family` (any
/// integer dtype, `(...)`; games whose keys fit an int64). `out`: an int8 array of the result's
/// shape to write into.
///
/// >>> import numpy as np
/// >>> from tictactoe_rs import mnk
/// >>> boards = np.zeros((2, 42), np.int8)
/// >>> boards[1, 35:39] = 1; boards[1, 28:31] = 2
/// >>> mnk.status(boards, "connect-four").tolist()
/// [0, 1]
#[pyfunction]
#[pyo3(signature = (x, game, encoding = "boards", *, out = None))]
pub fn mnk_status<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    game: &Bound<'py, PyAny>,
    encoding: &str,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i8>>> {
    let (_, items, positions) = read_call(py, x, game, encoding)?;
    let out = output::<i8>(py, out, "int8", &items)?;
    fill(py, &out, |dst| {
        for (slot, position) in dst.iter_mut().zip(&positions) {
            *slot = position.as_ref().map_or(-1, |p| status_code(p.status()));
        }
    })?;
    Ok(out)
}

/// The legal actions of each item of `x` for `game` (int8, shape `(..., actions)`): 1 legal,
/// 0 not (every action once the game is over); -1 at every action of an item that is not a
/// position of `game`. Actions are columns with gravity, cells `row * cols + col` without.
/// `x`, `encoding` and `out` as in `status`.
///
/// >>> import numpy as np
/// >>> from tictactoe_rs import mnk
/// >>> board = np.zeros((1, 9), np.int8); board[0, 4] = 1
/// >>> mnk.legal_moves(board, "tic-tac-toe").tolist()
/// [[1, 1, 1, 1, 0, 1, 1, 1, 1]]
#[pyfunction]
#[pyo3(signature = (x, game, encoding = "boards", *, out = None))]
pub fn mnk_legal_moves<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    game: &Bound<'py, PyAny>,
    encoding: &str,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i8>>> {
    let (rules, mut shape, positions) = read_call(py, x, game, encoding)?;
    let actions = rules.actions() as usize;
    shape.push(actions);
    let out = output::<i8>(py, out, "int8", &shape)?;
    fill(py, &out, |dst| {
        for (row, position) in dst.chunks_exact_mut(actions.max(1)).zip(&positions) {
            match position {
                None => row.fill(-1),
                Some(position) => {
                    row.fill(0);
                    for action in position.legal_actions() {
                        row[action] = 1;
                    }
                }
            }
        }
    })?;
    Ok(out)
}

/// `solve` over an array (`tictactoe_rs.mnk.solve` calls it for a numpy array): the labels of
/// `mnk_solve`, shaped as the items (`(...)`, the best moves `(..., actions)`). An item that is
/// not a position of `game` is a `ValueError` naming its index.
#[pyfunction]
#[pyo3(signature = (x, game, encoding = "boards", *, weak = None, max_nodes = None))]
#[allow(clippy::type_complexity)]
pub fn mnk_solve_array<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    game: &Bound<'py, PyAny>,
    encoding: &str,
    weak: Option<&Bound<'py, PyAny>>,
    max_nodes: Option<&Bound<'py, PyAny>>,
) -> PyResult<(
    Bound<'py, PyAny>,
    Option<Bound<'py, PyAny>>,
    Option<Bound<'py, PyAny>>,
    Option<Bound<'py, PyAny>>,
)> {
    let rules = game_arg(game, "game")?;
    let encoding = Encoding::read(encoding)?;
    let weak = weak.map_or(Ok(false), |w| crate::mnk::bool_arg(w, "weak"))?;
    let budget = read_budget(max_nodes)?;
    let (items, positions) = read_items(py, rules, x, encoding, "positions")?;
    let positions = positions
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            p.ok_or_else(|| {
                PyValueError::new_err(format!(
                    "argument `positions`: item {i} is not a position of {rules}"
                ))
            })
        })
        .collect::<PyResult<Vec<AnyPosition>>>()?;
    let (value, distance, score, best): Labels = solve_all(py, rules, &positions, weak, budget)?;
    let shaped = |array: Bound<'py, PyAny>, tail: &[usize]| -> PyResult<Bound<'py, PyAny>> {
        let mut shape = items.clone();
        shape.extend_from_slice(tail);
        array.call_method1("reshape", (shape,))
    };
    let value = shaped(PyArray1::from_vec(py, value).into_any(), &[])?;
    if weak {
        return Ok((value, None, None, None));
    }
    let actions = rules.actions() as usize;
    Ok((
        value,
        Some(shaped(PyArray1::from_vec(py, distance).into_any(), &[])?),
        Some(shaped(PyArray1::from_vec(py, score).into_any(), &[])?),
        Some(shaped(PyArray1::from_vec(py, best).into_any(), &[actions])?),
    ))
}

/// Registers the functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mnk_root_key, m)?)?;
    m.add_function(wrap_pyfunction!(mnk_expand, m)?)?;
    m.add_function(wrap_pyfunction!(mnk_status, m)?)?;
    m.add_function(wrap_pyfunction!(mnk_legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(mnk_solve_array, m)?)?;
    Ok(())
}
