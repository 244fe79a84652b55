//! numpy arrays in and out: dtype and shape checks that name the argument, C-contiguous input
//! read in place, `out=` checked and written in place.

use std::any::TypeId;

use numpy::{
    Element, PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::conversion::FromPyObjectOwned;
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyTuple};

/// Whether Rust can read an array's data as a slice as it is: C-contiguous, aligned and in
/// the machine's byte order.
fn usable(array: &Bound<'_, PyUntypedArray>) -> bool {
    array.is_c_contiguous()
        && array.is_aligned()
        && array.dtype().is_native_byteorder() != Some(false)
}

/// `obj` as a C-contiguous, aligned numpy array in native byte order: itself when it already
/// is one (no copy), otherwise a copy (`numpy.array` for arrays: strided views, misaligned
/// or big-endian data, of the same values; `numpy.asarray` for lists and scalars).
pub fn contiguous<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyUntypedArray>> {
    let py = obj.py();
    let np = numpy::get_array_module(py)?;
    if let Ok(array) = obj.cast::<PyUntypedArray>() {
        if usable(array) {
            return Ok(array.clone());
        }
        // `numpy.array` copies (into new, aligned memory) in C order, in native byte order.
        let dtype = array.dtype().call_method1("newbyteorder", ("=",))?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("order", "C")?;
        let copy = np.getattr("array")?.call((array, dtype), Some(&kwargs))?;
        return Ok(copy.cast_into::<PyUntypedArray>()?);
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item("order", "C")?;
    let array = np.getattr("asarray")?.call((obj,), Some(&kwargs))?;
    Ok(array.cast_into::<PyUntypedArray>()?)
}

/// Arrays from this size on are allocated by `numpy.zeros` through Python, which raises
/// `MemoryError` when the memory is not there (rust-numpy's `zeros` panics instead); smaller
/// ones directly.
const CHECKED_FROM: usize = 1 << 16;

/// A new zeroed array of `shape`: `ValueError` naming `name` when its size overflows,
/// `MemoryError` when it cannot be allocated, never a panic or an abort.
pub fn zeros<'py, T: Element>(
    py: Python<'py>,
    name: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyArrayDyn<T>>> {
    let bytes = shape
        .iter()
        .try_fold(size_of::<T>(), |acc, &d| acc.checked_mul(d))
        .filter(|&b| isize::try_from(b).is_ok());
    let Some(bytes) = bytes else {
        return Err(PyValueError::new_err(format!(
            "argument `{name}` asks for an array of shape {shape:?}, too large to exist"
        )));
    };
    if bytes < CHECKED_FROM {
        return Ok(PyArrayDyn::<T>::zeros(py, shape, false));
    }
    let array = numpy::get_array_module(py)?
        .getattr("zeros")?
        .call1((PyTuple::new(py, shape)?, T::get_dtype(py)))?;
    Ok(array.cast_into::<PyArrayDyn<T>>()?)
}

/// A vector of `n` copies of `value`: `MemoryError` instead of an abort when it cannot be
/// allocated, `ValueError` naming `name` when its size overflows.
pub fn try_vec<T: Clone>(name: &str, n: usize, value: T) -> PyResult<Vec<T>> {
    if n.checked_mul(size_of::<T>())
        .is_none_or(|bytes| isize::try_from(bytes).is_err())
    {
        return Err(PyValueError::new_err(format!(
            "argument `{name}` is too large: {n} items"
        )));
    }
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        PyMemoryError::new_err(format!("argument `{name}`: cannot allocate {n} items"))
    })?;
    v.resize(n, value);
    Ok(v)
}

/// An integer argument: a Python or numpy integer of any width, range-checked into `T`;
/// floats, strings and bools raise `TypeError` (PyO3 names the argument).
#[derive(Clone, Copy, Debug)]
pub struct Int<T>(pub T);

impl<'a, 'py, T: FromPyObjectOwned<'py>> FromPyObject<'a, 'py> for Int<T> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        reject_bool(&obj)?;
        Ok(Int(obj.extract::<T>().map_err(Into::into)?))
    }
}

