//! Solves games of the k-in-a-row family from the empty board and prints value, distance,
//! best moves, nodes and time: `cargo run --release -p tictactoe-kit --example mnk_solve --
//! 3,3,3 4,4,4 5,5,4` (with `--first-moves` the value of every first move too).

use std::time::Instant;

use tictactoe::mnk::solver::Solver;
use tictactoe::mnk::{Position, Rules};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let first_moves = args.iter().any(|a| a == "--first-moves");
    let mut bits = tictactoe::mnk::solver::DEFAULT_TABLE_BITS;
    for arg in &args {
        if let Some(b) = arg.strip_prefix("--table-bits=") {
            bits = b.parse()?;
        }
    }
    for spec in args.iter().filter(|a| !a.starts_with("--")) {
        let rules: Rules = spec.parse()?;
        let position = Position::<1>::new(rules)?;
        let mut solver = Solver::<1>::with_table_bits(rules, bits)?;
        let start = Instant::now();
        let outcome = solver.outcome(&position);
        println!(
            "{spec}: value only: {} for X, nodes {} time {:.3} s",
            outcome.as_str(),
            solver.nodes(),
            start.elapsed().as_secs_f64()
        );
        let mut solver = Solver::<1>::with_table_bits(rules, bits)?;
        let start = Instant::now();
        let solution = solver.solve(&position);
        let time = start.elapsed();
        println!(
            "{spec}: {} distance {} best moves {:?} nodes {} time {:.3} s",
            solution.value,
            solution.distance,
            solution.best_moves,
            solution.nodes,
            time.as_secs_f64()
        );
        if first_moves {
            let start = Instant::now();
            let before = solver.nodes();
            for mv in solver.move_values(&position) {
                println!("  move {:>3}: {} in {}", mv.action, mv.value, mv.distance);
            }
            println!(
                "  first moves: nodes {} time {:.3} s",
                solver.nodes() - before,
                start.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}
