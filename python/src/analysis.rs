//! Per-item answers by table lookup: validation, status, moves, perfect play, symmetry class.

use numpy::{Element, PyArrayDyn};
use pyo3::prelude::*;

use crate::arrays::{fill, output};
use crate::grid::{Input, by_grid, by_sets};
use crate::tables::{ENTRIES, FACT_PAIRS, INVALID, Kind, fact_tables, tables};

/// Looks every item of `x` (boards or codes) up in `table`; `bitboards` codes in `by_facts`
/// instead, when the answer has a table there (`FactTables`).
fn answer<'py, T: Element + Copy + Send + Sync>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    encoding: &str,
    out: Option<Bound<'py, PyAny>>,
    dtype: &str,
    table: &'static [T; ENTRIES],
    by_facts: Option<&'static [T; FACT_PAIRS]>,
) -> PyResult<Bound<'py, PyArrayDyn<T>>> {
    let input = Input::read("x", x, encoding)?;
    let out = output::<T>(py, out, dtype, &input.items())?;
    let src = input.source()?;
    let facts = &fact_tables().facts;
    fill(py, &out, |dst| match (src.bitboards(), by_facts) {
        (Some(codes), Some(by_facts)) => {
            // Two bytes' sum: below FACT_PAIRS, no bounds check.
            let answer = |pair: u32| by_facts[pair as usize];
            by_sets(codes, facts, dst, answer, table[INVALID as usize]);
        }
        _ => by_grid(src, dst, |g| table[g as usize]),
    })?;
    Ok(out)
}

