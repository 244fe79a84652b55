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

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use tictactoe::agents::{Agent, Strategy};
use tictactoe::{Bitboard, Board, Cell, Player, Position, Status};

/// Batches from this size on release the GIL while they step (about 25 us of work at 40
/// million steps per second); smaller ones keep it, so a step of one game is one plain call.
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
    /// Marks on the board: `position`'s count, kept to spare recounting it.
    ply: u8,
    /// The id (0 or 1) that plays X.
    first: u8,
    /// Ended and not yet reset.
    done: bool,
    pending: Pending,
    /// splitmix64 state for the seat draws.
    seat_rng: u64,
    /// splitmix64 state for [`EnvKernel::sample_actions`].
    sample_rng: u64,
    /// The built-in opponent (single-agent convention only), boxed: a game takes 32 bytes
    /// instead of 72, a batch of 65,536 games 2 MiB instead of 4.5 (no faster when measured).
    opponent: Option<Box<Agent>>,
}

/// splitmix64 (Steele, Lea, Flood 2014): one 64-bit draw.
const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `SPREAD[bits]`: cells 0 to 7 of `bits` as the even bytes of 16 little-endian bytes, the
/// layout of one observation plane interleaved into `(3, 3, 2)`; cell 8 is written apart.
const SPREAD: [u128; 256] = {
    let mut table = [0u128; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut cell = 0;
        while cell < 8 {
            table[bits] |= ((bits >> cell & 1) as u128) << (16 * cell);
            cell += 1;
        }
        bits += 1;
    }
    table
};

/// `BYTES[bits]`: cells 0 to 7 of `bits` as eight 0/1 little-endian bytes.
const BYTES: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut cell = 0;
        while cell < 8 {
            table[bits] |= ((bits >> cell & 1) as u64) << (8 * cell);
            cell += 1;
        }
        bits += 1;
    }
    table
};

/// `SELECT[bits][k]`: the `k`-th cell of the set `bits` in increasing order (0 past the end):
/// [`tictactoe::agents::pick`] without its walk over the set. With `SPREAD` (4 KiB) and
/// `BYTES` (2 KiB), the kernel's tables take 10.5 KiB, built by the compiler.
const SELECT: [[u8; 9]; 512] = {
    let mut table = [[0u8; 9]; 512];
    let mut bits = 0;
    while bits < 512 {
        let (mut cell, mut k) = (0, 0);
        while cell < 9 {
            if bits >> cell & 1 == 1 {
                table[bits][k] = cell as u8;
                k += 1;
            }
            cell += 1;
        }
        bits += 1;
    }
    table
};

/// [`tictactoe::agents::pick`] by table: the same cell for the same set and random bits (tested).
fn pick(set: Bitboard, random: u32) -> u8 {
    let k = (u64::from(random) * u64::from(set.bits().count_ones())) >> 32;
    SELECT[set.bits() as usize][k as usize]
}

/// Writes a set of cells as nine 0/1 bytes.
fn write_bytes(out: &mut [u8], set: Bitboard) {
    let bits = set.bits();
    out[..8].copy_from_slice(&BYTES[usize::from(bits & 0xff)].to_le_bytes());
    out[8] = (bits >> 8) as u8 & 1;
}

/// Writes the `(3, 3, 2)` planes of `board` seen by `me`: my marks, then the other's.
fn write_planes(out: &mut [u8], board: Board, me: Player) {
    let mine = board.pieces(me).bits();
    let theirs = board.pieces(me.opponent()).bits();
    let low = SPREAD[usize::from(mine & 0xff)] | SPREAD[usize::from(theirs & 0xff)] << 8;
    out[..16].copy_from_slice(&low.to_le_bytes());
    out[16] = (mine >> 8) as u8 & 1;
    out[17] = (theirs >> 8) as u8 & 1;
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

/// The output fields of one step: byte ranges of the kernel's one buffer (see [`Layout`]).
struct Out<'a> {
    obs: &'a mut [u8],
    mask: &'a mut [u8],
    /// `f32` pairs, native byte order.
    rewards: &'a mut [u8],
    /// numpy bools: one byte, 0 or 1.
    terminated: &'a mut [u8],
    truncated: &'a mut [u8],
    /// `i32`, native byte order.
    player: &'a mut [u8],
    final_obs: &'a mut [u8],
}

