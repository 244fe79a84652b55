//! The rules of the family kernel's games in plain Rust (no Python; the tests below run
//! without an interpreter): the settings and tables of a kernel ([`Setup`]), one game
//! ([`Game`], the library's [`Position<W>`] and the kernel's bookkeeping), and the steps that
//! write a game's fields into the kernel's buffer ([`Core`]): in place while the game goes on,
//! whole when it starts or ends. The conventions, the layout of the buffer and the scoring are
//! the three kernels' ([`super::super::shared`]); the PyO3 class is `super`.
//!
//! A move goes through the library's per-move path: `Position::legal_move` checks it,
//! `Position::play_move` makes it, `Position::status` says how the game stands.

use tictactoe::mnk::agents::{Agent, Strategy};
use tictactoe::mnk::{AnyPosition, Position, Rules};
use tictactoe::{Player, Status};

use super::super::shared::{
    Autoreset, Convention, Layout, Out, Outcome, Pending, Seat, Settings, Slot, Steps, write_player,
};
use super::super::tables::splitmix;

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
    pub fn new(
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

    /// Bytes of one game's observation.
    pub fn obs_bytes(&self) -> usize {
        2 * self.cells
    }

    /// The layout of the buffer of `n` games: planes `(rows, cols, 2)`, one mask byte an
    /// action.
    pub fn layout(&self, n: usize) -> Layout {
        let (r, c) = (self.rules.rows() as usize, self.rules.cols() as usize);
        Layout::new(n, "uint8", &[r, c, 2], self.actions)
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
    pub fn cell_of(&self, bit: u32) -> Option<usize> {
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
    pub fn new(empty: Position<W>, seed: u64) -> Game<W> {
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
    pub fn mover(&self) -> u8 {
        if self.position.plies().is_multiple_of(2) {
            self.first
        } else {
            1 - self.first
        }
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
    pub fn play(&mut self, setup: &Setup, action: usize) -> (Outcome, Option<Mark>) {
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
#[derive(Clone, Copy)]
pub struct Core<'s> {
    pub setup: &'s Setup,
    /// Asked by the built-in opponent's search (`mcts`, `alphabeta`) as it goes (true: stop
    /// now), so that Ctrl-C stops a slow opponent; `None` where no opponent searches.
    pub stop: Option<&'s (dyn Fn() -> bool + Sync)>,
}

impl Core<'_> {
    /// The id whose view the observation shows ([`Convention::viewer`]).
    #[inline(always)]
    fn viewer<const W: usize>(&self, game: &Game<W>, outcome: Outcome) -> u8
    where
        Position<W>: Wide,
    {
        self.setup.convention.viewer(|| game.mover(), outcome)
    }

    /// Rewrites the observation, mask and player of game `i` whole.
    pub fn observe<const W: usize>(
        &self,
        game: &Game<W>,
        outcome: Outcome,
        i: usize,
        out: &mut Out<'_>,
    ) where
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
        write_player(out, i, viewer);
    }

    /// Writes which actions have room (the legal ones while the game is on): columns not
    /// full with gravity, empty cells without.
    pub fn write_open<const W: usize>(&self, position: &Position<W>, mask: &mut [u8]) {
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
        write_player(out, i, viewer);
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
        game.first = self.setup.seat.draw(&mut game.seat_rng);
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
        let mut stop = || self.stop.is_some_and(|stop| stop());
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

    /// A uniformly random action with room (any action when the game is over).
    #[inline]
    pub fn sample<const W: usize>(&self, game: &mut Game<W>) -> i64
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

impl<const W: usize> Slot for Game<W> {
    #[inline(always)]
    fn flags(&mut self) -> (&mut bool, &mut Pending, &mut bool) {
        (&mut self.done, &mut self.pending, &mut self.quiet)
    }

    #[inline(always)]
    fn seat(&mut self, first: u8) {
        self.first = first;
    }
}

/// The rules of a kernel's games at width `W` as the step driver uses them ([`Steps`]): the
/// core, the empty position the games restart from, and the built-in opponent.
pub struct Stepper<'a, const W: usize> {
    pub core: Core<'a>,
    pub empty: Position<W>,
    pub agent: &'a mut Option<Agent>,
}

impl<const W: usize> Steps for Stepper<'_, W>
where
    Position<W>: Wide,
{
    type Game = Game<W>;
    type Marks = [Option<Mark>; 2];
    const NO_MARKS: Self::Marks = [None, None];

    #[inline(always)]
    fn settings(&self) -> Settings {
        let s = &self.core.setup;
        (s.convention, s.autoreset, s.illegal_reward, s.obs_bytes())
    }

    fn restart(&mut self, game: &mut Game<W>) {
        self.core.restart(game, self.empty, self.agent);
    }

    #[inline(always)]
    fn play(&mut self, game: &mut Game<W>, action: usize) -> Option<(Outcome, Self::Marks)> {
        let (mut outcome, mark) = game.play(self.core.setup, action);
        let mut moves = [mark, None];
        if self.core.setup.convention == Convention::Gym && outcome == Outcome::Ongoing {
            let (after, reply) = self.core.opponent_turn(game, self.agent, Pending::InStep);
            if game.pending != Pending::None {
                return None;
            }
            outcome = after;
            moves[1] = reply;
        }
        Some((outcome, moves))
    }

    fn play_external(&mut self, game: &mut Game<W>, action: usize) -> Outcome {
        game.play(self.core.setup, action).0
    }

    #[inline(always)]
    fn observe(&self, game: &Game<W>, outcome: Outcome, i: usize, out: &mut Out<'_>) {
        self.core.observe(game, outcome, i, out);
    }

    #[inline(always)]
    fn advance(&self, game: &Game<W>, moves: &Self::Marks, i: usize, out: &mut Out<'_>) {
        self.core.advance(game, moves, i, out);
    }

    /// Updated in place as after a move in play when the game ended on a mark (the viewer is
    /// the one a game in play would have: only an illegal move changes it), then the mask of
    /// an ended game; whole otherwise.
    #[inline]
    fn observe_end(
        &self,
        game: &Game<W>,
        outcome: Outcome,
        moves: &Self::Marks,
        i: usize,
        out: &mut Out<'_>,
    ) {
        let marked = moves.iter().any(Option::is_some);
        if !marked || matches!(outcome, Outcome::Illegal(_)) {
            self.core.observe(game, outcome, i, out);
            return;
        }
        self.core.advance(game, moves, i, out);
        if self.core.setup.convention != Convention::PettingZoo {
            let a = self.core.setup.actions;
            out.mask[a * i..a * (i + 1)].fill(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::shared::{Played, Random, play_random};
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
            let layout = setup.layout(n);
            let total = layout.offsets().1;
            let mut twin = vec![0u8; total];
            let core = Core {
                setup: &setup,
                stop: None,
            };
            // Cannot fail: each test picks a width `W` wide enough for its rules.
            let empty = Position::<W>::new(rules).unwrap();
            let mut agent = opponent.map(|s| Agent::new(s, 9));
            let mut stepper = Stepper {
                core,
                empty,
                agent: &mut agent,
            };
            let mut games: Vec<Game<W>> = (0..n as u64).map(|i| Game::new(empty, i)).collect();
            let plan = Random {
                steps: 400,
                wild: 16,
                actions: a,
                seed: 5,
            };
            let sample = |s: &Stepper<'_, W>, game: &mut Game<W>| s.core.sample(game);
            play_random(
                &mut stepper,
                &mut games,
                &layout,
                &plan,
                sample,
                |_, played| {
                    let Played {
                        game,
                        before,
                        action,
                        i,
                        step,
                        out: fast,
                    } = played;
                    let illegal = !before.done && !before.position.is_legal(action);
                    let at = format!("{spec} {convention:?} {autoreset:?} step {step} game {i}");
                    // Any end but an illegal move shows the viewer and mask of a draw.
                    let end = if illegal {
                        Outcome::Illegal(before.mover())
                    } else {
                        Outcome::Draw
                    };
                    let now = if game.done { end } else { Outcome::Ongoing };
                    core.observe(game, now, i, &mut layout.split(&mut twin));
                    let slow = layout.split(&mut twin);
                    assert_eq!(fast.view(i, ob, a), slow.view(i, ob, a), "{at}");
                    let ended = fast.terminated[i] == 1 && !before.done;
                    if autoreset == Autoreset::SameStep && ended && convention != Convention::Gym {
                        let mut last = before.clone();
                        if !illegal {
                            last.play(&setup, action);
                        }
                        let mut whole = vec![0u8; total];
                        core.observe(&last, end, i, &mut layout.split(&mut whole));
                        let slow = layout.split(&mut whole);
                        let last_obs = &slow.obs[ob * i..ob * (i + 1)];
                        assert_eq!(
                            &fast.final_obs[ob * i..ob * (i + 1)],
                            last_obs,
                            "final, {at}"
                        );
                    }
                },
            );
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
