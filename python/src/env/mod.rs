//! Environment kernels: `N` games stepped together in place on numpy buffers.
//!
//! [`EnvKernel`] owns the games (a [`Position`] each, the seat of player 0, a random stream
//! and, for the single-agent convention, the opponent's `Agent`) and the output buffers, which
//! it creates once and rewrites on every step: observation planes, action masks, rewards by
//! player, terminations, truncations, the player to move, and the final observations of the
//! games that ended in a step with same-step auto-reset. The Python classes in
//! `tictactoe_rs.envs` wrap it; the rules, the heuristic and the solver are the library's.
//!
//! Three rooms: [`rules`] holds the games and the conventions in plain Rust (its tests run
//! without an interpreter), [`tables`] the compile-time tables that write observations and pick
//! random cells, and this module the PyO3 layer: arguments checked and converted, the one numpy
//! buffer, the GIL released for large batches, and the snapshot that makes a step with an
//! external opponent atomic ([`EnvKernel::rollback`]). The family kernel ([`family`]) and the
//! ultimate kernel ([`ultimate`]) have the same rooms, a folder each (`rules.rs`, the PyO3
//! class in `mod.rs`); what the three share lives once: [`shared`] in plain Rust (conventions,
//! the buffer's layout, scoring, seats, and the step driver of the family and ultimate kernels;
//! where the kernels differ and why is said there) and [`kernel`] for PyO3 (the buffer, its
//! snapshot and the batch run, argument checks). The 3 × 3 kernel keeps its own step
//! (`rules.rs`): it rewrites observations whole and scores every step (see [`shared`]).
//!
//! Player ids are 0 and 1; `first` is the id that plays X. The conventions differ only where
//! their peers do (see `docs/environments.md`):
//!
//! | | `pgx` | `pettingzoo` | `gym` |
//! |---|---|---|---|
//! | id 0 plays | X or O (random) | X | X, O or random (the agent) |
//! | illegal move | mover -1, other +1 | mover -1, other 0, truncated too | agent `illegal_reward`, ends |
//! | mask at the end | all ones | the empty cells | all ones |
//! | opponent | none | none | built in or a callable (id 1) |

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use tictactoe::agents::Strategy;
use tictactoe::{Bitboard, Board, Cell, Position};

use crate::arrays::{Int, try_vec};

mod family;
mod kernel;
mod rules;
mod shared;
mod tables;
mod ultimate;

use kernel::{Buffer, Common};
use rules::{Config, Game, Opponent, Outcome, Pending};
use shared::Convention;
use tables::{pick, splitmix};

/// The most games a kernel holds: its buffer (59 bytes a game), games (32 bytes and an
/// opponent) and scratch space (8 bytes) stay far from `isize::MAX` bytes, so that no size
/// computation can overflow; the allocation itself may still fail, with `MemoryError`.
const MAX_GAMES: usize = (isize::MAX as usize) >> 8;

/// `N` games stepped together, writing into numpy buffers it owns (see the module docs).
#[pyclass(module = "tictactoe_rs._native")]
pub struct EnvKernel {
    config: Config,
    games: Vec<Game>,
    /// Every output field, and the snapshot for [`EnvKernel::rollback`].
    buffer: Buffer<Vec<Game>>,
    /// The actions of the current call, reused.
    scratch: Vec<usize>,
}

impl EnvKernel {
    /// Reads `obj`, a 1-d array of `n` cells (any integer dtype; a list as numpy reads it),
    /// into `values`, or raises `TypeError` / `ValueError` naming argument `name`.
    fn actions(&self, name: &str, obj: &Bound<'_, PyAny>, values: &mut Vec<usize>) -> PyResult<()> {
        match kernel::read_actions(name, obj, self.games.len(), 9, values)? {
            None => Ok(()),
            Some((_, bad)) => Err(PyValueError::new_err(format!(
                "argument `{name}` holds {bad}, not a cell (0 to 8)"
            ))),
        }
    }
}

/// Borrows the buffer and runs `f` on its fields, without the GIL for large batches.
macro_rules! with_out {
    ($self:ident, $py:ident, |$out:ident, $cfg:ident, $games:ident| $body:expr) => {{
        let mut buffer = $self.buffer.array.bind($py).readwrite();
        let mut $out = $self.buffer.layout.split(buffer.as_slice_mut()?);
        let $cfg = $self.config;
        let $games = &mut $self.games;
        kernel::run($py, $games.len(), || $body)
    }};
}

