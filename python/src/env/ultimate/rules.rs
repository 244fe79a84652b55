//! The rules of the ultimate kernel's games in plain Rust (no Python; the tests below run
//! without an interpreter): the settings ([`Setup`]), one game ([`Game`], the library's
//! [`Position`] and the kernel's bookkeeping: OpenSpiel's board choice, the last move, the
//! random streams) and the steps that write a game's fields into the kernel's buffer
//! ([`Core`]): in place while the game goes on, whole when it starts or ends. The conventions,
//! the layout of the buffer and the scoring are the three kernels'
//! ([`super::super::shared`]); the PyO3 class is `super`.
//!
//! A move goes through the library's per-move path: `Position::play` checks and makes it,
//! `Position::status` says how the game stands.

use std::sync::{Mutex, PoisonError};

use tictactoe::ultimate::agents::{Agent, Strategy};
use tictactoe::ultimate::{Move, Position};
use tictactoe::{Cell, Player, Status};

use super::super::shared::{
    Autoreset, Convention, Layout, Out, Outcome, Pending, Seat, Settings, Slot, Steps, write_player,
};
use super::super::tables::{BYTES, splitmix, write_bits};
use super::wide::{AVX2, AVX512, PORTABLE, Sampler};

/// "No board chosen" in [`Game::chosen`].
pub const NONE: u8 = 9;

/// Length of pyspiel's observation tensor: three planes of 81, the player, ten forced-board
/// flags.
const TENSOR: usize = 3 * 81 + 1 + 10;

/// Writes the 9-bit set `set` as nine 0/1 bytes.
#[inline(always)]
fn spread(set: u16, out: &mut [u8]) {
    write_bits(out, set);
}

/// How actions are numbered (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actions {
    Flat,
    OpenSpiel,
}

