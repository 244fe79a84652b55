//! Ultimate tic-tac-toe for Python (`tictactoe_rs.ultimate`): the library's
//! `ultimate::Position`, one position at a time, with OpenSpiel's two-step actions and
//! observation tensor beside the flat 81-move convention.
//!
//! A move is `9 * board + cell` (board and cell numbered row-major from the top left). Every
//! error is the library's message; a move outside `0..81` or a wrong type names the argument.

use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyTuple};
use tictactoe::ultimate::{Move, Position, Setup, Undo};
use tictactoe::{Cell, Player, Status};

/// Length of OpenSpiel's observation tensor: three planes of 9 × 9 (empty, O, X by board and
/// cell: OpenSpiel's cell states are empty, nought, cross), the current player, and the forced board one-hot over ten (nine boards, then "any").
const OBSERVATION: usize = 3 * 81 + 1 + 10;

/// A position of ultimate tic-tac-toe, with the moves played on it (for `undo`).
///
/// >>> from tictactoe_rs.ultimate import Position
/// >>> game = Position()
/// >>> len(game.legal_moves())
/// 81
/// >>> game.openspiel_actions(40)
/// [4, 4]
/// >>> game.play(40)
/// >>> (game.next_board, game.to_move, len(game.legal_moves()))
/// (4, 'O', 8)
/// >>> game.openspiel_actions(36)
/// [0]
#[pyclass(module = "tictactoe_rs._native", name = "UltimatePosition")]
#[derive(Clone)]
pub struct PyUltimate {
    position: Position,
    history: Vec<Undo>,
}

/// A move argument: a Python int (not a `bool`) in `0..81`.
fn move_arg(obj: &Bound<'_, PyAny>) -> PyResult<Move> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(
            "argument `move` must be an int, got bool",
        ));
    }
    let index: i64 = obj
        .call_method0("__index__")
        .and_then(|i| i.extract())
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "argument `move` must be an int, got {}",
                obj.get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string())
            ))
        })?;
    usize::try_from(index)
        .ok()
        .and_then(|i| Move::try_from(i).ok())
        .ok_or_else(|| {
            PyValueError::new_err(format!("argument `move` must be from 0 to 80, got {index}"))
        })
}

fn player_name(player: Player) -> &'static str {
    match player {
        Player::X => "X",
        Player::O => "O",
    }
}

fn player_index(player: Player) -> i64 {
    match player {
        Player::X => 0,
        Player::O => 1,
    }
}

#[pymethods]
impl PyUltimate {
    /// The empty board, X to move in any board.
    #[new]
    fn new() -> PyUltimate {
        PyUltimate {
            position: Position::EMPTY,
            history: Vec::new(),
        }
    }

    /// The position of a text form (81 cells row by row of the 9 × 9 grid, then the board to
    /// play, 0-8 or `*`), checked against every rule; a `ValueError` names the character or
    /// the rules broken.
    #[staticmethod]
    fn from_text(text: &str) -> PyResult<PyUltimate> {
        let setup: Setup = text
            .parse()
            .map_err(|e| PyValueError::new_err(format!("argument `text`: {e}")))?;
        let position = Position::try_from(setup)
            .map_err(|e| PyValueError::new_err(format!("argument `text`: {e}")))?;
        Ok(PyUltimate {
            position,
            history: Vec::new(),
        })
    }

    /// Plays `move` (`9 * board + cell`); an illegal move is a `ValueError` saying why.
    #[pyo3(name = "play", signature = (r#move, /))]
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let played = move_arg(r#move)?;
        let undo = self
            .position
            .play(played)
            .map_err(|e| PyValueError::new_err(format!("{e}")))?;
        self.history.push(undo);
        Ok(())
    }

    /// Takes back the last move played on this object; `ValueError` when there is none.
    fn undo(&mut self) -> PyResult<()> {
        let undo = self
            .history
            .pop()
            .ok_or_else(|| PyValueError::new_err("no move to undo"))?;
        self.position.undo(undo);
        Ok(())
    }

    /// The legal moves, in increasing order.
    fn legal_moves(&self) -> Vec<usize> {
        self.position
            .legal_moves()
            .iter()
            .map(Move::index)
            .collect()
    }

