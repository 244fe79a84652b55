//! Environment kernels: `N` games stepped together in place on numpy buffers.
//!
//! [`EnvKernel`] owns the games (a [`Position`] each, the seat of player 0, a random stream
//! and, for the single-agent convention, the opponent's [`Agent`]) and the output buffers, which
//! it creates once and rewrites on every step: observation planes, action masks, rewards by
//! player, terminations, truncations, the player to move, and the final observations of the
//! games that ended in a step with same-step auto-reset. The Python classes in
//! `tictactoe_rs.envs` wrap it; the rules, the heuristic and the solver are the library's.
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

use numpy::{PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use tictactoe::players::{Agent, Strategy};
use tictactoe::{Bitboard, Board, Cell, Player, Position, Status, solver};

/// Batches below this size keep the GIL: releasing it costs more than the step.
const DETACH_MIN: usize = 1024;

/// Whose rules the kernel follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Convention {
    Pgx,
    PettingZoo,
    Gym,
}

/// What happens to a game after it ends (Gymnasium's `AutoresetMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Autoreset {
    /// The next step resets it and ignores the action.
    NextStep,
    /// It is reset in the step that ended it; its last observation goes to `final_obs`.
    SameStep,
    /// Only `reset` starts it again; steps on it change nothing.
    Disabled,
}

/// Who plays X.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seat {
    Zero,
    One,
    Random,
}

/// The opponent of the single-agent convention.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Opponent {
    Builtin(Strategy),
    /// Moves come from Python through [`EnvKernel::finish`].
    External,
}

/// What a game waits for from an external opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    None,
    /// A move in the middle of a step: its outcome is this step's.
    InStep,
    /// The first move of a new game (the agent is O): the step's outcome is already written.
    AfterReset,
}

/// One game.
#[derive(Clone, Debug)]
struct Game {
    position: Position,
    /// The id (0 or 1) that plays X.
    first: u8,
    /// Ended and not yet reset.
    done: bool,
    pending: Pending,
    /// splitmix64 state for the seat draws.
    seat_rng: u64,
    /// splitmix64 state for [`EnvKernel::sample_actions`].
    sample_rng: u64,
    opponent: Agent,
}

/// splitmix64 (Steele, Lea, Flood 2014): one 64-bit draw.
const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `SPREAD[bits][2 * c] = bit c`: one observation plane interleaved into the `(3, 3, 2)` bytes.
const SPREAD: [[u8; 18]; 512] = {
    let mut table = [[0u8; 18]; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut cell = 0;
        while cell < 9 {
            table[bits][2 * cell] = (bits >> cell & 1) as u8;
            cell += 1;
        }
        bits += 1;
    }
    table
};

/// `BYTES[bits][c] = bit c`: a set of cells as nine 0/1 bytes.
const BYTES: [[u8; 9]; 512] = {
    let mut table = [[0u8; 9]; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut cell = 0;
        while cell < 9 {
            table[bits][cell] = (bits >> cell & 1) as u8;
            cell += 1;
        }
        bits += 1;
    }
    table
};

/// Writes the `(3, 3, 2)` planes of `board` seen by `me`: my marks, then the other's.
fn write_planes(out: &mut [u8], board: Board, me: Player) {
    let mine = &SPREAD[board.pieces(me).bits() as usize];
    let theirs = &SPREAD[board.pieces(me.opponent()).bits() as usize];
    out[0] = mine[0];
    for i in 1..18 {
        out[i] = mine[i] | theirs[i - 1];
    }
}

/// The fixed settings of a kernel.
#[derive(Clone, Copy, Debug)]
struct Config {
    convention: Convention,
    autoreset: Autoreset,
    seat: Seat,
    opponent: Opponent,
    illegal_reward: f32,
}

/// The output buffers of one step, borrowed from the numpy arrays.
struct Out<'a> {
    obs: &'a mut [u8],
    mask: &'a mut [u8],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
    player: &'a mut [i32],
    final_obs: &'a mut [u8],
}

