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

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use tictactoe::mnk::agents::{Agent, Strategy};
use tictactoe::mnk::{AnyPosition, Position, Rules};
use tictactoe::{Player, Status};

use super::rules::{Autoreset, Convention, Out, Outcome, Pending, Seat};
use super::tables::splitmix;
use super::{DETACH_MIN, read_reward, read_seat};
use crate::arrays::{Code, Int, Ints, try_vec, with_int_slice, writeable, zeros};
use crate::choice;
use crate::mnk::Interrupt;

/// The most games a kernel holds, so that no size computation overflows: a 19 × 19 game
/// takes under 2 KiB of buffer and state.
const MAX_GAMES: usize = (isize::MAX as usize) >> 12;

/// A position of width `W` as the library's [`AnyPosition`] (for the built-in players): every
/// width the library runs at ([`tictactoe::mnk::WIDTHS`]).
pub trait Wide: Copy {
    fn any(self) -> AnyPosition;
}

impl<const W: usize> Wide for Position<W>
where
    AnyPosition: From<Position<W>>,
{
    fn any(self) -> AnyPosition {
        AnyPosition::from(self)
    }
}

/// The fixed settings of a kernel and the shape of its games.
#[derive(Clone, Debug)]
pub struct Setup {
    pub rules: Rules,
    pub convention: Convention,
    pub autoreset: Autoreset,
    pub seat: Seat,
    /// The built-in opponent (gym convention), or `None`: moves from Python.
    pub opponent: Option<Strategy>,
    pub illegal_reward: f32,
    /// `rows × cols`.
    pub cells: usize,
    /// `cols` with gravity, `cells` without.
    pub actions: usize,
    /// The observation index (`row × cols + col`) of each bitboard bit ([`NO_CELL`] for the
    /// guard bits).
    pub cell_of_bit: Vec<u16>,
    /// The action that fills each bitboard bit (0 for the guard bits).
    pub action_of_bit: Vec<u16>,
}

/// The `cell_of_bit` of a guard bit.
const NO_CELL: u16 = u16::MAX;

/// A mark just made: its observation index, its action, and the id that made it.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    cell: u16,
    action: u16,
    id: u8,
}

impl Setup {
    /// The settings and tables of a kernel of `rules`.
    fn new(
        rules: Rules,
        convention: Convention,
        autoreset: Autoreset,
        seat: Seat,
        opponent: Option<Strategy>,
        illegal_reward: f32,
    ) -> Setup {
        let [cell_of_bit, action_of_bit] = Setup::tables(rules);
        Setup {
            rules,
            convention,
            autoreset,
            seat,
            opponent,
            illegal_reward,
            cells: rules.cells() as usize,
            actions: rules.actions() as usize,
            cell_of_bit,
            action_of_bit,
        }
    }

    fn obs_bytes(&self) -> usize {
        2 * self.cells
    }

    /// `(name, dtype, bytes per game, shape after n)` in buffer order.
    fn fields(&self) -> [(&'static str, &'static str, usize, Vec<usize>); 7] {
        let (r, c) = (self.rules.rows() as usize, self.rules.cols() as usize);
        [
            ("obs", "uint8", 2 * self.cells, vec![r, c, 2]),
            ("mask", "uint8", self.actions, vec![self.actions]),
            ("rewards", "float32", 8, vec![2]),
            ("terminated", "bool", 1, vec![]),
            ("truncated", "bool", 1, vec![]),
            ("player", "int32", 4, vec![]),
            ("final_obs", "uint8", 2 * self.cells, vec![r, c, 2]),
        ]
    }

    /// The byte offset of each field for `n` games (aligned to 8), then the total.
    fn offsets(&self, n: usize) -> ([usize; 7], usize) {
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
    fn split<'a>(&self, n: usize, buffer: &'a mut [u8]) -> Out<'a> {
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

    /// The tables of `rules`: `cell_of_bit`, `action_of_bit`.
    fn tables(rules: Rules) -> [Vec<u16>; 2] {
        let mut cell_of_bit = vec![NO_CELL; 64 * rules.words().max(1)];
        let mut action_of_bit = vec![0; 64 * rules.words().max(1)];
        for cell in 0..rules.cells() {
            if let Some(square) = rules.square_at(cell) {
                let bit = rules.bit(square) as usize;
                cell_of_bit[bit] = cell as u16;
                action_of_bit[bit] = if rules.gravity() { square.col() } else { cell } as u16;
            }
        }
        [cell_of_bit, action_of_bit]
    }

