//! Solves Connect Four positions read from standard input, one move sequence (column digits 1-7)
//! a line, and prints for each: the sequence, its score, the nodes searched and the microseconds
//! of CPU time this thread took, the same columns as the benchmark's driver for Pascal Pons' solver.
//!
//! ```sh
//! cargo run --release --example connect4 -- [--weak] [--reset] [--book FILE] [--best] < positions
//! ```
//!
//! `--reset` clears the table before each position (untimed), as the benchmark does for both
//! solvers; `--weak` answers 1, 0 or -1 only; `--best` appends the best moves (a full solve).

use std::io::{BufRead, Write};

#[cfg(unix)]
fn cpu_micros() -> f64 {
    use nix::time::{ClockId, clock_gettime};
    clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID)
        .map_or(0.0, |t| t.tv_sec() as f64 * 1e6 + t.tv_nsec() as f64 / 1e3)
}

#[cfg(not(unix))]
fn cpu_micros() -> f64 {
    0.0
}

use tictactoe::connect4::{Book, Position, Solver};
use tictactoe::solver::Outcome;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut weak, mut reset, mut best, mut book) = (false, false, false, None);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--weak" => weak = true,
            "--reset" => reset = true,
            "--best" => best = true,
            "--book" => {
                let path = args.next().ok_or("--book needs a file")?;
                book = Some(std::fs::read_to_string(path)?.parse::<Book>()?);
            }
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    let mut solver = match book {
        Some(book) => Solver::with_book(book),
        None => Solver::new(),
    };
    solver.reset();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (i, line) in std::io::stdin().lock().lines().enumerate() {
        let line = line?;
        let line = line.trim();
        let position: Position = match line.parse() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("line {}: {e}", i + 1);
                writeln!(out)?;
                continue;
            }
        };
        if reset {
            solver.reset();
        }
        let before = solver.nodes();
        let start = cpu_micros();
        let (score, moves) = if weak {
            let score = match solver.solve_weak(position) {
                Outcome::Win => 1,
                Outcome::Draw => 0,
                Outcome::Loss => -1,
            };
            (score, None)
        } else if best {
            let solution = solver.solve(position);
            (solution.score, Some(solution.best_moves))
        } else {
            (solver.score(position), None)
        };
        let micros = cpu_micros() - start;
        write!(
            out,
            "{line} {score} {} {micros:.2}",
            solver.nodes() - before
        )?;
        if let Some(moves) = moves {
            write!(out, " {moves}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}