/// How a move ended, if it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Ongoing,
    /// The player with this id won (or the other moved illegally).
    Won(u8),
    Draw,
    /// The player with this id moved illegally.
    Illegal(u8),
}

impl Game {
    fn new(seed: u64, strategy: Strategy) -> Game {
        let mut seat_rng = seed;
        let agent_seed = splitmix(&mut seat_rng);
        Game {
            position: Position::EMPTY,
            first: 0,
            done: false,
            pending: Pending::None,
            seat_rng,
            sample_rng: !seed,
            opponent: Agent::new(strategy, agent_seed),
        }
    }

    /// The id of the player to move (by the mark count, finished or not).
    fn mover(&self) -> u8 {
        match self.position.side_to_move() {
            Player::X => self.first,
            Player::O => 1 - self.first,
        }
    }

    /// The mark of id `id`.
    fn player_of(&self, id: u8) -> Player {
        if id == self.first {
            Player::X
        } else {
            Player::O
        }
    }

    fn outcome(&self) -> Outcome {
        match self.position.status() {
            Status::Ongoing => Outcome::Ongoing,
            Status::Draw => Outcome::Draw,
            Status::Won(player) => Outcome::Won(if player == Player::X {
                self.first
            } else {
                1 - self.first
            }),
        }
    }

    /// Plays `action` for the side to move.
    fn play(&mut self, action: i64) -> Outcome {
        let mover = self.mover();
        match self.position.play_index(action as usize) {
            Ok(next) => {
                self.position = next;
                self.outcome()
            }
            Err(_) => Outcome::Illegal(mover),
        }
    }
}

impl Config {
    /// Starts game `g` again: empty board, seat drawn, the built-in opponent's first move.
    fn restart(&self, game: &mut Game) {
        game.position = Position::EMPTY;
        game.done = false;
        game.pending = Pending::None;
        game.first = match self.seat {
            Seat::Zero => 0,
            Seat::One => 1,
            Seat::Random => (splitmix(&mut game.seat_rng) >> 63) as u8,
        };
        if self.convention == Convention::Gym && game.first == 1 {
            self.opponent_turn(game, Pending::AfterReset);
        }
    }

    /// The opponent (id 1) moves now, or the game waits for Python.
    fn opponent_turn(&self, game: &mut Game, pending: Pending) -> Outcome {
        match self.opponent {
            Opponent::Builtin(_) => {
                let cell = game.opponent.choose(&game.position);
                let cell = cell.expect("an ongoing game has a move");
                game.play(cell.index() as i64)
            }
            Opponent::External => {
                game.pending = pending;
                Outcome::Ongoing
            }
        }
    }

    /// The id whose view the observation shows.
    fn viewer(&self, game: &Game, outcome: Outcome) -> u8 {
        match (self.convention, outcome) {
            (Convention::Gym, _) => 0,
            (Convention::PettingZoo, Outcome::Illegal(_)) => 0,
            (Convention::Pgx, Outcome::Illegal(_)) => 1 - game.mover(),
            _ => game.mover(),
        }
    }

    /// Writes the observation, mask and player of game `i` into the buffers.
    fn observe(&self, game: &Game, outcome: Outcome, i: usize, out: &mut Out<'_>) {
        let viewer = self.viewer(game, outcome);
        let board = game.position.board();
        write_planes(
            &mut out.obs[18 * i..18 * i + 18],
            board,
            game.player_of(viewer),
        );
        let mask = match (self.convention, outcome) {
            (Convention::PettingZoo, _) => board.empty_cells(),
            (_, Outcome::Ongoing) => board.empty_cells(),
            _ => Bitboard::FULL,
        };
        out.mask[9 * i..9 * i + 9].copy_from_slice(&BYTES[mask.bits() as usize]);
        out.player[i] = i32::from(viewer);
    }

