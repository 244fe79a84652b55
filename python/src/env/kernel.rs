//! The PyO3 pieces the three kernel classes share (`EnvKernel`, `FamilyKernel`,
//! `UltimateKernel`): the constructor's common arguments, the one numpy buffer and its field
//! list, the snapshot that makes a step with an external opponent atomic (`rollback`), and the
//! checks of `reset`, `step`, `sample_actions` and `set_first` arguments. The rules they step
//! are plain Rust ([`super::shared`] and each kernel's rules module).

use numpy::{
    PyArray1, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;

use super::shared::{Autoreset, Convention, Layout, Out, Pending, Seat};
use crate::arrays::{Code, Int, Ints, with_int_slice, writeable, zeros};
use crate::choice::{self, Choice};
use crate::mnk::Interrupt;

/// Batches from this size on release the GIL while they step (about 25 us of work at 40
/// million steps per second); smaller ones keep it, so a step of one game is one plain call.
pub const DETACH_MIN: usize = 1024;

/// Runs `work` on a batch of `n` games: without the GIL from [`DETACH_MIN`] games on.
#[inline(always)]
pub fn run<T, F>(py: Python<'_>, n: usize, work: F) -> T
where
    T: pyo3::marker::Ungil,
    F: FnOnce() -> T + pyo3::marker::Ungil,
{
    if n >= DETACH_MIN {
        py.detach(work)
    } else {
        work()
    }
}

/// Whether each game waits for an external opponent's move, as a numpy bool array.
pub fn pending_flags<'py>(
    py: Python<'py>,
    pending: impl Iterator<Item = Pending>,
) -> Bound<'py, PyArray1<bool>> {
    PyArray1::from_vec(py, pending.map(|p| p != Pending::None).collect())
}

impl Choice for Convention {
    const ALL: &'static [Self] = &[Convention::Pgx, Convention::PettingZoo, Convention::Gym];

    fn name(self) -> &'static str {
        match self {
            Convention::Pgx => "pgx",
            Convention::PettingZoo => "pettingzoo",
            Convention::Gym => "gym",
        }
    }
}

impl Choice for Autoreset {
    const ALL: &'static [Self] = &[
        Autoreset::NextStep,
        Autoreset::SameStep,
        Autoreset::Disabled,
    ];

    fn name(self) -> &'static str {
        match self {
            Autoreset::NextStep => "next_step",
            Autoreset::SameStep => "same_step",
            Autoreset::Disabled => "disabled",
        }
    }

    /// Gymnasium's `AutoresetMode` values.
    fn aliases(self) -> &'static [&'static str] {
        match self {
            Autoreset::NextStep => &["NextStep"],
            Autoreset::SameStep => &["SameStep"],
            Autoreset::Disabled => &["Disabled"],
        }
    }
}

/// The constructor arguments every kernel takes, read and checked.
#[derive(Clone, Copy, Debug)]
pub struct Common {
    pub n: usize,
    pub convention: Convention,
    pub autoreset: Autoreset,
    pub seat: Seat,
    pub illegal_reward: f32,
}

impl Common {
    /// Reads `n` (1 to `max_games`), `convention`, `autoreset` (same-step when `None`),
    /// `seat` (random when `None`) and `illegal_reward` (-1 when `None`); errors name the
    /// argument.
    pub fn read(
        n: Int<i64>,
        max_games: usize,
        convention: &Bound<'_, PyAny>,
        autoreset: Option<&Bound<'_, PyAny>>,
        seat: Option<&Bound<'_, PyAny>>,
        illegal_reward: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Common> {
        let illegal_reward = read_reward(illegal_reward)?;
        let n = match usize::try_from(n.0) {
            Ok(n) if (1..=max_games).contains(&n) => n,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "argument `n` must be 1 to {max_games} games, got {}",
                    n.0
                )));
            }
        };
        Ok(Common {
            n,
            convention: choice::extract::<Convention>("convention", convention)?,
            autoreset: match autoreset {
                Some(value) => choice::extract::<Autoreset>("autoreset", value)?,
                None => Autoreset::SameStep,
            },
            seat: seat.map_or(Ok(Seat::Random), read_seat)?,
            illegal_reward,
        })
    }
}

