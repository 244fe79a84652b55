//! The k-in-a-row family for Python (`tictactoe_rs.mnk`): the library's `mnk::Rules` and
//! `mnk::AnyPosition`, one position at a time.
//!
//! Rules come from the library's `FromStr` (the same specs as `ttt --game`), moves are the
//! library's actions (a column with gravity, the cell `row * cols + col` without), and every
//! error is the library's message with the argument it concerns. Integer arguments are Python
//! ints or numpy integers, nothing else: a `bool`, a float or a string is a `TypeError`.

use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyInt, PyString, PyTuple, PyType};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use tictactoe::Player;
use tictactoe::mnk::{
    AnyBoard, AnyPosition, AnySolver, MAX_SIDE, PlayError, Preset, Rules, RulesError, Violation,
};
use tictactoe::solver::Value;

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
#[pyclass(module = "tictactoe_rs.mnk", name = "Rules", frozen, eq, hash)]
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
pub(crate) fn rules_arg(rules: &Bound<'_, PyAny>) -> PyResult<Rules> {
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

/// The player's number in the package's one vocabulary (`tictactoe_rs.X`, `tictactoe_rs.O`,
/// as the 3 × 3 `to_move` and `winner`): 1 X, 2 O, 0 none.
fn player_code(player: Option<Player>) -> u8 {
    match player {
        None => 0,
        Some(Player::X) => 1,
        Some(Player::O) => 2,
    }
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
/// >>> import tictactoe_rs as t
/// >>> (game.status == t.X_WON, game.winner == t.X, game.to_move)
/// (True, True, 0)
/// >>> game.board
/// '......./......./...X.../..OX.../..OX.../..OX...'
#[pyclass(module = "tictactoe_rs.mnk", name = "Position", eq)]
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

    /// The status as the 3 × 3 `status` numbers it: 0 ongoing, 1 X won, 2 O won, 3 draw
    /// (`tictactoe_rs.ONGOING`, `X_WON`, `O_WON`, `DRAW`).
    #[getter]
    fn status(&self) -> i8 {
        crate::tables::status_code(self.0.status())
    }

    /// The winner as the 3 × 3 `winner` numbers it: 1 X, 2 O, 0 nobody (yet).
    #[getter]
    fn winner(&self) -> u8 {
        player_code(self.0.winner())
    }

    /// The player to move as the 3 × 3 `to_move` numbers it: 1 X, 2 O, 0 when the game is over.
    #[getter]
    fn to_move(&self) -> u8 {
        player_code(self.0.to_move())
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

/// The positions of `solve`, checked: each an `MnkPosition` of the game or a str (a board, or
/// column digits with gravity), and the game.
fn solve_positions(
    positions: &Bound<'_, PyAny>,
    game: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Rules, Vec<AnyPosition>)> {
    let mut rules = game.map(|g| game_arg(g, "game")).transpose()?;
    // A str is an iterable of one-character strs: one position is a list of one.
    let sequence = !positions.is_instance_of::<PyString>()
        && !positions.is_instance_of::<PyBytes>()
        && !positions.is_instance_of::<PyPosition>();
    let items = positions
        .try_iter()
        .ok()
        .filter(|_| sequence)
        .ok_or_else(|| {
            let got = positions.get_type().name().map(|n| n.to_string());
            let got = got.unwrap_or_else(|_| "?".into());
            let hint = if positions.is_instance_of::<PyString>()
                || positions.is_instance_of::<PyPosition>()
            {
                ": for one position, pass a list of one"
            } else {
                ""
            };
            PyTypeError::new_err(format!(
                "argument `positions` must be a sequence of Positions or strs, got {got}{hint}"
            ))
        })?;
    let mut parsed = Vec::new();
    for (index, item) in items.enumerate() {
        let item = item?;
        if let Ok(position) = item.cast::<PyPosition>() {
            let position = position.borrow().0;
            let given = *rules.get_or_insert(position.rules());
            if position.rules() != given {
                return Err(PyValueError::new_err(format!(
                    "argument `positions`: item {index} is a position of {}, not of {given}",
                    position.rules()
                )));
            }
            parsed.push(position);
        } else if let Ok(text) = item.cast::<PyString>() {
            let Some(given) = rules else {
                return Err(PyTypeError::new_err(format!(
                    "argument `positions`: item {index} is a str: give the game (`game=`) to read it"
                )));
            };
            let position = tictactoe::mnk::parse_position(given, text.to_str()?).map_err(|e| {
                PyValueError::new_err(format!(
                    "argument `positions`: item {index} is no position of {given}: {e}"
                ))
            })?;
            parsed.push(position);
        } else {
            return Err(PyTypeError::new_err(format!(
                "argument `positions`: item {index} must be a Position or a str, got {}",
                item.get_type().name()?
            )));
        }
    }
    let rules = rules.ok_or_else(|| {
        PyValueError::new_err("argument `game` is needed when `positions` is empty")
    })?;
    Ok((rules, parsed))
}

/// The int8 code of a value, as the 3 × 3 `value`: 1 X wins, 2 O wins, 3 draw.
fn value_code(value: Value) -> i8 {
    match value {
        Value::XWins => 1,
        Value::OWins => 2,
        Value::Draw => 3,
    }
}

/// The arrays of `solve`: value, and unless `weak` distance, score and the best-move mask.
type Solved<'py> = (
    Bound<'py, PyArray1<i8>>,
    Option<Bound<'py, PyArray1<i16>>>,
    Option<Bound<'py, PyArray1<i16>>>,
    Option<Bound<'py, PyArray2<bool>>>,
);

/// A bool argument: a Python or numpy bool, nothing else (`weak="yes"` is a `TypeError`
/// naming the argument, not a truthy value).
pub(crate) fn bool_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<bool> {
    static NUMPY_BOOL: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let py = obj.py();
    if obj.is_instance_of::<PyBool>()
        || obj.is_instance(NUMPY_BOOL.import(py, "numpy", "bool_")?)?
    {
        return obj.is_truthy();
    }
    Err(PyTypeError::new_err(format!(
        "argument `{name}` must be a bool, got {}",
        obj.get_type().name()?
    )))
}

/// A watch for the library's solvers that takes the GIL about every
/// [`tictactoe::solver::WATCH_NODES`] nodes to run Python's signal handlers, and the error they
/// raised (a `KeyboardInterrupt` on Ctrl-C), if any: the search then stops within a fraction of
/// a second.
pub(crate) fn signal_check() -> (tictactoe::solver::Watch, Arc<Mutex<Option<PyErr>>>) {
    let raised = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&raised);
    // The method path (`Python::check_signals`) is not general enough over the GIL's lifetime.
    #[allow(clippy::redundant_closure_for_method_calls)]
    let check = Box::new(
        move |_nodes| match Python::attach(|py| py.check_signals()) {
            Ok(()) => true,
            Err(error) => {
                *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(error);
                false
            }
        },
    );
    (check, raised)
}

/// A stop condition for the searches of a batch (an environment's built-in opponent): it
/// takes the GIL to run Python's signal handlers at most every [`Interrupt::EVERY_MS`]
/// milliseconds, and once a handler raised (a `KeyboardInterrupt` on Ctrl-C) it says stop to
/// that search and every later one, and keeps the error for the caller to raise. Shared by
/// reference across a batch run without the GIL, so its state is atomic.
pub(crate) struct Interrupt {
    start: std::time::Instant,
    /// Milliseconds after `start` before which no check is made.
    next_ms: AtomicU64,
    stopped: AtomicBool,
    raised: Mutex<Option<PyErr>>,
}

impl Interrupt {
    /// Milliseconds between two checks of the signal handlers.
    pub(crate) const EVERY_MS: u64 = 20;

    pub(crate) fn new() -> Interrupt {
        Interrupt {
            start: std::time::Instant::now(),
            next_ms: AtomicU64::new(Interrupt::EVERY_MS),
            stopped: AtomicBool::new(false),
            raised: Mutex::new(None),
        }
    }

    /// Whether a search should stop now: a signal handler raised, now or before.
    pub(crate) fn stop(&self) -> bool {
        if self.stopped.load(Ordering::Relaxed) {
            return true;
        }
        let now = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        if now < self.next_ms.load(Ordering::Relaxed) {
            return false;
        }
        self.next_ms
            .store(now.saturating_add(Interrupt::EVERY_MS), Ordering::Relaxed);
        // The method path (`Python::check_signals`) is not general enough over the GIL's lifetime.
        #[allow(clippy::redundant_closure_for_method_calls)]
        let checked = Python::attach(|py| py.check_signals());
        match checked {
            Ok(()) => false,
            Err(error) => {
                *self.raised.lock().unwrap_or_else(PoisonError::into_inner) = Some(error);
                self.stopped.store(true, Ordering::Relaxed);
                true
            }
        }
    }

    /// The error a signal handler raised during the batch, if any.
    pub(crate) fn raised(&self) -> Option<PyErr> {
        self.raised
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

/// The error a [`signal_check`] kept, if it stopped the search.
pub(crate) fn raised(slot: &Mutex<Option<PyErr>>) -> Option<PyErr> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}

/// Perfect play for a batch of positions of one game (`tictactoe_rs.mnk.solve`): value
/// (int8: 1 X wins, 2 O wins, 3 draw, -1 not solved within `max_nodes`), and unless `weak`
/// the distance in plies (int16, -1 unsolved), the score for the side to move (int16, 0
/// unsolved) and the best-move mask (bool, one row of `actions` per position). The search runs
/// without the GIL and stops on a signal (Ctrl-C raises `KeyboardInterrupt` within
/// a fraction of a second).
#[pyfunction]
#[pyo3(signature = (positions, game = None, *, weak = None, max_nodes = None))]
fn mnk_solve<'py>(
    py: Python<'py>,
    positions: &Bound<'py, PyAny>,
    game: Option<&Bound<'py, PyAny>>,
    weak: Option<&Bound<'py, PyAny>>,
    max_nodes: Option<&Bound<'py, PyAny>>,
) -> PyResult<Solved<'py>> {
    let weak = weak.map_or(Ok(false), |w| bool_arg(w, "weak"))?;
    let budget = read_budget(max_nodes)?;
    let (rules, positions) = solve_positions(positions, game)?;
    let n = positions.len();
    let (value, distance, score, best) = solve_all(py, rules, &positions, weak, budget)?;
    let value = PyArray1::from_vec(py, value);
    if weak {
        return Ok((value, None, None, None));
    }
    let best = PyArray1::from_vec(py, best).reshape([n, rules.actions() as usize])?;
    Ok((
        value,
        Some(PyArray1::from_vec(py, distance)),
        Some(PyArray1::from_vec(py, score)),
        Some(best),
    ))
}

