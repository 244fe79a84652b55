//! The hint-latency benchmark's driver (`scripts/bench-connect4-hints`, docs/benchmarks.md):
//! the time to score every legal move of a Connect Four position, as an analysis board shows
//! them, with the solver and the books the crate ships.
//!
//! ```sh
//! cargo run --release --example connect4_hints -- games GAMES SEED > positions
//! cargo run --release --example connect4_hints -- hints < positions
//! ```
//!
//! `games` plays `GAMES` games between the family's players (`tictactoe::mnk::agents`: X and O
//! taken in turn from the pairs of random, heuristic, mcts and alphabeta, those without random
//! first, seeds from `SEED`)
//! and prints every position of every game before its end, one move sequence a line (the
//! empty board as `-`).
//!
//! `hints` reads move sequences and prints for each: the sequence, its stones, the
//! microseconds of this thread's CPU time to score every move, whether the book alone gave
//! every score (`book` or `search`), and the seven scores (`.` for a full column), the same
//! columns as `scripts/connect4/pons-hints.cpp`. Each position starts from an empty table
//! (cleared untimed), as an analysis board's first look at a position does; each move is
//! scored as `ttt serve` does: a winning move at once, else the solver (with
//! `Book::shipped()`) on the position it makes.

use std::io::{BufRead, Write};

use tictactoe::connect4::{Book, Column, Position, Solver};
use tictactoe::mnk::agents::{Agent, Chooser, Strategy};
use tictactoe::mnk::{AnyPosition, Rules};

fn cpu_micros() -> f64 {
    use nix::time::{ClockId, clock_gettime};
    clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID)
        .map_or(0.0, |t| t.tv_sec() as f64 * 1e6 + t.tv_nsec() as f64 / 1e3)
}

fn games(count: u64, seed: u64) -> Result<(), Box<dyn std::error::Error>> {
    let levels = [
        Strategy::Random,
        Strategy::Heuristic,
        Strategy::Mcts,
        Strategy::AlphaBeta,
    ];
    // Every pairing of two different players, the games between the stronger ones first (a
    // random player makes short, lopsided games).
    let mut pairs: Vec<(Strategy, Strategy)> = levels
        .iter()
        .flat_map(|&x| levels.iter().map(move |&o| (x, o)))
        .filter(|(x, o)| x != o)
        .collect();
    pairs.sort_by_key(|&(x, o)| {
        (
            x == Strategy::Random || o == Strategy::Random,
            x == Strategy::Heuristic,
        )
    });
    let mut out = std::io::stdout().lock();
    for game in 0..count {
        let (x, o) = pairs[game as usize % pairs.len()];
        let mut players = [
            Agent::new(x, seed + 2 * game),
            Agent::new(o, seed + 2 * game + 1),
        ];
        let mut position = AnyPosition::new(Rules::CONNECT_FOUR);
        let mut moves = String::new();
        for turn in 0.. {
            let Some(action) = players[turn % 2].choose(&position) else {
                break;
            };
            writeln!(out, "{}", if moves.is_empty() { "-" } else { &moves })?;
            position.play(action)?;
            moves.push(char::from(b'1' + action as u8));
        }
    }
    Ok(())
}

fn hints() -> Result<(), Box<dyn std::error::Error>> {
    let book = Book::shipped();
    let mut solver = Solver::with_book(book.clone());
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let moves = match line.trim() {
            "-" => "",
            moves => moves,
        };
        let position: Position = moves.parse()?;
        solver.reset();
        let from_book = book.move_scores(position);
        let start = cpu_micros();
        let mut scores = [None; 7];
        for (slot, column) in scores.iter_mut().zip(Column::ALL) {
            if position.is_winning_move(column) {
                *slot = Some((42 + 1 - position.moves() as i32) / 2);
            } else if let Ok(child) = position.play(column) {
                *slot = Some(-solver.score(child));
            }
        }
        let micros = cpu_micros() - start;
        let all_in_book = from_book
            .iter()
            .zip(Column::ALL)
            .all(|(s, c)| s.is_some() || !position.can_play(c));
        let text: Vec<String> = scores
            .iter()
            .map(|s| s.map_or(".".to_owned(), |s| s.to_string()))
            .collect();
        writeln!(
            out,
            "{} {} {micros:.1} {} {}",
            if moves.is_empty() { "-" } else { moves },
            position.moves(),
            if all_in_book { "book" } else { "search" },
            text.join(" ")
        )?;
        out.flush()?;
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["games", count, seed] => games(count.parse()?, seed.parse()?),
        ["hints"] => hints(),
        _ => {
            Err("usage: connect4_hints games GAMES SEED | connect4_hints hints < positions".into())
        }
    }
}
