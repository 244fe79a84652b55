//! Python bindings for the `tictactoe` library: the native module `tictactoe_rs._native`.
//!
//! The binding converts numpy arrays and releases the GIL; the logic stays in the library.
//! Every per-item answer is a lookup in a table built from the library once (`tables`, from the
//! `tictactoe-kernels` crate that the DuckDB extension and the Polars plugin share), by
//! the grid index of the item (`grid`), or for `bitboards` codes, where it can, by the two
//! 9-bit sets of the code (`grid::by_sets`).

use pyo3::prelude::*;
use pyo3::types::PyTuple;

mod analysis;
mod arrays;
mod choice;
mod codes;
mod data;
mod env;
mod family_data;
mod games;
mod grid;
mod mnk;
mod planes;
mod ranges;
mod selfplay;
mod symmetry;
mod ultimate;

// The tables and kernels shared with the DuckDB extension and the Polars plugin (kernels/),
// under the module names the binding's files use (`crate::tables`, `crate::kernels`).
use tictactoe_kernels::{kernels, tables};

/// The native module `tictactoe_rs._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let names = tables::Kind::ALL.map(tables::Kind::name);
    m.add("ENCODINGS", PyTuple::new(py, names)?)?;
    m.add("SYMMETRIES", PyTuple::new(py, symmetry::names())?)?;
    m.add("CODE_RANGE", games::code_ranges(py)?)?;
    m.setattr("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(codes::encode, m)?)?;
    m.add_function(wrap_pyfunction!(codes::decode, m)?)?;
    m.add_function(wrap_pyfunction!(codes::convert, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::is_position, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::violations, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::status, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::to_move, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::winner, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::legal_moves, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::value, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::distance, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::best_moves, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::canonical, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::symmetry_of, m)?)?;
    m.add_function(wrap_pyfunction!(symmetry::apply_symmetry, m)?)?;
    m.add_function(wrap_pyfunction!(symmetry::apply_symmetry_to_moves, m)?)?;
    m.add_function(wrap_pyfunction!(symmetry::apply_symmetry_to_masks, m)?)?;
    m.add_function(wrap_pyfunction!(symmetry::apply_symmetry_to_planes, m)?)?;
    m.add_function(wrap_pyfunction!(symmetry::symmetry_permutations, m)?)?;
    m.add_function(wrap_pyfunction!(symmetry::symmetry_inverses, m)?)?;
    m.add_function(wrap_pyfunction!(planes::boards_to_planes, m)?)?;
    m.add_function(wrap_pyfunction!(planes::planes_to_boards, m)?)?;
    m.add_function(wrap_pyfunction!(planes::masks_to_cells, m)?)?;
    m.add_function(wrap_pyfunction!(planes::cells_to_masks, m)?)?;
    m.add_function(wrap_pyfunction!(selfplay::selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(games::encode_games, m)?)?;
    m.add_function(wrap_pyfunction!(games::decode_games, m)?)?;
    env::register(m)?;
    data::register(m)?;
    mnk::register(m)?;
    mnk::register_batch(m)?;
    family_data::register(m)?;
    ranges::register(m)?;
    ultimate::register(m)?;
    Ok(())
}
