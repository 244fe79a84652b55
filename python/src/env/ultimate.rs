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
//! the player from 9-bit tables (nine bytes a small board); pyspiel's tensor is updated in
//! place too (two values a mark, then the player and the forced board); a game that starts or
//! ends is written whole.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use tictactoe::ultimate::{Move, Position};
use tictactoe::{Cell, Player, Status};

use super::rules::{Autoreset, Convention, Out, Outcome, Pending, Seat};
use super::tables::splitmix;
use super::{DETACH_MIN, read_reward, read_seat};
use crate::arrays::{Code, Int, Ints, try_vec, with_int_slice, writeable, zeros};
use crate::choice::{self, Choice};

/// The most games a kernel holds, so that no size computation overflows (a game takes under
/// 3 KiB of buffer and state with the pyspiel tensor).
const MAX_GAMES: usize = (isize::MAX as usize) >> 13;

/// "No board chosen" in [`Game::chosen`].
const NONE: u8 = 9;

/// Length of pyspiel's observation tensor: three planes of 81, the player, ten forced-board
/// flags.
const TENSOR: usize = 3 * 81 + 1 + 10;

/// `SPREAD[set]`: cells 0 to 7 of a 9-bit set as bytes 0/1 (little-endian); cell 8 apart.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut set = 0;
    while set < 256 {
        let mut c = 0;
        while c < 8 {
            if set >> c & 1 != 0 {
                table[set] |= 1 << (8 * c);
            }
            c += 1;
        }
        set += 1;
    }
    table
};

/// Writes the 9-bit set `set` as nine 0/1 bytes.
#[inline(always)]
fn spread(set: u16, out: &mut [u8]) {
    out[..8].copy_from_slice(&SPREAD[usize::from(set & 0xFF)].to_le_bytes());
    out[8] = (set >> 8 & 1) as u8;
}

/// How actions are numbered (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actions {
    Flat,
    OpenSpiel,
}

impl Choice for Actions {
    const ALL: &'static [Self] = &[Actions::Flat, Actions::OpenSpiel];

    fn name(self) -> &'static str {
        match self {
            Actions::Flat => "flat",
            Actions::OpenSpiel => "openspiel",
        }
    }
}

impl Actions {
    /// The number of actions.
    const fn count(self) -> usize {
        match self {
            Actions::Flat => 81,
            Actions::OpenSpiel => 9,
        }
    }
}

/// The observation layout (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observation {
    Planes,
    OpenSpiel,
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

/// The opponent of the gym convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// A uniformly random legal move, from the game's own stream.
    Random,
    /// Moves from Python (`finish`), flat moves whatever the agent's action convention.
    External,
}

impl Choice for Opponent {
    const ALL: &'static [Self] = &[Opponent::Random, Opponent::External];

    fn name(self) -> &'static str {
        match self {
            Opponent::Random => "random",
            Opponent::External => "external",
        }
    }
}

/// The fixed settings of a kernel.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub convention: Convention,
    pub autoreset: Autoreset,
    pub seat: Seat,
    pub opponent: Opponent,
    pub illegal_reward: f32,
    pub actions: Actions,
    pub observation: Observation,
}

impl Setup {
    /// Bytes of one observation.
    const fn obs_bytes(self) -> usize {
        match self.observation {
            Observation::Planes => 3 * 81,
            Observation::OpenSpiel => 4 * TENSOR,
        }
    }

    /// `(name, dtype, bytes per game, shape after n)` in buffer order.
    fn fields(self) -> [(&'static str, &'static str, usize, Vec<usize>); 7] {
        let (dtype, shape) = match self.observation {
            Observation::Planes => ("uint8", vec![3, 9, 9]),
            Observation::OpenSpiel => ("float32", vec![TENSOR]),
        };
        let a = self.actions.count();
        [
            ("obs", dtype, self.obs_bytes(), shape.clone()),
            ("mask", "uint8", a, vec![a]),
            ("rewards", "float32", 8, vec![2]),
            ("terminated", "bool", 1, vec![]),
            ("truncated", "bool", 1, vec![]),
            ("player", "int32", 4, vec![]),
            ("final_obs", dtype, self.obs_bytes(), shape),
        ]
    }

    /// The byte offset of each field for `n` games (aligned to 8), then the total.
    fn offsets(self, n: usize) -> ([usize; 7], usize) {
        let mut offsets = [0; 7];
        let mut at = 0usize;
        for (k, (_, _, bytes, _)) in self.fields().iter().enumerate() {
            at = at.next_multiple_of(8);
            offsets[k] = at;
            at += bytes * n;
        }
        (offsets, at)
    }