/// `opponent`: `"external"` (`None`: moves from Python) or a built-in player's name, parsed
/// as `T`; the error names the argument and lists the choices.
pub fn read_opponent<T>(text: &str) -> PyResult<Option<T>>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    if text == "external" {
        return Ok(None);
    }
    text.parse::<T>().map(Some).map_err(|e| {
        PyValueError::new_err(format!(
            "argument `opponent`: {e} or external, got {text:?}"
        ))
    })
}

/// `viewer`: player id 0 or 1.
pub fn read_viewer(viewer: Int<i64>) -> PyResult<u8> {
    match viewer.0 {
        0 => Ok(0),
        1 => Ok(1),
        v => Err(PyValueError::new_err(format!(
            "argument `viewer` must be player id 0 or 1, got {v}"
        ))),
    }
}

/// A seat: player id 0 or 1 (any integer type), or `"random"`.
fn read_seat(value: &Bound<'_, PyAny>) -> PyResult<Seat> {
    if let Ok(text) = value.extract::<&str>() {
        if text == "random" {
            return Ok(Seat::Random);
        }
    } else if let Ok(Int(id)) = value.extract::<Int<i64>>() {
        match id {
            0 => return Ok(Seat::Zero),
            1 => return Ok(Seat::One),
            _ => {}
        }
    }
    Err(PyValueError::new_err(format!(
        "argument `seat` must be player id 0 or 1, or \"random\", got {}",
        value.repr()?
    )))
}

/// `illegal_reward`: a finite number (not a bool), -1 when `None`.
fn read_reward(value: Option<&Bound<'_, PyAny>>) -> PyResult<f32> {
    match value {
        None => Ok(-1.0),
        // A bool is an int to Python; as a reward it is a slip, not a number.
        Some(value) if value.is_instance_of::<pyo3::types::PyBool>() => Err(PyTypeError::new_err(
            "argument `illegal_reward` must be a number, got bool",
        )),
        Some(value) => {
            let reward: f32 = value.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "argument `illegal_reward` must be a number, got {}",
                    value
                        .get_type()
                        .name()
                        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
                ))
            })?;
            if !reward.is_finite() {
                return Err(PyValueError::new_err(format!(
                    "argument `illegal_reward` must be finite, got {reward}"
                )));
            }
            Ok(reward)
        }
    }
}

/// `n` games made by `make(i)`, or `MemoryError` naming argument `n`.
pub fn games<G>(n: usize, make: impl FnMut(u64) -> G) -> PyResult<Vec<G>> {
    let mut games = Vec::new();
    games
        .try_reserve_exact(n)
        .map_err(|_| PyMemoryError::new_err(format!("argument `n`: cannot allocate {n} games")))?;
    games.extend((0..n as u64).map(make));
    Ok(games)
}

/// The one uint8 numpy buffer of a kernel, which holds every output field ([`Layout`]), and the
/// snapshot of the games `S` and the buffer kept for `rollback`.
pub struct Buffer<S> {
    pub layout: Layout,
    pub array: Py<PyArray1<u8>>,
    /// The games wait for an external opponent (gym convention): [`Buffer::save`] keeps them.
    external: bool,
    /// With an external opponent: the games and the buffer as they were before the current
    /// `reset` or `step`, which [`Buffer::rollback`] restores when the opponent fails.
    saved: Option<(S, Vec<u8>)>,
}

impl<S: Clone> Buffer<S> {
    /// A zeroed buffer of `layout`, for games whose opponent is `external` (gym convention)
    /// or not.
    pub fn new(py: Python<'_>, layout: Layout, external: bool) -> PyResult<Buffer<S>> {
        let total = layout.offsets().1;
        let array = zeros::<u8>(py, "n", &[total])?.cast_into::<PyArray1<u8>>()?;
        Ok(Buffer {
            layout,
            array: array.unbind(),
            external,
            saved: None,
        })
    }

    /// Keeps `games` and the buffer for [`Buffer::rollback`] when the opponent is external; a
    /// kernel calls it before each `reset` and `step`.
    pub fn save(&mut self, py: Python<'_>, games: &S) {
        if !self.external {
            return;
        }
        let bytes = self
            .array
            .bind(py)
            .readonly()
            .as_slice()
            .map(<[u8]>::to_vec);
        self.saved = bytes.ok().map(|bytes| (games.clone(), bytes));
    }