    /// The observation index of bit `bit`, if it is a cell.
    #[inline]
    fn cell_of(&self, bit: u32) -> Option<usize> {
        match self.cell_of_bit.get(bit as usize) {
            Some(&cell) if cell != NO_CELL => Some(usize::from(cell)),
            _ => None,
        }
    }
}

/// One game.
#[derive(Clone, Debug)]
pub struct Game<const W: usize> {
    pub position: Position<W>,
    /// The id (0 or 1) that plays X.
    pub first: u8,
    /// Ended and not yet reset.
    pub done: bool,
    pub pending: Pending,
    /// splitmix64 state for the seat draws.
    pub seat_rng: u64,
    /// splitmix64 state for `sample_actions`.
    pub sample_rng: u64,
    /// The game's rewards and flags in the buffer are zero (it goes on, no reward).
    pub quiet: bool,
}

impl<const W: usize> Game<W>
where
    Position<W>: Wide,
{
    fn new(empty: Position<W>, seed: u64) -> Game<W> {
        Game {
            position: empty,
            first: 0,
            done: false,
            pending: Pending::None,
            seat_rng: seed,
            sample_rng: !seed,
            quiet: false,
        }
    }

    /// The id of the player to move (by the mark count, finished or not).
    #[inline(always)]
    fn mover(&self) -> u8 {
        if self.position.plies().is_multiple_of(2) {
            self.first
        } else {
            1 - self.first
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

    /// How the game stands, by its status (the last mover won, if anyone did).
    fn standing(&self) -> Outcome {
        match self.position.status() {
            Status::Ongoing => Outcome::Ongoing,
            Status::Draw => Outcome::Draw,
            Status::Won(player) => Outcome::Won(if player == self.player_of(0) { 0 } else { 1 }),
        }
    }

    /// Plays `action` (already checked to be below the number of actions) for the side to
    /// move in a game in play: the outcome and the mark made. The check is the library's
    /// (`Position::legal_move`), the move its `play_move`.
    #[inline(always)]
    fn play(&mut self, setup: &Setup, action: usize) -> (Outcome, Option<Mark>) {
        let mover = self.mover();
        let Ok(mv) = self.position.legal_move(action) else {
            return (Outcome::Illegal(mover), None);
        };
        self.position.play_move(mv);
        let bit = mv.bit();
        let outcome = match self.position.status() {
            Status::Ongoing => Outcome::Ongoing,
            Status::Draw => Outcome::Draw,
            Status::Won(_) => Outcome::Won(mover),
        };
        let cell = setup.cell_of_bit[bit as usize];
        let mark = Mark {
            cell,
            action: action as u16,
            id: mover,
        };
        (outcome, Some(mark))
    }
}

/// Swaps the two planes of an observation: the bytes of each pair, eight bytes at a time.
#[inline(always)]
fn swap_planes(obs: &mut [u8]) {
    const LOW: u64 = 0x00FF_00FF_00FF_00FF;
    let mut chunks = obs.chunks_exact_mut(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let v = u64::from_le_bytes(word);
        let swapped = ((v & LOW) << 8) | ((v >> 8) & LOW);
        chunk.copy_from_slice(&swapped.to_le_bytes());
    }
    for pair in chunks.into_remainder().chunks_exact_mut(2) {
        pair.swap(0, 1);
    }
}

/// The games and the settings, generic over the width; every method works on the fields of
/// one game `i` (the kernel loops).
struct Core<'s> {
    setup: &'s Setup,
    /// Asked by the built-in opponent's search (`mcts`, `alphabeta`) as it goes, so that
    /// Ctrl-C stops a slow opponent; `None` where no opponent searches.
    interrupt: Option<&'s Interrupt>,
}

impl Core<'_> {
    /// The id whose view the observation shows (see [`super::rules::Config::viewer`]).
    #[inline(always)]
    fn viewer<const W: usize>(&self, game: &Game<W>, outcome: Outcome) -> u8
    where
        Position<W>: Wide,
    {
        match (self.setup.convention, outcome) {
            (Convention::Gym, _) => 0,
            (Convention::PettingZoo, Outcome::Illegal(_)) => 0,
            (Convention::Pgx, Outcome::Illegal(_)) => 1 - game.mover(),
            _ => game.mover(),
        }
    }

    /// Rewrites the observation, mask and player of game `i` whole.
    fn observe<const W: usize>(&self, game: &Game<W>, outcome: Outcome, i: usize, out: &mut Out<'_>)
    where
        Position<W>: Wide,
    {
        let s = self.setup;
        let viewer = self.viewer(game, outcome);
        let ob = s.obs_bytes();
        let obs = &mut out.obs[ob * i..ob * (i + 1)];
        obs.fill(0);
        let board = game.position.board();
        let me = game.player_of(viewer);
        for (plane, player) in [(0, me), (1, me.opponent())] {
            for bit in board.pieces(player).iter() {
                if let Some(cell) = s.cell_of(bit) {
                    obs[2 * cell + plane] = 1;
                }
            }
        }
        let mask = &mut out.mask[s.actions * i..s.actions * (i + 1)];
        let open = s.convention == Convention::PettingZoo || outcome == Outcome::Ongoing;
        if open {
            self.write_open(&game.position, mask);
        } else {
            mask.fill(1);
        }
        out.player[4 * i..4 * i + 4].copy_from_slice(&i32::from(viewer).to_ne_bytes());
    }

    /// Writes which actions have room (the legal ones while the game is on): columns not
    /// full with gravity, empty cells without.
    fn write_open<const W: usize>(&self, position: &Position<W>, mask: &mut [u8]) {
        let rules = self.setup.rules;
        if rules.gravity() {
            for (col, slot) in mask.iter_mut().enumerate() {
                *slot = u8::from(position.height(col as u32) < rules.rows());
            }
        } else {
            let board = position.board();
            mask.fill(1);
            for bit in board.occupied().iter() {
                if let Some(cell) = self.setup.cell_of(bit) {
                    mask[cell] = 0;
                }
            }
        }
    }

    /// Game `i` goes on after the marks `moves`: the observation and mask are updated in
    /// place (see the module docs).
    #[inline(always)]
    fn advance<const W: usize>(
        &self,
        game: &Game<W>,
        moves: &[Option<Mark>; 2],
        i: usize,
        out: &mut Out<'_>,
    ) where
        Position<W>: Wide,
    {
        let s = self.setup;
        let ob = s.obs_bytes();
        let obs = &mut out.obs[ob * i..ob * (i + 1)];
        let viewer = self.viewer(game, Outcome::Ongoing);
        // Only the gym convention keeps its viewer (the agent); the others show the mover, and
        // one move changes the mover.
        if s.convention != Convention::Gym {
            swap_planes(obs);
        }
        let mask = &mut out.mask[s.actions * i..s.actions * (i + 1)];
        for mark in moves.iter().flatten() {
            obs[2 * usize::from(mark.cell) + usize::from(mark.id != viewer)] = 1;
            let action = usize::from(mark.action);
            mask[action] = if s.rules.gravity() {
                u8::from(game.position.height(action as u32) < s.rules.rows())
            } else {
                0
            };
        }
        out.player[4 * i..4 * i + 4].copy_from_slice(&i32::from(viewer).to_ne_bytes());
    }

    /// Writes rewards and flags of an outcome (the 3 × 3 kernel's rules); a game whose
    /// fields already say "going on, no reward" (`quiet`) is not written again.
    #[inline(always)]
    fn score<const W: usize>(
        &self,
        game: &mut Game<W>,
        outcome: Outcome,
        i: usize,
        out: &mut Out<'_>,
    ) where
        Position<W>: Wide,
    {
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
    fn restart<const W: usize>(
        &self,
        game: &mut Game<W>,
        empty: Position<W>,
        agent: &mut Option<Agent>,
    ) -> Option<Mark>
    where
        Position<W>: Wide,
    {
        game.position = empty;
        game.done = false;
        game.pending = Pending::None;
        game.first = match self.setup.seat {
            Seat::Zero => 0,
            Seat::One => 1,
            Seat::Random => (splitmix(&mut game.seat_rng) >> 63) as u8,
        };
        if self.setup.convention == Convention::Gym && game.first == 1 {
            return self.opponent_turn(game, agent, Pending::AfterReset).1;
        }
        None
    }

    /// The opponent (id 1) moves now, or the game waits for Python.
    fn opponent_turn<const W: usize>(
        &self,
        game: &mut Game<W>,
        agent: &mut Option<Agent>,
        pending: Pending,
    ) -> (Outcome, Option<Mark>)
    where
        Position<W>: Wide,
    {
        let mut stop = || self.interrupt.is_some_and(Interrupt::stop);
        match agent {
            // A search cut short by Ctrl-C still answers a legal move; the step then raises.
            Some(agent) => match agent
                .choose_until(&game.position.any(), &mut stop)
                .map(|choice| choice.action)
            {
                // The library's players choose legal actions, below `actions`.
                Some(action) if action < self.setup.actions => game.play(self.setup, action),
                // Called only on an empty board or after an `Ongoing` outcome, so a move
                // exists; were the game over, its outcome stands as it is.
                _ => (game.standing(), None),
            },
            None => {
                game.pending = pending;
                (Outcome::Ongoing, None)
            }
        }
    }

    /// Starts game `i` and writes its fields whole.
    fn start<const W: usize>(
        &self,
        game: &mut Game<W>,
        empty: Position<W>,
        agent: &mut Option<Agent>,
        i: usize,
        out: &mut Out<'_>,
    ) where
        Position<W>: Wide,
    {
        self.restart(game, empty, agent);
        self.score(game, Outcome::Ongoing, i, out);
        if game.pending == Pending::None {
            self.observe(game, Outcome::Ongoing, i, out);
        }
    }

    /// Finishes step `i` once the game's moves are made: outcome, then auto-reset.
    #[inline(always)]
    // The game, the kernel's empty position and opponent, the step's outcome and marks, and
    // the output slot: a struct to carry them would be built once a call for nothing.
    #[allow(clippy::too_many_arguments)]
    fn conclude<const W: usize>(
        &self,
        game: &mut Game<W>,
        empty: Position<W>,
        agent: &mut Option<Agent>,
        outcome: Outcome,
        moves: &[Option<Mark>; 2],
        i: usize,
        out: &mut Out<'_>,
    ) where
        Position<W>: Wide,
    {
        self.score(game, outcome, i, out);
        if outcome == Outcome::Ongoing {
            self.advance(game, moves, i, out);
            return;
        }
        match self.setup.autoreset {
            Autoreset::SameStep => {
                self.observe_end(game, outcome, moves, i, out);
                let ob = self.setup.obs_bytes();
                out.final_obs[ob * i..ob * (i + 1)].copy_from_slice(&out.obs[ob * i..ob * (i + 1)]);
                self.restart(game, empty, agent);
                if game.pending == Pending::None {
                    self.observe(game, Outcome::Ongoing, i, out);
                }
            }
            Autoreset::NextStep | Autoreset::Disabled => {
                game.done = true;
                self.observe_end(game, outcome, moves, i, out);
            }
        }
    }

    /// The observation and mask of game `i`, which `moves` just ended: updated in place as
    /// after a move in play when it ended on a mark (the viewer is the one a game in play would
    /// have: only an illegal move changes it), then the mask of an ended game; whole otherwise.
    #[inline]
    fn observe_end<const W: usize>(
        &self,
        game: &Game<W>,
        outcome: Outcome,
        moves: &[Option<Mark>; 2],
        i: usize,
        out: &mut Out<'_>,
    ) where
        Position<W>: Wide,
    {
        let marked = moves.iter().any(Option::is_some);
        if !marked || matches!(outcome, Outcome::Illegal(_)) {
            self.observe(game, outcome, i, out);
            return;
        }
        self.advance(game, moves, i, out);
        if self.setup.convention != Convention::PettingZoo {
            let a = self.setup.actions;
            out.mask[a * i..a * (i + 1)].fill(1);
        }
    }

    /// One step of game `i` with `action` (below the number of actions).
    #[inline(always)]
    fn step<const W: usize>(
        &self,
        game: &mut Game<W>,
        empty: Position<W>,
        agent: &mut Option<Agent>,
        action: usize,
        i: usize,
        out: &mut Out<'_>,
    ) where
        Position<W>: Wide,
    {
        if game.done {
            match self.setup.autoreset {
                Autoreset::NextStep => self.start(game, empty, agent, i, out),
                // A finished game stays as it is, with no reward (pgx's rule).
                _ => out.rewards[8 * i..8 * i + 8].fill(0),
            }
            return;
        }
        let (mut outcome, mark) = game.play(self.setup, action);
        let mut moves = [mark, None];
        if self.setup.convention == Convention::Gym && outcome == Outcome::Ongoing {
            let (after, reply) = self.opponent_turn(game, agent, Pending::InStep);
            if game.pending != Pending::None {
                return;
            }
            outcome = after;
            moves[1] = reply;
        }
        self.conclude(game, empty, agent, outcome, &moves, i, out);
    }

    /// The external opponent's move in game `i`; `false` when it is illegal.
    fn finish<const W: usize>(
        &self,
        game: &mut Game<W>,
        empty: Position<W>,
        action: usize,
        i: usize,
        out: &mut Out<'_>,
    ) -> bool
    where
        Position<W>: Wide,
    {
        let pending = game.pending;
        game.pending = Pending::None;
        let (outcome, _) = game.play(self.setup, action);
        match outcome {
            Outcome::Illegal(_) => return false,
            Outcome::Ongoing => {
                if pending == Pending::InStep {
                    self.score(game, outcome, i, out);
                }
                // Whole: the agent's move of this step was not written either.
                self.observe(game, outcome, i, out);
            }
            // The opponent's first move cannot end a game; one in a step ends it.
            _ => self.conclude(game, empty, &mut None, outcome, &[None, None], i, out),
        }
        true
    }

    /// A uniformly random action with room (any action when the game is over).
    #[inline]
    fn sample<const W: usize>(&self, game: &mut Game<W>) -> i64
    where
        Position<W>: Wide,
    {
        let random = u64::from((splitmix(&mut game.sample_rng) >> 32) as u32);
        let actions = self.setup.actions as u64;
        if game.done {
            return ((random * actions) >> 32) as i64;
        }
        let Some(mv) = game.position.legal_moves().pick(random as u32) else {
            return 0;
        };
        self.setup
            .action_of_bit
            .get(mv.bit() as usize)
            .map_or(0, |&a| i64::from(a))
    }
}

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
            let mut games = Vec::new();
            games.try_reserve_exact(n).map_err(|_| {
                PyMemoryError::new_err(format!("argument `n`: cannot allocate {n} games"))
            })?;
            games.extend((0..n as u64).map(|i| Game::new(empty, seed.wrapping_add(i))));
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
    /// Every output field.
    buffer: Py<PyArray1<u8>>,
    /// The actions of the current call, reused.
    scratch: Vec<usize>,
    /// With an external opponent: the games and the buffer as they were before the current
    /// `reset` or `step`, restored by `rollback`.
    saved: Option<(Games, Vec<u8>)>,
}

/// Borrows the buffer and runs `$body` over the typed games, without the GIL for large batches.
macro_rules! with_games {
    ($self:ident, $py:ident, |$core:ident, $games:ident, $empty:ident, $agent:ident, $out:ident| $body:expr) => {{
        let mut buffer = $self.buffer.bind($py).readwrite();
        let n = $self.games.len();
        let setup = &$self.setup;
        let mut $out = setup.split(n, buffer.as_slice_mut()?);
        let interrupt = Interrupt::new();
        let $core = Core {
            setup,
            interrupt: Some(&interrupt),
        };
        let $agent = &mut $self.agent;
        let big = n >= DETACH_MIN;
        let value = each!(&mut $self.games, |$games, $empty| {
            let $empty = *$empty;
            if big { $py.detach(|| $body) } else { $body }
        });
        // Ctrl-C during an opponent's search: the games played on (a search cut short still
        // answers a move); the call raises the `KeyboardInterrupt` now.
        if let Some(error) = interrupt.raised() {
            return Err(error);
        }
        value
    }};
}

impl FamilyKernel {
    /// Keeps the state for `rollback` (external opponent only).
    fn save(&mut self, py: Python<'_>) {
        if self.agent.is_some() || self.setup.convention != Convention::Gym {
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

    /// Reads `obj`, a 1-d integer array (or a list, as numpy reads it) of `n` actions, into
    /// `values`.
    fn actions(&self, name: &str, obj: &Bound<'_, PyAny>, values: &mut Vec<usize>) -> PyResult<()> {
        let (n, actions) = (self.games.len(), self.setup.actions);
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
                    Ok(a) if a < actions => values.push(a),
                    _ => {
                        bad = Some((i, v));
                        break;
                    }
                }
            }
        });
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
        let convention = choice::extract::<Convention>("convention", convention)?;
        let autoreset = match autoreset {
            Some(value) => choice::extract::<Autoreset>("autoreset", value)?,
            None => Autoreset::SameStep,
        };
        let seat = seat.map_or(Ok(Seat::Random), read_seat)?;
        let opponent = if opponent == "external" {
            None
        } else {
            Some(opponent.parse::<Strategy>().map_err(|e| {
                PyValueError::new_err(format!(
                    "argument `opponent`: {e} or external, got {opponent:?}"
                ))
            })?)
        };
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
        let setup = Setup::new(rules, convention, autoreset, seat, opponent, illegal_reward);
        let games = Games::new(rules, n, seed.0)?;
        let agent = match (convention, opponent) {
            (Convention::Gym, Some(strategy)) => {
                let mut state = seed.0;
                Some(Agent::new(strategy, splitmix(&mut state)))
            }
            _ => None,
        };
        let total = setup.offsets(n).1;
        let buffer = zeros::<u8>(py, "n", &[total])?.cast_into::<PyArray1<u8>>()?;
        Ok(FamilyKernel {
            setup,
            games,
            agent,
            buffer: buffer.unbind(),
            scratch: try_vec("n", n, 0)?,
            saved: None,
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
        if let (Some(seeds), Some(strategy)) = (&seeds, self.setup.opponent)
            && self.agent.is_some()
        {
            let mut state = seeds[0];
            self.agent = Some(Agent::new(strategy, splitmix(&mut state)));
        }
        self.save(py);
        with_games!(self, py, |core, games, empty, agent, out| {
            for (i, game) in games.iter_mut().enumerate() {
                if mask.as_ref().is_some_and(|m| !m[i]) {
                    continue;
                }
                if let Some(seeds) = &seeds {
                    *game = Game::new(empty, seeds[i]);
                }
                core.start(game, empty, agent, i, &mut out);
            }
        });
        Ok(())
    }

    /// Plays `actions[i]` (a column with gravity, a cell without) in game `i` for the player
    /// to move, then the built-in opponent, and writes the buffers. An action out of range
    /// raises before any game moves.
    fn step(&mut self, py: Python<'_>, actions: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut scratch = std::mem::take(&mut self.scratch);
        let read = self.actions("actions", actions, &mut scratch);
        if read.is_ok() {
            self.save(py);
        }
        let result = read.and_then(|()| {
            with_games!(self, py, |core, games, empty, agent, out| {
                for (i, (game, &action)) in games.iter_mut().zip(&scratch).enumerate() {
                    core.step(game, empty, agent, action, i, &mut out);
                }
            });
            Ok(())
        });
        self.scratch = scratch;
        result
    }

    /// Writes a uniformly random legal action of each game into `out` (int64), from each
    /// game's own stream; any action for a game that is over.
    fn sample_actions(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = self.games.len();
        let Ok(out) = out.cast::<PyArray1<i64>>() else {
            return Err(PyTypeError::new_err(format!(
                "argument `out` must be an int64 array of shape ({n},), got {}",
                out.get_type().name()?
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
        let core = Core {
            setup: &self.setup,
            interrupt: None,
        };
        each!(&mut self.games, |games, _e| {
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
        });
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
        let flags: Vec<bool> = each!(&self.games, |games, _e| games
            .iter()
            .map(|g| g.pending != Pending::None)
            .collect());
        PyArray1::from_vec(py, flags)
    }

    /// The view of player id `viewer` of every game: planes `(n, rows, cols, 2)` (its marks,
    /// then the other's) and the actions with room `(n, actions)`, both uint8 copies; for an
    /// opponent or a second policy called once with the whole batch.
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
                interrupt: None,
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
        let illegal: Option<usize> = with_games!(self, py, |core, games, empty, agent, out| {
            let _ = agent;
            let mut illegal = None;
            for (i, (game, &action)) in games.iter_mut().zip(&values).enumerate() {
                if game.pending != Pending::None && !core.finish(game, empty, action, i, &mut out) {
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
        let started = each!(&self.games, |games, _e| games
            .iter()
            .enumerate()
            .find(|(i, g)| mask[*i] && g.position.plies() > 0)
            .map(|(i, _)| i));
        if let Some(i) = started {
            return Err(PyValueError::new_err(format!("mask: game {i} has started")));
        }
        if let Some(i) = (0..n).find(|&i| mask[i] && !(0..2).contains(&first[i])) {
            return Err(PyValueError::new_err(format!(
                "first: {} is not 0 or 1",
                first[i]
            )));
        }
        with_games!(self, py, |core, games, empty, agent, out| {
            let _ = (empty, agent);
            for (i, game) in games.iter_mut().enumerate() {
                if mask[i] {
                    game.first = first[i] as u8;
                    core.observe(game, Outcome::Ongoing, i, &mut out);
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

    /// Plays random games (some moves illegal) in each convention and auto-reset mode and
    /// checks after every step that the fields the kernel updated in place equal the ones its
    /// slow twin, `observe`, writes from scratch: the observation, mask and player, and the
    /// final observation of a game that ended (pgx and PettingZoo conventions).
    // Test code (`#[cfg(test)]`): its `unwrap`s are assertions, out of a user's reach.
    fn in_place_matches_whole<const W: usize>(spec: &str)
    where
        Position<W>: Wide,
    {
        // Cannot fail: the tests below pass valid specs (test code, out of a user's reach).
        let rules: Rules = spec.parse().unwrap();
        let conventions = [Convention::Pgx, Convention::PettingZoo, Convention::Gym];
        let modes = [Autoreset::SameStep, Autoreset::NextStep];
        for (convention, autoreset) in conventions.into_iter().flat_map(|c| modes.map(|m| (c, m))) {
            let opponent = (convention == Convention::Gym).then_some(Strategy::Random);
            let setup = Setup::new(rules, convention, autoreset, Seat::Random, opponent, -1.0);
            let n = 4;
            let (ob, a) = (setup.obs_bytes(), setup.actions);
            let total = setup.offsets(n).1;
            let (mut bytes, mut twin) = (vec![0u8; total], vec![0u8; total]);
            let core = Core {
                setup: &setup,
                interrupt: None,
            };
            // Cannot fail: each test picks a width `W` wide enough for its rules.
            let empty = Position::<W>::new(rules).unwrap();
            let mut agent = opponent.map(|s| Agent::new(s, 9));
            let mut games: Vec<Game<W>> = (0..n as u64).map(|i| Game::new(empty, i)).collect();
            let mut rng = 5u64;
            for (i, game) in games.iter_mut().enumerate() {
                core.start(game, empty, &mut agent, i, &mut setup.split(n, &mut bytes));
            }
            for step in 0..400 {
                for (i, game) in games.iter_mut().enumerate() {
                    let random = splitmix(&mut rng);
                    let action = if random.is_multiple_of(16) {
                        (random >> 32) as usize % a
                    } else {
                        core.sample(game) as usize
                    };
                    let before = game.clone();
                    let illegal = !game.done && !game.position.is_legal(action);
                    let at = format!("{spec} {convention:?} {autoreset:?} step {step} game {i}");
                    core.step(
                        game,
                        empty,
                        &mut agent,
                        action,
                        i,
                        &mut setup.split(n, &mut bytes),
                    );
                    // Any end but an illegal move shows the viewer and mask of a draw.
                    let end = if illegal {
                        Outcome::Illegal(before.mover())
                    } else {
                        Outcome::Draw
                    };
                    let now = if game.done { end } else { Outcome::Ongoing };
                    core.observe(game, now, i, &mut setup.split(n, &mut twin));
                    let (fast, slow) = (setup.split(n, &mut bytes), setup.split(n, &mut twin));
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
                    let ended = fast.terminated[i] == 1 && !before.done;
                    if autoreset == Autoreset::SameStep && ended && convention != Convention::Gym {
                        let mut last = before;
                        if !illegal {
                            last.play(&setup, action);
                        }
                        let mut whole = vec![0u8; total];
                        core.observe(&last, end, i, &mut setup.split(n, &mut whole));
                        let slow = setup.split(n, &mut whole);
                        let last_obs = &slow.obs[ob * i..ob * (i + 1)];
                        assert_eq!(
                            &fast.final_obs[ob * i..ob * (i + 1)],
                            last_obs,
                            "final, {at}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn fields_updated_in_place_equal_fields_written_whole() {
        in_place_matches_whole::<1>("connect-four");
        in_place_matches_whole::<1>("4,4,4");
        in_place_matches_whole::<2>("8,8,5");
        in_place_matches_whole::<4>("gomoku");
        in_place_matches_whole::<6>("19,19,5");
    }

    #[test]
    fn swapping_planes_swaps_every_pair() {
        for len in [18, 84, 450, 722] {
            let mut obs: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let before = obs.clone();
            swap_planes(&mut obs);
            for k in 0..len / 2 {
                assert_eq!(
                    (obs[2 * k], obs[2 * k + 1]),
                    (before[2 * k + 1], before[2 * k])
                );
            }
        }
    }
}