impl Actions {
    /// The number of actions.
    pub const fn count(self) -> usize {
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

/// The opponent of the gym convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// A uniformly random legal move, from the game's own stream.
    Random,
    /// One of the library's players (`heuristic`, `mcts:N`), shared by the games of a kernel
    /// ([`Core::agent`]).
    Builtin(Strategy),
    /// Moves from Python (`finish`), flat moves whatever the agent's action convention.
    External,
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
    pub const fn obs_bytes(self) -> usize {
        match self.observation {
            Observation::Planes => 3 * 81,
            Observation::OpenSpiel => 4 * TENSOR,
        }
    }

    /// The layout of the buffer of `n` games.
    pub fn layout(self, n: usize) -> Layout {
        let a = self.actions.count();
        match self.observation {
            Observation::Planes => Layout::new(n, "uint8", &[3, 9, 9], a),
            Observation::OpenSpiel => Layout::new(n, "float32", &[TENSOR], a),
        }
    }
}

/// One game.
#[derive(Clone, Debug)]
pub struct Game {
    /// Changed only by [`Game::play`], [`Game::act`] and [`Game::clear`], which keep `legal`.
    pub position: Position,
    /// With `openspiel` actions, the board chosen by the mover's first step ([`NONE`] if none).
    pub chosen: u8,
    /// [`Game::legal_moves`], kept with the position and the choice: computed once a move
    /// instead of three times a step (the move's legality, the legal plane and mask, the next
    /// draw).
    pub legal: u128,
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
    pub fn new(seed: u64) -> Game {
        let mut seat_rng = seed;
        let opponent_rng = splitmix(&mut seat_rng);
        Game {
            position: Position::EMPTY,
            chosen: NONE,
            legal: Position::EMPTY.legal_moves().bits(),
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

    /// An empty board, no board chosen, no last move.
    pub fn clear(&mut self) {
        self.position = Position::EMPTY;
        self.chosen = NONE;
        self.legal = self.position.legal_moves().bits();
        self.last = None;
    }

    /// The mark of id `id`.
    #[inline(always)]
    pub fn player_of(&self, id: u8) -> Player {
        if id == self.first {
            Player::X
        } else {
            Player::O
        }
    }

    /// The board the mover plays in: the one it is sent to or has chosen, if any.
    #[inline(always)]
    pub fn board(&self) -> Option<Cell> {
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
    pub fn legal_moves(&self) -> u128 {
        if self.chosen != NONE {
            let b = usize::from(self.chosen);
            return u128::from(self.position.moves_in(Cell::ALL[b]).bits()) << (9 * b);
        }
        self.position.legal_moves().bits()
    }

    /// Plays flat move `mv` for the mover: the outcome.
    ///
    /// Legality is one bit of the position's legal moves (an AND of two words with the board
    /// to play's cells), then the unchecked play: the same moves as the checked
    /// `Position::play`, whose rule-by-rule check (and its call, not inlined) took a quarter of
    /// a batched step in `perf`.
    #[inline(always)]
    fn play(&mut self, mv: Move) -> Outcome {
        let actor = self.mover;
        // Bit `mv` of the 81-bit set: a shift of two words, fewer instructions than
        // `Moves::contains`'s one-bit mask of two words. (Read from its byte instead, the gym
        // convention's env-step measured 7% slower, interleaved, for no gain in the others.)
        if (self.legal >> mv.index()) & 1 == 0 {
            return Outcome::Illegal(actor);
        }
        self.position.play_unchecked(mv);
        self.chosen = NONE;
        self.legal = self.position.legal_moves().bits();
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
                        self.legal = self.legal_moves();
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
///
/// `FLAT_PLANES` says at compile time that the setup has flat actions and `planes`
/// observations (the default options): a kernel steps its batch through the one shared
/// driver with [`Core::flat_planes`], so that the driver's loop is compiled for those
/// settings, without a test of them in each game's step. `WIDE` is the level of the stores
/// and picks ([`super::wide`]): `AVX2` (made by [`Core::wide`] only where the CPU has AVX2 and
/// BMI2) writes the legal plane and mask with AVX2 and picks with `pdep`; `AVX512` (made by
/// [`Core::wide_512`] only where the CPU has AVX-512 BW and VL too) swaps the mark planes and
/// writes the legal plane and mask with AVX-512.
#[derive(Clone, Copy)]
pub struct Core<'a, const FLAT_PLANES: bool = false, const WIDE: u8 = PORTABLE> {
    pub setup: Setup,
    /// The built-in player of an [`Opponent::Builtin`] kernel, shared by its games (one search
    /// tree, not one a game); behind a lock so that a batch stepped without the GIL can hold
    /// it (the games are stepped one after the other: the lock is never contended).
    pub agent: Option<&'a Mutex<Agent>>,
    /// Asked by the built-in player's search (`mcts`) as it goes (true: stop now), so that
    /// Ctrl-C stops a slow opponent; `None` where no opponent searches.
    pub stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// Private, so that a `Core` is made only by the functions below: one with `WIDE` only by
    /// [`Core::wide`] and [`Core::wide_512`], where the CPU has the features (the `unsafe`
    /// calls rely on it).
    _made: (),
}

impl<'a> Core<'a> {
    /// The rules of `setup` with the built-in player `agent` and the `stop` flag of its search.
    pub fn new(
        setup: Setup,
        agent: Option<&'a Mutex<Agent>>,
        stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    ) -> Core<'a> {
        Core {
            setup,
            agent,
            stop,
            _made: (),
        }
    }
}

impl Core<'_> {
    /// The rules of `setup` without a built-in player (the random opponent, an external one,
    /// or none).
    pub fn plain(setup: Setup) -> Core<'static> {
        Core::new(setup, None, None)
    }
}

impl<'a> Core<'a> {
    /// The same rules with flat actions and `planes` observations known at compile time, when
    /// the setup has them.
    pub fn flat_planes(self) -> Option<Core<'a, true>> {
        let s = self.setup;
        (s.actions == Actions::Flat && s.observation == Observation::Planes).then_some(Core {
            setup: s,
            agent: self.agent,
            stop: self.stop,
            _made: (),
        })
    }
}

impl<'a> Core<'a, true> {
    /// The same rules with the stores and picks of [`super::wide`], where the CPU has its
    /// features.
    pub fn wide(self) -> Option<Core<'a, true, AVX2>> {
        super::wide::detected().then_some(Core {
            setup: self.setup,
            agent: self.agent,
            stop: self.stop,
            _made: (),
        })
    }

