//! The batched kernel of ultimate tic-tac-toe: [`UltimateKernel`], the counterpart of
//! [`super::EnvKernel`] and the family kernel for `BatchedEnv(n, game="ultimate")`, the
//! PettingZoo environment and the Gymnasium environments with `game="ultimate"`.
//!
//! The games are the library's [`Position`] (`tictactoe::ultimate`). Two action conventions:
//!
//! | `actions` | action space | what an action does |
//! |---|---|---|
//! | `flat` (default) | 81 | move `9 * board + cell` |
//! | `openspiel` | 9 | OpenSpiel's two steps: when the mover may choose the board, the action chooses it (no mark, same mover, no reward), then the cell; when it is sent to a board, the cell |
//!
//! and two observation layouts:
//!
//! | `observation` | dtype, shape | what |
//! |---|---|---|
//! | `planes` (default) | uint8 `(3, 9, 9)`, indexed `[plane, board, cell]` | the viewer's marks, the other's, the legal moves (with `openspiel` actions after a board choice: that board's empty cells; none once the game is over) |
//! | `openspiel` | float32 `(254,)` | pyspiel's `observation_tensor` of `ultimate_tic_tac_toe`: planes empty, O, X by `[board, cell]`, the current player (0 for X), the forced board one-hot over ten (9: free choice); once over, as pyspiel leaves them, the last mover and the last move's cell |
//!
//! The other fields are the family's: `mask` (0/1 per action; all ones once a game is over,
//! except in the `pettingzoo` convention, where it stays the legal actions), `rewards` (`f32`
//! by player id), `terminated`, `truncated`, `player` (`i32`, the viewer) and `final_obs`.
//! A step of a game that goes on updates the `planes` in place (the two mark planes swap
//! when the viewer changes, the mark is one byte) and rewrites the legal plane, the mask and
//! the player from the 81-bit legal set; pyspiel's tensor is updated in place too (two values
//! a mark, then the player and the forced board); a game that starts or ends is written whole.
//!
//! Four rooms: [`rules`] holds the games and the steps in plain Rust (its tests run without
//! an interpreter); [`wide`] the AVX2, BMI2 and AVX-512 stores and loops, which the default
//! options (flat actions, `planes`) run where the CPU has them; [`ahead`] the default options'
//! `sample_actions`, drawn by the step before it; this module is the PyO3 class: arguments
//! checked and converted, the buffer, the GIL released for large batches.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::kernel::{self, Buffer, Common};
use super::shared::{self, Convention};
use super::tables::splitmix;
use crate::arrays::{Int, try_vec, zeros};
use crate::choice::{self, Choice};
use std::sync::Mutex;
use tictactoe::ultimate::agents::{Agent, Strategy};

mod ahead;
mod rules;
mod wide;

use ahead::{Ahead, Loops};
use rules::{Actions, Core, Game, NONE, Observation, Opponent, Setup, write_mask, write_planes};

/// The most games a kernel holds, so that no size computation overflows (a game takes under
/// 3 KiB of buffer and state with the pyspiel tensor).
const MAX_GAMES: usize = (isize::MAX as usize) >> 13;

impl Choice for Actions {
    const ALL: &'static [Self] = &[Actions::Flat, Actions::OpenSpiel];

    fn name(self) -> &'static str {
        match self {
            Actions::Flat => "flat",
            Actions::OpenSpiel => "openspiel",
        }
    }
}

impl Choice for Observation {
    const ALL: &'static [Self] = &[Observation::Planes, Observation::OpenSpiel];

    fn name(self) -> &'static str {
        match self {
            Observation::Planes => "planes",
            Observation::OpenSpiel => "openspiel",
        }
    }
}

/// `opponent`: `"random"` (the game's own stream), `"external"`, or one of the library's
/// players (`"heuristic"`, `"mcts"`, `"mcts:N"`).
fn read_opponent(text: &str) -> PyResult<Opponent> {
    if text == "random" {
        return Ok(Opponent::Random);
    }
    Ok(kernel::read_opponent::<Strategy>(text)?.map_or(Opponent::External, Opponent::Builtin))
}