#[pymethods]
impl EnvKernel {
    /// A kernel of `n` games; `reset` must be called before `step`.
    ///
    /// `convention` is `"pgx"`, `"pettingzoo"` or `"gym"`; `autoreset` is `"next_step"`,
    /// `"same_step"` or `"disabled"` (or Gymnasium's spelling, `"NextStep"`, an
    /// `AutoresetMode`, ...); `seat` (who plays X) is player id 0 or 1, or `"random"` (a draw
    /// per game); `opponent` (gym only) is `"random"`, `"heuristic"`, `"perfect"`, `"eps:E"`
    /// or `"external"`.
    // The Python keyword arguments, one parameter each.
    #[allow(clippy::too_many_arguments)]
    #[new]
    #[pyo3(signature = (n, convention, autoreset=None, seat=None, opponent="random", illegal_reward=None, seed=Int(0)))]
    fn new(
        py: Python<'_>,
        n: Int<i64>,
        convention: &Bound<'_, PyAny>,
        autoreset: Option<&Bound<'_, PyAny>>,
        seat: Option<&Bound<'_, PyAny>>,
        opponent: &str,
        illegal_reward: Option<&Bound<'_, PyAny>>,
        seed: Int<u64>,
    ) -> PyResult<EnvKernel> {
        let common = Common::read(n, MAX_GAMES, convention, autoreset, seat, illegal_reward)?;
        let opponent = kernel::read_opponent::<Strategy>(opponent)?
            .map_or(Opponent::External, Opponent::Builtin);
        let config = Config {
            convention: common.convention,
            autoreset: common.autoreset,
            seat: common.seat,
            opponent,
            illegal_reward: common.illegal_reward,
        };
        let n = common.n;
        let external =
            config.opponent == Opponent::External && config.convention == Convention::Gym;
        let games = kernel::games(n, |i| Game::new(seed.0.wrapping_add(i), config.builtin()))?;
        Ok(EnvKernel {
            config,
            games,
            buffer: Buffer::new(py, rules::layout(n), external)?,
            scratch: try_vec("n", n, 0)?,
        })
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// Starts the games where `mask` is true (all when `None`), game `i` reseeded with
    /// `seeds[i]` when `seeds` is given. Clears their rewards and flags.
    #[pyo3(signature = (seeds=None, mask=None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: Option<PyReadonlyArray1<'_, u64>>,
        mask: Option<PyReadonlyArray1<'_, bool>>,
    ) -> PyResult<()> {
        let (seeds, mask) = kernel::reset_args(self.games.len(), seeds, mask)?;
        self.buffer.save(py, &self.games);
        with_out!(self, py, |out, config, games| {
            let strategy = config.builtin();
            for (i, game) in games.iter_mut().enumerate() {
                if mask.as_ref().is_some_and(|m| !m[i]) {
                    continue;
                }
                if let Some(seeds) = &seeds {
                    *game = Game::new(seeds[i], strategy);
                }
                config.restart(game);
                config.score(Outcome::Ongoing, i, &mut out);
                if game.pending == Pending::None {
                    config.observe(game, Outcome::Ongoing, i, &mut out);
                }
            }
        });
        Ok(())
    }

