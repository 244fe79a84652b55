//! The k-in-a-row family as data (`tictactoe_rs.data.family`): positions as compact integer
//! keys, expanded one ply at a time on numpy arrays, so that a layer of millions of positions
//! is one call (in a Spark `mapInArrow` task, or a local loop) and deduplication is the
//! engine's.
//!
//! Keys: the column-height key (`mnk::encoding::HeightKey<1>`, 49 bits for Connect Four) with
//! gravity, the base-3 code (`mnk::encoding::Base3`) without; both are the library's own
//! encodings, as int64.

use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tictactoe::Status;
use tictactoe::mnk::encoding::{Base3, HeightKey};
use tictactoe::mnk::{Board, Position, Rules};

use crate::mnk::rules_arg;
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
    let fits = if rules.gravity() {
        rules.cols() * (rules.rows() + 1) <= 63
    } else {
        rules.cells() <= 39 && Position::<1>::new(rules).is_ok()
    };
    if fits {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "argument `rules`: the keys of {rules} do not fit an int64 (gravity: cols × (rows + 1) \
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

/// Registers the functions of this file.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mnk_root_key, m)?)?;
    m.add_function(wrap_pyfunction!(mnk_expand, m)?)?;
    Ok(())
}