    /// Writes rewards and flags of an outcome.
    fn score(&self, outcome: Outcome, i: usize, out: &mut Out<'_>) {
        let (r, ended, truncated) = match outcome {
            Outcome::Ongoing => ([0.0, 0.0], false, false),
            Outcome::Draw => ([0.0, 0.0], true, false),
            Outcome::Won(0) => ([1.0, -1.0], true, false),
            Outcome::Won(_) => ([-1.0, 1.0], true, false),
            Outcome::Illegal(id) => {
                let (mover, other, truncated) = match self.convention {
                    Convention::Pgx => (-1.0, 1.0, false),
                    Convention::PettingZoo => (-1.0, 0.0, true),
                    Convention::Gym => (self.illegal_reward, 0.0, false),
                };
                let r = if id == 0 {
                    [mover, other]
                } else {
                    [other, mover]
                };
                (r, true, truncated)
            }
        };
        out.rewards[2 * i..2 * i + 2].copy_from_slice(&r);
        out.terminated[i] = ended;
        out.truncated[i] = truncated;
    }

    /// Finishes step `i` once the game's moves are made: outcome, then auto-reset.
    fn conclude(&self, game: &mut Game, outcome: Outcome, i: usize, out: &mut Out<'_>) {
        self.score(outcome, i, out);
        if outcome == Outcome::Ongoing {
            self.observe(game, outcome, i, out);
            return;
        }
        match self.autoreset {
            Autoreset::SameStep => {
                self.observe(game, outcome, i, out);
                out.final_obs[18 * i..18 * i + 18].copy_from_slice(&out.obs[18 * i..18 * i + 18]);
                self.restart(game);
                self.observe(game, Outcome::Ongoing, i, out);
            }
            Autoreset::NextStep | Autoreset::Disabled => {
                game.done = true;
                self.observe(game, outcome, i, out);
            }
        }
    }

    /// One step of game `i`.
    fn step(&self, game: &mut Game, action: i64, i: usize, out: &mut Out<'_>) {
        if game.done {
            match self.autoreset {
                Autoreset::NextStep => {
                    self.restart(game);
                    self.score(Outcome::Ongoing, i, out);
                    if game.pending == Pending::None {
                        self.observe(game, Outcome::Ongoing, i, out);
                    }
                }
                // A finished game stays as it is, with no reward (pgx's rule).
                _ => out.rewards[2 * i..2 * i + 2].fill(0.0),
            }
            return;
        }
        let mut outcome = game.play(action);
        if self.convention == Convention::Gym && outcome == Outcome::Ongoing {
            outcome = self.opponent_turn(game, Pending::InStep);
            if game.pending != Pending::None {
                return;
            }
        }
        self.conclude(game, outcome, i, out);
    }

    /// The external opponent's move in game `i`.
    fn finish(&self, game: &mut Game, action: i64, i: usize, out: &mut Out<'_>) -> bool {
        let pending = game.pending;
        game.pending = Pending::None;
        match game.play(action) {
            Outcome::Illegal(_) => return false,
            outcome if pending == Pending::InStep => self.conclude(game, outcome, i, out),
            // The opponent's first move cannot end a game.
            _ => self.observe(game, Outcome::Ongoing, i, out),
        }
        true
    }
}

/// `N` games stepped together, writing into numpy buffers it owns (see the module docs).
#[pyclass(module = "tictactoe_rs._native")]
pub struct EnvKernel {
    config: Config,
    games: Vec<Game>,
    obs: Py<PyArray4<u8>>,
    mask: Py<PyArray2<u8>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    player: Py<PyArray1<i32>>,
    final_obs: Py<PyArray4<u8>>,
}

fn parse<T>(name: &str, value: &str, options: &[(&str, T)]) -> PyResult<T>
where
    T: Copy,
{
    options
        .iter()
        .find(|(text, _)| *text == value)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|(text, _)| *text).collect();
            PyValueError::new_err(format!(
                "{name}: expected one of {}, got {value:?}",
                names.join(", ")
            ))
        })
}

