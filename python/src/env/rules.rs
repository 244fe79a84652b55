//! The rules of the kernel's games in plain Rust (no Python): seats, conventions, auto-reset,
//! the built-in opponent, rewards and flags, written into the byte fields of one buffer. The
//! PyO3 layer (`super`) converts arguments and hands this module slices; the tests below run
//! without an interpreter.

use tictactoe::agents::{Agent, Strategy};
use tictactoe::{Bitboard, Player, Position};

#[cfg(test)]
use super::tables;
use super::tables::{splitmix, write_bytes, write_planes};

/// Whose rules the kernel follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    Pgx,
    PettingZoo,
    Gym,
}

/// What happens to a game after it ends (Gymnasium's `AutoresetMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoreset {
    /// The next step resets it and ignores the action.
    NextStep,
    /// It is reset in the step that ended it; its last observation goes to `final_obs`.
    SameStep,
    /// Only `reset` starts it again; steps on it change nothing.
    Disabled,
}

/// Who plays X.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    Zero,
    One,
    Random,
}

/// The opponent of the single-agent convention.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opponent {
    Builtin(Strategy),
    /// Moves come from Python through [`EnvKernel::finish`].
    External,
}

/// What a game waits for from an external opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    None,
    /// A move in the middle of a step: its outcome is this step's.
    InStep,
    /// The first move of a new game (the agent is O): the step's outcome is already written.
    AfterReset,
}

/// One game.
#[derive(Clone, Debug)]
pub struct Game {
    pub position: Position,
    /// Marks on the board: `position`'s count, kept to spare recounting it.
    pub ply: u8,
    /// The id (0 or 1) that plays X.
    pub first: u8,
    /// Ended and not yet reset.
    pub done: bool,
    pub pending: Pending,
    /// splitmix64 state for the seat draws.
    pub seat_rng: u64,
    /// splitmix64 state for [`EnvKernel::sample_actions`].
    pub sample_rng: u64,
    /// The built-in opponent (single-agent convention only), boxed: a game takes 32 bytes
    /// instead of 72, a batch of 65,536 games 2 MiB instead of 4.5 (no faster when measured).
    pub opponent: Option<Box<Agent>>,
}

/// The fixed settings of a kernel.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub convention: Convention,
    pub autoreset: Autoreset,
    pub seat: Seat,
    pub opponent: Opponent,
    pub illegal_reward: f32,
}

/// The output fields of one step: byte ranges of the kernel's one buffer (see [`Layout`]).
pub struct Out<'a> {
    pub obs: &'a mut [u8],
    pub mask: &'a mut [u8],
    /// `f32` pairs, native byte order.
    pub rewards: &'a mut [u8],
    /// numpy bools: one byte, 0 or 1.
    pub terminated: &'a mut [u8],
    pub truncated: &'a mut [u8],
    /// `i32`, native byte order.
    pub player: &'a mut [u8],
    pub final_obs: &'a mut [u8],
}

/// Where each field lives in the kernel's buffer: one numpy allocation, so that a step borrows
/// one array instead of seven (the borrow checks dominate a step of one game). Offsets are
/// aligned to the field's item size.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub n: usize,
}