    /// The legal moves as a bool array of shape `(81,)`.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let moves = self.position.legal_moves();
        let mask: Vec<bool> = (0..81).map(|i| moves.bits() >> i & 1 != 0).collect();
        PyArray1::from_vec(py, mask)
    }

    /// `'ongoing'`, `'x-won'`, `'o-won'` or `'draw'`.
    #[getter]
    fn status(&self) -> &'static str {
        self.position.status().as_str()
    }

    /// The status of small board `board` (0-8), as `status`.
    fn board_status(&self, board: i64) -> PyResult<&'static str> {
        let cell = u8::try_from(board)
            .ok()
            .and_then(|b| Cell::new(b).ok())
            .ok_or_else(|| {
                PyValueError::new_err(format!("argument `board` must be from 0 to 8, got {board}"))
            })?;
        Ok(self.position.board_status(cell).as_str())
    }

    /// `'X'` or `'O'`, or `None` once the game is over.
    #[getter]
    fn to_move(&self) -> Option<&'static str> {
        self.position.to_move().map(player_name)
    }

    /// The board the mover must play in, or `None` when it may choose (or the game is over).
    #[getter]
    fn next_board(&self) -> Option<usize> {
        self.position.next_board().map(Cell::index)
    }

    /// Moves played from the empty board.
    #[getter]
    fn plies(&self) -> u32 {
        self.position.plies()
    }

    /// `(X's return, O's return)`: 1 and -1 for a win, 0 each for a draw or an ongoing game.
    fn returns(&self) -> (f64, f64) {
        match self.position.status() {
            Status::Won(Player::X) => (1.0, -1.0),
            Status::Won(Player::O) => (-1.0, 1.0),
            _ => (0.0, 0.0),
        }
    }

    /// The number of move sequences of `depth` moves from here (a move is one flat move).
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let position = self.position;
        py.detach(|| position.perft(depth))
    }

    /// The OpenSpiel actions of `move` here: `[board, cell]` when the mover chooses the board,
    /// `[cell]` when it is sent to one.
    fn openspiel_actions(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Vec<usize>> {
        let played = move_arg(r#move)?;
        self.position
            .check(played)
            .map_err(|e| PyValueError::new_err(format!("{e}")))?;
        Ok(match self.position.next_board() {
            Some(_) => vec![played.cell().index()],
            None => vec![played.board().index(), played.cell().index()],
        })
    }

    /// The current player as OpenSpiel numbers it: 0 for X, 1 for O, -4 (terminal) once the
    /// game is over.
    fn openspiel_player(&self) -> i64 {
        self.position.to_move().map_or(-4, player_index)
    }

    /// OpenSpiel's observation tensor (float32, shape `(254,)`): planes empty, O, X over
    /// (board, cell), then the current player, then the forced board one-hot (index 9:
    /// free choice). Once the game is over OpenSpiel leaves the last mover as current player
    /// and the last move's cell as forced board; so does this, to compare value for value.
    fn openspiel_observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let mut values = vec![0f32; OBSERVATION];
        for b in Cell::ALL {
            for c in Cell::ALL {
                let plane = match self.position.at(b, c) {
                    None => 0,
                    Some(Player::O) => 1,
                    Some(Player::X) => 2,
                };
                values[plane * 81 + 9 * b.index() + c.index()] = 1.0;
            }
        }
        let last = self.history.last().map(|undo| undo.played());
        let (player, forced) = if self.position.status().is_finished() {
            let mover = self.position.last_mover().unwrap_or(Player::X);
            (player_index(mover), last.map_or(9, |m| m.cell().index()))
        } else {
            let player = self.position.to_move().map_or(0, player_index);
            (player, self.position.next_board().map_or(9, Cell::index))
        };
        values[243] = player as f32;
        values[244 + forced] = 1.0;
        PyArray1::from_vec(py, values)
    }

    /// The one-line text form (see `Setup` in docs/ultimate.md).
    fn __str__(&self) -> String {
        self.position.to_string()
    }

    /// The nine-line drawing, the board to play on the last line.
    fn pretty(&self) -> String {
        format!("{:#}", self.position)
    }

    fn __repr__(&self) -> String {
        format!("UltimatePosition.from_text('{}')", self.position)
    }

    fn copy(&self) -> PyUltimate {
        self.clone()
    }

    fn __copy__(&self) -> PyUltimate {
        self.clone()
    }

    /// A copy with its own history (pyspiel clones a Python game's states by `deepcopy`).
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyUltimate {
        self.clone()
    }

    /// The position of `text` with `moves` (flat moves) played on it, kept for `undo`: what
    /// pickling stores, so a copy keeps its history.
    #[staticmethod]
    fn from_moves(text: &str, moves: Vec<i64>) -> PyResult<PyUltimate> {
        let mut game = PyUltimate::from_text(text)?;
        for (k, index) in moves.into_iter().enumerate() {
            let played = usize::try_from(index)
                .ok()
                .and_then(|i| Move::try_from(i).ok())
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "argument `moves`: item {k} must be from 0 to 80, got {index}"
                    ))
                })?;
            let undo = game
                .position
                .play(played)
                .map_err(|e| PyValueError::new_err(format!("argument `moves`: item {k}: {e}")))?;
            game.history.push(undo);
        }
        Ok(game)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.borrow();
        let mut start = this.position;
        for undo in this.history.iter().rev() {
            start.undo(*undo);
        }
        let moves: Vec<usize> = this.history.iter().map(|u| u.played().index()).collect();
        let args = (start.to_string(), moves).into_pyobject(py)?;
        let from_moves = slf.get_type().getattr("from_moves")?;
        PyTuple::new(py, [from_moves, args.into_any()])
    }
}

/// Registers the class.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyUltimate>()
}
