//! The search players of the family ([`tictactoe::mnk::players`]): legal moves only, a win
//! taken at once, a loss blocked at once, and the stronger players beating random ones.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tictactoe::mnk::players::{AlphaBeta, Mcts, Strong};
use tictactoe::mnk::{Position, Rules};
use tictactoe::{Player, Status};

/// The players under test, one type so games can pair any two.
enum Bot {
    Random,
    AlphaBeta(AlphaBeta<1>),
    Mcts(Mcts),
    Strong(Box<Strong<1>>),
}

impl Bot {
    fn choose(&mut self, position: &Position<1>, rng: &mut SmallRng) -> Option<usize> {
        match self {
            Bot::Random => {
                let legal: Vec<usize> = position.legal_actions().collect();
                (!legal.is_empty()).then(|| legal[rng.random_range(0..legal.len())])
            }
            Bot::AlphaBeta(p) => p.choose(position, rng),
            Bot::Mcts(p) => p.choose(position, rng),
            Bot::Strong(p) => p.choose(position, rng),
        }
    }
}

fn players() -> Vec<(&'static str, Bot)> {
    vec![
        ("alpha-beta 3", Bot::AlphaBeta(AlphaBeta::new(3))),
        ("mcts 200", Bot::Mcts(Mcts::new(200))),
        ("strong", Bot::Strong(Box::new(Strong::new(20_000, 14, 2)))),
    ]
}

/// Plays one game and returns its status; every move is checked to be legal.
fn play(rules: Rules, x: &mut Bot, o: &mut Bot, rng: &mut SmallRng) -> Status {
    let mut game = Position::<1>::new(rules).unwrap();
    while game.status() == Status::Ongoing {
        let bot = if game.side_to_move() == Player::X {
            &mut *x
        } else {
            &mut *o
        };
        let action = bot.choose(&game, rng).expect("a move in an ongoing game");
        assert!(game.is_legal(action), "{rules}: illegal {action} in {game}");
        game.play(action).unwrap();
    }
    assert_eq!(x.choose(&game, rng), None);
    game.status()
}

#[test]
fn every_player_plays_legal_moves_in_every_game() {
    let mut rng = SmallRng::seed_from_u64(1);
    for spec in [
        "3,3,3",
        "4,4,4",
        "5,5,4",
        "connect-four",
        "4,3,3,gravity",
        "7,7,5",
    ] {
        let rules: Rules = spec.parse().unwrap();
        for (_, mut bot) in players() {
            for _ in 0..2 {
                play(rules, &mut bot, &mut Bot::Random, &mut rng);
                play(rules, &mut Bot::Random, &mut bot, &mut rng);
            }
        }
    }
}

fn position(rules: Rules, actions: &[usize]) -> Position<1> {
    let mut game = Position::<1>::new(rules).unwrap();
    for &a in actions {
        game.play(a).unwrap();
    }
    game
}

#[test]
fn every_player_takes_a_win_and_blocks_a_loss() {
    let mut rng = SmallRng::seed_from_u64(2);
    let c4 = Rules::CONNECT_FOUR;
    let five = Rules::new(5, 5, 4, false).unwrap();
    // X to move wins in column 3; X to move must block O in column 0; on 5,5,4 X wins at
    // cell 3 (row 0) and must block O's column at cell 20.
    let cases = [
        (position(c4, &[3, 0, 3, 0, 3, 1]), 3),
        (position(c4, &[6, 0, 6, 0, 2, 0]), 0),
        (position(five, &[0, 5, 1, 6, 2, 24]), 3),
        (position(five, &[0, 5, 12, 10, 24, 15]), 20),
    ];
    for (game, expected) in cases {
        for (name, mut bot) in players() {
            for _ in 0..5 {
                assert_eq!(
                    bot.choose(&game, &mut rng),
                    Some(expected),
                    "{name} in {game}"
                );
            }
        }
    }
}

fn score(rules: Rules, mut bot: Bot, games: u32, seed: u64) -> (u32, u32) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut wins, mut losses) = (0, 0);
    for g in 0..games {
        let (status, me) = if g % 2 == 0 {
            (play(rules, &mut bot, &mut Bot::Random, &mut rng), Player::X)
        } else {
            (play(rules, &mut Bot::Random, &mut bot, &mut rng), Player::O)
        };
        match status {
            Status::Won(w) if w == me => wins += 1,
            Status::Won(_) => losses += 1,
            _ => {}
        }
    }
    (wins, losses)
}

#[test]
fn alpha_beta_of_depth_four_beats_random_at_connect_four() {
    let (wins, losses) = score(
        Rules::CONNECT_FOUR,
        Bot::AlphaBeta(AlphaBeta::new(4)),
        20,
        3,
    );
    assert!(wins >= 18 && losses == 0, "{wins} wins, {losses} losses");
}

#[test]
fn mcts_beats_random_at_connect_four_and_never_loses_tic_tac_toe() {
    let (wins, losses) = score(Rules::CONNECT_FOUR, Bot::Mcts(Mcts::new(400)), 20, 4);
    assert!(wins >= 16 && losses <= 1, "{wins} wins, {losses} losses");
    let (_, losses) = score(Rules::TIC_TAC_TOE, Bot::Mcts(Mcts::new(400)), 20, 5);
    assert_eq!(losses, 0);
}

#[test]
fn strong_never_loses_and_beats_alpha_beta_on_small_boards() {
    let rules = Rules::new(4, 4, 3, false).unwrap();
    let mut rng = SmallRng::seed_from_u64(6);
    // 4,4,3 is a first-player win: the strong player (the solver answers within its budget
    // here) wins it as X against anyone.
    for _ in 0..4 {
        let mut strong = Bot::Strong(Box::new(Strong::new(1_000_000, 16, 2)));
        let status = play(
            rules,
            &mut strong,
            &mut Bot::AlphaBeta(AlphaBeta::new(2)),
            &mut rng,
        );
        assert_eq!(status, Status::Won(Player::X));
    }
    let (_, losses) = score(Rules::FOUR_BY_FOUR, Bot::Strong(Box::default()), 6, 7);
    assert_eq!(losses, 0);
}
