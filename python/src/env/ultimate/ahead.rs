//! The default options' `sample_actions`, drawn by the step before it ([`Ahead`]).
//!
//! A batched loop samples, steps, samples again: `sample_actions` reads every game (its state
//! and its random stream) and the step reads it again. Once a step follows a `sample_actions`,
//! that step draws each game's next action right after the game's move, while the game is at
//! hand (`Core::sample`, the game's stream advanced as `sample_actions` advances it), into one
//! byte a game; the next `sample_actions` hands those bytes out without reading the games.
//! Any other call after such a step (a step without a `sample_actions` before it, a reset, a
//! seat, an external move, a rollback) first takes the draws back: each game's stream steps
//! back one draw ([`unsplitmix`]). So the streams, and every action drawn, are what they would
//! be without drawing ahead, whatever the calls' order (tested below). A loop that never
//! samples never draws ahead; one that stops sampling draws once more (taken back at its next
//! step). A kernel with an external opponent, which keeps a snapshot of the games for
//! `rollback`, never draws ahead.

use super::super::shared::{self, After, Out, Steps};
use super::super::tables::unsplitmix;
use super::rules::{Core, Game};
use super::wide::{self, Sampler};
use super::wide::{AVX2, AVX512};

/// Where the drawing ahead stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Nothing drawn, and the last call was not `sample_actions`.
    Idle,
    /// The last call was `sample_actions`: the next step draws ahead.
    Sampled,
    /// `actions` holds each game's next draw, its stream already past it.
    Drawn,
}

/// The actions drawn ahead by the step for the next `sample_actions` (see the module docs).
pub struct Ahead {
    /// One flat move (or, for a game that is over, any action below 81) a game.
    actions: Vec<u8>,
    state: State,
}

/// The compilations of the default options' loop this CPU can run: `fixed` (baseline),
/// `wide` (AVX2 and BMI2), `wide_512` (AVX-512 too).
#[derive(Clone, Copy)]
pub struct Loops<'a> {
    fixed: Core<'a, true>,
    wide: Option<Core<'a, true, AVX2>>,
    wide_512: Option<Core<'a, true, AVX512>>,
}