/// The built-in player of `setup` (gym convention, `Opponent::Builtin`), seeded from `seed`.
fn agent(setup: Setup, seed: u64) -> Option<Mutex<Agent>> {
    match (setup.convention, setup.opponent) {
        (Convention::Gym, Opponent::Builtin(strategy)) => {
            let mut state = seed;
            Some(Mutex::new(Agent::new(strategy, splitmix(&mut state))))
        }
        _ => None,
    }
}

/// `N` games of ultimate tic-tac-toe stepped together, writing into numpy buffers it owns
/// (see the module docs).
#[pyclass(module = "tictactoe_rs._native")]
pub struct UltimateKernel {
    setup: Setup,
    games: Vec<Game>,
    /// Every output field, and the snapshot for `rollback`.
    buffer: Buffer<Vec<Game>>,
    /// The actions of the current call, reused.
    scratch: Vec<usize>,
    /// The built-in player (`heuristic`, `mcts:N`; gym convention), shared by the games.
    agent: Option<Mutex<Agent>>,
    /// The next `sample_actions` of the default options, drawn by the step before it.
    ahead: Ahead,
}

/// Borrows the buffer and runs `$body` with `$core` (the games' rules, the driver's view) and
/// `$games`, without the GIL for large batches ([`Buffer::run`]).
macro_rules! with_games {
    ($self:ident, $py:ident, |$core:ident, $games:ident, $out:ident| $body:expr) => {{
        let (setup, agent) = ($self.setup, $self.agent.as_ref());
        $self
            .buffer
            .run($py, &mut $self.games, |$games, $out, stop| {
                // `set_first` only reads it.
                #[allow(unused_mut)]
                let mut $core = Core::new(setup, agent, Some(stop));
                $body
            })?
    }};
}

impl UltimateKernel {
    /// Whether the opponent is external (moves from Python, `finish`).
    fn external(&self) -> bool {
        self.setup.convention == Convention::Gym && self.setup.opponent == Opponent::External
    }

    /// Reads `obj`, a 1-d integer array (or a list, as numpy reads it) of `n` actions below
    /// `limit`, into `values`; errors name `name`, the game and the value.
    fn read_actions(
        &self,
        name: &str,
        obj: &Bound<'_, PyAny>,
        limit: usize,
        values: &mut Vec<usize>,
    ) -> PyResult<()> {
        let bad = kernel::read_actions(name, obj, self.games.len(), limit, values)?;
        if let Some((i, v)) = bad {
            let what = if limit == 81 {
                "a move 9 * board + cell (0 to 80)"
            } else {
                "a board or cell (0 to 8)"
            };
            return Err(PyValueError::new_err(format!(
                "argument `{name}` holds {v} at game {i}, not {what}"
            )));
        }
        Ok(())
    }
}

