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

#[path = "common/ladder.rs"]
mod ladder;

use ladder::{Clock, Record, arg};
use tictactoe::Player;
use tictactoe::ultimate::Position;
use tictactoe::ultimate::agents::{Agent, Strategy};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let games: u32 = arg(0, "GAMES", 100)?;
    let names: String = arg(
        1,
        "PLAYERS",
        "random,heuristic,mcts:1000,mcts:10000".to_owned(),
    )?;
    let exploration: f64 = arg(2, "C", tictactoe::ultimate::mcts::EXPLORATION)?;
    // A player is a strategy, with `@C` its own exploration constant (`mcts:1000@0.5`).
    let players: Vec<(Strategy, f64)> = names
        .split(',')
        .map(|name| -> Result<(Strategy, f64), String> {
            let (name, c) = match name.split_once('@') {
                None => (name, exploration),
                Some((name, c)) => (
                    name,
                    c.parse()
                        .map_err(|_| format!("{c:?}: an exploration constant after @"))?,
                ),
            };
            let strategy = name.parse().map_err(|error| format!("{name:?}: {error}"))?;
            Ok((strategy, c))
        })
        .collect::<Result<_, _>>()?;
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
                    let seat = &mut seats[i];
                    let played = clocks[indices[i]]
                        .time(|| seat.choose(&position))
                        .ok_or("no move")?;
                    position.play(played)?;
                }
                let first_mark = if first_is_x { Player::X } else { Player::O };
                record.add(position.status(), first_mark);
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
            "| {} vs {} | {} | {mean:.3} | {low:.3} to {high:.3} |",
            label(players[a]),
            label(players[b]),
            record.wdl()
        );
    }
    println!("\n| player | time per move |\n|---|---:|");
    for (player, clock) in players.iter().zip(clocks) {
        println!("| {} | {:.3} ms |", label(*player), clock.ms_per_move());
    }
    Ok(())
}