/// `TypeError` for a Python or numpy bool where an integer is expected (both convert to an
/// integer silently otherwise).
pub fn reject_bool(obj: &Bound<'_, PyAny>) -> PyResult<()> {
    let numpy_bool = obj
        .get_type()
        .name()
        .is_ok_and(|name| name.to_str().is_ok_and(|n| n == "bool" || n == "bool_"));
    if obj.is_instance_of::<PyBool>() || numpy_bool {
        return Err(PyTypeError::new_err("expected an integer, got a bool"));
    }
    Ok(())
}

/// The numpy name of an array's dtype, for error messages.
pub fn dtype_name(array: &Bound<'_, PyUntypedArray>) -> String {
    array.dtype().to_string()
}

/// An integer array of any width and sign, borrowed read-only.
pub enum Ints<'py> {
    I8(PyReadonlyArrayDyn<'py, i8>),
    I16(PyReadonlyArrayDyn<'py, i16>),
    I32(PyReadonlyArrayDyn<'py, i32>),
    I64(PyReadonlyArrayDyn<'py, i64>),
    U8(PyReadonlyArrayDyn<'py, u8>),
    U16(PyReadonlyArrayDyn<'py, u16>),
    U32(PyReadonlyArrayDyn<'py, u32>),
    U64(PyReadonlyArrayDyn<'py, u64>),
}

/// The data of an [`Ints`]: a plain slice, which can cross into code that runs without the GIL.
#[derive(Clone, Copy)]
pub enum IntSlice<'a> {
    I8(&'a [i8]),
    I16(&'a [i16]),
    I32(&'a [i32]),
    I64(&'a [i64]),
    U8(&'a [u8]),
    U16(&'a [u16]),
    U32(&'a [u32]),
    U64(&'a [u64]),
}

pub use crate::kernels::Code;

/// Runs `$body` with `$s` bound to the typed slice of an [`IntSlice`].
macro_rules! with_int_slice {
    ($slice:expr, |$s:ident| $body:expr) => {
        match $slice {
            $crate::arrays::IntSlice::I8($s) => $body,
            $crate::arrays::IntSlice::I16($s) => $body,
            $crate::arrays::IntSlice::I32($s) => $body,
            $crate::arrays::IntSlice::I64($s) => $body,
            $crate::arrays::IntSlice::U8($s) => $body,
            $crate::arrays::IntSlice::U16($s) => $body,
            $crate::arrays::IntSlice::U32($s) => $body,
            $crate::arrays::IntSlice::U64($s) => $body,
        }
    };
}
pub(crate) use with_int_slice;

impl<'py> Ints<'py> {
    /// Reads `obj` as an integer array (any of int8 to int64, uint8 to uint64), or raises a
    /// `TypeError` naming `name`.
    pub fn read(name: &str, obj: &Bound<'py, PyAny>) -> PyResult<Ints<'py>> {
        let array = contiguous(obj)?;
        macro_rules! try_as {
            ($($variant:ident: $t:ty),*) => {$(
                if let Ok(typed) = array.cast::<PyArrayDyn<$t>>() {
                    return Ok(Ints::$variant(typed.try_readonly()?));
                }
            )*};
        }
        try_as!(I8: i8, I16: i16, I32: i32, I64: i64, U8: u8, U16: u16, U32: u32, U64: u64);
        Err(PyTypeError::new_err(format!(
            "argument `{name}` must be an integer array (int8 to int64 or uint8 to uint64), got dtype {}",
            dtype_name(&array)
        )))
    }

    /// The shape of the array.
    pub fn shape(&self) -> Vec<usize> {
        match self {
            Ints::I8(a) => a.shape().to_vec(),
            Ints::I16(a) => a.shape().to_vec(),
            Ints::I32(a) => a.shape().to_vec(),
            Ints::I64(a) => a.shape().to_vec(),
            Ints::U8(a) => a.shape().to_vec(),
            Ints::U16(a) => a.shape().to_vec(),
            Ints::U32(a) => a.shape().to_vec(),
            Ints::U64(a) => a.shape().to_vec(),
        }
    }

    /// The data, in C order.
    pub fn slice(&self) -> PyResult<IntSlice<'_>> {
        Ok(match self {
            Ints::I8(a) => IntSlice::I8(a.as_slice()?),
            Ints::I16(a) => IntSlice::I16(a.as_slice()?),
            Ints::I32(a) => IntSlice::I32(a.as_slice()?),
            Ints::I64(a) => IntSlice::I64(a.as_slice()?),
            Ints::U8(a) => IntSlice::U8(a.as_slice()?),
            Ints::U16(a) => IntSlice::U16(a.as_slice()?),
            Ints::U32(a) => IntSlice::U32(a.as_slice()?),
            Ints::U64(a) => IntSlice::U64(a.as_slice()?),
        })
    }
}

/// Reads `obj` as an array of exactly dtype `T` (named `dtype` in errors) whose last axes are
/// `tail`, or raises `TypeError` / `ValueError` naming `name`. For int8 (boards, moves,
/// planes), an array of any other integer dtype is converted once, a value that does not fit
/// becoming -128 (not a cell, a player or a move); floats and bools are a `TypeError`.
pub fn typed<'py, T: Element + 'static>(
    name: &str,
    obj: &Bound<'py, PyAny>,
    dtype: &str,
    tail: &[usize],
) -> PyResult<PyReadonlyArrayDyn<'py, T>> {
    let mut array = contiguous(obj)?;
    if TypeId::of::<T>() == TypeId::of::<i8>() && array.cast::<PyArrayDyn<T>>().is_err() {
        array = to_int8(obj.py(), name, &array)?;
    }
    let Ok(typed) = array.cast::<PyArrayDyn<T>>() else {
        return Err(PyTypeError::new_err(format!(
            "argument `{name}` must have dtype {dtype}, got {}",
            dtype_name(&array)
        )));
    };
    check_tail(name, typed.shape(), tail)?;
    Ok(typed.try_readonly()?)
}

/// An integer array of any dtype as int8 (values that do not fit become -128), or the array
/// itself when its dtype is not an integer one (the caller's type check then names it).
fn to_int8<'py>(
    py: Python<'py>,
    name: &str,
    array: &Bound<'py, PyUntypedArray>,
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let Ok(ints) = Ints::read(name, array.as_any()) else {
        return Ok(array.clone());
    };
    let converted = zeros::<i8>(py, name, &ints.shape())?;
    {
        let mut guard = converted.try_readwrite()?;
        let dst = guard.as_slice_mut()?;
        with_int_slice!(ints.slice()?, |s| {
            for (d, v) in dst.iter_mut().zip(s) {
                *d = v.to_i8();
            }
        });
    }
    Ok(converted.into_any().cast_into::<PyUntypedArray>()?)
}

/// Checks that `shape` ends with `tail`.
pub fn check_tail(name: &str, shape: &[usize], tail: &[usize]) -> PyResult<()> {
    if shape.len() < tail.len() || !shape.ends_with(tail) {
        return Err(PyValueError::new_err(format!(
            "argument `{name}` must have shape (..., {}), got {shape:?}",
            tail.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(())
}

/// The output array: `out` checked (dtype `T`, exactly `shape`, C-contiguous, writeable), or a
/// new zeroed array.
pub fn output<'py, T: Element>(
    py: Python<'py>,
    out: Option<Bound<'py, PyAny>>,
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyArrayDyn<T>>> {
    let Some(out) = out else {
        return zeros::<T>(py, "out", shape);
    };
    let Ok(array) = out.cast_into::<PyArrayDyn<T>>() else {
        return Err(PyTypeError::new_err(format!(
            "argument `out` must be a numpy array of dtype {dtype}"
        )));
    };
    if array.shape() != shape {
        return Err(PyValueError::new_err(format!(
            "argument `out` must have shape {shape:?}, got {:?}",
            array.shape()
        )));
    }
    if !array.is_c_contiguous() || !array.is_aligned() {
        return Err(PyValueError::new_err(
            "argument `out` must be C-contiguous and aligned",
        ));
    }
    writeable("out", array.as_untyped())?;
    Ok(array)
}

/// `ValueError` naming `name` unless numpy lets the array be written.
pub fn writeable(name: &str, array: &Bound<'_, PyUntypedArray>) -> PyResult<()> {
    if array.getattr("flags")?.getattr("writeable")?.is_truthy()? {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "argument `{name}` is read-only: pass a writeable array"
    )))
}

/// Runs `work` on the input and output slices without the GIL.
pub fn fill<'py, T: Element + Send, F>(
    py: Python<'py>,
    out: &Bound<'py, PyArrayDyn<T>>,
    work: F,
) -> PyResult<()>
where
    F: FnOnce(&mut [T]) + Send,
{
    let mut guard = out.try_readwrite().map_err(|error| {
        PyValueError::new_err(format!(
            "argument `out` cannot be written ({error}): it must be writeable and not one of the inputs"
        ))
    })?;
    let slice = guard.as_slice_mut()?;
    py.detach(|| work(slice));
    Ok(())
}

/// A symmetry argument: one for all items, or one per item.
pub enum PerItem<'py> {
    /// The same value for every item.
    One(u32),
    /// One value per item.
    Each(Ints<'py>),
}

/// The data of a [`PerItem`].
#[derive(Clone, Copy)]
pub enum PerItemSlice<'a> {
    /// The same value for every item.
    One(u32),
    /// One value per item.
    Each(IntSlice<'a>),
}

impl<'py> PerItem<'py> {
    /// Reads a Python int or an integer array of shape `items` (values checked by the caller).
    pub fn read(name: &str, obj: &Bound<'py, PyAny>, items: &[usize]) -> PyResult<PerItem<'py>> {
        reject_bool(obj).map_err(|_| {
            PyTypeError::new_err(format!("argument `{name}` must be an int, got a bool"))
        })?;
        if let Ok(value) = obj.extract::<i64>()
            && obj.cast::<PyUntypedArray>().is_err()
        {
            return Ok(PerItem::One(u32::try_from(value).unwrap_or(u32::MAX)));
        }
        let ints = Ints::read(name, obj)?;
        let shape = ints.shape();
        if shape.is_empty() {
            let value = with_int_slice!(ints.slice()?, |s| s[0].to_code());
            return Ok(PerItem::One(value));
        }
        if shape != items {
            return Err(PyValueError::new_err(format!(
                "argument `{name}` must be an int or an integer array of shape {items:?}, got shape {shape:?}"
            )));
        }
        Ok(PerItem::Each(ints))
    }

    /// The data.
    pub fn slice(&self) -> PyResult<PerItemSlice<'_>> {
        Ok(match self {
            PerItem::One(value) => PerItemSlice::One(*value),
            PerItem::Each(ints) => PerItemSlice::Each(ints.slice()?),
        })
    }

    /// Raises `ValueError` naming `name` unless every value is below `limit`.
    pub fn check_below(&self, name: &str, limit: u32, what: &str) -> PyResult<()> {
        let bad = match self.slice()? {
            PerItemSlice::One(value) => (value >= limit).then_some(value),
            PerItemSlice::Each(slice) => with_int_slice!(slice, |s| s
                .iter()
                .map(|v| v.to_code())
                .find(|&v| v >= limit)),
        };
        match bad {
            Some(value) => Err(PyValueError::new_err(format!(
                "argument `{name}` must hold {what} (0 to {}), got {}",
                limit - 1,
                if value == u32::MAX {
                    "a negative or huge value".to_string()
                } else {
                    value.to_string()
                }
            ))),
            None => Ok(()),
        }
    }
}

impl PerItemSlice<'_> {
    /// The value for item `i`.
    #[inline]
    pub fn at(self, i: usize) -> u32 {
        match self {
            PerItemSlice::One(value) => value,
            PerItemSlice::Each(slice) => with_int_slice!(slice, |s| s[i].to_code()),
        }
    }
}
