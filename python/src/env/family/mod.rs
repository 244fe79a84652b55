//! The batched kernel of the k-in-a-row family (Connect Four, gomoku, any m,n,k game with or
//! without gravity): [`FamilyKernel`], the counterpart of [`super::EnvKernel`] for
//! `BatchedEnv(n, game=...)` and the Gymnasium environments with `game=`.
//!
//! The games are the library's [`Position<W>`]; the bitboard width `W` (1, 2, 4 or 6 words) is
//! picked once from the rules when the kernel is built ([`Games`]), so a step dispatches once
//! per batch and the loop over the games is monomorphic.
//!
//! | field | bytes a game | what |
//! |---|---|---|
//! | `obs`, `final_obs` | `2 × rows × cols` | planes `(rows, cols, 2)`: the viewer's marks, then the other's; row 0 at the top |
//! | `mask` | `actions` | 0/1 per action: columns with gravity, cells without |
//! | `rewards` | 8 | `f32` by player id |
//! | `terminated`, `truncated` | 1 each | numpy bools |
//! | `player` | 4 | `i32`, the viewer |
//!
//! The observation of a game in play is updated in place: a move sets one byte and, when the
//! viewer changes, swaps the two planes (eight bytes at a time); the mask changes at the move's
//! action only, also when the move ends the game. A game that restarts, ends on an illegal move
//! or waits for an external opponent is rewritten whole.
//! The Python views of the buffer are read-only, so the buffer always matches the games.
//!
//! Two rooms: [`rules`] holds the games and the steps in plain Rust (its tests run without an
//! interpreter); this module is the PyO3 class: arguments checked and converted, the width
//! dispatch, the buffer, the GIL released for large batches.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tictactoe::mnk::agents::{Agent, Strategy};
use tictactoe::mnk::{Position, Rules};

use super::kernel::{self, Buffer, Common};
use super::shared::{self, Convention, Pending};
use super::tables::splitmix;
use crate::arrays::{Int, try_vec, zeros};

mod rules;

use rules::{Core, Game, Setup, Stepper, Wide};

/// The most games a kernel holds, so that no size computation overflows: a 19 × 19 game
/// takes under 2 KiB of buffer and state.
const MAX_GAMES: usize = (isize::MAX as usize) >> 12;

/// The games of a kernel at width `W`, and the empty position they restart from.
#[derive(Clone)]
struct Batch<const W: usize> {
    games: Vec<Game<W>>,
    empty: Position<W>,
}

tictactoe::width_enum! {
    /// The games of a kernel, at the width their rules need.
    #[derive(Clone)]
    enum Games(Batch)
}

/// Runs `$body` with `$games` (the typed games) and `$empty` (the empty position) bound.
macro_rules! each {
    ($value:expr, |$games:ident, $empty:ident| $body:expr) => {
        tictactoe::each_width!(Games, $value, batch => {
            let Batch { games: $games, empty: $empty } = batch;
            $body
        })
    };
}

impl Games {
    fn new(rules: Rules, n: usize, seed: u64) -> PyResult<Games> {
        fn make<const W: usize>(
            rules: Rules,
            n: usize,
            seed: u64,
        ) -> PyResult<(Vec<Game<W>>, Position<W>)>
        where
            Position<W>: Wide,
        {
            let empty = Position::<W>::new(rules)
                .map_err(|e| PyValueError::new_err(format!("argument `game`: {e}")))?;
            let games = kernel::games(n, |i| Game::new(empty, seed.wrapping_add(i)))?;
            Ok((games, empty))
        }
        Ok(tictactoe::for_width!(rules, W => {
            let (games, empty) = make::<W>(rules, n, seed)?;
            Games::from(Batch { games, empty })
        }))
    }

    fn len(&self) -> usize {
        each!(self, |games, _e| games.len())
    }
}

/// `N` games of a family game stepped together, writing into numpy buffers it owns (see the
/// module docs).
#[pyclass(module = "tictactoe_rs._native")]
pub struct FamilyKernel {
    setup: Setup,
    games: Games,
    /// The built-in opponent (gym convention), shared by the games: one search table, not one
    /// a game.
    agent: Option<Agent>,
    /// Every output field, and the snapshot for `rollback`.
    buffer: Buffer<Games>,
    /// The actions of the current call, reused.
    scratch: Vec<usize>,
}

/// Borrows the buffer and runs `$body` with `$stepper` (the driver's view of the typed games'
/// rules) and `$games`, without the GIL for large batches ([`Buffer::run`]).
macro_rules! with_games {
    ($self:ident, $py:ident, |$stepper:ident, $games:ident, $out:ident| $body:expr) => {{
        let (setup, agent) = (&$self.setup, &mut $self.agent);
        $self
            .buffer
            .run($py, &mut $self.games, |games, $out, stop| {
                each!(games, |$games, empty| {
                    let core = Core {
                        setup,
                        stop: Some(stop),
                    };
                    // `set_first` only reads it.
                    #[allow(unused_mut)]
                    let mut $stepper = Stepper {
                        core,
                        empty: *empty,
                        agent,
                    };
                    $body
                })
            })?
    }};
}