/// Borrows the seven buffers and runs `f` on them, without the GIL for large batches.
macro_rules! with_out {
    ($self:ident, $py:ident, |$out:ident, $cfg:ident, $games:ident| $body:expr) => {{
        let mut obs = $self.obs.bind($py).readwrite();
        let mut mask = $self.mask.bind($py).readwrite();
        let mut rewards = $self.rewards.bind($py).readwrite();
        let mut terminated = $self.terminated.bind($py).readwrite();
        let mut truncated = $self.truncated.bind($py).readwrite();
        let mut player = $self.player.bind($py).readwrite();
        let mut final_obs = $self.final_obs.bind($py).readwrite();
        let mut $out = Out {
            obs: obs.as_slice_mut()?,
            mask: mask.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            truncated: truncated.as_slice_mut()?,
            player: player.as_slice_mut()?,
            final_obs: final_obs.as_slice_mut()?,
        };
        let $cfg = $self.config;
        let $games = &mut $self.games;
        if $games.len() >= DETACH_MIN {
            $py.detach(|| $body)
        } else {
            $body
        }
    }};
}

/// Reads an integer action array (int64 or int32) of length `n`.
fn actions(actions: &Bound<'_, PyAny>, n: usize) -> PyResult<Vec<i64>> {
    let values: Vec<i64> = if let Ok(a) = actions.extract::<PyReadonlyArray1<'_, i64>>() {
        a.as_slice()?.to_vec()
    } else if let Ok(a) = actions.extract::<PyReadonlyArray1<'_, i32>>() {
        a.as_slice()?.iter().map(|&v| i64::from(v)).collect()
    } else {
        return Err(PyValueError::new_err(
            "actions: expected a 1-d numpy array of int64 or int32",
        ));
    };
    if values.len() != n {
        return Err(PyValueError::new_err(format!(
            "actions: expected {n} actions, got {}",
            values.len()
        )));
    }
    if let Some(bad) = values.iter().find(|&&a| !(0..9).contains(&a)) {
        return Err(PyValueError::new_err(format!(
            "actions: {bad} is not a cell (0 to 8)"
        )));
    }
    Ok(values)
}

