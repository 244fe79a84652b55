//! Environment kernels (owned by the environments work): registered into `_native`.

use pyo3::prelude::*;

/// Adds the environment functions and classes to the native module.
pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
