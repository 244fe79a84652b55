//! Our ultimate tic-tac-toe MCTS as a line-protocol engine, for comparisons driven from other
//! programs (`peers/ultimate_mcts_pyspiel.py` plays it against OpenSpiel's `MCTSBot`).
//!
//! `cargo run --release -p tictactoe-kit --example ultimate_engine -- SECONDS [SEED]`
//!
//! Each line of standard input is a game so far: its moves as flat indices `9 * board + cell`
//! separated by spaces (an empty line is the empty board). The engine answers one line:
//! `MOVE PLAYOUTS SECONDS`, the move its UCT search ([`tictactoe::ultimate::mcts::Mcts`], one
//! thread, the default exploration constant) chooses within `SECONDS` of wall time, the
//! playouts it ran and the wall time it took. A bad line gets `error: ...` with the reason.
//! Each answer's search is seeded by `SEED` plus the answer's number.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use tictactoe::ultimate::mcts::Mcts;
use tictactoe::ultimate::{Move, Position};

fn position_of(line: &str) -> Result<Position, String> {
    let mut position = Position::EMPTY;
    for word in line.split_whitespace() {
        let index: usize = word
            .parse()
            .map_err(|_| format!("{word:?} is not a move index 0 to 80"))?;
        let played = Move::try_from(index).map_err(|e| e.to_string())?;
        position.play(played).map_err(|e| e.to_string())?;
    }
    Ok(position)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: f64 = args
        .first()
        .and_then(|s| s.parse().ok())
        .filter(|s: &f64| *s > 0.0)
        .expect("usage: ultimate_engine SECONDS [SEED]");
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let budget = Duration::from_secs_f64(seconds);
    let mut mcts = Mcts::new();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = line.expect("read a line");
        let answer = match position_of(&line) {
            Err(error) => format!("error: {error}"),
            Ok(position) => {
                let start = Instant::now();
                let deadline = start + budget;
                let mut rng = SmallRng::seed_from_u64(seed.wrapping_add(n as u64));
                match mcts.search(&position, u64::MAX, &mut rng, &mut || {
                    Instant::now() >= deadline
                }) {
                    Some(search) => format!(
                        "{} {} {:.6}",
                        search.best.index(),
                        search.playouts,
                        start.elapsed().as_secs_f64()
                    ),
                    None => "error: the game is over".to_owned(),
                }
            }
        };
        writeln!(out, "{answer}").expect("write");
        out.flush().expect("flush");
    }
}