    /// Splits the buffer of `n` games into the fields.
    fn split(self, n: usize, buffer: &mut [u8]) -> Out<'_> {
        let (offsets, _) = self.offsets(n);
        let fields = self.fields();
        let mut rest = buffer;
        let mut taken = 0;
        let mut parts: [&mut [u8]; 7] = Default::default();
        for (k, part) in parts.iter_mut().enumerate() {
            let (_, tail) = rest.split_at_mut(offsets[k] - taken);
            let (field, tail) = tail.split_at_mut(fields[k].2 * n);
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

/// One game.
#[derive(Clone, Debug)]
pub struct Game {
    pub position: Position,
    /// With `openspiel` actions, the board chosen by the mover's first step ([`NONE`] if none).
    pub chosen: u8,
    /// The last move, for pyspiel's tensor of a finished game.
    pub last: Option<Move>,
    /// The id (0 or 1) that plays X.
    pub first: u8,
    /// The id whose turn it is (after a game ends: the one who did not act last).
    pub mover: u8,
    /// Ended and not yet reset.
    pub done: bool,
    pub pending: Pending,
    /// splitmix64 states: seat draws, `sample_actions`, the random opponent.
    pub seat_rng: u64,
    pub sample_rng: u64,
    pub opponent_rng: u64,
    /// The game's rewards and flags in the buffer are zero (it goes on, no reward).
    pub quiet: bool,
}

impl Game {
    fn new(seed: u64) -> Game {
        let mut seat_rng = seed;
        let opponent_rng = splitmix(&mut seat_rng);
        Game {
            position: Position::EMPTY,
            chosen: NONE,
            last: None,
            first: 0,
            mover: 0,
            done: false,
            pending: Pending::None,
            seat_rng,
            sample_rng: !seed,
            opponent_rng,
            quiet: false,
        }
    }

    /// The mark of id `id`.
    #[inline(always)]
    fn player_of(&self, id: u8) -> Player {
        if id == self.first {
            Player::X
        } else {
            Player::O
        }
    }

    /// The board the mover plays in: the one it is sent to or has chosen, if any.
    #[inline(always)]
    fn board(&self) -> Option<Cell> {
        match self.position.next_board() {
            Some(board) => Some(board),
            None if self.chosen != NONE => Some(Cell::ALL[usize::from(self.chosen)]),
            None => None,
        }
    }

    /// Whether the mover's next `openspiel` action chooses a board.
    #[inline(always)]
    fn choosing(&self) -> bool {
        self.board().is_none() && !self.position.status().is_finished()
    }

    /// The legal flat moves (bit `9 * board + cell`): after a board choice, that board's.
    #[inline(always)]
    fn legal_moves(&self) -> u128 {
        if self.chosen != NONE {
            let b = usize::from(self.chosen);
            return u128::from(self.position.moves_in(Cell::ALL[b]).bits()) << (9 * b);
        }
        self.position.legal_moves().bits()
    }

    /// Plays flat move `mv` for the mover: the outcome.
    #[inline(always)]
    fn play(&mut self, mv: Move) -> Outcome {
        let actor = self.mover;
        if self.position.play(mv).is_err() {
            return Outcome::Illegal(actor);
        }
        self.chosen = NONE;
        self.last = Some(mv);
        self.mover = 1 - actor;
        match self.position.status() {
            Status::Ongoing => Outcome::Ongoing,
            Status::Draw => Outcome::Draw,
            Status::Won(_) => Outcome::Won(actor),
        }
    }

    /// Plays `action` (below the number of actions) for the mover.
    #[inline(always)]
    fn act(&mut self, actions: Actions, action: usize) -> Outcome {
        let mv = match actions {
            Actions::Flat => Move::try_from(action).ok(),
            Actions::OpenSpiel => {
                let chosen = Cell::new(action as u8).ok();
                match (self.board(), chosen) {
                    (_, None) => None,
                    (Some(board), Some(cell)) => Some(Move::new(board, cell)),
                    (None, Some(board)) => {
                        if self.position.moves_in(board).is_empty() {
                            return Outcome::Illegal(self.mover);
                        }
                        self.chosen = board.index() as u8;
                        return Outcome::Ongoing;
                    }
                }
            }
        };
        match mv {
            Some(mv) => self.play(mv),
            None => Outcome::Illegal(self.mover),
        }
    }
}

/// The marks one step made (the agent's, then in the gym convention the opponent's): the move
/// and the id that made it.
type Marks = [Option<(Move, u8)>; 2];

/// The rules applied to one game `i` of a kernel (the kernel loops over the games).
#[derive(Clone, Copy)]
struct Core {
    setup: Setup,
}

impl Core {
    /// The id whose view game `i` shows: the agent (id 0) in the gym convention, else the
    /// mover.
    #[inline(always)]
    fn viewer(self, game: &Game) -> u8 {
        if self.setup.convention == Convention::Gym {
            0
        } else {
            game.mover
        }
    }

    /// Writes the observation, mask and player of game `i` whole; `ended` when the game is
    /// over (by its rules or an illegal move).
    #[inline]
    fn observe(self, game: &Game, ended: bool, i: usize, out: &mut Out<'_>) {
        let s = self.setup;
        let viewer = self.viewer(game);
        let legal = if ended { 0 } else { game.legal_moves() };
        let ob = s.obs_bytes();
        let obs = &mut out.obs[ob * i..ob * (i + 1)];
        match s.observation {
            Observation::Planes => write_planes(&game.position, game.player_of(viewer), legal, obs),
            Observation::OpenSpiel => write_tensor(game, obs),
        }
        let a = s.actions.count();
        let mask = &mut out.mask[a * i..a * (i + 1)];
        if ended && s.convention != Convention::PettingZoo {
            mask.fill(1);
        } else {
            let legal = if ended { game.legal_moves() } else { legal };
            write_mask(game, s.actions, legal, mask);
        }
        out.player[4 * i..4 * i + 4].copy_from_slice(&i32::from(viewer).to_ne_bytes());
    }

    /// Writes rewards and flags of an outcome; a game whose fields already say "going on, no
    /// reward" (`quiet`) is not written again.
    #[inline(always)]
    fn score(self, game: &mut Game, outcome: Outcome, i: usize, out: &mut Out<'_>) {
        let ongoing = outcome == Outcome::Ongoing;
        if ongoing && game.quiet {
            return;
        }
        game.quiet = ongoing;
        let (r, ended, truncated) = match outcome {
            Outcome::Ongoing => ([0.0, 0.0], false, false),
            Outcome::Draw => ([0.0, 0.0], true, false),
            Outcome::Won(0) => ([1.0, -1.0], true, false),
            Outcome::Won(_) => ([-1.0, 1.0], true, false),
            Outcome::Illegal(id) => {
                let (mover, other, truncated) = match self.setup.convention {
                    Convention::Pgx => (-1.0, 1.0, false),
                    Convention::PettingZoo => (-1.0, 0.0, true),
                    Convention::Gym => (self.setup.illegal_reward, 0.0, false),
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

    /// Starts `game` again: empty board, seat drawn, and the opponent opens if it is X.
    fn restart(self, game: &mut Game) {
        game.position = Position::EMPTY;
        game.chosen = NONE;
        game.last = None;
        game.done = false;
        game.pending = Pending::None;
        game.first = match self.setup.seat {
            Seat::Zero => 0,
            Seat::One => 1,
            Seat::Random => (splitmix(&mut game.seat_rng) >> 63) as u8,
        };
        game.mover = game.first;
        if self.setup.convention == Convention::Gym && game.first == 1 {
            self.opponent_turn(game, Pending::AfterReset);
        }
    }

    /// The opponent (id 1) moves now, or the game waits for Python.
    #[inline]
    fn opponent_turn(self, game: &mut Game, pending: Pending) -> Outcome {
        match self.setup.opponent {
            Opponent::Random => {
                let random = (splitmix(&mut game.opponent_rng) >> 32) as u32;
                match game.position.pick(random) {
                    Some(mv) => game.play(mv),
                    None => Outcome::Ongoing,
                }
            }
            Opponent::External => {
                game.pending = pending;
                Outcome::Ongoing
            }
        }
    }

    /// Starts game `i` and writes its fields whole.
    fn start(self, game: &mut Game, i: usize, out: &mut Out<'_>) {
        self.restart(game);
        self.score(game, Outcome::Ongoing, i, out);
        if game.pending == Pending::None {
            self.observe(game, false, i, out);
        }
    }

    /// Finishes step `i` once the game's moves are made: outcome, then auto-reset.
    #[inline(always)]
    fn conclude(
        self,
        game: &mut Game,
        outcome: Outcome,
        marks: &Marks,
        i: usize,
        out: &mut Out<'_>,
    ) {
        self.score(game, outcome, i, out);
        if outcome == Outcome::Ongoing {
            self.advance(game, marks, i, out);
            return;
        }
        match self.setup.autoreset {
            Autoreset::SameStep => {
                self.observe(game, true, i, out);
                let ob = self.setup.obs_bytes();
                out.final_obs[ob * i..ob * (i + 1)].copy_from_slice(&out.obs[ob * i..ob * (i + 1)]);
                self.restart(game);
                if game.pending == Pending::None {
                    self.observe(game, false, i, out);
                }
            }
            Autoreset::NextStep | Autoreset::Disabled => {
                game.done = true;
                self.observe(game, true, i, out);
            }
        }
    }

    /// One step of game `i` with `action` (below the number of actions).
    #[inline(always)]
    fn step(self, game: &mut Game, action: usize, i: usize, out: &mut Out<'_>) {
        if game.done {
            match self.setup.autoreset {
                Autoreset::NextStep => self.start(game, i, out),
                // A finished game stays as it is, with no reward (pgx's rule).
                _ => out.rewards[8 * i..8 * i + 8].fill(0),
            }
            return;
        }
        let actor = game.mover;
        let plies = game.position.plies();
        let mut outcome = game.act(self.setup.actions, action);
        let mut marks: Marks = [None, None];
        if game.position.plies() > plies {
            marks[0] = game.last.map(|mv| (mv, actor));
        }
        if self.setup.convention == Convention::Gym
            && outcome == Outcome::Ongoing
            && game.mover == 1
        {
            let plies = game.position.plies();
            outcome = self.opponent_turn(game, Pending::InStep);
            if game.pending != Pending::None {
                return;
            }
            if game.position.plies() > plies {
                marks[1] = game.last.map(|mv| (mv, 1));
            }
        }
        self.conclude(game, outcome, &marks, i, out);
    }

    /// Game `i` goes on after `marks`: its `planes` observation and mask updated in place. In
    /// the pgx and PettingZoo conventions the viewer is the mover, whom a mark changes: the
    /// two mark planes swap, and the mark lands in the second (the other player's); in the gym
    /// convention the viewer stays the agent. The legal plane, the mask and the player are
    /// rewritten (nine table lookups).
    ///
    /// pyspiel's tensor (`observation="openspiel"`) is updated in place too: a mark clears
    /// its cell's empty value and sets its player's; the current player and the forced board
    /// are rewritten.
    #[inline(always)]
    fn advance(self, game: &Game, marks: &Marks, i: usize, out: &mut Out<'_>) {
        let viewer = self.viewer(game);
        let legal = game.legal_moves();
        let a = self.setup.actions.count();
        let mask = &mut out.mask[a * i..a * (i + 1)];
        let ob = self.setup.obs_bytes();
        let obs = &mut out.obs[ob * i..ob * (i + 1)];
        match self.setup.observation {
            Observation::Planes => {
                for &(mv, id) in marks.iter().flatten() {
                    if self.setup.convention != Convention::Gym {
                        let (mine, rest) = obs.split_at_mut(81);
                        mine.swap_with_slice(&mut rest[..81]);
                    }
                    obs[usize::from(id != viewer) * 81 + mv.index()] = 1;
                }
                for b in 0..9 {
                    spread(
                        (legal >> (9 * b)) as u16 & 0x1FF,
                        &mut obs[162 + 9 * b..171 + 9 * b],
                    );
                }
                match self.setup.actions {
                    Actions::Flat => mask.copy_from_slice(&obs[162..243]),
                    Actions::OpenSpiel => write_mask(game, Actions::OpenSpiel, legal, mask),
                }
            }
            Observation::OpenSpiel => {
                let mut set = |index: usize, value: f32| {
                    obs[4 * index..4 * index + 4].copy_from_slice(&value.to_ne_bytes());
                };
                for &(mv, id) in marks.iter().flatten() {
                    let plane = if game.player_of(id) == Player::X {
                        2
                    } else {
                        1
                    };
                    set(mv.index(), 0.0);
                    set(plane * 81 + mv.index(), 1.0);
                }
                let player = game
                    .position
                    .to_move()
                    .map_or(0.0, |p| f32::from(u8::from(p == Player::O)));
                set(243, player);
                let forced = game.board().map_or(9, Cell::index);
                for k in 0..10 {
                    set(244 + k, f32::from(u8::from(k == forced)));
                }
                write_mask(game, self.setup.actions, legal, mask);
            }
        }
        out.player[4 * i..4 * i + 4].copy_from_slice(&i32::from(viewer).to_ne_bytes());
    }

    /// The external opponent's flat move in game `i`; `false` when it is illegal.
    fn finish(self, game: &mut Game, action: usize, i: usize, out: &mut Out<'_>) -> bool {
        let pending = game.pending;
        game.pending = Pending::None;
        let Ok(mv) = Move::try_from(action) else {
            return false;
        };
        let outcome = game.play(mv);
        match outcome {
            Outcome::Illegal(_) => return false,
            Outcome::Ongoing => {
                if pending == Pending::InStep {
                    self.score(game, outcome, i, out);
                }
                self.observe(game, false, i, out);
            }
            // The opponent's first move cannot end a game; one in a step ends it.
            _ => self.conclude(game, outcome, &[None, None], i, out),
        }
        true
    }

    /// A uniformly random legal action (any action once the game is over): a flat move, or
    /// with `openspiel` actions an open board when the mover chooses, else a cell.
    #[inline]
    fn sample(self, game: &mut Game) -> i64 {
        let random = (splitmix(&mut game.sample_rng) >> 32) as u32;
        let a = self.setup.actions.count() as u64;
        if game.done {
            return ((u64::from(random) * a) >> 32) as i64;
        }
        match self.setup.actions {
            Actions::Flat => game.position.pick(random).map_or(0, |m| m.index() as i64),
            Actions::OpenSpiel if game.choosing() => {
                let open = game.position.open_boards();
                open.pick(random).map_or(0, |b| b.index() as i64)
            }
            Actions::OpenSpiel => {
                let board = game.board().unwrap_or(Cell::ALL[0]);
                let cells = game.position.moves_in(board);
                cells.pick(random).map_or(0, |c| c.index() as i64)
            }
        }
    }
}

/// The `planes` observation: `me`'s marks, the other's, the legal moves, nine bytes a board.
#[inline]
fn write_planes(position: &Position, me: Player, legal: u128, obs: &mut [u8]) {
    for b in Cell::ALL {
        let board = position.board(b);
        let (x, o) = (board.x().bits(), board.o().bits());
        let (mine, theirs) = if me == Player::X { (x, o) } else { (o, x) };
        let at = 9 * b.index();
        spread(mine, &mut obs[at..at + 9]);
        spread(theirs, &mut obs[81 + at..81 + at + 9]);
        spread(
            (legal >> at) as u16 & 0x1FF,
            &mut obs[162 + at..162 + at + 9],
        );
    }
}

/// The mask of the legal actions: the flat moves, or with `openspiel` actions the open boards
/// when the mover chooses and the cells of its board otherwise.
#[inline]
fn write_mask(game: &Game, actions: Actions, legal: u128, mask: &mut [u8]) {
    match actions {
        Actions::Flat => {
            for b in 0..9 {
                spread(
                    (legal >> (9 * b)) as u16 & 0x1FF,
                    &mut mask[9 * b..9 * b + 9],
                );
            }
        }
        Actions::OpenSpiel => {
            let set = match game.board() {
                _ if legal == 0 => 0,
                Some(board) => (legal >> (9 * board.index())) as u16 & 0x1FF,
                None => game.position.open_boards().bits(),
            };
            spread(set, mask);
        }
    }
}

/// pyspiel's observation tensor of the game, as `f32` bytes (see the module docs).
fn write_tensor(game: &Game, obs: &mut [u8]) {
    let mut values = [0f32; TENSOR];
    let position = &game.position;
    for b in Cell::ALL {
        for c in Cell::ALL {
            let plane = match position.at(b, c) {
                None => 0,
                Some(Player::O) => 1,
                Some(Player::X) => 2,
            };
            values[plane * 81 + 9 * b.index() + c.index()] = 1.0;
        }
    }
    let index = |p: Player| match p {
        Player::X => 0u8,
        Player::O => 1,
    };
    let (player, forced) = if position.status().is_finished() {
        let mover = position.last_mover().unwrap_or(Player::X);
        (index(mover), game.last.map_or(9, |m| m.cell().index()))
    } else {
        let player = position.to_move().map_or(0, index);
        (player, game.board().map_or(9, Cell::index))
    };
    values[243] = f32::from(player);
    values[244 + forced] = 1.0;
    for (bytes, value) in obs.chunks_exact_mut(4).zip(values) {
        bytes.copy_from_slice(&value.to_ne_bytes());
    }
}

/// `N` games of ultimate tic-tac-toe stepped together, writing into numpy buffers it owns
/// (see the module docs).
#[pyclass(module = "tictactoe_rs._native")]
pub struct UltimateKernel {
    setup: Setup,
    games: Vec<Game>,
    /// Every output field.
    buffer: Py<PyArray1<u8>>,
    /// The actions of the current call, reused.
    scratch: Vec<usize>,
    /// With an external opponent: the games and the buffer as they were before the current
    /// `reset` or `step`, restored by `rollback`.
    saved: Option<(Vec<Game>, Vec<u8>)>,
}

/// Borrows the buffer and runs `$body` over the games, without the GIL for large batches.
macro_rules! with_games {
    ($self:ident, $py:ident, |$core:ident, $games:ident, $out:ident| $body:expr) => {{
        let mut buffer = $self.buffer.bind($py).readwrite();
        let n = $self.games.len();
        let setup = $self.setup;
        let mut $out = setup.split(n, buffer.as_slice_mut()?);
        let $core = Core { setup };
        let $games = &mut $self.games;
        if n >= DETACH_MIN {
            $py.detach(|| $body)
        } else {
            $body
        }
    }};
}

impl UltimateKernel {
    /// Keeps the state for `rollback` (external opponent only).
    fn save(&mut self, py: Python<'_>) {
        if self.setup.opponent != Opponent::External || self.setup.convention != Convention::Gym {
            return;
        }
        let bytes = self
            .buffer
            .bind(py)
            .readonly()
            .as_slice()
            .map(<[u8]>::to_vec);
        self.saved = bytes.ok().map(|bytes| (self.games.clone(), bytes));
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
        let n = self.games.len();
        values.clear();
        let ints = Ints::read(name, obj)?;
        if ints.shape() != [n] {
            return Err(PyValueError::new_err(format!(
                "argument `{name}` must have shape ({n},), got {:?}",
                ints.shape()
            )));
        }
        let mut bad = None;
        with_int_slice!(ints.slice()?, |s| {
            for (i, v) in s.iter().enumerate() {
                let v = v.to_bits() as i64;
                match usize::try_from(v) {
                    Ok(a) if a < limit => values.push(a),
                    _ => {
                        bad = Some((i, v));
                        break;
                    }
                }
            }
        });
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
    /// the opponent (gym only) is `"random"` or `"external"`.
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
        let illegal_reward = read_reward(illegal_reward)?;
        let n = match usize::try_from(n.0) {
            Ok(n) if (1..=MAX_GAMES).contains(&n) => n,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "argument `n` must be 1 to {MAX_GAMES} games, got {}",
                    n.0
                )));
            }
        };
        let setup = Setup {
            convention: choice::extract::<Convention>("convention", convention)?,
            autoreset: match autoreset {
                Some(value) => choice::extract::<Autoreset>("autoreset", value)?,
                None => Autoreset::SameStep,
            },
            seat: seat.map_or(Ok(Seat::Random), read_seat)?,
            opponent: choice::parse::<Opponent>("opponent", opponent)?,
            illegal_reward,
            actions: choice::parse::<Actions>("actions", actions)?,
            observation: choice::parse::<Observation>("observation", observation)?,
        };
        let mut games = Vec::new();
        games.try_reserve_exact(n).map_err(|_| {
            PyMemoryError::new_err(format!("argument `n`: cannot allocate {n} games"))
        })?;
        games.extend((0..n as u64).map(|i| Game::new(seed.0.wrapping_add(i))));
        let total = setup.offsets(n).1;
        let buffer = zeros::<u8>(py, "n", &[total])?.cast_into::<PyArray1<u8>>()?;
        Ok(UltimateKernel {
            setup,
            games,
            buffer: buffer.unbind(),
            scratch: try_vec("n", n, 0)?,
            saved: None,
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
    /// `seeds[i]` when `seeds` is given.
    #[pyo3(signature = (seeds=None, mask=None))]
    fn reset(
        &mut self,
        py: Python<'_>,
        seeds: Option<numpy::PyReadonlyArray1<'_, u64>>,
        mask: Option<numpy::PyReadonlyArray1<'_, bool>>,
    ) -> PyResult<()> {
        let n = self.games.len();
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
        self.save(py);
        with_games!(self, py, |core, games, out| {
            for (i, game) in games.iter_mut().enumerate() {
                if mask.as_ref().is_some_and(|m| !m[i]) {
                    continue;
                }
                if let Some(seeds) = &seeds {
                    *game = Game::new(seeds[i]);
                }
                core.start(game, i, &mut out);
            }
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
        if read.is_ok() {
            self.save(py);
        }
        let result = read.and_then(|()| {
            with_games!(self, py, |core, games, out| {
                for (i, (game, &action)) in games.iter_mut().zip(&scratch).enumerate() {
                    core.step(game, action, i, &mut out);
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
        let n = self.games.len();
        let Ok(out) = out.cast::<PyArray1<i64>>() else {
            let got = match out.cast::<numpy::PyUntypedArray>() {
                Ok(array) => {
                    use numpy::PyUntypedArrayMethods;
                    format!(
                        "an array of dtype {} and {} dimensions",
                        array.dtype(),
                        array.ndim()
                    )
                }
                Err(_) => format!("{}", out.get_type().name()?),
            };
            return Err(PyTypeError::new_err(format!(
                "argument `out` must be an int64 array of shape ({n},), got {got}"
            )));
        };
        writeable("out", out.as_untyped())?;
        let mut out = out
            .try_readwrite()
            .map_err(|e| PyValueError::new_err(format!("argument `out` cannot be written: {e}")))?;
        let out = out.as_slice_mut().map_err(|_| {
            PyValueError::new_err("argument `out` must be C-contiguous and aligned")
        })?;
        if out.len() != n {
            return Err(PyValueError::new_err(format!(
                "argument `out` must have shape ({n},), got ({},)",
                out.len()
            )));
        }
        let core = Core { setup: self.setup };
        let games = &mut self.games;
        let mut work = || {
            for (game, slot) in games.iter_mut().zip(out.iter_mut()) {
                *slot = core.sample(game);
            }
        };
        if n >= DETACH_MIN {
            py.detach(work);
        } else {
            work();
        }
        Ok(())
    }

    /// Restores the games and the buffer as they were before the last `reset` or `step`
    /// (external opponent only). Returns whether there was a state to restore.
    fn rollback(&mut self, py: Python<'_>) -> PyResult<bool> {
        let Some((games, bytes)) = self.saved.take() else {
            return Ok(false);
        };
        self.games = games;
        let mut buffer = self.buffer.bind(py).try_readwrite()?;
        buffer.as_slice_mut()?.copy_from_slice(&bytes);
        Ok(true)
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

    /// The view of player id `viewer` of every game: `planes` observations `(n, 3, 9, 9)`
    /// (its marks, the other's, the legal moves when it is to move) and its legal flat moves
    /// `(n, 81)`, both uint8 copies; for the PettingZoo environment and an external opponent.
    fn views<'py>(
        &self,
        py: Python<'py>,
        viewer: Int<i64>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let viewer = match viewer.0 {
            0 => 0u8,
            1 => 1u8,
            v => {
                return Err(PyValueError::new_err(format!(
                    "argument `viewer` must be player id 0 or 1, got {v}"
                )));
            }
        };
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
        let illegal: Option<usize> = with_games!(self, py, |core, games, out| {
            let mut illegal = None;
            for (i, (game, &action)) in games.iter_mut().zip(&values).enumerate() {
                if game.pending != Pending::None && !core.finish(game, action, i, &mut out) {
                    illegal.get_or_insert(i);
                }
            }
            illegal
        });
        match illegal {
            Some(i) => Err(PyValueError::new_err(format!(
                "actions: the opponent's move {} in game {i} is illegal",
                values[i]
            ))),
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
        let n = self.games.len();
        let (first, mask) = (first.as_slice()?.to_vec(), mask.as_slice()?.to_vec());
        if first.len() != n || mask.len() != n {
            return Err(PyValueError::new_err(format!(
                "first, mask: expected {n} entries each"
            )));
        }
        if self.setup.convention == Convention::Gym {
            return Err(PyValueError::new_err(
                "set_first: not for the gym convention",
            ));
        }
        if let Some(i) = (0..n).find(|&i| mask[i] && self.games[i].position != Position::EMPTY) {
            return Err(PyValueError::new_err(format!("mask: game {i} has started")));
        }
        if let Some(i) = (0..n).find(|&i| mask[i] && !(0..2).contains(&first[i])) {
            return Err(PyValueError::new_err(format!(
                "first: {} is not 0 or 1",
                first[i]
            )));
        }
        with_games!(self, py, |core, games, out| {
            for (i, game) in games.iter_mut().enumerate() {
                if mask[i] {
                    game.first = first[i] as u8;
                    game.mover = game.first;
                    core.observe(game, false, i, &mut out);
                }
            }
        });
        Ok(())
    }

    /// The one uint8 buffer that holds every output field, rewritten in place by each step.
    #[getter]
    fn buffer<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.buffer.bind(py).clone()
    }

    /// `(name, offset, dtype, shape)` of each output field in `buffer` (see `EnvKernel`).
    fn fields(&self) -> Vec<(&'static str, usize, &'static str, Vec<usize>)> {
        let n = self.games.len();
        let (offsets, _) = self.setup.offsets(n);
        self.setup
            .fields()
            .into_iter()
            .zip(offsets)
            .map(|((name, dtype, _, shape), offset)| {
                let mut full = vec![n];
                full.extend(shape);
                (name, offset, dtype, full)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fields updated in place (`advance`) equal the ones written whole (`observe`, the
    /// slow twin) after every step of random games with illegal moves, in every convention,
    /// action numbering and auto-reset mode, for both observation layouts.
    #[test]
    fn fields_updated_in_place_equal_fields_written_whole() {
        for convention in [Convention::Pgx, Convention::PettingZoo, Convention::Gym] {
            for actions in [Actions::Flat, Actions::OpenSpiel] {
                for (autoreset, observation) in [
                    (Autoreset::SameStep, Observation::Planes),
                    (Autoreset::NextStep, Observation::Planes),
                    (Autoreset::SameStep, Observation::OpenSpiel),
                ] {
                    let setup = Setup {
                        convention,
                        autoreset,
                        seat: Seat::Random,
                        opponent: Opponent::Random,
                        illegal_reward: -1.0,
                        actions,
                        observation,
                    };
                    let n = 3;
                    let ob = setup.obs_bytes();
                    let total = setup.offsets(n).1;
                    let (mut bytes, mut twin) = (vec![0u8; total], vec![0u8; total]);
                    let core = Core { setup };
                    let mut games: Vec<Game> = (0..n as u64).map(Game::new).collect();
                    for (i, game) in games.iter_mut().enumerate() {
                        core.start(game, i, &mut setup.split(n, &mut bytes));
                    }
                    let mut rng = 11u64;
                    let a = actions.count();
                    for step in 0..800 {
                        for (i, game) in games.iter_mut().enumerate() {
                            let random = splitmix(&mut rng);
                            let action = if random.is_multiple_of(25) {
                                (random >> 32) as usize % a
                            } else {
                                core.sample(game) as usize
                            };
                            core.step(game, action, i, &mut setup.split(n, &mut bytes));
                            core.observe(game, game.done, i, &mut setup.split(n, &mut twin));
                            let (fast, slow) =
                                (setup.split(n, &mut bytes), setup.split(n, &mut twin));
                            let at = format!("{convention:?} {actions:?} {autoreset:?} {step} {i}");
                            assert_eq!(
                                fast.obs[ob * i..ob * (i + 1)],
                                slow.obs[ob * i..ob * (i + 1)],
                                "{at}"
                            );
                            assert_eq!(
                                fast.mask[a * i..a * (i + 1)],
                                slow.mask[a * i..a * (i + 1)],
                                "{at}"
                            );
                            assert_eq!(
                                fast.player[4 * i..4 * i + 4],
                                slow.player[4 * i..4 * i + 4],
                                "{at}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Random games with illegal actions in every convention, action numbering and auto-reset
    /// mode: the mask is the legal actions (or all ones once over), the legal plane equals
    /// the flat legal moves, and the board is the one the moves made.
    #[test]
    fn masks_and_planes_follow_the_position() {
        for convention in [Convention::Pgx, Convention::PettingZoo, Convention::Gym] {
            for actions in [Actions::Flat, Actions::OpenSpiel] {
                for autoreset in [Autoreset::SameStep, Autoreset::NextStep] {
                    let setup = Setup {
                        convention,
                        autoreset,
                        seat: Seat::Random,
                        opponent: Opponent::Random,
                        illegal_reward: -1.0,
                        actions,
                        observation: Observation::Planes,
                    };
                    let n = 3;
                    let mut bytes = vec![0u8; setup.offsets(n).1];
                    let core = Core { setup };
                    let mut games: Vec<Game> = (0..n as u64).map(Game::new).collect();
                    for (i, game) in games.iter_mut().enumerate() {
                        core.start(game, i, &mut setup.split(n, &mut bytes));
                    }
                    let mut rng = 7u64;
                    let a = actions.count();
                    for step in 0..600 {
                        for (i, game) in games.iter_mut().enumerate() {
                            let random = splitmix(&mut rng);
                            let action = if random.is_multiple_of(20) {
                                (random >> 32) as usize % a
                            } else {
                                core.sample(game) as usize
                            };
                            core.step(game, action, i, &mut setup.split(n, &mut bytes));
                            let out = setup.split(n, &mut bytes);
                            let at = format!("{convention:?} {actions:?} {autoreset:?} {step} {i}");
                            let mask = &out.mask[a * i..a * (i + 1)];
                            let obs = &out.obs[243 * i..243 * (i + 1)];
                            if game.done {
                                if convention != Convention::PettingZoo {
                                    assert!(mask.iter().all(|&m| m == 1), "{at}");
                                }
                                assert!(obs[162..].iter().all(|&v| v == 0), "{at}");
                                continue;
                            }
                            let legal = game.legal_moves();
                            for (k, &v) in obs[162..].iter().enumerate() {
                                assert_eq!(v == 1, legal >> k & 1 == 1, "{at}");
                            }
                            for (k, &m) in mask.iter().enumerate() {
                                let allowed = match actions {
                                    Actions::Flat => legal >> k & 1 == 1,
                                    Actions::OpenSpiel => {
                                        let mut probe = game.clone();
                                        probe.act(actions, k) != Outcome::Illegal(probe.mover)
                                    }
                                };
                                assert_eq!(m == 1, allowed, "{at} action {k}");
                            }
                            let me = game.player_of(core.viewer(game));
                            for b in Cell::ALL {
                                for c in Cell::ALL {
                                    let k = 9 * b.index() + c.index();
                                    let mark = game.position.at(b, c);
                                    assert_eq!(obs[k] == 1, mark == Some(me), "{at}");
                                    assert_eq!(
                                        obs[81 + k] == 1,
                                        mark == Some(me.opponent()),
                                        "{at}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
