//! Game codes: move sequences to and from the library's `game` and `prefix` codes.

use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tictactoe::encoding::Kind;
use tictactoe::game::{GameCode, PrefixCode};
use tictactoe::{Cell, Game};

use crate::arrays::{Code, Ints, fill, output, typed, with_int_slice, zeros};
use crate::choice::{self, Choice};

/// A game encoding.
#[derive(Clone, Copy, PartialEq, Eq)]
enum GameKind {
    /// Complete games, `0..255,168`.
    Game,
    /// Any game, finished or not, `0..549,946`.
    Prefix,
}

impl Choice for GameKind {
    const ALL: &'static [Self] = &[GameKind::Game, GameKind::Prefix];

    fn name(self) -> &'static str {
        match self {
            GameKind::Game => GameCode::KIND.name(),
            GameKind::Prefix => PrefixCode::KIND.name(),
        }
    }
}

impl GameKind {
    /// The code of a game, or `None` (a `game` code needs a finished game).
    fn encode(self, game: &Game) -> Option<u32> {
        match self {
            GameKind::Game => GameCode::from_game(game).map(GameCode::code),
            GameKind::Prefix => Some(PrefixCode::from_game(game).code()),
        }
    }

    /// The game of a code, or `None` when it is out of range.
    fn decode(self, code: u32) -> Option<Game> {
        match self {
            GameKind::Game => GameCode::try_from(code).ok().map(GameCode::to_game),
            GameKind::Prefix => PrefixCode::try_from(code).ok().map(PrefixCode::to_game),
        }
    }
}

/// The game of a row of moves padded with -1, or `None` if it is not a legal game.
fn game_of(row: &[i8]) -> Option<Game> {
    let length = row.iter().position(|&m| m == -1).unwrap_or(row.len());
    if row[length..].iter().any(|&m| m != -1) {
        return None;
    }
    let cells = row[..length]
        .iter()
        .map(|&m| u8::try_from(m).ok().and_then(|m| Cell::new(m).ok()))
        .collect::<Option<Vec<Cell>>>()?;
    Game::from_moves(cells).ok()
}

/// `{encoding: limit}`: codes of each encoding, of boards and of games, lie in `0..limit`
/// (the library's `Kind::limit`, `GameCode::COUNT`, `PrefixCode::COUNT`).
pub fn code_ranges(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let ranges = PyDict::new(py);
    for kind in Kind::ALL {
        ranges.set_item(kind.name(), kind.limit())?;
    }
    ranges.set_item(GameCode::KIND.name(), GameCode::COUNT)?;
    ranges.set_item(PrefixCode::KIND.name(), PrefixCode::COUNT)?;
    Ok(ranges)
}

/// Codes of games given as moves.
///
/// `moves`: int8 of shape `(..., 9)`, the cells played in order, padded with -1 (as
/// `selfplay` returns them). `encoding`: `"game"` (complete games, 0 to 255,167) or
/// `"prefix"` (any game, finished or not, 0 to 549,945), the library's `GameCode` and
/// `PrefixCode`. Returns int32 of shape `(...)`; -1 where the moves are not a legal game (an
/// occupied cell, a move after the end, a value that is not a cell, a move after -1) or, for
/// `"game"`, the game is not finished. `out`: int32 of shape `(...)`.
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> t.encode_games(np.array([[0, 1, 2, 3, 4, 5, 6, -1, -1]], np.int8), "game").tolist()
/// [0]
#[pyfunction]
#[pyo3(signature = (moves, encoding = "game", *, out = None))]
pub fn encode_games<'py>(
    py: Python<'py>,
    moves: &Bound<'py, PyAny>,
    encoding: &str,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i32>>> {
    let kind = choice::parse::<GameKind>("encoding", encoding)?;
    let moves = typed::<i8>("moves", moves, "int8", &[9])?;
    let out = output::<i32>(py, out, "int32", &moves.shape()[..moves.ndim() - 1])?;
    let src = moves.as_slice()?;
    fill(py, &out, |dst| {
        for (o, row) in dst.iter_mut().zip(src.chunks_exact(9)) {
            *o = game_of(row)
                .and_then(|game| kind.encode(&game))
                .map_or(-1, |code| code as i32);
        }
    })?;
    Ok(out)
}

/// Games of codes: the inverse of `encode_games`.
///
/// `codes`: any integer dtype, shape `(...)`. Returns `(moves, lengths)`: `moves` int8
/// `(..., 9)`, the cells played in order padded with -1; `lengths` int8 `(...)`, the number of
/// moves, -1 where the code is not a code (then the row is all -1). `out`: not taken (two
/// results).
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> moves, lengths = t.decode_games(np.array([0, 255168]), "game")
/// >>> moves[0].tolist(), lengths.tolist()
/// ([0, 1, 2, 3, 4, 5, 6, -1, -1], [7, -1])
#[pyfunction]
#[pyo3(signature = (codes, encoding = "game"))]
#[allow(clippy::type_complexity)]
pub fn decode_games<'py>(
    py: Python<'py>,
    codes: &Bound<'py, PyAny>,
    encoding: &str,
) -> PyResult<(Bound<'py, PyArrayDyn<i8>>, Bound<'py, PyArrayDyn<i8>>)> {
    let kind = choice::parse::<GameKind>("encoding", encoding)?;
    let codes = Ints::read("codes", codes)?;
    let shape = codes.shape();
    let mut board_shape = shape.clone();
    board_shape.push(9);
    let moves = zeros::<i8>(py, "codes", &board_shape)?;
    let lengths = zeros::<i8>(py, "codes", &shape)?;
    {
        let mut l = lengths.readwrite();
        let lengths_out = l.as_slice_mut()?;
        let src = codes.slice()?;
        fill(py, &moves, |dst| {
            with_int_slice!(src, |s| {
                let rows = dst.chunks_exact_mut(9).zip(lengths_out.iter_mut());
                for ((row, length), code) in rows.zip(s) {
                    row.fill(-1);
                    *length = match kind.decode(code.to_code()) {
                        Some(game) => {
                            for (m, cell) in row.iter_mut().zip(game.moves()) {
                                *m = cell.index() as i8;
                            }
                            game.len() as i8
                        }
                        None => -1,
                    };
                }
            });
        })?;
    }
    Ok((moves, lengths))
}