    /// The same rules with the AVX-512 stores of [`super::wide`] too, where the CPU has them.
    pub fn wide_512(self) -> Option<Core<'a, true, AVX512>> {
        super::wide::detected_512().then_some(Core {
            setup: self.setup,
            agent: self.agent,
            stop: self.stop,
            _made: (),
        })
    }
}

impl<const FLAT_PLANES: bool, const WIDE: u8> Core<'_, FLAT_PLANES, WIDE> {
    /// How actions are numbered.
    #[inline(always)]
    fn actions(self) -> Actions {
        if FLAT_PLANES {
            Actions::Flat
        } else {
            self.setup.actions
        }
    }

    /// The observation layout.
    #[inline(always)]
    fn observation(self) -> Observation {
        if FLAT_PLANES {
            Observation::Planes
        } else {
            self.setup.observation
        }
    }

    /// Bytes of one observation.
    #[inline(always)]
    fn obs_bytes(self) -> usize {
        Setup {
            actions: self.actions(),
            observation: self.observation(),
            ..self.setup
        }
        .obs_bytes()
    }

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
    pub fn observe(self, game: &Game, ended: bool, i: usize, out: &mut Out<'_>) {
        let s = self.setup;
        let viewer = self.viewer(game);
        let legal = if ended { 0 } else { game.legal_moves() };
        let ob = self.obs_bytes();
        let obs = &mut out.obs[ob * i..ob * (i + 1)];
        match self.observation() {
            #[cfg(target_arch = "x86_64")]
            Observation::Planes if WIDE >= AVX2 => {
                let (mine, theirs) = mark_sets(&game.position, game.player_of(viewer));
                let (planes, _) = obs.as_chunks_mut::<81>();
                if let [a, b, c] = planes {
                    // SAFETY: a `Core` with `WIDE` exists only where the CPU has AVX2
                    // (`Core::wide`).
                    #[allow(unsafe_code)]
                    unsafe {
                        super::wide::store81(mine, [a]);
                        super::wide::store81(theirs, [b]);
                        super::wide::store81(legal, [c]);
                    }
                }
            }
            Observation::Planes => write_planes(&game.position, game.player_of(viewer), legal, obs),
            Observation::OpenSpiel => write_tensor(game, obs),
        }
        let a = self.actions().count();
        let mask = &mut out.mask[a * i..a * (i + 1)];
        if ended && s.convention != Convention::PettingZoo {
            mask.fill(1);
        } else {
            let legal = if ended { game.legal_moves() } else { legal };
            write_mask(game, self.actions(), legal, mask);
        }
        write_player(out, i, viewer);
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
            Opponent::Builtin(_) => {
                let mut stop = || self.stop.is_some_and(|stop| stop());
                let choice = self.agent.and_then(|agent| {
                    let mut agent = agent.lock().unwrap_or_else(PoisonError::into_inner);
                    // A search cut short by Ctrl-C still answers a legal move; the step then
                    // raises.
                    agent.choose_until(&game.position, &mut stop)
                });
                match choice {
                    Some(choice) => game.play(choice.played),
                    None => Outcome::Ongoing,
                }
            }
            Opponent::External => {
                game.pending = pending;
                Outcome::Ongoing
            }
        }
    }

    /// The gym convention's opponent answers the agent's move while the game goes on and it
    /// is its turn (its mark into `marks[1]`): the outcome, or `None` when the game now waits
    /// for an external opponent. Not inlined, so that the test of the mover (a coin flip in
    /// random games) stays behind the test of the convention: written as one condition, the
    /// compiler may test the mover first, and did in a build of this loop (callgrind's
    /// `--branch-sim` put it among the mispredicted branches of every pgx step).
    #[inline(never)]
    fn answer(self, game: &mut Game, outcome: Outcome, marks: &mut Marks) -> Option<Outcome> {
        if outcome != Outcome::Ongoing || game.mover != 1 {
            return Some(outcome);
        }
        self.opponent_answers(game, marks)
    }

    /// [`Core::answer`] once the game goes on and the opponent is to move. With flat actions
    /// that is every move of the agent that does not end the game (a gym step starts with the
    /// agent, id 0, to move, and each of its legal flat moves hands the turn on): the loop of
    /// the default options calls this inlined, with no test of the mover at all.
    #[inline(always)]
    fn opponent_answers(self, game: &mut Game, marks: &mut Marks) -> Option<Outcome> {
        let plies = game.position.plies();
        let outcome = self.opponent_turn(game, Pending::InStep);
        if game.pending != Pending::None {
            return None;
        }
        if game.position.plies() > plies {
            marks[1] = game.last.map(|mv| (mv, 1));
        }
        Some(outcome)
    }

    /// Game `i` goes on after `marks`: its `planes` observation and mask updated in place. In
    /// the pgx and PettingZoo conventions the viewer is the mover, whom a mark changes: the
    /// two mark planes swap, and the mark lands in the second (the other player's); in the gym
    /// convention the viewer stays the agent. The legal plane, the flat mask and the player
    /// are rewritten, the plane and the mask each from the 81-bit legal set, in eight-byte
    /// stores ([`store81`]) or with `WIDE` in 32-byte ones (`wide::store81`), never one copied
    /// from the other: a wide load of bytes just stored in narrower pieces cannot be forwarded
    /// from the store buffer, and that copy stalled the step (a third of its samples in
    /// `perf`). (Rewriting only the boards whose legal cells changed, usually two, measured
    /// slower twice: 29.6 M env-steps/s against 32.0 for the code before it, then 33.8 M
    /// against 36.3 M; docs/environments.md.)
    ///
    /// pyspiel's tensor (`observation="openspiel"`) is updated in place too: a mark clears
    /// its cell's empty value and sets its player's; the current player and the forced board
    /// are rewritten.
    #[inline(always)]
    fn advance(self, game: &Game, marks: &Marks, i: usize, out: &mut Out<'_>) {
        let viewer = self.viewer(game);
        let legal = game.legal;
        match self.observation() {
            Observation::Planes => {
                let obs = &mut out.obs[243 * i..243 * (i + 1)];
                let (mine, rest) = obs.split_at_mut(81);
                let (theirs, plane) = rest.split_at_mut(81);
                let planes = (
                    <&mut [u8; 81]>::try_from(mine),
                    <&mut [u8; 81]>::try_from(theirs),
                );
                let (Ok(mine), Ok(theirs)) = planes else {
                    return;
                };
                for &(mv, id) in marks.iter().flatten() {
                    if self.setup.convention != Convention::Gym {
                        #[cfg(target_arch = "x86_64")]
                        if WIDE == AVX512 {
                            // SAFETY: a `Core` with `AVX512` exists only where the CPU has
                            // AVX-512 F, BW and VL (`Core::wide_512`).
                            #[allow(unsafe_code)]
                            unsafe {
                                super::wide::swap81_512(mine, theirs);
                            }
                        }
                        if WIDE != AVX512 {
                            std::mem::swap(mine, theirs);
                        }
                    }
                    let marked = if id == viewer {
                        &mut *mine
                    } else {
                        &mut *theirs
                    };
                    marked[mv.index()] = 1;
                }
                match self.actions() {
                    Actions::Flat => {
                        let mask = &mut out.mask[81 * i..81 * (i + 1)];
                        #[cfg(target_arch = "x86_64")]
                        if WIDE >= AVX2
                            && let (Ok(plane), Ok(mask)) = (
                                <&mut [u8; 81]>::try_from(&mut *plane),
                                <&mut [u8; 81]>::try_from(&mut *mask),
                            )
                        {
                            // SAFETY: a `Core` with `AVX2` exists only where the CPU has AVX2
                            // (`Core::wide`), one with `AVX512` where it has AVX-512 F, BW
                            // and VL too (`Core::wide_512`).
                            #[allow(unsafe_code)]
                            unsafe {
                                if WIDE == AVX512 {
                                    super::wide::store81_512(legal, [plane, mask]);
                                } else {
                                    super::wide::store81(legal, [plane, mask]);
                                }
                            }
                            return write_player(out, i, viewer);
                        }
                        store81(legal, plane, mask);
                    }
                    Actions::OpenSpiel => {
                        store81(legal, plane, &mut []);
                        let mask = &mut out.mask[9 * i..9 * i + 9];
                        write_mask(game, Actions::OpenSpiel, legal, mask);
                    }
                }
            }
            Observation::OpenSpiel => {
                let ob = self.obs_bytes();
                let obs = &mut out.obs[ob * i..ob * (i + 1)];
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
                let a = self.actions().count();
                let mask = &mut out.mask[a * i..a * (i + 1)];
                write_mask(game, self.actions(), legal, mask);
            }
        }
        write_player(out, i, viewer);
    }

    /// A uniformly random legal action (any action once the game is over): a flat move, or
    /// with `openspiel` actions an open board when the mover chooses, else a cell.
    #[inline(always)]
    pub fn sample(self, game: &mut Game) -> i64 {
        let random = (splitmix(&mut game.sample_rng) >> 32) as u32;
        let a = self.actions().count() as u64;
        if game.done {
            return ((u64::from(random) * a) >> 32) as i64;
        }
        match self.actions() {
            #[cfg(target_arch = "x86_64")]
            Actions::Flat if WIDE >= AVX2 => {
                // SAFETY: a `Core` with `WIDE` exists only where the CPU has the features of
                // `wide::pick` (`Core::wide`).
                #[allow(unsafe_code)]
                let picked = unsafe { super::wide::pick(game.legal, random) };
                picked.map_or(0, |k| k as i64)
            }
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

impl<const FLAT_PLANES: bool, const WIDE: u8> Sampler for Core<'_, FLAT_PLANES, WIDE> {
    type Game = Game;

    #[inline(always)]
    fn sample(&self, game: &mut Game) -> i64 {
        Core::sample(*self, game)
    }
}

impl Slot for Game {
    #[inline(always)]
    fn flags(&mut self) -> (&mut bool, &mut Pending, &mut bool) {
        (&mut self.done, &mut self.pending, &mut self.quiet)
    }

    #[inline(always)]
    fn seat(&mut self, first: u8) {
        self.first = first;
        self.mover = first;
    }
}

impl<const FLAT_PLANES: bool, const WIDE: u8> Steps for Core<'_, FLAT_PLANES, WIDE> {
    type Game = Game;
    type Marks = Marks;
    const NO_MARKS: Marks = [None, None];

    #[inline(always)]
    fn settings(&self) -> Settings {
        let s = &self.setup;
        (
            s.convention,
            s.autoreset,
            s.illegal_reward,
            self.obs_bytes(),
        )
    }

    /// Starts `game` again: empty board, seat drawn, and the opponent opens if it is X.
    fn restart(&mut self, game: &mut Game) {
        game.clear();
        game.done = false;
        game.pending = Pending::None;
        game.first = self.setup.seat.draw(&mut game.seat_rng);
        game.mover = game.first;
        if self.setup.convention == Convention::Gym && game.first == 1 {
            self.opponent_turn(game, Pending::AfterReset);
        }
    }

    /// The mover's action (a board choice marks nothing), then in the gym convention the
    /// opponent's answer while the game goes on and it is the opponent's turn.
    #[inline(always)]
    fn play(&mut self, game: &mut Game, action: usize) -> Option<(Outcome, Marks)> {
        let actor = game.mover;
        let mut marks: Marks = [None, None];
        let mut outcome = match (self.actions(), Move::try_from(action)) {
            // A flat move marks its cell unless it is illegal.
            (Actions::Flat, Ok(mv)) => {
                let outcome = game.play(mv);
                if !matches!(outcome, Outcome::Illegal(_)) {
                    marks[0] = Some((mv, actor));
                }
                outcome
            }
            _ => {
                let plies = game.position.plies();
                let outcome = game.act(self.actions(), action);
                if game.position.plies() > plies {
                    marks[0] = game.last.map(|mv| (mv, actor));
                }
                outcome
            }
        };
        if self.setup.convention == Convention::Gym {
            outcome = if FLAT_PLANES {
                match outcome {
                    Outcome::Ongoing => self.opponent_answers(game, &mut marks)?,
                    _ => outcome,
                }
            } else {
                self.answer(game, outcome, &mut marks)?
            };
        }
        Some((outcome, marks))
    }

    /// A flat move, whatever the agent's action convention.
    fn play_external(&mut self, game: &mut Game, action: usize) -> Outcome {
        match Move::try_from(action) {
            Ok(mv) => game.play(mv),
            Err(_) => Outcome::Illegal(game.mover),
        }
    }

    #[inline(always)]
    fn observe(&self, game: &Game, outcome: Outcome, i: usize, out: &mut Out<'_>) {
        Core::observe(*self, game, outcome != Outcome::Ongoing, i, out);
    }

    #[inline(always)]
    fn advance(&self, game: &Game, marks: &Marks, i: usize, out: &mut Out<'_>) {
        Core::advance(*self, game, marks, i, out);
    }

    /// Whole: an ended game shows no legal move.
    #[inline(always)]
    fn observe_end(&self, game: &Game, _: Outcome, _: &Marks, i: usize, out: &mut Out<'_>) {
        Core::observe(*self, game, true, i, out);
    }
}