#[pymethods]
impl EnvKernel {
    /// A kernel of `n` games; `reset` must be called before `step`.
    ///
    /// `convention` is `"pgx"`, `"pettingzoo"` or `"gym"`; `autoreset` is `"next_step"`,
    /// `"same_step"` or `"disabled"`; `seat` (who plays X: id 0, id 1 or a draw per game) is
    /// `"0"`, `"1"` or `"random"`; `opponent` (gym only) is `"random"`, `"heuristic"`,
    /// `"perfect"`, `"eps:E"` or `"external"`.
    #[new]
    #[pyo3(signature = (n, convention, autoreset="same_step", seat="random", opponent="random", illegal_reward=-1.0, seed=0))]
    fn new(
        py: Python<'_>,
        n: usize,
        convention: &str,
        autoreset: &str,
        seat: &str,
        opponent: &str,
        illegal_reward: f32,
        seed: u64,
    ) -> PyResult<EnvKernel> {
        if n == 0 {
            return Err(PyValueError::new_err("n: expected at least one game"));
        }
        let convention = parse(
            "convention",
            convention,
            &[
                ("pgx", Convention::Pgx),
                ("pettingzoo", Convention::PettingZoo),
                ("gym", Convention::Gym),
            ],
        )?;
        let autoreset = parse(
            "autoreset",
            autoreset,
            &[
                ("next_step", Autoreset::NextStep),
                ("same_step", Autoreset::SameStep),
                ("disabled", Autoreset::Disabled),
            ],
        )?;
        let seat = parse(
            "seat",
            seat,
            &[
                ("0", Seat::Zero),
                ("1", Seat::One),
                ("random", Seat::Random),
            ],
        )?;
        let opponent = if opponent == "external" {
            Opponent::External
        } else {
            Opponent::Builtin(opponent.parse::<Strategy>().map_err(|e| {
                PyValueError::new_err(format!("opponent: {e} or external, got {opponent:?}"))
            })?)
        };
        let strategy = match opponent {
            Opponent::Builtin(strategy) => strategy,
            Opponent::External => Strategy::Random,
        };
        let config = Config {
            convention,
            autoreset,
            seat,
            opponent,
            illegal_reward,
        };
        let games = (0..n as u64)
            .map(|i| Game::new(seed.wrapping_add(i), strategy))
            .collect();
        Ok(EnvKernel {
            config,
            games,
            obs: PyArray4::zeros(py, [n, 3, 3, 2], false).unbind(),
            mask: PyArray2::zeros(py, [n, 9], false).unbind(),
            rewards: PyArray2::zeros(py, [n, 2], false).unbind(),
            terminated: PyArray1::from_vec(py, vec![false; n]).unbind(),
            truncated: PyArray1::from_vec(py, vec![false; n]).unbind(),
            player: PyArray1::zeros(py, [n], false).unbind(),
            final_obs: PyArray4::zeros(py, [n, 3, 3, 2], false).unbind(),
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
        let n = self.games.len();
        let seeds = seeds
            .map(|s| s.as_slice().map(<[u64]>::to_vec))
            .transpose()?;
        let mask = mask
            .map(|m| m.as_slice().map(<[bool]>::to_vec))
            .transpose()?;
        if seeds.as_ref().is_some_and(|s| s.len() != n) {
            return Err(PyValueError::new_err(format!("seeds: expected {n} seeds")));
        }
        if mask.as_ref().is_some_and(|m| m.len() != n) {
            return Err(PyValueError::new_err(format!("mask: expected {n} flags")));
        }
        with_out!(self, py, |out, config, games| {
            let strategy = match config.opponent {
                Opponent::Builtin(strategy) => strategy,
                Opponent::External => Strategy::Random,
            };
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
        let actions = self::actions(actions, self.games.len())?;
        with_out!(self, py, |out, config, games| {
            for (i, (game, &action)) in games.iter_mut().zip(&actions).enumerate() {
                config.step(game, action, i, &mut out);
            }
        });
        Ok(())
    }

    /// Writes a uniformly random legal action of each game into `out` (int64), from each
    /// game's own stream; any cell for a game that is over.
    fn sample_actions(&mut self, py: Python<'_>, out: &Bound<'_, PyArray1<i64>>) -> PyResult<()> {
        let mut out = out.readwrite();
        let out = out.as_slice_mut()?;
        if out.len() != self.games.len() {
            return Err(PyValueError::new_err(format!(
                "out: expected {} entries",
                self.games.len()
            )));
        }
        let games = &mut self.games;
        let big = games.len() >= DETACH_MIN;
        let mut work = || {
            for (game, slot) in games.iter_mut().zip(out.iter_mut()) {
                let legal = game.position.legal_moves();
                let set = if legal.is_empty() {
                    Bitboard::FULL
                } else {
                    legal
                };
                let random = (splitmix(&mut game.sample_rng) >> 32) as u32;
                let cell = tictactoe::players::pick(set, random);
                *slot = cell.map_or(0, |c| c.index() as i64);
            }
        };
        if big {
            py.detach(work);
        } else {
            work();
        }
        Ok(())
    }

    /// The games waiting for an external opponent's move (bool, one per game).
    fn pending<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let flags: Vec<bool> = self
            .games
            .iter()
            .map(|g| g.pending != Pending::None)
            .collect();
        PyArray1::from_vec(py, flags)
    }

    /// Plays the external opponent's `actions[i]` in each pending game `i` (other entries
    /// are ignored) and completes the step. An illegal move raises `ValueError`.
    fn finish(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let actions = self::actions(actions, self.games.len())?;
        let illegal: Option<usize> = with_out!(self, py, |out, config, games| {
            let mut illegal = None;
            for (i, (game, &action)) in games.iter_mut().zip(&actions).enumerate() {
                if game.pending != Pending::None && !config.finish(game, action, i, &mut out) {
                    illegal = Some(i);
                }
            }
            illegal
        });
        match illegal {
            Some(i) => Err(PyValueError::new_err(format!(
                "actions: the opponent's move {} in game {i} is illegal",
                actions[i]
            ))),
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
        let n = self.games.len();
        let (first, mask) = (first.as_slice()?.to_vec(), mask.as_slice()?.to_vec());
        if first.len() != n || mask.len() != n {
            return Err(PyValueError::new_err(format!(
                "first, mask: expected {n} entries each"
            )));
        }
        if self.config.convention == Convention::Gym {
            return Err(PyValueError::new_err(
                "set_first: not for the gym convention",
            ));
        }
        for (i, game) in self.games.iter().enumerate() {
            if mask[i] && game.position != Position::EMPTY {
                return Err(PyValueError::new_err(format!("mask: game {i} has started")));
            }
            if mask[i] && !(0..2).contains(&first[i]) {
                return Err(PyValueError::new_err(format!(
                    "first: {} is not 0 or 1",
                    first[i]
                )));
            }
        }
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

    /// Observation planes `(n, 3, 3, 2)` uint8 (0/1), rewritten in place by each step.
    #[getter]
    fn obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray4<u8>> {
        self.obs.bind(py).clone()
    }

    /// Action masks `(n, 9)` uint8 (0/1).
    #[getter]
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u8>> {
        self.mask.bind(py).clone()
    }

    /// Rewards of the last step by player id, `(n, 2)` float32.
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.rewards.bind(py).clone()
    }

    /// Whether the last step ended each game, `(n,)` bool.
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }

    /// Truncations (PettingZoo's illegal-move flag), `(n,)` bool.
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }

    /// The id whose view `obs` shows: the player to move, `(n,)` int32.
    #[getter]
    fn player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        self.player.bind(py).clone()
    }

    /// With same-step auto-reset: the last observation of each game that ended in the last
    /// step (other rows are stale), `(n, 3, 3, 2)` uint8.
    #[getter]
    fn final_obs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray4<u8>> {
        self.final_obs.bind(py).clone()
    }
}

/// The moves `strategy` chooses among at the board given by X and O bit sets, as a 9-bit set
/// (0 when the game is over); `explore` picks random moves for `eps:E`. Raises `ValueError`
/// for a board that is not a reachable position.
#[pyfunction]
#[pyo3(signature = (x, o, strategy, explore=false))]
fn strategy_moves(x: u16, o: u16, strategy: &str, explore: bool) -> PyResult<u16> {
    let position = position(x, o)?;
    let strategy: Strategy = strategy
        .parse()
        .map_err(|e| PyValueError::new_err(format!("strategy: {e}")))?;
    let moves = match position.status() {
        Status::Ongoing => strategy.candidates(&position, explore),
        _ => Bitboard::EMPTY,
    };
    Ok(moves.bits())
}

/// The best moves of the solver at the board `(x, o)`, as a 9-bit set.
#[pyfunction]
fn best_move_set(x: u16, o: u16) -> PyResult<u16> {
    Ok(solver::best_moves(&position(x, o)?).bits())
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
fn play_move(x: u16, o: u16, cell: usize) -> PyResult<(u16, u16, u8)> {
    let position = position(x, o)?;
    let next = position
        .play(Cell::try_from(cell).map_err(|e| PyValueError::new_err(format!("cell: {e}")))?)
        .map_err(|e| PyValueError::new_err(format!("cell: {e}")))?;
    let status = match next.status() {
        Status::Ongoing => 0,
        Status::Won(Player::X) => 1,
        Status::Won(Player::O) => 2,
        Status::Draw => 3,
    };
    let board = next.board();
    Ok((board.x().bits(), board.o().bits(), status))
}

/// Adds the environment functions and classes to the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<EnvKernel>()?;
    m.add_function(wrap_pyfunction!(strategy_moves, m)?)?;
    m.add_function(wrap_pyfunction!(best_move_set, m)?)?;
    m.add_function(wrap_pyfunction!(play_move, m)?)?;
    Ok(())
}
