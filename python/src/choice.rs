//! The one parser of string choices: every `encoding=`, `layout=`, `convention=`,
//! `autoreset=`, `packing=` argument is read by [`parse`], which names the argument and lists
//! the valid names when the value is not one of them.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// A value chosen by name from a fixed set.
pub trait Choice: Copy + 'static {
    /// Every value, in the order the error message lists them.
    const ALL: &'static [Self];

    /// The name an argument uses.
    fn name(self) -> &'static str;

    /// Other accepted spellings of this value (none unless a peer spells it differently).
    fn aliases(self) -> &'static [&'static str] {
        &[]
    }
}

/// The value named `value`, or a `ValueError` naming argument `arg` and listing the names.
pub fn parse<T: Choice>(arg: &str, value: &str) -> PyResult<T> {
    T::ALL
        .iter()
        .copied()
        .find(|c| c.name() == value || c.aliases().contains(&value))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "argument `{arg}` must be one of {}, got {value:?}",
                names::<T>()
            ))
        })
}

/// Reads a string argument (an `enum.Enum` member is read by its `value`, as Gymnasium's
/// `AutoresetMode`), then [`parse`]s it.
pub fn extract<T: Choice>(arg: &str, obj: &Bound<'_, PyAny>) -> PyResult<T> {
    let text = match obj.cast::<PyString>() {
        Ok(s) => s.to_cow()?.into_owned(),
        Err(_) => match obj
            .getattr("value")
            .ok()
            .and_then(|v| v.extract::<String>().ok())
        {
            Some(value) => value,
            None => {
                return Err(PyTypeError::new_err(format!(
                    "argument `{arg}` must be a string, one of {}",
                    names::<T>()
                )));
            }
        },
    };
    parse(arg, &text)
}

/// The names, quoted and comma-separated, for error messages.
pub fn names<T: Choice>() -> String {
    T::ALL
        .iter()
        .map(|c| format!("{:?}", c.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Choice for tictactoe::encoding::Kind {
    const ALL: &'static [Self] = &Self::ALL;

    fn name(self) -> &'static str {
        Self::name(self)
    }
}

impl Choice for tictactoe::packed::Packing {
    const ALL: &'static [Self] = &Self::ALL;

    fn name(self) -> &'static str {
        Self::name(self)
    }
}
