//! Python bindings for the `tictactoe` library: the native module `tictactoe_rs._native`.
//!
//! The binding converts numpy arrays and releases the GIL; the logic stays in the library.

use pyo3::prelude::*;

mod env;

/// The native module `tictactoe_rs._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    env::register(m)?;
    Ok(())
}