/// `max_nodes` of `solve`: a positive integer, [`DEFAULT_MAX_NODES`] when `None`.
pub(crate) fn read_budget(max_nodes: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    match max_nodes {
        None => Ok(DEFAULT_MAX_NODES),
        Some(obj) => {
            let (value, text) = int_arg(obj, "max_nodes")?;
            u64::try_from(value).ok().filter(|&n| n > 0).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "argument `max_nodes` must be at least 1, got {text}"
                ))
            })
        }
    }
}

/// The labels of `solve` for `positions` (all of `rules`), flat: value (int8, -1 unsolved),
/// and unless `weak` distance (-1 unsolved), score (0 unsolved) and the best-move mask (`n ×
/// actions`); without the GIL, stopped by a signal (the error is raised).
pub(crate) type Labels = (Vec<i8>, Vec<i16>, Vec<i16>, Vec<bool>);

/// Solves `positions` (see [`Labels`]).
pub(crate) fn solve_all(
    py: Python<'_>,
    rules: Rules,
    positions: &[AnyPosition],
    weak: bool,
    budget: u64,
) -> PyResult<Labels> {
    let (n, actions) = (positions.len(), rules.actions() as usize);
    let mut value = vec![-1i8; n];
    let (mut distance, mut score, mut best) = if weak {
        (Vec::new(), Vec::new(), Vec::new())
    } else {
        (vec![-1i16; n], vec![0i16; n], vec![false; n * actions])
    };
    let (check, signal) = signal_check();
    py.detach(|| {
        let mut solver = AnySolver::new();
        let _ = solver.set_watch(Some(check));
        for (i, position) in positions.iter().enumerate() {
            if signal.lock().is_ok_and(|s| s.is_some()) {
                break;
            }
            if weak {
                if let Some(v) = solver.value(position, budget) {
                    value[i] = value_code(v);
                }
            } else if let Some(solution) = solver.solve(position, budget) {
                value[i] = value_code(solution.value);
                // At most 361 plies and a score of at most 182 in absolute value: both fit.
                distance[i] = solution.distance as i16;
                score[i] = solution.score as i16;
                for action in solution.best_moves {
                    best[i * actions + action] = true;
                }
            }
        }
    });
    if let Some(error) = raised(&signal) {
        return Err(error);
    }
    Ok((value, distance, score, best))
}

