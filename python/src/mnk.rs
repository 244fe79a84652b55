//! The k-in-a-row family for Python (`tictactoe_rs.mnk`): the library's `mnk::Rules` and
//! `mnk::AnyPosition`, one position at a time.
//!
//! Rules come from the library's `FromStr` (the same specs as `ttt --game`), moves are the
//! library's actions (a column with gravity, the cell `row * cols + col` without), and every
//! error is the library's message with the argument it concerns. Integer arguments are Python
//! ints or numpy integers, nothing else: a `bool`, a float or a string is a `TypeError`.

use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyInt, PyString, PyTuple, PyType};
use tictactoe::Player;
use tictactoe::mnk::{
    AnyBoard, AnyPosition, MAX_SIDE, PlayError, Preset, Rules, RulesError, Violation,
};

/// An integer argument: a Python int or a numpy integer (never a `bool`, a float or a
/// string), as an `i64` (values past it saturate, so that range checks reject them) and as
/// its decimal text (for messages).
fn int_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<(i64, String)> {
    static NUMPY_INTEGER: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let py = obj.py();
    let is_int = !obj.is_instance_of::<PyBool>()
        && (obj.is_instance_of::<PyInt>()
            || obj.is_instance(NUMPY_INTEGER.import(py, "numpy", "integer")?)?);
    if !is_int {
        return Err(PyTypeError::new_err(format!(
            "argument `{name}` must be an int, got {}",
            obj.get_type().name()?
        )));
    }
    let index = obj.call_method0("__index__")?;
    let text = index.str()?.to_string();
    let value = match index.extract::<i64>() {
        Ok(value) => value,
        Err(_) if index.lt(0)? => i64::MIN,
        Err(_) => i64::MAX,
    };
    Ok((value, text))
}

/// The rules of a game of the family: `rows` × `cols` cells, `k` or more in a row win, and
/// with `gravity` a move names a column. Built from a spec: a preset name (`"tic-tac-toe"`,
/// `"4x4"`, `"connect-four"`, `"gomoku"`) or `"ROWS,COLS,K"` with an optional `",gravity"`;
/// or from numbers by `Rules.of(rows, cols, k, gravity=False)`.
///
/// >>> from tictactoe_rs.mnk import Rules
/// >>> c4 = Rules("6,7,4,gravity")
/// >>> (c4.rows, c4.cols, c4.k, c4.gravity, c4.actions, str(c4))
/// (6, 7, 4, True, 7, 'connect-four')
/// >>> Rules.of(5, 5, 4)
/// Rules('5,5,4')
#[pyclass(module = "tictactoe_rs._native", name = "MnkRules", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyRules(Rules);

fn rules_error(error: &RulesError, given: &[(i64, String); 3]) -> PyErr {
    PyValueError::new_err(match error {
        RulesError::Side { what, .. } => {
            let value = if *what == "rows" {
                &given[0].1
            } else {
                &given[1].1
            };
            format!("argument `{what}` must be from 1 to {MAX_SIDE}, got {value}")
        }
        RulesError::K { max, .. } => format!(
            "argument `k` must be from 1 to {max} (the longer side), got {}",
            given[2].1
        ),
        other => format!("{other}"),
    })
}

fn parse_rules(spec: &str, name: &str) -> PyResult<Rules> {
    spec.parse::<Rules>()
        .map_err(|e| PyValueError::new_err(format!("argument `{name}`: {e}")))
}