impl<'a> Loops<'a> {
    /// Every compilation of `fixed` that this CPU runs.
    pub fn of(fixed: Core<'a, true>) -> Loops<'a> {
        Loops {
            fixed,
            wide: fixed.wide(),
            wide_512: fixed.wide_512(),
        }
    }

    /// One step of every game with the widest loop, `after` on each game after its step.
    fn step<A>(self, games: &mut [Game], actions: &[usize], out: &mut Out<'_>, after: &mut A)
    where
        A: After<Core<'a, true>> + After<Core<'a, true, AVX2>> + After<Core<'a, true, AVX512>>,
    {
        match (self.wide_512, self.wide) {
            (Some(mut wide), _) => wide::step_all_512(&mut wide, games, actions, out, after),
            (None, Some(mut wide)) => wide::step_all(&mut wide, games, actions, out, after),
            (None, None) => shared::step_all_then(&mut { self.fixed }, games, actions, out, after),
        }
    }
}

impl Ahead {
    /// Nothing drawn yet; `actions` holds one byte a game (its values do not matter).
    pub fn new(actions: Vec<u8>) -> Ahead {
        Ahead {
            actions,
            state: State::Idle,
        }
    }

    /// `sample_actions` with the default options: a uniformly random legal action of each game
    /// into `out`, the ones drawn ahead when there are.
    pub fn sample(&mut self, loops: Loops<'_>, games: &mut [Game], out: &mut [i64]) {
        if self.state == State::Drawn {
            for (slot, &action) in out.iter_mut().zip(&self.actions) {
                *slot = i64::from(action);
            }
        } else {
            match loops.wide {
                Some(wide) => wide::sample_all(&wide, games, out),
                None => wide::sample_all(&loops.fixed, games, out),
            }
        }
        self.state = State::Sampled;
    }

    /// Before any call but `sample_actions` and [`Ahead::step`] that reads or changes the games:
    /// the draws not handed out are taken back.
    pub fn take_back(&mut self, games: &mut [Game]) {
        if self.state == State::Drawn {
            for game in games.iter_mut() {
                unsplitmix(&mut game.sample_rng);
            }
        }
        self.state = State::Idle;
    }

    /// One step of every game with the default options' widest loop, drawing each game's next
    /// action after its move when the last call was `sample_actions` and `allowed`.
    pub fn step(
        &mut self,
        loops: Loops<'_>,
        allowed: bool,
        games: &mut [Game],
        actions: &[usize],
        out: &mut Out<'_>,
    ) {
        let draw = allowed && self.state == State::Sampled && self.actions.len() == games.len();
        self.take_back(games);
        if draw {
            loops.step(games, actions, out, &mut DrawInto(&mut self.actions));
            self.state = State::Drawn;
        } else {
            loops.step(games, actions, out, &mut ());
        }
    }
}

/// Draws game `i`'s next action into byte `i` (flat moves and the actions of a game that is
/// over are below 81).
struct DrawInto<'a>(&'a mut [u8]);

impl<S: Steps<Game = Game> + Sampler<Game = Game>> After<S> for DrawInto<'_> {
    #[inline(always)]
    fn after(&mut self, s: &S, game: &mut Game, i: usize) {
        if let Some(slot) = self.0.get_mut(i) {
            *slot = s.sample(game) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::shared::{Autoreset, Convention, Seat, reset_all};
    use super::super::super::tables::splitmix;
    use super::super::rules::{Actions, Observation, Opponent, Setup};
    use super::*;

    /// Random sequences of calls (sample then step, a step without a sample, two samples in
    /// a row, resets of some games, the calls that only take the draws back) give the same
    /// actions, fields and games with drawing ahead as without it, for both compilations of
    /// the loop (the AVX2 one where the CPU has it), in every convention and auto-reset mode.
    #[test]
    fn drawing_ahead_changes_no_action_field_or_game() {
        for convention in [Convention::Pgx, Convention::PettingZoo, Convention::Gym] {
            for autoreset in [Autoreset::SameStep, Autoreset::NextStep] {
                let setup = Setup {
                    convention,
                    autoreset,
                    seat: Seat::Random,
                    opponent: Opponent::Random,
                    illegal_reward: -1.0,
                    actions: Actions::Flat,
                    observation: Observation::Planes,
                };
                // Cannot fail: flat actions and planes (test code).
                let fixed = Core::plain(setup).flat_planes().unwrap();
                let all = Loops::of(fixed);
                let baseline = Loops {
                    wide: None,
                    wide_512: None,
                    ..all
                };
                let avx2 = Loops {
                    wide_512: None,
                    ..all
                };
                for loops in [baseline, avx2, all] {
                    calls_in_any_order(setup, loops);
                }
            }
        }
    }

    /// One kernel drawing ahead (`ahead`) and one sampling each game when asked (`plain`),
    /// through the same random calls, compared after each.
    fn calls_in_any_order(setup: Setup, loops: Loops<'_>) {
        let fixed = loops.fixed;
        let wide = (loops.wide.is_some(), loops.wide_512.is_some());
        let n = 24;
        let layout = setup.layout(n);
        let new = |seed: u64| Game::new(seed * 3 + 2);
        let mut bytes = [vec![0u8; layout.offsets().1], vec![0u8; layout.offsets().1]];
        let mut games: [Vec<Game>; 2] = [(0..n as u64).map(new).collect(), Vec::new()];
        games[1] = games[0].clone();
        for k in 0..2 {
            reset_all(
                &mut { fixed },
                &mut games[k],
                None,
                None,
                new,
                &mut layout.split(&mut bytes[k]),
            );
        }
        let mut ahead = Ahead::new(vec![0; n]);
        let mut rng = 9;
        let mut actions = vec![0usize; n];
        for call in 0..1500 {
            let at = format!(
                "{:?} {:?} (AVX2, AVX-512) {wide:?} call {call}",
                setup.convention, setup.autoreset
            );
            let kind = splitmix(&mut rng) % 20;
            if kind < 13 {
                // `sample_actions` (twice in a row one time in thirteen), then a step with
                // what it drew, one action in ten replaced by any action.
                let mut drawn = [vec![0i64; n], vec![0i64; n]];
                for _ in 0..1 + usize::from(kind == 0) {
                    ahead.sample(loops, &mut games[0], &mut drawn[0]);
                    wide::sample_all(&fixed, &mut games[1], &mut drawn[1]);
                    assert_eq!(drawn[0], drawn[1], "{at}");
                }
                for (slot, &action) in actions.iter_mut().zip(&drawn[0]) {
                    let random = splitmix(&mut rng);
                    *slot = if random.is_multiple_of(10) {
                        (random >> 32) as usize % 81
                    } else {
                        action as usize
                    };
                }
            } else if kind < 17 {
                // A step without `sample_actions` before it.
                for slot in &mut actions {
                    *slot = (splitmix(&mut rng) >> 32) as usize % 81;
                }
            } else if kind < 19 {
                // `reset` of some games.
                let mask: Vec<bool> = (0..n)
                    .map(|_| splitmix(&mut rng).is_multiple_of(3))
                    .collect();
                ahead.take_back(&mut games[0]);
                for k in 0..2 {
                    let out = &mut layout.split(&mut bytes[k]);
                    reset_all(&mut { fixed }, &mut games[k], None, Some(&mask), new, out);
                }
                continue;
            } else {
                // `set_first`, `finish`, `rollback`: the draws are taken back.
                ahead.take_back(&mut games[0]);
                continue;
            }
            ahead.step(
                loops,
                true,
                &mut games[0],
                &actions,
                &mut layout.split(&mut bytes[0]),
            );
            shared::step_all(
                &mut { fixed },
                &mut games[1],
                &actions,
                &mut layout.split(&mut bytes[1]),
            );
            assert!(bytes[0] == bytes[1], "{at}");
            for (a, b) in games[0].iter().zip(&games[1]) {
                // The stream of a game drawn ahead is one draw past the other's.
                let mut stream = a.sample_rng;
                if ahead.state == State::Drawn {
                    unsplitmix(&mut stream);
                }
                let fields = |g: &Game, stream: u64| {
                    (
                        g.position,
                        g.done,
                        g.mover,
                        g.first,
                        g.quiet,
                        g.opponent_rng,
                        g.seat_rng,
                        stream,
                    )
                };
                assert_eq!(fields(a, stream), fields(b, b.sample_rng), "{at}");
            }
        }
    }
}