    /// Restores the games and the buffer as they were before the last `reset` or `step`;
    /// whether there was a state to restore.
    pub fn rollback(&mut self, py: Python<'_>, games: &mut S) -> PyResult<bool> {
        let Some((saved, bytes)) = self.saved.take() else {
            return Ok(false);
        };
        *games = saved;
        let mut buffer = self.array.bind(py).try_readwrite()?;
        buffer.as_slice_mut()?.copy_from_slice(&bytes);
        Ok(true)
    }

    /// Borrows the fields and runs `work` on them and `games`, without the GIL from
    /// [`DETACH_MIN`] games on; `work` gets the stop flag that a built-in opponent's search
    /// asks as it goes. Ctrl-C during such a search: the games played on (a search cut short
    /// still answers a move) and the call raises the `KeyboardInterrupt` once they are done.
    pub fn run<T, F>(&self, py: Python<'_>, games: &mut S, work: F) -> PyResult<T>
    where
        S: Send,
        T: Send,
        F: FnOnce(&mut S, &mut Out<'_>, &(dyn Fn() -> bool + Sync)) -> T + Send,
    {
        let mut buffer = self.array.bind(py).readwrite();
        let mut out = self.layout.split(buffer.as_slice_mut()?);
        let interrupt = Interrupt::new();
        let stop = || interrupt.stop();
        let value = run(py, self.layout.n, || work(games, &mut out, &stop));
        match interrupt.raised() {
            Some(error) => Err(error),
            None => Ok(value),
        }
    }

    /// The numpy array (the object itself, not a copy).
    pub fn array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.array.bind(py).clone()
    }

    /// `(name, offset, dtype, shape)` of each output field.
    pub fn fields(&self) -> Vec<(&'static str, usize, &'static str, Vec<usize>)> {
        self.layout.fields()
    }
}

/// The `seeds` and `mask` of a `reset` of `n` games, as vectors, each checked to hold `n`
/// entries.
pub type ResetArgs = (Option<Vec<u64>>, Option<Vec<bool>>);

/// Reads the `seeds` and `mask` of `reset` for `n` games.
pub fn reset_args(
    n: usize,
    seeds: Option<PyReadonlyArray1<'_, u64>>,
    mask: Option<PyReadonlyArray1<'_, bool>>,
) -> PyResult<ResetArgs> {
    let seeds = seeds
        .map(|s| s.as_slice().map(<[u64]>::to_vec))
        .transpose()?;
    let mask = mask
        .map(|m| m.as_slice().map(<[bool]>::to_vec))
        .transpose()?;
    if seeds.as_ref().is_some_and(|s| s.len() != n) {
        return Err(PyValueError::new_err(format!(
            "argument `seeds`: expected {n} seeds"
        )));
    }
    if mask.as_ref().is_some_and(|m| m.len() != n) {
        return Err(PyValueError::new_err(format!(
            "argument `mask`: expected {n} flags"
        )));
    }
    Ok((seeds, mask))
}

/// Reads `obj`, a 1-d integer array (or a list, as numpy reads it) of `n` actions, into
/// `values`; a shape other than `(n,)` raises, naming `name`. Returns the first entry that is
/// not below `limit` as `(game, value)`, for the caller to say what an action is.
pub fn read_actions(
    name: &str,
    obj: &Bound<'_, PyAny>,
    n: usize,
    limit: usize,
    values: &mut Vec<usize>,
) -> PyResult<Option<(usize, i64)>> {
    values.clear();
    let ints = Ints::read(name, obj)?;
    if ints.shape() != [n] {
        return Err(PyValueError::new_err(format!(
            "argument `{name}` must have shape ({n},), got {:?}",
            ints.shape()
        )));
    }
    let mut bad = None;
    // Two passes, each a plain loop the compiler vectorises: the check, then the copy (one
    // loop that pushes and breaks at the first bad value took 4% of an ultimate env-step).
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    with_int_slice!(ints.slice()?, |s| {
        match s
            .iter()
            .position(|v| !(0..limit).contains(&(v.to_bits() as i64)))
        {
            Some(i) => bad = Some((i, s[i].to_bits() as i64)),
            None => values.extend(s.iter().map(|v| v.to_bits() as i64 as usize)),
        }
    });
    Ok(bad)
}

/// `out` of `sample_actions`: a writeable, C-contiguous int64 array of shape `(n,)`, borrowed
/// for writing; anything else raises, naming `out`.
pub fn sample_out<'py>(out: &Bound<'py, PyAny>, n: usize) -> PyResult<PyReadwriteArray1<'py, i64>> {
    let Ok(array) = out.cast::<PyArray1<i64>>() else {
        let got = match out.cast::<PyUntypedArray>() {
            Ok(array) => format!(
                "an array of dtype {} and {} dimensions",
                array.dtype(),
                array.ndim()
            ),
            Err(_) => format!("{}", out.get_type().name()?),
        };
        return Err(PyTypeError::new_err(format!(
            "argument `out` must be an int64 array of shape ({n},), got {got}"
        )));
    };
    writeable("out", array.as_untyped())?;
    let mut guard = array
        .try_readwrite()
        .map_err(|e| PyValueError::new_err(format!("argument `out` cannot be written: {e}")))?;
    let len = guard
        .as_slice_mut()
        .map_err(|_| PyValueError::new_err("argument `out` must be C-contiguous and aligned"))?
        .len();
    if len != n {
        return Err(PyValueError::new_err(format!(
            "argument `out` must have shape ({n},), got ({len},)"
        )));
    }
    Ok(guard)
}

