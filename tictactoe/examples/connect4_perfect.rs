//! Every reply of the family's `perfect` player on Connect Four, timed: perfect X against the
//! strongest defence, and perfect O against other players.
//!
//! ```sh
//! cargo run --release -p tictactoe-kit --example connect4_perfect -- x SEEDS
//! cargo run --release -p tictactoe-kit --example connect4_perfect -- o OPPONENT SEEDS
//! ```
//!
//! `x`: perfect X from the empty board against the strongest defence (each reply a best move
//! of the exact solver with the shipped book, at random among them by the seed), one game per
//! seed `0..SEEDS`. `o`: perfect O against `OPPONENT`: `opening` (X's first stone in column
//! `seed % 7 + 1`, then perfect X), or a family level (`random`, `heuristic`, `mcts`,
//! `alphabeta`, seeded). One line per reply of the perfect player on standard output
//! (`side seed ply moves-so-far wall-ms cpu-ms`), then one line per game (result, slowest
//! reply), and the slowest reply over all games with its position. Times are wall time and
//! this thread's CPU time (the players run on it), the first move included with the books'
//! loading.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tictactoe::connect4::{self, Book, Column};
use tictactoe::mnk::agents::{Agent, Chooser, Strategy};
use tictactoe::mnk::{AnyPosition, Rules};
use tictactoe::{Player, Status};

#[path = "common/cpu.rs"]
mod cpu;
use cpu::cpu_seconds;

/// A best move of the exact solver (with the shipped book) at random: the strongest defence.
struct Defence {
    solver: connect4::Solver,
    rng: SmallRng,
}

impl Defence {
    fn choose(&mut self, position: connect4::Position) -> usize {
        let best: Vec<Column> = self.solver.solve(position).best_moves.iter().collect();
        best[self.rng.random_range(0..best.len())].index()
    }
}

enum Opponent {
    Defence(Box<Defence>),
    Agent(Box<Agent>),
    /// A first stone in this column, then perfect play.
    Opening(usize, Box<Agent>),
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (side, opponent, seeds) = match &args[..] {
        [side, seeds] if side == "x" => (Player::X, "defence".to_owned(), seeds.parse()?),
        [side, opponent, seeds] if side == "o" => (Player::O, opponent.clone(), seeds.parse()?),
        _ => return Err("usage: connect4_perfect x SEEDS | o OPPONENT SEEDS".into()),
    };
    let mut worst = (0.0f64, 0.0f64, String::new());
    let mut replies = Vec::new();
    for seed in 0..seeds {
        let mut perfect = Agent::new(Strategy::Perfect, seed);
        let mut other = match opponent.as_str() {
            "defence" => Opponent::Defence(Box::new(Defence {
                solver: connect4::Solver::with_book(Book::shipped()),
                rng: SmallRng::seed_from_u64(seed),
            })),
            "opening" => Opponent::Opening(
                (seed % 7) as usize,
                Box::new(Agent::new(Strategy::Perfect, seed + 100)),
            ),
            level => Opponent::Agent(Box::new(Agent::new(level.parse()?, seed + 100))),
        };
        let mut game = AnyPosition::new(Rules::CONNECT_FOUR);
        let mut c4 = connect4::Position::EMPTY;
        let mut moves = String::new();
        let mut slowest = 0.0f64;
        while let Some(mover) = game.to_move() {
            let action = if mover == side {
                let (wall, cpu) = (Instant::now(), cpu_seconds());
                let action = perfect.choose(&game).ok_or("no move")?;
                let (wall, cpu) = (wall.elapsed().as_secs_f64(), cpu_seconds() - cpu);
                println!(
                    "{side} {seed} {} {} {:.1} {:.1}",
                    game.plies(),
                    if moves.is_empty() { "-" } else { &moves },
                    wall * 1e3,
                    cpu * 1e3
                );
                replies.push(cpu);
                slowest = slowest.max(cpu);
                if cpu > worst.0 {
                    worst = (cpu, wall, format!("seed {seed} after `{moves}`"));
                }
                action
            } else {
                let wall = Instant::now();
                let action = match &mut other {
                    Opponent::Defence(defence) => defence.choose(c4),
                    Opponent::Agent(agent) => agent.choose(&game).ok_or("no move")?,
                    Opponent::Opening(column, agent) => {
                        if game.plies() == 0 {
                            *column
                        } else {
                            agent.choose(&game).ok_or("no move")?
                        }
                    }
                };
                eprintln!(
                    "opponent {seed} {} {:.1} ms",
                    game.plies(),
                    wall.elapsed().as_secs_f64() * 1e3
                );
                action
            };
            game.play(action)?;
            moves.push(char::from(b'1' + action as u8));
            if let Some(column) = Column::new(action)
                && let Ok(next) = c4.play(column)
            {
                c4 = next;
            }
        }
        let result = match game.status() {
            Status::Won(Player::X) => "X won",
            Status::Won(Player::O) => "O won",
            _ => "draw",
        };
        println!(
            "game {side} {opponent} seed {seed}: {result} in {} plies ({moves}); slowest reply {:.1} ms of CPU",
            game.plies(),
            slowest * 1e3
        );
    }
    replies.sort_by(f64::total_cmp);
    let at = |q: f64| replies[((replies.len() - 1) as f64 * q).round() as usize] * 1e3;
    println!(
        "{} replies of perfect {side} against {opponent}: median {:.1} ms, p95 {:.1} ms, max {:.1} ms of CPU ({:.1} ms wall), {}",
        replies.len(),
        at(0.5),
        at(0.95),
        worst.0 * 1e3,
        worst.1 * 1e3,
        worst.2
    );
    Ok(())
}
