//! The ladder of ultimate tic-tac-toe players (`tictactoe::ultimate::agents`) against each
//! other: each pairing plays `GAMES` games from the empty board, the first player X in the
//! even-numbered games and O in the odd ones, each game with its own seeds. Prints, as
//! Markdown, each pairing's wins-draws-losses for the first player, its score (wins plus half
//! the draws, over the games) with the Wilson 95% interval, and each player's wall time per
//! move.
//!
//! `cargo run --release -p tictactoe-kit --example ultimate_ladder -- GAMES [PLAYERS] [C]`,
//! e.g. `-- 100 random,heuristic,mcts:1000,mcts:10000` (PLAYERS comma-separated, default those
//! four, each `mcts` optionally with `@C`, its own exploration constant; C the exploration constant
//! of the others, default `mcts::EXPLORATION`, 0.5).

use std::time::{Duration, Instant};

use tictactoe::ultimate::Position;
use tictactoe::ultimate::agents::{Agent, Strategy};
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

    /// The mean score and its Wilson 95% interval (the score taken as a proportion).
    fn score(self) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let mean = (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n;
        let z2 = 1.96f64 * 1.96;
        let centre = (mean + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = 1.96 * (mean * (1.0 - mean) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        (mean, (centre - half).max(0.0), (centre + half).min(1.0))
    }
}

/// Time and moves per player.
#[derive(Clone, Copy, Default)]
struct Clock {
    time: Duration,
    moves: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u32 = args.first().and_then(|g| g.parse().ok()).unwrap_or(100);
    let names = args
        .get(1)
        .map_or("random,heuristic,mcts:1000,mcts:10000", String::as_str);
    let exploration: f64 = args
        .get(2)
        .and_then(|c| c.parse().ok())
        .unwrap_or(tictactoe::ultimate::mcts::EXPLORATION);
    // A player is a strategy, with `@C` its own exploration constant (`mcts:1000@0.5`).
    let players: Vec<(Strategy, f64)> = names
        .split(',')
        .map(|name| {
            let (name, c) = name.split_once('@').map_or((name, exploration), |(n, c)| {
                (n, c.parse().expect("an exploration constant after @"))
            });
            (
                name.parse().expect("a player: random, heuristic, mcts:N"),
                c,
            )
        })
        .collect();
    let label = |(strategy, c): (Strategy, f64)| match strategy {
        Strategy::Mcts { .. } if c != exploration => format!("{strategy}@{c}"),
        _ => strategy.to_string(),
    };
    let mut clocks = vec![Clock::default(); players.len()];
    let mut rows = Vec::new();
    for a in 0..players.len() {
        for b in a + 1..players.len() {
            let mut record = Record::default();
            for game in 0..games {
                let seed = u64::from(game) * 2;
                let first = Agent::new(players[a].0, seed).with_exploration(players[a].1);
                let second = Agent::new(players[b].0, seed + 1).with_exploration(players[b].1);
                // The first player is X in even games, O in odd ones.
                let first_is_x = game % 2 == 0;
                let (mut seats, indices) = if first_is_x {
                    ([first, second], [a, b])
                } else {
                    ([second, first], [b, a])
                };
                let mut position = Position::EMPTY;
                while let Some(mover) = position.to_move() {
                    let i = usize::from(mover == Player::O);
                    let start = Instant::now();
                    let played = seats[i].choose(&position).expect("a move");
                    clocks[indices[i]].time += start.elapsed();
                    clocks[indices[i]].moves += 1;
                    position.play_unchecked(played);
                }
                let first_mark = if first_is_x { Player::X } else { Player::O };
                match position.status() {
                    Status::Won(winner) if winner == first_mark => record.wins += 1,
                    Status::Won(_) => record.losses += 1,
                    _ => record.draws += 1,
                }
            }
            rows.push((a, b, record));
            eprintln!("{} vs {} done", label(players[a]), label(players[b]));
        }
    }
    println!("{games} games a pairing, colours alternated, exploration {exploration}\n");
    println!("| pairing | wins-draws-losses | score of the first | 95% interval |");
    println!("|---|---|---:|---|");
    for (a, b, record) in rows {
        let (mean, low, high) = record.score();
        println!(
            "| {} vs {} | {}-{}-{} | {mean:.3} | {low:.3} to {high:.3} |",
            label(players[a]),
            label(players[b]),
            record.wins,
            record.draws,
            record.losses
        );
    }
    println!("\n| player | time per move |\n|---|---:|");
    for (player, clock) in players.iter().zip(clocks) {
        let per_move = clock.time.as_secs_f64() / clock.moves.max(1) as f64;
        println!("| {} | {:.3} ms |", label(*player), per_move * 1e3);
    }
}
