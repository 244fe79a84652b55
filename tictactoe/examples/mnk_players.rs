//! Time per move of the search players, and their results against each other: `cargo run
//! --release -p tictactoe-kit --example mnk_players -- connect-four 20` (a game and a number
//! of games per pairing, half with each side first).

#[path = "common/ladder.rs"]
mod ladder;

use ladder::{Clock, Record, arg};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tictactoe::mnk::players::{AlphaBeta, Mcts, Strong};
use tictactoe::mnk::{Position, Rules};
use tictactoe::{Player, Status};

enum Bot {
    Random,
    AlphaBeta(AlphaBeta<1>),
    Mcts(Mcts),
    Strong(Box<Strong<1>>),
}

impl Bot {
    fn make(name: &str) -> Bot {
        match name {
            "alpha-beta-2" => Bot::AlphaBeta(AlphaBeta::new(2)),
            "alpha-beta-4" => Bot::AlphaBeta(AlphaBeta::new(4)),
            "alpha-beta-6" => Bot::AlphaBeta(AlphaBeta::new(6)),
            "mcts-1000" => Bot::Mcts(Mcts::new(1000)),
            "mcts-10000" => Bot::Mcts(Mcts::new(10_000)),
            "strong" => Bot::Strong(Box::new(Strong::new(200_000, 18, 6))),
            _ => Bot::Random,
        }
    }

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

const NAMES: [&str; 7] = [
    "random",
    "alpha-beta-2",
    "alpha-beta-4",
    "alpha-beta-6",
    "mcts-1000",
    "mcts-10000",
    "strong",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rules: Rules = arg(0, "GAME", Rules::CONNECT_FOUR)?;
    let games: u32 = arg(1, "GAMES", 10)?;
    let mut rng = SmallRng::seed_from_u64(1);
    let mut clocks = [Clock::default(); NAMES.len()];
    println!(
        "{rules}: row player's wins-draws-losses against the column player, {games} games each"
    );
    print!("{:>14}", "");
    for name in NAMES {
        print!("{name:>14}");
    }
    println!();
    for (i, a) in NAMES.iter().enumerate() {
        print!("{a:>14}");
        for (j, b) in NAMES.iter().enumerate() {
            let mut record = Record::default();
            let (mut bot_a, mut bot_b) = (Bot::make(a), Bot::make(b));
            for g in 0..games {
                let a_first = g % 2 == 0;
                let mut game = Position::<1>::new(rules)?;
                while game.status() == Status::Ongoing {
                    let a_moves = (game.side_to_move() == Player::X) == a_first;
                    let (bot, k) = if a_moves {
                        (&mut bot_a, i)
                    } else {
                        (&mut bot_b, j)
                    };
                    let action = clocks[k]
                        .time(|| bot.choose(&game, &mut rng))
                        .ok_or("no move")?;
                    game.play(action)?;
                }
                let a_player = if a_first { Player::X } else { Player::O };
                record.add(game.status(), a_player);
            }
            print!("{:>14}", record.wdl());
        }
        println!();
    }
    for (name, clock) in NAMES.iter().zip(clocks) {
        println!(
            "{name:>14}: {:.3} ms per move ({} moves)",
            clock.ms_per_move(),
            clock.moves
        );
    }
    Ok(())
}