impl FamilyKernel {
    /// Reads `obj`, a 1-d integer array (or a list, as numpy reads it) of `n` actions, into
    /// `values`.
    fn actions(&self, name: &str, obj: &Bound<'_, PyAny>, values: &mut Vec<usize>) -> PyResult<()> {
        let (n, actions) = (self.games.len(), self.setup.actions);
        let bad = kernel::read_actions(name, obj, n, actions, values)?;
        if let Some((i, v)) = bad {
            let what = if self.setup.rules.gravity() {
                "column"
            } else {
                "cell"
            };
            return Err(PyValueError::new_err(format!(
                "argument `{name}` holds {v} at game {i}, not a {what} (0 to {})",
                actions - 1
            )));
        }
        Ok(())
    }
}

#[pymethods]
impl FamilyKernel {
    /// A kernel of `n` games of `game` (a `Rules` or a spec such as `"connect-four"`);
    /// `reset` must be called before `step`. The other arguments are `EnvKernel`'s; the
    /// opponent (gym only) is a family strategy (`"random"`, `"heuristic"`, `"mcts"`,
    /// `"alphabeta"`, `"perfect"`) or `"external"`.
    // The Python keyword arguments, one parameter each.
    #[allow(clippy::too_many_arguments)]
    #[new]
    #[pyo3(signature = (n, game, convention, autoreset=None, seat=None, opponent="random", illegal_reward=None, seed=Int(0)))]
    fn new(
        py: Python<'_>,
        n: Int<i64>,
        game: &Bound<'_, PyAny>,
        convention: &Bound<'_, PyAny>,
        autoreset: Option<&Bound<'_, PyAny>>,
        seat: Option<&Bound<'_, PyAny>>,
        opponent: &str,
        illegal_reward: Option<&Bound<'_, PyAny>>,
        seed: Int<u64>,
    ) -> PyResult<FamilyKernel> {
        let rules = crate::mnk::game_arg(game, "game")?;
        let common = Common::read(n, MAX_GAMES, convention, autoreset, seat, illegal_reward)?;
        let (n, convention) = (common.n, common.convention);
        let opponent = kernel::read_opponent::<Strategy>(opponent)?;
        // `perfect` has no budget: refused where its solver has no time bound (as `ttt play`).
        if opponent == Some(Strategy::Perfect) && !tictactoe::mnk::agents::perfect_is_bounded(rules)
        {
            return Err(PyValueError::new_err(format!(
                "argument `opponent`: perfect does not play {rules}: its solver has no time bound \
on a board of {} cells (perfect play is offered on Connect Four and boards of at most {} cells); \
use \"alphabeta\"",
                rules.cells(),
                tictactoe::mnk::agents::PERFECT_MAX_CELLS
            )));
        }
        let setup = Setup::new(
            rules,
            convention,
            common.autoreset,
            common.seat,
            opponent,
            common.illegal_reward,
        );
        let games = Games::new(rules, n, seed.0)?;
        let agent = match (convention, opponent) {
            (Convention::Gym, Some(strategy)) => {
                let mut state = seed.0;
                Some(Agent::new(strategy, splitmix(&mut state)))
            }
            _ => None,
        };
        let external = convention == Convention::Gym && agent.is_none();
        let buffer = Buffer::new(py, setup.layout(n), external)?;
        Ok(FamilyKernel {
            setup,
            games,
            agent,
            buffer,
            scratch: try_vec("n", n, 0)?,
        })
    }

    fn __len__(&self) -> usize {
        self.games.len()
    }

    /// The rules of the games.
    #[getter]
    fn rules(&self) -> crate::mnk::PyRules {
        crate::mnk::PyRules::from(self.setup.rules)
    }

