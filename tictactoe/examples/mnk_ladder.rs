//! The ladder of family players (`mnk::agents::Strategy`, the levels of `ttt play --game` and
//! `ttt match --game`) against each other: each pairing plays every opening of `plies` random
//! moves twice, once with each player first, so colour and opening cancel out. Prints the
//! wins-draws-losses table, each pairing's score with its Wilson 95% interval, and each
//! level's time per move, as Markdown.
//!
//! `cargo run --release -p tictactoe-kit --example mnk_ladder -- GAME OPENINGS PLIES [LEVELS]`,
//! e.g. `-- connect-four 20 2` (LEVELS: a comma-separated subset, default all five).

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tictactoe::mnk::agents::{Agent, Chooser, Strategy};
use tictactoe::mnk::{AnyPosition, Rules};
use tictactoe::{Player, Status};

/// Wins, draws and losses of the first player of a pairing.
#[derive(Clone, Copy, Default)]
struct Record {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Record {
    fn games(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score (1 a win, 1/2 a draw) and its Wilson 95% interval (the score taken as a
    /// proportion of `games`; unlike the normal approximation it is not empty at 0 or 1).
    fn score(self) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let mean = (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n;
        let z2 = 1.96f64 * 1.96;
        let centre = (mean + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = 1.96 * (mean * (1.0 - mean) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        (mean, (centre - half).max(0.0), (centre + half).min(1.0))
    }
}

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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules: Rules = args
        .first()
        .map_or("connect-four", String::as_str)
        .parse()?;
    let openings: u32 = args.get(1).map_or(Ok(20), |g| g.parse())?;
    let plies: u32 = args.get(2).map_or(Ok(2), |p| p.parse())?;
    let levels: Vec<Strategy> = match args.get(3) {
        Some(list) => list.split(',').map(str::parse).collect::<Result<_, _>>()?,
        None => Strategy::ALL.to_vec(),
    };
    let mut rng = SmallRng::seed_from_u64(1);
    let starts: Vec<AnyPosition> = (0..openings)
        .map(|_| opening(rules, plies, &mut rng).ok_or("no opening"))
        .collect::<Result<_, _>>()?;
    let n = levels.len();
    let mut records = vec![vec![Record::default(); n]; n];
    let mut time = vec![(Duration::ZERO, 0u32); n];
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
                        let clock = Instant::now();
                        let action = agent.choose(&game).ok_or("no move")?;
                        time[k].0 += clock.elapsed();
                        time[k].1 += 1;
                        game.play(action)?;
                    }
                    match game.status() {
                        Status::Won(p) if p == a_player => record.wins += 1,
                        Status::Won(_) => record.losses += 1,
                        _ => record.draws += 1,
                    }
                }
            }
            records[i][j] = record;
            records[j][i] = Record {
                wins: record.losses,
                draws: record.draws,
                losses: record.wins,
            };
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
                print!(" {}-{}-{} |", r.wins, r.draws, r.losses);
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
    for (level, (t, moves)) in levels.iter().zip(&time) {
        println!(
            "| {level} | {:.3} ms | {moves} |",
            t.as_secs_f64() * 1e3 / f64::from((*moves).max(1))
        );
    }
    Ok(())
}
