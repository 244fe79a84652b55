//! The rules of the kernel's games in plain Rust (no Python): seats, conventions, auto-reset,
//! the built-in opponent, rewards and flags, written into the byte fields of one buffer. The
//! PyO3 layer (`super`) converts arguments and hands this module slices; the tests below run
//! without an interpreter.

use tictactoe::agents::{Agent, Strategy};
use tictactoe::{Bitboard, Player, Position};

pub use super::shared::{Autoreset, Convention, Layout, Out, Outcome, Pending, Seat};
#[cfg(test)]
use super::tables;
use super::tables::{splitmix, write_bytes, write_planes};

/// The opponent of the single-agent convention.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opponent {
    Builtin(Strategy),
    /// Moves come from Python through [`super::EnvKernel::finish`].
    External,
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

/// The layout of `n` games of the 3 × 3 kernel: `(3, 3, 2)` planes, nine actions.
pub fn layout(n: usize) -> Layout {
    Layout::new(n, "uint8", &[3, 3, 2], 9)
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

    /// The opponent (id 1) moves now, or the game waits for Python. The game's own agent
    /// decides: a kernel with a built-in opponent makes every game with one
    /// (`Game::new(seed, config.builtin())`), an external opponent's games have none.
    pub fn opponent_turn(&mut self, pending: Pending) -> Outcome {
        match self.opponent.as_mut() {
            Some(agent) => match agent.choose(self.position) {
                Some(cell) => self.play(cell.index() as i64),
                // Called only on an empty board or after an `Ongoing` outcome, so a move
                // exists; were the game over, its outcome stands as it is.
                None => self.outcome(1 - self.mover()),
            },
            None => {
                self.pending = pending;
                Outcome::Ongoing
            }
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
        game.first = self.seat.draw(&mut game.seat_rng);
        if self.convention == Convention::Gym && game.first == 1 {
            game.opponent_turn(Pending::AfterReset);
        }
    }

    /// The id whose view the observation shows ([`Convention::viewer`]).
    pub fn viewer(&self, game: &Game, outcome: Outcome) -> u8 {
        self.convention.viewer(|| game.mover(), outcome)
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

    /// Writes rewards and flags of an outcome ([`Convention::score`]).
    pub fn score(&self, outcome: Outcome, i: usize, out: &mut Out<'_>) {
        self.convention.score(self.illegal_reward, outcome, i, out);
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
            outcome = game.opponent_turn(Pending::InStep);
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
        vec![0u8; layout(1).offsets().1]
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
        let mut out = layout(1).split(&mut bytes);
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
            let mut out = layout(1).split(&mut bytes);
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
        let mut out = layout(1).split(&mut bytes);
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
}