    /// Starts the games where `mask` is true (all when `None`), game `i` reseeded with
    /// `seeds[i]` when `seeds` is given (and the built-in opponent with `seeds[0]`).
    #[pyo3(signature = (seeds=None, mask=None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: Option<numpy::PyReadonlyArray1<'_, u64>>,
        mask: Option<numpy::PyReadonlyArray1<'_, bool>>,
    ) -> PyResult<()> {
        let (seeds, mask) = kernel::reset_args(self.games.len(), seeds, mask)?;
        if let (Some(seeds), Some(strategy)) = (&seeds, self.setup.opponent)
            && self.agent.is_some()
        {
            let mut state = seeds[0];
            self.agent = Some(Agent::new(strategy, splitmix(&mut state)));
        }
        self.buffer.save(py, &self.games);
        let (seeds, mask) = (seeds.as_deref(), mask.as_deref());
        with_games!(self, py, |stepper, games, out| {
            let empty = stepper.empty;
            shared::reset_all(
                &mut stepper,
                games,
                seeds,
                mask,
                |s| Game::new(empty, s),
                out,
            );
        });
        Ok(())
    }

    /// Plays `actions[i]` (a column with gravity, a cell without) in game `i` for the player
    /// to move, then the built-in opponent, and writes the buffers. An action out of range
    /// raises before any game moves.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut scratch = std::mem::take(&mut self.scratch);
        let result = self
            .actions("actions", actions, &mut scratch)
            .and_then(|()| {
                self.buffer.save(py, &self.games);
                with_games!(self, py, |stepper, games, out| {
                    shared::step_all(&mut stepper, games, &scratch, out);
                });
                Ok(())
            });
        self.scratch = scratch;
        result
    }

    /// Writes a uniformly random legal action of each game into `out` (int64), from each
    /// game's own stream; any action for a game that is over.
    fn sample_actions(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let core = Core {
            setup: &self.setup,
            stop: None,
        };
        each!(&mut self.games, |games, _e| {
            kernel::sample(py, out, games, |game| core.sample(game))
        })
    }

    /// Restores the games and the buffer as they were before the last `reset` or `step`
    /// (external opponent only). Returns whether there was a state to restore.
    fn rollback(&mut self, py: Python<'_>) -> PyResult<bool> {
        self.buffer.rollback(py, &mut self.games)
    }

    /// The games waiting for an external opponent's move (bool, one per game).
    fn pending<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let pending: Vec<Pending> = each!(&self.games, |games, _e| games
            .iter()
            .map(|g| g.pending)
            .collect());
        kernel::pending_flags(py, pending.into_iter())
    }

    /// The view of player id `viewer` of every game: planes `(n, rows, cols, 2)` (its marks,
    /// then the other's) and the actions with room `(n, actions)`, both uint8 copies; for an
    /// opponent or a second policy called once with the whole batch.
    fn views<'py>(
        &self,
        py: Python<'py>,
        viewer: Int<i64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let viewer = kernel::read_viewer(viewer)?;
        let s = &self.setup;
        let n = self.games.len();
        let (r, c) = (s.rules.rows() as usize, s.rules.cols() as usize);
        let obs = zeros::<u8>(py, "n", &[n, r, c, 2])?;
        let mask = zeros::<u8>(py, "n", &[n, s.actions])?;
        {
            let mut obs_w = obs.readwrite();
            let mut mask_w = mask.readwrite();
            let (obs_s, mask_s) = (obs_w.as_slice_mut()?, mask_w.as_slice_mut()?);
            let core = Core {
                setup: s,
                stop: None,
            };
            each!(&self.games, |games, _e| {
                for (i, game) in games.iter().enumerate() {
                    let ob = s.obs_bytes();
                    let planes = &mut obs_s[ob * i..ob * (i + 1)];
                    let board = game.position.board();
                    let me = game.player_of(viewer);
                    for (plane, player) in [(0, me), (1, me.opponent())] {
                        for bit in board.pieces(player).iter() {
                            if let Some(cell) = s.cell_of(bit) {
                                planes[2 * cell + plane] = 1;
                            }
                        }
                    }
                    core.write_open(
                        &game.position,
                        &mut mask_s[s.actions * i..s.actions * (i + 1)],
                    );
                }
            });
        }
        Ok((obs.into_any(), mask.into_any()))
    }

    /// Plays the external opponent's `actions[i]` in each pending game `i` (other entries
    /// are ignored) and completes the step. An illegal move raises `ValueError` (then
    /// `rollback` restores the state before the step).
    fn finish(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut values = Vec::new();
        self.actions("actions", actions, &mut values)?;
        let illegal = with_games!(self, py, |stepper, games, out| {
            shared::finish_all(&mut stepper, games, &values, out)
        });
        match illegal {
            Some(i) => Err(kernel::illegal_finish(values[i], i)),
            None => Ok(()),
        }
    }

    /// The boards as text (rows top to bottom separated by `/`, `X`, `O`, `.`), a list.
    fn boards(&self) -> Vec<String> {
        each!(&self.games, |games, _e| games
            .iter()
            .map(|g| g.position.board().to_string())
            .collect())
    }

    /// The id (0 or 1) that plays X in each game, int32, a copy.
    fn first<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let ids: Vec<i32> = each!(&self.games, |games, _e| games
            .iter()
            .map(|g| i32::from(g.first))
            .collect());
        PyArray1::from_vec(py, ids)
    }

    /// Sets who plays X in the games where `mask` is true, on empty boards only (to follow a
    /// peer's seat draw in a differential test); rewrites their observations.
    fn set_first(
        &mut self,
        py: Python<'_>,
        first: numpy::PyReadonlyArray1<'_, i32>,
        mask: numpy::PyReadonlyArray1<'_, bool>,
    ) -> PyResult<()> {
        let n = self.games.len();
        let plies: Vec<u32> = each!(&self.games, |games, _e| games
            .iter()
            .map(|g| g.position.plies())
            .collect());
        let (first, mask) =
            kernel::first_args(n, self.setup.convention, first, mask, |i| plies[i] > 0)?;
        with_games!(self, py, |stepper, games, out| {
            shared::seat_all(&stepper, games, &first, &mask, out);
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