/// Where each field lives in the kernel's buffer: one numpy allocation, so that a step borrows
/// one array instead of seven (the borrow checks dominate a step of one game). Offsets are
/// aligned to the field's item size.
#[derive(Clone, Copy, Debug)]
struct Layout {
    n: usize,
}

impl Layout {
    /// `(name, numpy dtype, bytes per game, shape after n)`, in buffer order.
    const FIELDS: [(&'static str, &'static str, usize, &'static [usize]); 7] = [
        ("obs", "uint8", 18, &[3, 3, 2]),
        ("mask", "uint8", 9, &[9]),
        ("rewards", "float32", 8, &[2]),
        ("terminated", "bool", 1, &[]),
        ("truncated", "bool", 1, &[]),
        ("player", "int32", 4, &[]),
        ("final_obs", "uint8", 18, &[3, 3, 2]),
    ];

    /// The byte offset of each field, then the total size.
    fn offsets(self) -> ([usize; 7], usize) {
        let mut offsets = [0; 7];
        let mut at = 0usize;
        for (k, (_, _, bytes, _)) in Layout::FIELDS.iter().enumerate() {
            at = at.next_multiple_of(8);
            offsets[k] = at;
            at += bytes * self.n;
        }
        (offsets, at)
    }

    /// Splits the buffer into the fields.
    fn split(self, buffer: &mut [u8]) -> Out<'_> {
        let (offsets, _) = self.offsets();
        let mut rest = buffer;
        let mut taken = 0;
        let mut parts: [&mut [u8]; 7] = Default::default();
        for (k, part) in parts.iter_mut().enumerate() {
            let (_, tail) = rest.split_at_mut(offsets[k] - taken);
            let (field, tail) = tail.split_at_mut(Layout::FIELDS[k].2 * self.n);
            taken = offsets[k] + field.len();
            *part = field;
            rest = tail;
        }
        let [obs, mask, rewards, terminated, truncated, player, final_obs] = parts;
        Out {
            obs,
            mask,
            rewards,
            terminated,
            truncated,
            player,
            final_obs,
        }
    }
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
    /// A game seeded with `seed`, with the built-in opponent `strategy` if any.
    fn new(seed: u64, strategy: Option<Strategy>) -> Game {
        let mut seat_rng = seed;
        let agent_seed = splitmix(&mut seat_rng);
        Game {
            position: Position::EMPTY,
            ply: 0,
            first: 0,
            done: false,
            pending: Pending::None,
            seat_rng,
            sample_rng: !seed,
            opponent: strategy.map(|s| Box::new(Agent::new(s, agent_seed))),
        }
    }