#[pymethods]
impl PyRules {
    /// Rules from a spec: a preset name or `"ROWS,COLS,K[,gravity]"`.
    #[new]
    fn new(spec: &Bound<'_, PyAny>) -> PyResult<PyRules> {
        let Ok(text) = spec.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "argument `spec` must be a str, got {}",
                spec.get_type().name()?
            )));
        };
        parse_rules(text.to_str()?, "spec").map(PyRules)
    }

    /// Rules from numbers: `rows` and `cols` from 1 to 19, `k` from 1 to the longer side.
    #[staticmethod]
    #[pyo3(signature = (rows, cols, k, gravity = false))]
    fn of(
        rows: &Bound<'_, PyAny>,
        cols: &Bound<'_, PyAny>,
        k: &Bound<'_, PyAny>,
        gravity: bool,
    ) -> PyResult<PyRules> {
        let given = [
            int_arg(rows, "rows")?,
            int_arg(cols, "cols")?,
            int_arg(k, "k")?,
        ];
        // Past u32 is out of range: 0 and u32::MAX are refused, with the value given.
        let [r, c, k] = given
            .each_ref()
            .map(|&(v, _)| u32::try_from(v).unwrap_or(if v < 0 { 0 } else { u32::MAX }));
        Rules::new(r, c, k, gravity)
            .map(PyRules)
            .map_err(|e| rules_error(&e, &given))
    }

    /// Tic-tac-toe: (3, 3, 3).
    #[classattr]
    #[allow(non_snake_case)]
    fn TIC_TAC_TOE() -> PyRules {
        PyRules(Rules::TIC_TAC_TOE)
    }

    /// 4 × 4, four in a row: (4, 4, 4).
    #[classattr]
    #[allow(non_snake_case)]
    fn FOUR_BY_FOUR() -> PyRules {
        PyRules(Rules::FOUR_BY_FOUR)
    }

    /// Connect Four: 6 rows, 7 columns, four in a row, gravity.
    #[classattr]
    #[allow(non_snake_case)]
    fn CONNECT_FOUR() -> PyRules {
        PyRules(Rules::CONNECT_FOUR)
    }

    /// Freestyle gomoku: (15, 15, 5), five or more in a row.
    #[classattr]
    #[allow(non_snake_case)]
    fn GOMOKU() -> PyRules {
        PyRules(Rules::GOMOKU)
    }

    /// Rows, top to bottom.
    #[getter]
    fn rows(&self) -> u32 {
        self.0.rows()
    }

    /// Columns, left to right.
    #[getter]
    fn cols(&self) -> u32 {
        self.0.cols()
    }

    /// Marks in a row that win (or more).
    #[getter]
    fn k(&self) -> u32 {
        self.0.k()
    }

    /// Whether a move names a column and the mark drops to its lowest empty cell.
    #[getter]
    fn gravity(&self) -> bool {
        self.0.gravity()
    }

    /// `rows * cols`.
    #[getter]
    fn cells(&self) -> u32 {
        self.0.cells()
    }

    /// How many actions there are: `cols` with gravity, `cells` without.
    #[getter]
    fn actions(&self) -> u32 {
        self.0.actions()
    }

    /// The preset's name (`"tic-tac-toe"`, `"4x4"`, `"connect-four"`, `"gomoku"`), or `None`.
    #[getter]
    fn preset(&self) -> Option<&'static str> {
        self.0.preset_name().map(Preset::name)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Rules('{}')", self.0)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let args = PyTuple::new(py, [slf.get().0.to_string()])?;
        PyTuple::new(py, [slf.get_type().into_any(), args.into_any()])
    }
}

/// `rules` as the binding's rules: a `Rules` or a spec string.
fn rules_arg(rules: &Bound<'_, PyAny>) -> PyResult<Rules> {
    game_arg(rules, "rules")
}

/// Argument `name` as the binding's rules: a `Rules` or a spec string (the environments'
/// `game=`).
pub(crate) fn game_arg(rules: &Bound<'_, PyAny>, name: &str) -> PyResult<Rules> {
    if let Ok(r) = rules.cast::<PyRules>() {
        return Ok(r.get().0);
    }
    if let Ok(text) = rules.cast::<PyString>() {
        return parse_rules(text.to_str()?, name);
    }
    Err(PyTypeError::new_err(format!(
        "argument `{name}` must be a Rules or a game spec str, got {}",
        rules.get_type().name()?
    )))
}