/// Defines one lookup function: name, element type, dtype name, table (followed by
/// `fact_tables` when `FactTables` has it too), doc.
macro_rules! answers {
    ($($(#[doc = $doc:literal])* $name:ident: $t:ty, $dtype:literal, $table:ident $(, $by_facts:ident)?;)*) => {$(
        $(#[doc = $doc])*
        #[pyfunction]
        #[pyo3(signature = (x, encoding = "boards", *, out = None))]
        pub fn $name<'py>(
            py: Python<'py>,
            x: &Bound<'py, PyAny>,
            encoding: &str,
            out: Option<Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyArrayDyn<$t>>> {
            let by_facts = None $(.or(Some(&*$by_facts().$table)))?;
            answer(py, x, encoding, out, $dtype, &*tables().$table, by_facts)
        }
    )*};
}

answers! {
    /// Whether each item is a grid: a code the encoding decodes, or a board whose cells are
    /// all 0, 1 or 2.
    ///
    /// `x`: boards (int8, shape `(..., 9)`) when `encoding` is `"boards"`, otherwise codes of
    /// any integer dtype and shape `(...)`. Returns bool of shape `(...)`.
    ///
    /// >>> import numpy as np, tictactoe_rs as t
    /// >>> t.is_valid(np.array([0, 3, 19683]), "base4").tolist()
    /// [True, False, False]
    is_valid: bool, "bool", is_grid, fact_tables;
    /// Whether each item is a reachable position (one of the 5,478).
    ///
    /// >>> import numpy as np, tictactoe_rs as t
    /// >>> t.is_position(np.array([[1, 1, 1, 2, 2, 2, 0, 0, 0]], np.int8)).tolist()
    /// [False]
    is_position: bool, "bool", is_position, fact_tables;
    /// The rules each board breaks, as bit flags (uint8): bit 0 `o-started`, bit 1
    /// `x-went-twice`, bit 2 `continued-after-win` (the library's `Violation::ALL` order).
    /// 0 for reachable positions; 255 for items that are not grids.
    ///
    /// >>> import numpy as np, tictactoe_rs as t
    /// >>> t.violations(np.array([[1, 1, 1, 2, 2, 2, 0, 0, 0]], np.int8)).tolist()
    /// [4]
    violations: u8, "uint8", violations, fact_tables;
    /// The status of each position (int8): 0 ongoing, 1 X won, 2 O won, 3 draw; -1 when the
    /// item is not a reachable position.
    ///
    /// >>> import numpy as np, tictactoe_rs as t
    /// >>> t.status(np.array([0, 229, 13, 20000]), "base3").tolist()
    /// [0, 1, -1, -1]
    status: i8, "int8", status, fact_tables;
    /// The player to move (int8): 1 X, 2 O, 0 when the game is over; -1 when the item is not a
    /// reachable position.
    ///
    /// >>> import numpy as np, tictactoe_rs as t
    /// >>> t.to_move(np.array([0, 1]), "rank").tolist()
    /// [1, 2]
    to_move: i8, "int8", to_move, fact_tables;
    /// The winner (int8): 0 nobody (yet), 1 X, 2 O; -1 when the item is not a reachable
    /// position.
    ///
    /// >>> import numpy as np, tictactoe_rs as t
    /// >>> t.winner(np.array([[1, 1, 1, 2, 2, 0, 0, 0, 0]], np.int8)).tolist()
    /// [1]
    winner: i8, "int8", winner, fact_tables;
    /// The legal moves as a uint16 mask (bit `i` = cell `i`; 0 when the game is over); 0xFFFF
    /// when the item is not a reachable position. `masks_to_cells` gives the `(..., 9)` bool
    /// form.
    ///
    /// >>> import numpy as np, tictactoe_rs as t
    /// >>> [hex(m) for m in t.legal_moves(np.array([0, 1]), "rank").tolist()]
    /// ['0x1ff', '0x1fe']
    legal_moves: u16, "uint16", legal;
    /// The value under perfect play (int8): 1 X wins, 2 O wins, 3 draw; -1 when the item is
    /// not a reachable position. From the library's compile-time solver table.
    ///
    /// >>> import numpy as np, tictactoe_rs as t
    /// >>> t.value(np.array([0]), "rank").tolist()
    /// [3]
    value: i8, "int8", value;
    /// Moves to the end under perfect play (int8, 0 when the game is over; the winner takes
    /// the fastest win, the loser the slowest loss); -1 when the item is not a reachable
    /// position.
    ///
    /// >>> import numpy as np, tictactoe_rs as t
    /// >>> t.distance(np.array([0]), "rank").tolist()
    /// [9]
    distance: i8, "int8", distance;
    /// The best moves under perfect play as a uint16 mask (bit `i` = cell `i`: every move
    /// that keeps the value and the distance; 0 when the game is over); 0xFFFF when the item
    /// is not a reachable position.
    ///
    /// >>> import numpy as np, tictactoe_rs as t
    /// >>> t.best_moves(np.array([[1, 1, 0, 2, 2, 0, 0, 0, 0]], np.int8)).tolist()
    /// [4]
    best_moves: u16, "uint16", best;
    /// The symmetry (0 to 7, in the order of `SYMMETRIES`) that takes each position's class
    /// representative to the position (the first such, so 0 for representatives); int8, -1
    /// when the item is not a reachable position. Together with `canonical` it is the
    /// `oriented` code: `8 * canonical + symmetry`.
    ///
    /// >>> import numpy as np, tictactoe_rs as t
    /// >>> t.symmetry_of(np.array([[0, 0, 1, 0, 0, 0, 0, 0, 0]], np.int8)).tolist()
    /// [1]
    symmetry_of: i8, "int8", symmetry;
}

/// The symmetry class of each position (int32, 0 to 764, the `canonical` code); -1 when the
/// item is not a reachable position.
///
/// >>> import numpy as np, tictactoe_rs as t
/// >>> t.canonical(np.array([[1, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0, 0]], np.int8)).tolist()
/// [1, 1]
#[pyfunction]
#[pyo3(signature = (x, encoding = "boards", *, out = None))]
pub fn canonical<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    encoding: &str,
    out: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArrayDyn<i32>>> {
    let table = &*tables().code[Kind::Canonical as usize];
    answer(py, x, encoding, out, "int32", table, None)
}