#[pymethods]
impl UltimateKernel {
    /// A kernel of `n` games of ultimate tic-tac-toe; `reset` must be called before `step`.
    /// `convention`, `autoreset`, `seat`, `illegal_reward` and `seed` are `EnvKernel`'s;
    /// `actions` is `"flat"` or `"openspiel"`, `observation` `"planes"` or `"openspiel"`;
    /// the opponent (gym only) is `"random"` (each game's own stream), one of the library's
    /// players shared by the games (`"heuristic"`, `"mcts"`, `"mcts:N"`, seeded from `seed`)
    /// or `"external"`.
    // The Python keyword arguments, one parameter each.
    #[allow(clippy::too_many_arguments)]
    #[new]
    #[pyo3(signature = (n, convention, actions="flat", observation="planes", autoreset=None, seat=None, opponent="random", illegal_reward=None, seed=Int(0)))]
    fn new(
        py: Python<'_>,
        n: Int<i64>,
        convention: &Bound<'_, PyAny>,
        actions: &str,
        observation: &str,
        autoreset: Option<&Bound<'_, PyAny>>,
        seat: Option<&Bound<'_, PyAny>>,
        opponent: &str,
        illegal_reward: Option<&Bound<'_, PyAny>>,
        seed: Int<u64>,
    ) -> PyResult<UltimateKernel> {
        let common = Common::read(n, MAX_GAMES, convention, autoreset, seat, illegal_reward)?;
        let n = common.n;
        let setup = Setup {
            convention: common.convention,
            autoreset: common.autoreset,
            seat: common.seat,
            opponent: read_opponent(opponent)?,
            illegal_reward: common.illegal_reward,
            actions: choice::parse::<Actions>("actions", actions)?,
            observation: choice::parse::<Observation>("observation", observation)?,
        };
        let games = kernel::games(n, |i| Game::new(seed.0.wrapping_add(i)))?;
        let external = setup.convention == Convention::Gym && setup.opponent == Opponent::External;
        Ok(UltimateKernel {
            setup,
            games,
            buffer: Buffer::new(py, setup.layout(n), external)?,
            scratch: try_vec("n", n, 0)?,
            agent: agent(setup, seed.0),
            ahead: Ahead::new(try_vec("n", n, 0)?),
        })
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// The number of actions: 81 (`flat`) or 9 (`openspiel`).
    #[getter]
    fn num_actions(&self) -> usize {
        self.setup.actions.count()
    }

    /// Starts the games where `mask` is true (all when `None`), game `i` reseeded with
    /// `seeds[i]` when `seeds` is given (and the built-in player with `seeds[0]`).
    #[pyo3(signature = (seeds=None, mask=None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: Option<numpy::PyReadonlyArray1<'_, u64>>,
        mask: Option<numpy::PyReadonlyArray1<'_, bool>>,
    ) -> PyResult<()> {
        let (seeds, mask) = kernel::reset_args(self.games.len(), seeds, mask)?;
        if let Some(seeds) = &seeds
            && self.agent.is_some()
        {
            self.agent = agent(self.setup, seeds[0]);
        }
        self.ahead.take_back(&mut self.games);
        self.buffer.save(py, &self.games);
        let (seeds, mask) = (seeds.as_deref(), mask.as_deref());
        with_games!(self, py, |core, games, out| {
            shared::reset_all(&mut core, games, seeds, mask, Game::new, out);
        });
        Ok(())
    }