impl Layout {
    /// `(name, numpy dtype, bytes per game, shape after n)`, in buffer order.
    pub const FIELDS: [(&'static str, &'static str, usize, &'static [usize]); 7] = [
        ("obs", "uint8", 18, &[3, 3, 2]),
        ("mask", "uint8", 9, &[9]),
        ("rewards", "float32", 8, &[2]),
        ("terminated", "bool", 1, &[]),
        ("truncated", "bool", 1, &[]),
        ("player", "int32", 4, &[]),
        ("final_obs", "uint8", 18, &[3, 3, 2]),
    ];

    /// The byte offset of each field, then the total size.
    pub fn offsets(self) -> ([usize; 7], usize) {
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
    pub fn split(self, buffer: &mut [u8]) -> Out<'_> {
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
pub enum Outcome {
    Ongoing,
    /// The player with this id won (or the other moved illegally).
    Won(u8),
    Draw,
    /// The player with this id moved illegally.
    Illegal(u8),
}

impl Game {
    /// A game seeded with `seed`, with the built-in opponent `strategy` if any.
    pub fn new(seed: u64, strategy: Option<Strategy>) -> Game {
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
    pub fn mover(&self) -> u8 {
        if self.ply.is_multiple_of(2) {
            self.first
        } else {
            1 - self.first
        }
    }

    /// The mark of id `id`.
    pub fn player_of(&self, id: u8) -> Player {
        if id == self.first {
            Player::X
        } else {
            Player::O
        }
    }

    /// How the game stands after `mover` (an id) made the last move: only the last mover can
    /// have a line, and nine marks without one are a draw ([`Position::status`] knows neither
    /// who moved last nor the count, and computes both).
    pub fn outcome(&self, mover: u8) -> Outcome {
        if self.position.board().has_line(self.player_of(mover)) {
            Outcome::Won(mover)
        } else if self.ply == 9 {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }

    /// Plays `action` for the side to move.
    pub fn play(&mut self, action: i64) -> Outcome {
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
    pub fn builtin(&self) -> Option<Strategy> {
        match (self.convention, self.opponent) {
            (Convention::Gym, Opponent::Builtin(strategy)) => Some(strategy),
            _ => None,
        }
    }

    /// Starts `game` again: empty board, seat drawn, and the opponent opens if it is X.
    pub fn restart(&self, game: &mut Game) {
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
    pub fn opponent_turn(&self, game: &mut Game, pending: Pending) -> Outcome {
        match self.opponent {
            Opponent::Builtin(_) => {
                // Cannot fail: a kernel with a built-in opponent makes every game with its
                // agent (`Game::new(seed, config.builtin())`, the only constructor the kernel
                // calls), and it calls this only for the gym convention, where `builtin()`
                // is `Some`.
                let agent = game
                    .opponent
                    .as_mut()
                    .expect("a built-in opponent has its agent");
                match agent.choose(game.position) {
                    Some(cell) => game.play(cell.index() as i64),
                    // Called only on an empty board or after an `Ongoing` outcome, so a move
                    // exists; were the game over, its outcome stands as it is.
                    None => game.outcome(1 - game.mover()),
                }
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
    pub fn viewer(&self, game: &Game, outcome: Outcome) -> u8 {
        match (self.convention, outcome) {
            (Convention::Gym, _) => 0,
            (Convention::PettingZoo, Outcome::Illegal(_)) => 0,
            (Convention::Pgx, Outcome::Illegal(_)) => 1 - game.mover(),
            _ => game.mover(),
        }
    }

    /// Writes the observation, mask and player of game `i` into the buffers.
    pub fn observe(&self, game: &Game, outcome: Outcome, i: usize, out: &mut Out<'_>) {
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
    pub fn score(&self, outcome: Outcome, i: usize, out: &mut Out<'_>) {
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
    pub fn conclude(&self, game: &mut Game, outcome: Outcome, i: usize, out: &mut Out<'_>) {
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
    pub fn step(&self, game: &mut Game, action: i64, i: usize, out: &mut Out<'_>) {
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
    pub fn finish(&self, game: &mut Game, action: i64, i: usize, out: &mut Out<'_>) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A kernel's buffer for one game, split into its fields.
    fn buffer() -> Vec<u8> {
        vec![0u8; Layout { n: 1 }.offsets().1]
    }

    fn config(convention: Convention, autoreset: Autoreset, opponent: Opponent) -> Config {
        Config {
            convention,
            autoreset,
            seat: Seat::Zero,
            opponent,
            illegal_reward: -2.0,
        }
    }

    // Test code (`#[cfg(test)]`): its `unwrap`s are assertions, out of a user's reach.
    fn rewards(out: &Out<'_>) -> [f32; 2] {
        // Cannot fail: a slice of exactly 4 bytes (test code, out of a user's reach).
        let r = |k: usize| f32::from_ne_bytes(out.rewards[4 * k..4 * k + 4].try_into().unwrap());
        [r(0), r(1)]
    }

    #[test]
    fn a_win_scores_both_players_and_same_step_autoreset_keeps_the_final_board() {
        let config = config(
            Convention::PettingZoo,
            Autoreset::SameStep,
            Opponent::External,
        );
        let mut bytes = buffer();
        let mut out = Layout { n: 1 }.split(&mut bytes);
        let mut game = Game::new(7, None);
        config.restart(&mut game);
        for cell in [0, 3, 1, 4] {
            config.step(&mut game, cell, 0, &mut out);
            assert_eq!((rewards(&out), out.terminated[0]), ([0.0, 0.0], 0));
        }
        config.step(&mut game, 2, 0, &mut out);
        assert_eq!((rewards(&out), out.terminated[0]), ([1.0, -1.0], 1));
        assert_eq!(game.position, Position::EMPTY, "reset in the same step");
        // The final observation, seen by O (to move): O's marks 3 and 4, then X's 0, 1, 2.
        let planes: Vec<u8> = out.final_obs.to_vec();
        for cell in 0..9 {
            let (mine, theirs) = (planes[2 * cell], planes[2 * cell + 1]);
            assert_eq!(mine, u8::from(cell == 3 || cell == 4), "cell {cell}");
            assert_eq!(theirs, u8::from(cell <= 2), "cell {cell}");
        }
    }

    #[test]
    fn an_illegal_move_is_scored_as_each_peer_scores_it() {
        for (convention, expected, truncated) in [
            (Convention::Pgx, [-1.0, 1.0], 0),
            (Convention::PettingZoo, [-1.0, 0.0], 1),
            (Convention::Gym, [-2.0, 0.0], 0),
        ] {
            let opponent = Opponent::Builtin(Strategy::Random);
            let config = config(convention, Autoreset::Disabled, opponent);
            let mut bytes = buffer();
            let mut out = Layout { n: 1 }.split(&mut bytes);
            let mut game = Game::new(1, config.builtin());
            config.restart(&mut game);
            config.step(&mut game, 4, 0, &mut out);
            if convention != Convention::Gym {
                config.step(&mut game, 0, 0, &mut out);
            }
            let before = game.position;
            config.step(&mut game, 4, 0, &mut out);
            assert_eq!(rewards(&out), expected, "{convention:?}");
            assert_eq!((out.terminated[0], out.truncated[0]), (1, truncated));
            assert_eq!(game.position, before, "an illegal move changes nothing");
            // Disabled: a finished game stays as it is, with no reward.
            config.step(&mut game, 0, 0, &mut out);
            assert_eq!((rewards(&out), game.position), ([0.0, 0.0], before));
        }
    }

    #[test]
    fn the_perfect_opponent_never_loses_to_random_moves() {
        let perfect = Opponent::Builtin(Strategy::Perfect);
        let config = config(Convention::Gym, Autoreset::SameStep, perfect);
        let mut bytes = buffer();
        let mut out = Layout { n: 1 }.split(&mut bytes);
        let mut game = Game::new(3, config.builtin());
        config.restart(&mut game);
        let mut rng = 11u64;
        let mut games = 0;
        while games < 300 {
            let legal = game.position.board().empty_cells();
            let cell = tables::pick(legal, (splitmix(&mut rng) >> 32) as u32);
            config.step(&mut game, i64::from(cell), 0, &mut out);
            if out.terminated[0] == 1 {
                assert!(rewards(&out)[0] <= 0.0);
                games += 1;
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
