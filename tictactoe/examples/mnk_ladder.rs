//! The ladder of family players (`mnk::agents::Strategy`, the levels of `ttt play --game` and
//! `ttt match --game`) against each other: each pairing plays every opening of `plies` random
//! moves twice, once with each player first, so colour and opening cancel out. Prints the
//! wins-draws-losses table, each pairing's score with its Wilson 95% interval, and each
//! level's time per move, as Markdown.
//!
//! `cargo run --release -p tictactoe-kit --example mnk_ladder -- GAME OPENINGS PLIES [LEVELS]`,
//! e.g. `-- connect-four 20 2` (LEVELS: a comma-separated subset, default all five).

#[path = "common/ladder.rs"]
mod ladder;

use ladder::{Clock, Record, arg};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tictactoe::mnk::agents::{Agent, Chooser, Strategy};
use tictactoe::mnk::{AnyPosition, Rules};
use tictactoe::{Player, Status};

/// A random opening of `plies` moves that leaves the game going (`None` after 100 tries).
fn opening(rules: Rules, plies: u32, rng: &mut SmallRng) -> Option<AnyPosition> {
    'again: for _ in 0..100 {
        let mut game = AnyPosition::new(rules);
        for _ in 0..plies {
            let legal: Vec<usize> = game.legal_actions().collect();
            let action = legal[rng.random_range(0..legal.len())];
            if game.play(action).is_err() || game.status() != Status::Ongoing {
                continue 'again;
            }
        }
        return Some(game);
    }
    None
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rules: Rules = arg(0, "GAME", Rules::CONNECT_FOUR)?;
    let openings: u32 = arg(1, "OPENINGS", 20)?;
    let plies: u32 = arg(2, "PLIES", 2)?;
    let levels: Vec<Strategy> = match std::env::args().nth(4) {
        Some(list) => list.split(',').map(str::parse).collect::<Result<_, _>>()?,
        None => Strategy::ALL.to_vec(),
    };
    let mut rng = SmallRng::seed_from_u64(1);
    let starts: Vec<AnyPosition> = (0..openings)
        .map(|_| opening(rules, plies, &mut rng).ok_or("no opening"))
        .collect::<Result<_, _>>()?;
    let n = levels.len();
    let mut records = vec![vec![Record::default(); n]; n];
    let mut clocks = vec![Clock::default(); n];
    for i in 0..n {
        for j in i + 1..n {
            let seed = (i * n + j) as u64;
            let mut a = Agent::new(levels[i], 2 * seed);
            let mut b = Agent::new(levels[j], 2 * seed + 1);
            let mut record = Record::default();
            for start in &starts {
                for a_first in [true, false] {
                    let mut game = *start;
                    let a_player = if a_first == (game.side_to_move() == Player::X) {
                        game.side_to_move()
                    } else {
                        game.side_to_move().opponent()
                    };
                    while game.status() == Status::Ongoing {
                        let a_moves = game.side_to_move() == a_player;
                        let (agent, k) = if a_moves { (&mut a, i) } else { (&mut b, j) };
                        let action = clocks[k].time(|| agent.choose(&game)).ok_or("no move")?;
                        game.play(action)?;
                    }
                    record.add(game.status(), a_player);
                }
            }
            records[i][j] = record;
            records[j][i] = record.swapped();
        }
    }
    println!(
        "{rules}: {openings} openings of {plies} random plies, each played with both colours \
({} games a pairing); row player's wins-draws-losses\n",
        2 * openings
    );
    print!("| |");
    for level in &levels {
        print!(" {level} |");
    }
    println!("\n|---|{}", "---|".repeat(n));
    for (i, (level, row)) in levels.iter().zip(&records).enumerate() {
        print!("| **{level}** |");
        for (j, r) in row.iter().enumerate() {
            if i == j {
                print!(" |");
            } else {
                print!(" {} |", r.wdl());
            }
        }
        println!();
    }
    println!("\n| pairing | score of the first | 95% interval | separated |\n|---|---:|---|---|");
    for i in 0..n {
        for j in i + 1..n {
            let (mean, low, high) = records[i][j].score();
            let separated = if low > 0.5 || high < 0.5 { "yes" } else { "no" };
            println!(
                "| {} vs {} | {mean:.3} | {low:.3} to {high:.3} | {separated} |",
                levels[i], levels[j]
            );
        }
    }
    println!("\n| level | time per move | moves |\n|---|---:|---:|");
    for (level, clock) in levels.iter().zip(&clocks) {
        println!(
            "| {level} | {:.3} ms | {} |",
            clock.ms_per_move(),
            clock.moves
        );
    }
    Ok(())
}