    /// Plays `actions[i]` (a flat move 0 to 80, or with `openspiel` actions a board or cell 0
    /// to 8) in game `i` for the player to move, then the built-in opponent, and writes the
    /// buffers. An action out of range raises before any game moves; an illegal one ends its
    /// game by the convention's rule.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut scratch = std::mem::take(&mut self.scratch);
        let limit = self.setup.actions.count();
        let read = self.read_actions("actions", actions, limit, &mut scratch);
        let result = read.and_then(|()| {
            // Only a kernel with an external opponent keeps a snapshot of the games for
            // `rollback` (taken here): it never draws ahead, so the snapshot's streams are
            // never ahead of the calls.
            let external = self.external();
            self.buffer.save(py, &self.games);
            let ahead = &mut self.ahead;
            with_games!(self, py, |core, games, out| {
                // The default options' loop compiled for them (`Core::flat_planes`).
                match core.flat_planes() {
                    Some(fixed) => ahead.step(Loops::of(fixed), !external, games, &scratch, out),
                    None => {
                        ahead.take_back(games);
                        shared::step_all(&mut core, games, &scratch, out);
                    }
                }
            });
            Ok(())
        });
        self.scratch = scratch;
        result
    }

    /// Writes a uniformly random legal action of each game into `out` (a writeable int64
    /// array of shape `(n,)`), from each game's own stream; any action for a game that is over.
    fn sample_actions(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let core = Core::plain(self.setup);
        let ahead = &mut self.ahead;
        match core.flat_planes() {
            Some(fixed) => kernel::sample_all(py, out, &mut self.games, |games, out| {
                ahead.sample(Loops::of(fixed), games, out);
            }),
            None => {
                ahead.take_back(&mut self.games);
                kernel::sample(py, out, &mut self.games, |game| core.sample(game))
            }
        }
    }

    /// Restores the games and the buffer as they were before the last `reset` or `step`
    /// (external opponent only). Returns whether there was a state to restore.
    fn rollback(&mut self, py: Python<'_>) -> PyResult<bool> {
        self.ahead.take_back(&mut self.games);
        self.buffer.rollback(py, &mut self.games)
    }

    /// The games waiting for an external opponent's move (bool, one per game).
    fn pending<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        kernel::pending_flags(py, self.games.iter().map(|g| g.pending))
    }

    /// The view of player id `viewer` of every game: `planes` observations `(n, 3, 9, 9)`
    /// (its marks, the other's, the legal moves when it is to move) and its legal flat moves
    /// `(n, 81)`, both uint8 copies; for the PettingZoo environment and an external opponent.
    fn views<'py>(
        &self,
        py: Python<'py>,
        viewer: Int<i64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let viewer = kernel::read_viewer(viewer)?;
        let n = self.games.len();
        let obs = zeros::<u8>(py, "n", &[n, 3, 9, 9])?;
        let mask = zeros::<u8>(py, "n", &[n, 81])?;
        {
            let mut obs_w = obs.readwrite();
            let mut mask_w = mask.readwrite();
            let (obs_s, mask_s) = (obs_w.as_slice_mut()?, mask_w.as_slice_mut()?);
            for (i, game) in self.games.iter().enumerate() {
                let legal = if game.done || game.mover != viewer {
                    0
                } else {
                    game.legal_moves()
                };
                let planes = &mut obs_s[243 * i..243 * (i + 1)];
                write_planes(&game.position, game.player_of(viewer), legal, planes);
                write_mask(
                    game,
                    Actions::Flat,
                    legal,
                    &mut mask_s[81 * i..81 * (i + 1)],
                );
            }
        }
        Ok((obs.into_any(), mask.into_any()))
    }

    /// Plays the external opponent's flat move `actions[i]` in each pending game `i` (other
    /// entries are ignored) and completes the step. An illegal move raises `ValueError` (then
    /// `rollback` restores the state before the step).
    fn finish(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut values = Vec::new();
        self.read_actions("actions", actions, 81, &mut values)?;
        self.ahead.take_back(&mut self.games);
        let illegal = with_games!(self, py, |core, games, out| {
            shared::finish_all(&mut core, games, &values, out)
        });
        match illegal {
            Some(i) => Err(kernel::illegal_finish(values[i], i)),
            None => Ok(()),
        }
    }

    /// The positions as text (`tictactoe_rs.ultimate.Position`'s one-line form: nine rows of
    /// nine cells separated by `/`, then the board to play, `0`-`8` or `*`), a list.
    fn boards(&self) -> Vec<String> {
        self.games.iter().map(|g| g.position.to_string()).collect()
    }

    /// With `openspiel` actions, the board each game's mover has chosen (-1 if none), int32.
    fn chosen<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let boards: Vec<i32> = self
            .games
            .iter()
            .map(|g| {
                if g.chosen == NONE {
                    -1
                } else {
                    i32::from(g.chosen)
                }
            })
            .collect();
        PyArray1::from_vec(py, boards)
    }

    /// The id (0 or 1) that plays X in each game, int32, a copy.
    fn first<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let ids: Vec<i32> = self.games.iter().map(|g| i32::from(g.first)).collect();
        PyArray1::from_vec(py, ids)
    }

    /// Sets who plays X in the games where `mask` is true, on empty boards only (pgx and
    /// PettingZoo conventions); rewrites their observations.
    fn set_first(
        &mut self,
        py: Python<'_>,
        first: numpy::PyReadonlyArray1<'_, i32>,
        mask: numpy::PyReadonlyArray1<'_, bool>,
    ) -> PyResult<()> {
        let games = &self.games;
        let (first, mask) =
            kernel::first_args(games.len(), self.setup.convention, first, mask, |i| {
                games[i].position.plies() > 0
            })?;
        self.ahead.take_back(&mut self.games);
        with_games!(self, py, |core, games, out| {
            shared::seat_all(&core, games, &first, &mask, out);
        });
        Ok(())
    }

    /// The one uint8 buffer that holds every output field, rewritten in place by each step.
    #[getter]
    fn buffer<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.buffer.array(py)
    }

    /// `(name, offset, dtype, shape)` of each output field in `buffer` (see `EnvKernel`).
    fn fields(&self) -> Vec<(&'static str, usize, &'static str, Vec<usize>)> {
        self.buffer.fields()
    }
}