impl From<Rules> for PyRules {
    fn from(rules: Rules) -> PyRules {
        PyRules(rules)
    }
}

fn player_name(player: Option<Player>) -> Option<&'static str> {
    player.map(|p| match p {
        Player::X => "X",
        Player::O => "O",
    })
}

/// A position of a game of the family, reachable in a legal game: play and undo moves, legal
/// moves, status, winner, side to move and the Zobrist hash. `Position(rules)` is the empty
/// board (X to move); `rules` is a `Rules` or a spec string.
///
/// A move is an *action*: the column (0 at the left) with gravity, the cell index
/// `row * cols + col` (row 0 at the top) without, the numbering of OpenSpiel and PettingZoo.
///
/// >>> from tictactoe_rs.mnk import Position
/// >>> game = Position("connect-four")
/// >>> for column in [3, 2, 3, 2, 3, 2]:
/// ...     _ = game.play(column)
/// >>> game.play(3)
/// (2, 3)
/// >>> (game.status, game.winner, game.to_move)
/// ('x-won', 'X', None)
/// >>> game.board
/// '......./......./...X.../..OX.../..OX.../..OX...'
#[pyclass(module = "tictactoe_rs._native", name = "MnkPosition", eq)]
#[derive(Clone, PartialEq)]
pub struct PyPosition(AnyPosition);

fn play_error(error: PlayError) -> PyErr {
    PyValueError::new_err(format!("argument `action`: {error}"))
}

#[pymethods]
impl PyPosition {
    /// The empty board of `rules`, X to move.
    #[new]
    fn new(rules: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        Ok(PyPosition(AnyPosition::new(rules_arg(rules)?)))
    }

    /// The position of `board` (rows top to bottom separated by `/`, `X`, `O`, `.` per cell),
    /// checked: a `ValueError` names every rule the board breaks.
    #[classmethod]
    fn from_board(
        _cls: &Bound<'_, PyType>,
        rules: &Bound<'_, PyAny>,
        board: &str,
    ) -> PyResult<PyPosition> {
        let board = AnyBoard::parse(rules_arg(rules)?, board)
            .map_err(|e| PyValueError::new_err(format!("argument `board`: {e}")))?;
        AnyPosition::from_board(board)
            .map(PyPosition)
            .map_err(|e| PyValueError::new_err(format!("argument `board`: {e}")))
    }

    /// The codes of the rules `board` breaks (`"o-started"`, `"x-went-twice"`, `"both-won"`,
    /// `"continued-after-win"`, `"floating-mark"`, `"no-move-order"`), in that order; empty
    /// exactly for reachable boards. A `ValueError` for text that is not a board of `rules`.
    #[staticmethod]
    fn violations(rules: &Bound<'_, PyAny>, board: &str) -> PyResult<Vec<&'static str>> {
        let board = AnyBoard::parse(rules_arg(rules)?, board)
            .map_err(|e| PyValueError::new_err(format!("argument `board`: {e}")))?;
        Ok(board.violations().iter().map(Violation::code).collect())
    }

    /// The rules.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(self.0.rules())
    }

    /// Plays `action` for the side to move and returns the `(row, col)` it filled. A
    /// `ValueError` when the game is over, the action is off the board, or its cell or column
    /// is full; the position is then unchanged.
    fn play(&mut self, action: &Bound<'_, PyAny>) -> PyResult<(u32, u32)> {
        let (value, text) = int_arg(action, "action")?;
        let actions = self.0.rules().actions();
        let Some(index) = usize::try_from(value)
            .ok()
            .filter(|&a| a < actions as usize)
        else {
            return Err(PyValueError::new_err(format!(
                "argument `action`: move {text} is off the board: expected 0 to {}",
                actions - 1
            )));
        };
        let square = self.0.play(index).map_err(play_error)?;
        Ok((square.row(), square.col()))
    }