    /// Plays `actions[i]` (a cell 0 to 8) in game `i` for the player to move, then the
    /// built-in opponent, and writes the buffers. With an external opponent, the games of
    /// `pending()` wait for `finish`.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut scratch = std::mem::take(&mut self.scratch);
        let read = self.actions("actions", actions, &mut scratch);
        if read.is_ok() {
            self.buffer.save(py, &self.games);
        }
        let result = read.and_then(|()| {
            with_out!(self, py, |out, config, games| {
                for (i, (game, &action)) in games.iter_mut().zip(&scratch).enumerate() {
                    config.step(game, action as i64, i, &mut out);
                }
            });
            Ok(())
        });
        self.scratch = scratch;
        result
    }

    /// Writes a uniformly random legal action of each game into `out` (int64), from each
    /// game's own stream; any cell for a game that is over.
    fn sample_actions(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        kernel::sample(py, out, &mut self.games, |game| {
            // A game that is not done is ongoing: its empty cells are its moves.
            let set = if game.done {
                Bitboard::FULL
            } else {
                game.position.board().empty_cells()
            };
            let random = (splitmix(&mut game.sample_rng) >> 32) as u32;
            i64::from(pick(set, random))
        })
    }

    /// Restores the games and the buffer as they were before the last `reset` or `step`
    /// (external opponent only): a step whose opponent fails leaves no trace. Returns whether
    /// there was a state to restore.
    fn rollback(&mut self, py: Python<'_>) -> PyResult<bool> {
        self.buffer.rollback(py, &mut self.games)
    }

    /// The games waiting for an external opponent's move (bool, one per game).
    fn pending<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        kernel::pending_flags(py, self.games.iter().map(|g| g.pending))
    }

    /// Plays the external opponent's `actions[i]` in each pending game `i` (other entries
    /// are ignored) and completes the step. An illegal move raises `ValueError`.
    fn finish(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let actions_arg = actions;
        let mut actions = Vec::new();
        self.actions("actions", actions_arg, &mut actions)?;
        let illegal: Option<usize> = with_out!(self, py, |out, config, games| {
            let mut illegal = None;
            for (i, (game, &action)) in games.iter_mut().zip(&actions).enumerate() {
                if game.pending != Pending::None && !config.finish(game, action as i64, i, &mut out)
                {
                    illegal = Some(i);
                }
            }
            illegal
        });
        match illegal {
            Some(i) => Err(kernel::illegal_finish(actions[i], i)),
            None => Ok(()),
        }
    }

    /// The boards as X and O bit sets (bit `c` is cell `c`), shape `(n, 2)` uint16, a copy.
    fn bits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u16>>> {
        let rows: Vec<Vec<u16>> = self
            .games
            .iter()
            .map(|g| {
                let board = g.position.board();
                vec![board.x().bits(), board.o().bits()]
            })
            .collect();
        PyArray2::from_vec2(py, &rows).map_err(|e| PyRuntimeError::new_err(e.to_string()))
    }

    /// The id (0 or 1) that plays X in each game, int32, a copy.
    fn first<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let ids: Vec<i32> = self.games.iter().map(|g| i32::from(g.first)).collect();
        PyArray1::from_vec(py, ids)
    }

    /// Sets who plays X in the games where `mask` is true, on empty boards only (to follow a
    /// peer's seat draw in a differential test); rewrites their observations.
    fn set_first(
        &mut self,
        py: Python<'_>,
        first: PyReadonlyArray1<'_, i32>,
        mask: PyReadonlyArray1<'_, bool>,
    ) -> PyResult<()> {
        let games = &self.games;
        let (first, mask) =
            kernel::first_args(games.len(), self.config.convention, first, mask, |i| {
                games[i].position != Position::EMPTY
            })?;
        with_out!(self, py, |out, config, games| {
            for (i, game) in games.iter_mut().enumerate() {
                if mask[i] {
                    game.first = first[i] as u8;
                    config.observe(game, Outcome::Ongoing, i, &mut out);
                }
            }
        });
        Ok(())
    }

    /// The one uint8 buffer that holds every output field, rewritten in place by each step;
    /// `fields()` tells where each field lives.
    #[getter]
    fn buffer<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.buffer.array(py)
    }

    /// `(name, offset, dtype, shape)` of each output field in `buffer`: `obs` (0/1 planes seen
    /// by `player`), `mask` (0/1), `rewards` (by player id), `terminated`, `truncated`,
    /// `player` (the viewer: the player to move) and `final_obs` (same-step auto-reset: the
    /// last observation of the games that ended in the last step).
    fn fields(&self) -> Vec<(&'static str, usize, &'static str, Vec<usize>)> {
        self.buffer.fields()
    }
}

fn position(x: u16, o: u16) -> PyResult<Position> {
    let (x, o) = (Bitboard::from_bits(x), Bitboard::from_bits(o));
    let (Some(x), Some(o)) = (x, o) else {
        return Err(PyValueError::new_err("x, o: expected 9-bit sets"));
    };
    let board =
        Board::from_bitboards(x, o).map_err(|e| PyValueError::new_err(format!("x, o: {e}")))?;
    Position::try_from(board).map_err(|e| PyValueError::new_err(format!("x, o: {e}")))
}

/// Plays `cell` at the board `(x, o)` for the side to move: the new `(x, o, status)` with
/// status 0 ongoing, 1 X won, 2 O won, 3 draw. Raises `ValueError` for an illegal move.
#[pyfunction]
fn play_move(x: Int<u16>, o: Int<u16>, cell: Int<i64>) -> PyResult<(u16, u16, i8)> {
    let position = position(x.0, o.0)?;
    let cell = usize::try_from(cell.0)
        .ok()
        .and_then(|c| Cell::try_from(c).ok())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "argument `cell` must be a cell, 0 to 8, got {}",
                cell.0
            ))
        })?;
    let next = position
        .play(cell)
        .map_err(|e| PyValueError::new_err(format!("argument `cell`: {e}")))?;
    let status = crate::tables::status_code(next.status());
    let board = next.board();
    Ok((board.x().bits(), board.o().bits(), status))
}

/// Adds the environment functions and classes to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EnvKernel>()?;
    m.add_class::<family::FamilyKernel>()?;
    m.add_class::<ultimate::UltimateKernel>()?;
    m.add_function(wrap_pyfunction!(play_move, m)?)?;
    Ok(())
}
