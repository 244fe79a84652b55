//! The family's `perfect` player (`mnk::agents::Strategy::Perfect`) is exact: as the first
//! player of a won game it wins against the strongest defence (each reply a best move of the
//! solver, chosen at random by a seed), and it never loses a game that is not lost.
//!
//! The Connect Four games (four against the strongest defence, seven of perfect O after each
//! first move) took 94 s of wall clock together on the loaded 2-core machine, the defence's
//! exact scores most of it; `-- --nocapture` prints the slowest reply of the perfect player.
//! Before the replies book they took tens of minutes and were ignored.

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tictactoe::mnk::agents::{Agent, Chooser, Strategy, perfect_is_bounded};
use tictactoe::mnk::{AnyPosition, AnySolver, Rules};
use tictactoe::solver::Value;
use tictactoe::{Player, Status};

/// A best move of the exact solver at random: the strongest defence (a loss as late as
/// possible, a draw or win kept).
struct Defence {
    solver: AnySolver,
    rng: SmallRng,
}

impl Defence {
    fn new(seed: u64) -> Defence {
        Defence {
            solver: AnySolver::new(),
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Chooser for Defence {
    fn choose(&mut self, position: &AnyPosition) -> Option<usize> {
        let best = self.solver.solve(position, u64::MAX)?.best_moves;
        (!best.is_empty()).then(|| best[self.rng.random_range(0..best.len())])
    }
}

/// Plays `x` against `o` from `start`; the end and the slowest reply of `timed`.
fn play(
    start: AnyPosition,
    x: &mut dyn Chooser,
    o: &mut dyn Chooser,
    timed: Player,
) -> (AnyPosition, Duration) {
    let mut game = start;
    let mut slowest = Duration::ZERO;
    while let Some(mover) = game.to_move() {
        let clock = Instant::now();
        let action = match mover {
            Player::X => x.choose(&game),
            Player::O => o.choose(&game),
        }
        .expect("a move in an ongoing game");
        if mover == timed {
            slowest = slowest.max(clock.elapsed());
        }
        game.play(action).expect("a legal move");
    }
    (game, slowest)
}

fn value(rules: Rules) -> Value {
    AnySolver::new()
        .value(&AnyPosition::new(rules), u64::MAX)
        .expect("a small game")
}

#[test]
fn perfect_is_offered_where_the_solver_finishes() {
    assert!(perfect_is_bounded(Rules::TIC_TAC_TOE));
    assert!(perfect_is_bounded(Rules::FOUR_BY_FOUR));
    assert!(perfect_is_bounded(Rules::CONNECT_FOUR));
    assert!(perfect_is_bounded("4,5,4".parse().unwrap()));
    assert!(!perfect_is_bounded("5,5,4".parse().unwrap()));
    assert!(!perfect_is_bounded(Rules::GOMOKU));
    assert!(!perfect_is_bounded("19,19,5".parse().unwrap()));
}

#[test]
fn perfect_x_wins_won_small_games_against_the_strongest_defence() {
    for spec in ["4,4,3", "3,4,3", "4,5,3", "3,7,3", "4,4,3,gravity"] {
        let rules: Rules = spec.parse().unwrap();
        assert_eq!(value(rules), Value::XWins, "{spec}");
        for seed in 0..4 {
            let mut x = Agent::new(Strategy::Perfect, seed);
            let (end, _) = play(
                AnyPosition::new(rules),
                &mut x,
                &mut Defence::new(100 + seed),
                Player::X,
            );
            assert_eq!(end.status(), Status::Won(Player::X), "{spec}, seed {seed}");
        }
    }
}

#[test]
fn perfect_never_loses_a_drawn_small_game() {
    for spec in ["3,3,3", "4,4,4", "4,5,4", "5,4,4,gravity"] {
        let rules: Rules = spec.parse().unwrap();
        assert_eq!(value(rules), Value::Draw, "{spec}");
        for seed in 0..3 {
            for opponent in [Strategy::Random, Strategy::Heuristic, Strategy::AlphaBeta] {
                let mut perfect = Agent::new(Strategy::Perfect, seed);
                let mut other = Agent::new(opponent, seed + 10);
                let start = AnyPosition::new(rules);
                let (end, _) = play(start, &mut perfect, &mut other, Player::X);
                assert_ne!(end.status(), Status::Won(Player::O), "{spec} X {opponent}");
                let (end, _) = play(start, &mut other, &mut perfect, Player::O);
                assert_ne!(end.status(), Status::Won(Player::X), "{spec} O {opponent}");
            }
        }
    }
}

#[test]
fn perfect_x_wins_connect_four_against_the_heuristic() {
    for seed in 0..3 {
        let mut x = Agent::new(Strategy::Perfect, seed);
        let mut o = Agent::new(Strategy::Heuristic, seed + 1);
        let (end, slowest) = play(
            AnyPosition::new(Rules::CONNECT_FOUR),
            &mut x,
            &mut o,
            Player::X,
        );
        assert_eq!(end.status(), Status::Won(Player::X), "seed {seed}: {end}");
        println!("seed {seed}: slowest reply of perfect X {slowest:?}");
    }
}

/// Perfect X against the strongest defence: X wins every game. Prints the slowest reply.
#[test]
fn perfect_x_wins_connect_four_against_the_strongest_defence() {
    let mut worst = Duration::ZERO;
    for seed in 0..4 {
        let mut x = Agent::new(Strategy::Perfect, seed);
        let (end, slowest) = play(
            AnyPosition::new(Rules::CONNECT_FOUR),
            &mut x,
            &mut Defence::new(seed),
            Player::X,
        );
        assert_eq!(end.status(), Status::Won(Player::X), "seed {seed}: {end}");
        println!(
            "seed {seed}: X won in {} plies, slowest reply of perfect X {slowest:?}",
            end.plies()
        );
        worst = worst.max(slowest);
    }
    println!("slowest reply of perfect X over the games: {worst:?}");
}

/// Perfect O never loses a game that is not lost: against perfect X it loses (X wins
/// Connect Four), so the test gives X a random first move (a loss or a draw for X except
/// in the centre) and then perfect play; O must then win or draw where the position allows.
#[test]
fn perfect_o_never_loses_a_connect_four_game_that_is_not_lost() {
    let mut solver = AnySolver::new();
    for first in 0..7 {
        let mut start = AnyPosition::new(Rules::CONNECT_FOUR);
        start.play(first).unwrap();
        let value = solver.value(&start, u64::MAX).unwrap();
        let mut x = Agent::new(Strategy::Perfect, first as u64);
        let mut o = Agent::new(Strategy::Perfect, 7 + first as u64);
        let (end, slowest) = play(start, &mut x, &mut o, Player::O);
        println!(
            "X first in column {}: {value:?}, ended {:?}, slowest reply of perfect O {slowest:?}",
            first + 1,
            end.status()
        );
        match value {
            Value::XWins => assert_eq!(end.status(), Status::Won(Player::X)),
            Value::Draw => assert_eq!(end.status(), Status::Draw),
            Value::OWins => assert_eq!(end.status(), Status::Won(Player::O)),
        }
    }
}

/// The search levels stop when told: at once, they answer a legal move from what they
/// finished (alpha-beta's 1-ply search, one playout) and say the search was cut; never told,
/// they play as `choose` does, uncut.
#[test]
fn search_levels_stop_when_told_and_say_so() {
    let mut game = AnyPosition::new(Rules::GOMOKU);
    game.play(112).unwrap();
    for strategy in [Strategy::AlphaBeta, Strategy::Mcts] {
        let mut asked = 0u32;
        let choice = Agent::new(strategy, 1)
            .choose_until(&game, &mut || {
                asked += 1;
                true
            })
            .unwrap();
        assert!(choice.cut && game.is_legal(choice.action), "{strategy}");
        assert_eq!(asked, 1, "{strategy}: stops at the first question");
        // Uncut on a smaller board (a full search of gomoku takes seconds).
        let mut small = AnyPosition::new("6,6,4".parse().unwrap());
        small.play(14).unwrap();
        let uncut = Agent::new(strategy, 1)
            .choose_until(&small, &mut || false)
            .unwrap();
        assert!(!uncut.cut);
        assert_eq!(Some(uncut.action), Agent::new(strategy, 1).choose(&small));
    }
    // Random, heuristic and perfect never ask.
    for strategy in [Strategy::Random, Strategy::Heuristic, Strategy::Perfect] {
        let small = AnyPosition::new(Rules::TIC_TAC_TOE);
        let choice = Agent::new(strategy, 1)
            .choose_until(&small, &mut || panic!("{strategy} asked"))
            .unwrap();
        assert!(!choice.cut);
    }
}