    /// Takes back the mark at `(row, col)`, which must be one the last mover could have
    /// played last (undoing a game's moves in reverse order always works). A `ValueError`
    /// otherwise; the position is then unchanged.
    fn undo(&mut self, row: &Bound<'_, PyAny>, col: &Bound<'_, PyAny>) -> PyResult<()> {
        let ((r, r_text), (c, c_text)) = (int_arg(row, "row")?, int_arg(col, "col")?);
        let rules = self.0.rules();
        let square = u32::try_from(r)
            .ok()
            .zip(u32::try_from(c).ok())
            .and_then(|(r, c)| rules.square(r, c));
        let Some(square) = square else {
            return Err(PyValueError::new_err(format!(
                "argument `row`, `col`: ({r_text}, {c_text}) is off the {} × {} board",
                rules.rows(),
                rules.cols()
            )));
        };
        self.0
            .undo(square)
            .map_err(|e| PyValueError::new_err(format!("argument `row`, `col`: {e}")))
    }

    /// Whether `action` is a legal move.
    fn is_legal(&self, action: &Bound<'_, PyAny>) -> PyResult<bool> {
        let (value, _) = int_arg(action, "action")?;
        Ok(usize::try_from(value).is_ok_and(|a| self.0.is_legal(a)))
    }

    /// The legal actions, ascending (empty when the game is over).
    fn legal_actions(&self) -> Vec<usize> {
        self.0.legal_actions().collect()
    }

    /// A bool array of shape `(rules.actions,)`: which actions are legal.
    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; self.0.rules().actions() as usize];
        for action in self.0.legal_actions() {
            mask[action] = true;
        }
        PyArray1::from_vec(py, mask)
    }

    /// `"ongoing"`, `"x-won"`, `"o-won"` or `"draw"`.
    #[getter]
    fn status(&self) -> &'static str {
        self.0.status().as_str()
    }

    /// `"X"` or `"O"` when a player has won, else `None`.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        player_name(self.0.winner())
    }

    /// `"X"` or `"O"`, the player to move; `None` when the game is over.
    #[getter]
    fn to_move(&self) -> Option<&'static str> {
        player_name(self.0.to_move())
    }

    /// Marks on the board.
    #[getter]
    fn plies(&self) -> u32 {
        self.0.plies()
    }

    /// The board as text: rows top to bottom separated by `/`, `X`, `O`, `.` per cell.
    #[getter]
    fn board(&self) -> String {
        self.0.board().to_string()
    }

    /// An int8 array of shape `(rules.cells,)`, row-major from the top: 0 empty, 1 X, 2 O.
    fn cells<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let board = self.0.board();
        let rules = board.rules();
        let cells: Vec<i8> = (0..rules.cells())
            .filter_map(|i| rules.square_at(i))
            .map(|square| match board.at(square) {
                None => 0,
                Some(Player::X) => 1,
                Some(Player::O) => 2,
            })
            .collect();
        PyArray1::from_vec(py, cells)
    }

    /// The 64-bit Zobrist hash of the board (equal boards of one game, equal hashes).
    #[getter]
    fn hash(&self) -> u64 {
        self.0.hash()
    }

    /// An independent copy.
    fn copy(&self) -> PyPosition {
        self.clone()
    }

    fn __copy__(&self) -> PyPosition {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        self.clone()
    }

    /// The board drawn on lines, cells separated by spaces.
    fn __str__(&self) -> String {
        format!("{:#}", self.0.board())
    }

    fn __repr__(&self) -> String {
        format!(
            "Position.from_board('{}', '{}')",
            self.0.rules(),
            self.0.board()
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let position = slf.borrow().0;
        let args = PyTuple::new(
            py,
            [position.rules().to_string(), position.board().to_string()],
        )?;
        let from_board = slf.get_type().getattr("from_board")?;
        PyTuple::new(py, [from_board, args.into_any()])
    }
}

/// Adds `MnkRules` and `MnkPosition` to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()?;
    m.add_class::<PyPosition>()?;
    Ok(())
}