    /// The id of the player to move (by the mark count, finished or not).
    fn mover(&self) -> u8 {
        if self.ply.is_multiple_of(2) {
            self.first
        } else {
            1 - self.first
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

    /// How the game stands after `mover` (an id) made the last move: only the last mover can
    /// have a line, and nine marks without one are a draw ([`Position::status`] knows neither
    /// who moved last nor the count, and computes both).
    fn outcome(&self, mover: u8) -> Outcome {
        if self.position.board().has_line(self.player_of(mover)) {
            Outcome::Won(mover)
        } else if self.ply == 9 {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }

    /// Plays `action` for the side to move.
    fn play(&mut self, action: i64) -> Outcome {
        let mover = self.mover();
        match self.position.play_index(action as usize) {
            Ok(next) => {
                self.position = next;
                self.ply += 1;
                self.outcome(mover)
            }
            Err(_) => Outcome::Illegal(mover),
        }
    }
}

impl Config {
    /// The strategy of the built-in opponent, if the games have one.
    fn builtin(&self) -> Option<Strategy> {
        match (self.convention, self.opponent) {
            (Convention::Gym, Opponent::Builtin(strategy)) => Some(strategy),
            _ => None,
        }
    }

    /// Starts `game` again: empty board, seat drawn, and the opponent opens if it is X.
    fn restart(&self, game: &mut Game) {
        game.position = Position::EMPTY;
        game.ply = 0;
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
                let agent = game
                    .opponent
                    .as_mut()
                    .expect("a built-in opponent has its agent");
                let cell = agent.choose(game.position);
                let cell = cell.expect("an ongoing game has a move");
                game.play(cell.index() as i64)
            }
            Opponent::External => {
                game.pending = pending;
                Outcome::Ongoing
            }
        }
    }

    /// The id whose view the observation shows: the agent (gym); else the player to move, as
    /// the peers hand the turn on after an illegal move: PettingZoo to `player_1` (its
    /// wrapper's `_deads_step_first`), pgx to the other player (its step ran before the
    /// penalty), while our board stays as it was.
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
        write_bytes(&mut out.mask[9 * i..9 * i + 9], mask);
        out.player[4 * i..4 * i + 4].copy_from_slice(&i32::from(viewer).to_ne_bytes());
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
        out.rewards[8 * i..8 * i + 4].copy_from_slice(&r[0].to_ne_bytes());
        out.rewards[8 * i + 4..8 * i + 8].copy_from_slice(&r[1].to_ne_bytes());
        out.terminated[i] = u8::from(ended);
        out.truncated[i] = u8::from(truncated);
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
                _ => out.rewards[8 * i..8 * i + 8].fill(0),
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
    layout: Layout,
    /// Every output field (see [`Layout`]).
    buffer: Py<PyArray1<u8>>,
    /// The actions of the current call, reused.
    scratch: Vec<i64>,
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

/// Borrows the buffer and runs `f` on its fields, without the GIL for large batches.
macro_rules! with_out {
    ($self:ident, $py:ident, |$out:ident, $cfg:ident, $games:ident| $body:expr) => {{
        let mut buffer = $self.buffer.bind($py).readwrite();
        let mut $out = $self.layout.split(buffer.as_slice_mut()?);
        let $cfg = $self.config;
        let $games = &mut $self.games;
        if $games.len() >= DETACH_MIN {
            $py.detach(|| $body)
        } else {
            $body
        }
    }};
}

/// Reads an integer action array (int64 or int32) of length `n` into `values`.
fn actions(actions: &Bound<'_, PyAny>, n: usize, values: &mut Vec<i64>) -> PyResult<()> {
    values.clear();
    if let Ok(a) = actions.extract::<PyReadonlyArray1<'_, i64>>() {
        values.extend_from_slice(a.as_slice()?);
    } else if let Ok(a) = actions.extract::<PyReadonlyArray1<'_, i32>>() {
        values.extend(a.as_slice()?.iter().map(|&v| i64::from(v)));
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
    Ok(())
}

#[pymethods]
impl EnvKernel {
    /// A kernel of `n` games; `reset` must be called before `step`.
    ///
    /// `convention` is `"pgx"`, `"pettingzoo"` or `"gym"`; `autoreset` is `"next_step"`,
    /// `"same_step"` or `"disabled"`; `seat` (who plays X: id 0, id 1 or a draw per game) is
    /// `"0"`, `"1"` or `"random"`; `opponent` (gym only) is `"random"`, `"heuristic"`,
    /// `"perfect"`, `"eps:E"` or `"external"`.
    // The Python keyword arguments, one parameter each.
    #[allow(clippy::too_many_arguments)]
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
        let config = Config {
            convention,
            autoreset,
            seat,
            opponent,
            illegal_reward,
        };
        let games = (0..n as u64)
            .map(|i| Game::new(seed.wrapping_add(i), config.builtin()))
            .collect();
        Ok(EnvKernel {
            config,
            games,
            layout: Layout { n },
            buffer: PyArray1::zeros(py, [Layout { n }.offsets().1], false).unbind(),
            scratch: Vec::with_capacity(n),
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
        let read = self::actions(actions, self.games.len(), &mut scratch);
        let result = read.and_then(|()| {
            with_out!(self, py, |out, config, games| {
                for (i, (game, &action)) in games.iter_mut().zip(&scratch).enumerate() {
                    config.step(game, action, i, &mut out);
                }
            });
            Ok(())
        });
        self.scratch = scratch;
        result
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
                // A game that is not done is ongoing: its empty cells are its moves.
                let set = if game.done {
                    Bitboard::FULL
                } else {
                    game.position.board().empty_cells()
                };
                let random = (splitmix(&mut game.sample_rng) >> 32) as u32;
                *slot = i64::from(pick(set, random));
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
        let mut values = Vec::new();
        self::actions(actions, self.games.len(), &mut values)?;
        let actions = values;
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

    /// The one uint8 buffer that holds every output field, rewritten in place by each step;
    /// `fields()` tells where each field lives.
    #[getter]
    fn buffer<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.buffer.bind(py).clone()
    }

    /// `(name, offset, dtype, shape)` of each output field in `buffer`: `obs` (0/1 planes seen
    /// by `player`), `mask` (0/1), `rewards` (by player id), `terminated`, `truncated`,
    /// `player` (the viewer: the player to move) and `final_obs` (same-step auto-reset: the
    /// last observation of the games that ended in the last step).
    fn fields(&self) -> Vec<(&'static str, usize, &'static str, Vec<usize>)> {
        let (offsets, _) = self.layout.offsets();
        Layout::FIELDS
            .iter()
            .zip(offsets)
            .map(|(&(name, dtype, _, shape), offset)| {
                let mut full = vec![self.layout.n];
                full.extend_from_slice(shape);
                (name, offset, dtype, full)
            })
            .collect()
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
    m.add_function(wrap_pyfunction!(play_move, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_the_slow_twins() {
        for bits in 0..512u16 {
            let set = Bitboard::from_bits(bits).unwrap();
            let board = Board::from_bitboards(set, Bitboard::EMPTY).unwrap();
            let mut planes = [9u8; 18];
            write_planes(&mut planes, board, Player::X);
            let mut bytes = [9u8; 9];
            write_bytes(&mut bytes, set);
            for c in 0..9 {
                assert_eq!(planes[2 * c], (bits >> c & 1) as u8);
                assert_eq!(planes[2 * c + 1], 0);
                assert_eq!(bytes[c], (bits >> c & 1) as u8);
            }
            write_planes(&mut planes, board, Player::O);
            assert!((0..9).all(|c| planes[2 * c] == 0 && planes[2 * c + 1] == bytes[c]));
            if bits == 0 {
                continue;
            }
            for random in (0..=u32::MAX).step_by(0x0100_0001).chain([u32::MAX]) {
                let slow = tictactoe::agents::pick(set, random).unwrap().index();
                assert_eq!(usize::from(pick(set, random)), slow, "{bits} {random}");
            }
        }
    }

    #[test]
    fn a_game_is_32_bytes() {
        assert_eq!(core::mem::size_of::<Game>(), 32);
    }

    #[test]
    fn layout_fields_are_aligned_and_disjoint() {
        for n in [1, 3, 7, 4096] {
            let (offsets, total) = Layout { n }.offsets();
            let mut end = 0;
            for (k, (_, _, bytes, _)) in Layout::FIELDS.iter().enumerate() {
                assert!(offsets[k] >= end && offsets[k] % 8 == 0);
                end = offsets[k] + bytes * n;
            }
            assert_eq!(end, total);
        }
    }
}