/// Writes the 81-bit set `bits` (bit `k` for byte `k`) as 81 0/1 bytes into `a`, and into
/// `b` unless it is empty: ten words of eight bytes, each one lookup of eight bits, then the
/// last byte.
#[inline(always)]
fn store81(bits: u128, a: &mut [u8], b: &mut [u8]) {
    let (Ok(a), b) = (<&mut [u8; 81]>::try_from(a), <&mut [u8; 81]>::try_from(b)) else {
        return;
    };
    let (lo, hi) = (bits as u64, (bits >> 64) as u64);
    let mut b = b.ok();
    for k in 0..10 {
        let byte = if k < 8 {
            lo >> (8 * k)
        } else {
            hi >> (8 * k - 64)
        };
        let word = BYTES[usize::from(byte as u8)].to_le_bytes();
        a[8 * k..8 * k + 8].copy_from_slice(&word);
        if let Some(b) = &mut b {
            b[8 * k..8 * k + 8].copy_from_slice(&word);
        }
    }
    let last = (hi >> 16) as u8 & 1;
    a[80] = last;
    if let Some(b) = b {
        b[80] = last;
    }
}

/// `me`'s marks and the other's as 81-bit sets (bit `9 * board + cell`).
#[inline]
fn mark_sets(position: &Position, me: Player) -> (u128, u128) {
    let (mut mine, mut theirs) = (0u128, 0u128);
    for b in Cell::ALL {
        let board = position.board(b);
        mine |= u128::from(board.pieces(me).bits()) << (9 * b.index());
        theirs |= u128::from(board.pieces(me.opponent()).bits()) << (9 * b.index());
    }
    (mine, theirs)
}