/// The node budget of `solve` per position when `max_nodes` is not given (as `ttt solve`).
const DEFAULT_MAX_NODES: u64 = 100_000_000;

/// Adds `MnkRules`, `MnkPosition` and `mnk_solve` to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRules>()?;
    m.add_class::<PyPosition>()?;
    m.add_function(wrap_pyfunction!(mnk_solve, m)?)?;
    Ok(())
}

/// Which players have a line (`k` or more in a row) on each board of `boards`, an int8 array
/// of shape `(N, rules.cells)`, row-major from the top, 0 empty, 1 X, 2 O: a uint8 array of
/// shape `(N,)`, bit 0 for X and bit 1 for O. The boards are read as they are, not checked
/// for reachability (gravity included). A cell other than 0, 1 or 2 or a row of the wrong
/// length is a `ValueError` naming `boards`. The GIL is released while the boards are read.
#[pyfunction]
pub fn mnk_lines<'py>(
    rules: &Bound<'py, PyAny>,
    boards: numpy::PyReadonlyArray2<'py, i8>,
) -> PyResult<Bound<'py, PyArray1<u8>>> {
    let py = boards.py();
    let rules = rules_arg(rules)?;
    let cells = rules.cells() as usize;
    let view = boards.as_array();
    let width = view.ncols();
    if width != cells {
        return Err(PyValueError::new_err(format!(
            "argument `boards` must have {cells} cells a row for {rules}, got {width}"
        )));
    }
    let lines = py.detach(|| {
        view.rows()
            .into_iter()
            .enumerate()
            .map(|(i, row)| {
                let mut board = AnyBoard::empty(rules);
                for (index, &v) in (0u32..).zip(row.iter()) {
                    let mark = match v {
                        0 => None,
                        1 => Some(Player::X),
                        2 => Some(Player::O),
                        other => return Err((i, index, other)),
                    };
                    // Every index below `rules.cells()` is a square of the board.
                    if let Some(square) = rules.square_at(index) {
                        board.set(square, mark);
                    }
                }
                Ok(u8::from(board.has_line(Player::X)) | u8::from(board.has_line(Player::O)) << 1)
            })
            .collect::<Result<Vec<u8>, _>>()
    });
    match lines {
        Ok(lines) => Ok(PyArray1::from_vec(py, lines)),
        Err((i, index, v)) => Err(PyValueError::new_err(format!(
            "argument `boards`: board {i} has {v} at cell {index}; expected 0 (empty), 1 (X) or 2 (O)"
        ))),
    }
}

/// Adds the family's batch functions to the native module.
pub fn register_batch(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mnk_lines, m)?)?;
    Ok(())
}