/// `sample_actions`: checks `out` ([`sample_out`]) and writes `pick(game)` for each game into
/// it, without the GIL from [`DETACH_MIN`] games on.
pub fn sample<G: Send>(
    py: Python<'_>,
    out: &Bound<'_, PyAny>,
    games: &mut [G],
    pick: impl Fn(&mut G) -> i64 + Sync,
) -> PyResult<()> {
    sample_all(py, out, games, |games, out| {
        for (game, slot) in games.iter_mut().zip(out.iter_mut()) {
            *slot = pick(game);
        }
    })
}

/// [`sample`] with the loop given: `fill(games, out)` writes one action a game.
pub fn sample_all<G: Send>(
    py: Python<'_>,
    out: &Bound<'_, PyAny>,
    games: &mut [G],
    fill: impl FnOnce(&mut [G], &mut [i64]) + Send,
) -> PyResult<()> {
    let mut out = sample_out(out, games.len())?;
    let out = out.as_slice_mut()?;
    run(py, games.len(), || fill(games, out));
    Ok(())
}

/// The `first` and `mask` of `set_first` for `n` games of `convention`, checked: not for the
/// gym convention, only on games that have not `started`, ids 0 or 1.
pub fn first_args(
    n: usize,
    convention: Convention,
    first: PyReadonlyArray1<'_, i32>,
    mask: PyReadonlyArray1<'_, bool>,
    started: impl Fn(usize) -> bool,
) -> PyResult<(Vec<i32>, Vec<bool>)> {
    let (first, mask) = (first.as_slice()?.to_vec(), mask.as_slice()?.to_vec());
    if first.len() != n || mask.len() != n {
        return Err(PyValueError::new_err(format!(
            "first, mask: expected {n} entries each"
        )));
    }
    if convention == Convention::Gym {
        return Err(PyValueError::new_err(
            "set_first: not for the gym convention",
        ));
    }
    if let Some(i) = (0..n).find(|&i| mask[i] && started(i)) {
        return Err(PyValueError::new_err(format!("mask: game {i} has started")));
    }
    if let Some(i) = (0..n).find(|&i| mask[i] && !(0..2).contains(&first[i])) {
        return Err(PyValueError::new_err(format!(
            "first: {} is not 0 or 1",
            first[i]
        )));
    }
    Ok((first, mask))
}

/// The error of `finish` when the external opponent's move `action` in game `i` is illegal.
pub fn illegal_finish(action: usize, i: usize) -> PyErr {
    PyValueError::new_err(format!(
        "actions: the opponent's move {action} in game {i} is illegal"
    ))
}