/// The `planes` observation: `me`'s marks, the other's, the legal moves, each plane written
/// from its 81-bit set ([`store81`]).
#[inline]
pub fn write_planes(position: &Position, me: Player, legal: u128, obs: &mut [u8]) {
    let (mine, theirs) = mark_sets(position, me);
    let (mine_plane, rest) = obs.split_at_mut(81);
    let (theirs_plane, legal_plane) = rest.split_at_mut(81);
    store81(mine, mine_plane, &mut []);
    store81(theirs, theirs_plane, &mut []);
    store81(legal, legal_plane, &mut []);
}

/// The mask of the legal actions: the flat moves, or with `openspiel` actions the open boards
/// when the mover chooses and the cells of its board otherwise.
#[inline]
pub fn write_mask(game: &Game, actions: Actions, legal: u128, mask: &mut [u8]) {
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

#[cfg(test)]
mod tests {
    use super::super::super::shared::{self, Random, play_random, start};
    use super::super::wide;
    use super::*;

    // Test code (`#[cfg(test)]`): its `unwrap`s are assertions, out of a user's reach.

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
                        observation,
                        ..random_setup(convention, autoreset, actions)
                    };
                    let n = 3;
                    let ob = setup.obs_bytes();
                    let layout = setup.layout(n);
                    let mut twin = vec![0u8; layout.offsets().1];
                    let mut core = Core::plain(setup);
                    let mut games: Vec<Game> = (0..n as u64).map(Game::new).collect();
                    let a = actions.count();
                    let plan = Random {
                        steps: 800,
                        wild: 25,
                        actions: a,
                        seed: 11,
                    };
                    let sample = |core: &Core<'_>, game: &mut Game| core.sample(game);
                    play_random(&mut core, &mut games, &layout, &plan, sample, |core, p| {
                        let (game, i, fast) = (p.game, p.i, p.out);
                        Core::observe(*core, game, game.done, i, &mut layout.split(&mut twin));
                        let slow = layout.split(&mut twin);
                        let at = format!("{convention:?} {actions:?} {autoreset:?} {} {i}", p.step);
                        assert_eq!(fast.view(i, ob, a), slow.view(i, ob, a), "{at}");
                    });
                }
            }
        }
    }

    /// The setup of `planes` observations and the random opponent.
    fn random_setup(convention: Convention, autoreset: Autoreset, actions: Actions) -> Setup {
        Setup {
            convention,
            autoreset,
            seat: Seat::Random,
            opponent: Opponent::Random,
            illegal_reward: -1.0,
            actions,
            observation: Observation::Planes,
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
                    let setup = random_setup(convention, autoreset, actions);
                    let n = 3;
                    let layout = setup.layout(n);
                    let mut core = Core::plain(setup);
                    let mut games: Vec<Game> = (0..n as u64).map(Game::new).collect();
                    let a = actions.count();
                    let plan = Random {
                        steps: 600,
                        wild: 20,
                        actions: a,
                        seed: 7,
                    };
                    let sample = |core: &Core<'_>, game: &mut Game| core.sample(game);
                    play_random(&mut core, &mut games, &layout, &plan, sample, |core, p| {
                        let (game, i, out, step) = (p.game, p.i, p.out, p.step);
                        let at = format!("{convention:?} {actions:?} {autoreset:?} {step} {i}");
                        let mask = &out.mask[a * i..a * (i + 1)];
                        let obs = &out.obs[243 * i..243 * (i + 1)];
                        if game.done {
                            if convention != Convention::PettingZoo {
                                assert!(mask.iter().all(|&m| m == 1), "{at}");
                            }
                            assert!(obs[162..].iter().all(|&v| v == 0), "{at}");
                            return;
                        }
                        let legal = game.legal_moves();
                        assert_eq!(game.legal, legal, "{at}: the legal moves kept");
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
                                assert_eq!(obs[81 + k] == 1, mark == Some(me.opponent()), "{at}");
                            }
                        }
                    });
                }
            }
        }
    }

    /// The built-in heuristic opponent, shared through the kernel's lock, beats an agent
    /// playing random moves, and a search told to stop at once still answers a legal move.
    #[test]
    fn a_builtin_opponent_plays_through_the_shared_agent() {
        let setup = Setup {
            convention: Convention::Gym,
            autoreset: Autoreset::SameStep,
            seat: Seat::Random,
            opponent: Opponent::Builtin(Strategy::Heuristic),
            illegal_reward: -1.0,
            actions: Actions::Flat,
            observation: Observation::Planes,
        };
        let agent = Mutex::new(Agent::new(Strategy::Heuristic, 5));
        let mut core = Core::new(setup, Some(&agent), None);
        let layout = setup.layout(1);
        let mut bytes = vec![0u8; layout.offsets().1];
        let mut game = Game::new(1);
        start(&mut core, &mut game, 0, &mut layout.split(&mut bytes));
        let (mut games, mut wins, mut losses) = (0, 0, 0);
        while games < 200 {
            let action = core.sample(&mut game) as usize;
            let out = &mut layout.split(&mut bytes);
            shared::step(&mut core, &mut game, action, 0, out);
            if out.terminated[0] == 1 {
                // Cannot fail: four bytes (test code, out of a user's reach).
                let reward = f32::from_ne_bytes(out.rewards[..4].try_into().unwrap());
                games += 1;
                wins += u32::from(reward > 0.0);
                losses += u32::from(reward < 0.0);
            }
        }
        assert!(losses > 3 * wins, "{wins} wins, {losses} losses");
        let searching = Setup {
            opponent: Opponent::Builtin(Strategy::Mcts { playouts: 1 << 40 }),
            ..setup
        };
        let agent = Mutex::new(Agent::new(Strategy::Mcts { playouts: 1 << 40 }, 5));
        let stop = || true;
        let mut core = Core::new(searching, Some(&agent), Some(&stop));
        let mut game = Game::new(2);
        start(&mut core, &mut game, 0, &mut layout.split(&mut bytes));
        let plies = game.position.plies();
        let action = core.sample(&mut game) as usize;
        shared::step(
            &mut core,
            &mut game,
            action,
            0,
            &mut layout.split(&mut bytes),
        );
        assert_eq!(
            game.position.plies(),
            plies + 2,
            "the agent's move and the answer"
        );
    }

    /// The four compilations of the default options' loop (the plain `Core`, the one fixed
    /// for flat actions and planes, the AVX2 one and the AVX-512 one) sample the same actions
    /// and write the same bytes (every field of the buffer) and games, after every step of
    /// random games with illegal moves, in every convention and auto-reset mode. Where the CPU
    /// lacks AVX2 or AVX-512 the kernels that need them cannot be made and only the others are
    /// compared.
    #[test]
    fn the_wide_loops_sample_and_write_what_the_plain_one_does() {
        for convention in [Convention::Pgx, Convention::PettingZoo, Convention::Gym] {
            for autoreset in [Autoreset::SameStep, Autoreset::NextStep] {
                let setup = random_setup(convention, autoreset, Actions::Flat);
                let plain = Core::plain(setup);
                // Cannot fail: `random_setup` observes planes, and the actions here are flat (test code).
                let fixed = plain.flat_planes().unwrap();
                let (wide, wide_512) = (fixed.wide(), fixed.wide_512());
                let mut kernels = vec![0, 1];
                kernels.extend(wide.map(|_| 2));
                kernels.extend(wide_512.map(|_| 3));
                let n = 48;
                let layout = setup.layout(n);
                let mut buffers = vec![vec![0u8; layout.offsets().1]; kernels.len()];
                let new = |seed: u64| Game::new(seed * 7 + 1);
                let mut games = vec![(0..n as u64).map(new).collect::<Vec<_>>(); kernels.len()];
                for (games, buffer) in games.iter_mut().zip(&mut buffers) {
                    let out = &mut layout.split(buffer);
                    shared::reset_all(&mut { plain }, games, None, None, new, out);
                }
                let mut rng = 5;
                for step in 0..700 {
                    let at = format!("{convention:?} {autoreset:?} step {step}");
                    let mut actions = vec![vec![0i64; n]; kernels.len()];
                    for (&k, (games, actions)) in
                        kernels.iter().zip(games.iter_mut().zip(&mut actions))
                    {
                        match (k, wide, wide_512) {
                            (0, _, _) => wide::sample_all(&plain, games, actions),
                            (1, _, _) => wide::sample_all(&fixed, games, actions),
                            (2, Some(wide), _) => wide::sample_all(&wide, games, actions),
                            (_, _, Some(wide)) => wide::sample_all(&wide, games, actions),
                            _ => unreachable!(),
                        }
                    }
                    assert!(actions.iter().all(|a| *a == actions[0]), "{at}");
                    let chosen: Vec<usize> = actions[0]
                        .iter()
                        .map(|&a| {
                            let random = splitmix(&mut rng);
                            if random.is_multiple_of(20) {
                                (random >> 32) as usize % 81
                            } else {
                                a as usize
                            }
                        })
                        .collect();
                    for (&k, (games, buffer)) in
                        kernels.iter().zip(games.iter_mut().zip(&mut buffers))
                    {
                        let out = &mut layout.split(buffer);
                        match (k, wide, wide_512) {
                            (0, _, _) => shared::step_all(&mut { plain }, games, &chosen, out),
                            (1, _, _) => shared::step_all(&mut { fixed }, games, &chosen, out),
                            (2, Some(mut wide), _) => {
                                wide::step_all(&mut wide, games, &chosen, out, &mut ());
                            }
                            (_, _, Some(mut wide)) => {
                                wide::step_all_512(&mut wide, games, &chosen, out, &mut ());
                            }
                            _ => unreachable!(),
                        }
                    }
                    for k in 1..kernels.len() {
                        assert!(buffers[k] == buffers[0], "{at}: kernel {}", kernels[k]);
                        for (a, b) in games[k].iter().zip(&games[0]) {
                            assert_eq!(
                                (a.position, a.done, a.sample_rng),
                                (b.position, b.done, b.sample_rng),
                                "{at}"
                            );
                        }
                    }
                }
            }
        }
    }
}
