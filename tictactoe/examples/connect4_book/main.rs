//! Builds the Connect Four opening book: solves the empty board (its score and every best
//! move) from scratch, keeps the bounds the table then holds for every position of at most
//! `--stones` stones, checks a sample of them against fresh solves, and checks that a solver
//! with the book gives the empty board's solution again.
//!
//! ```sh
//! RUSTFLAGS="-C target-cpu=native" cargo run --release --example connect4_book -- \
//!     --stones 12 --verify 20 --verify-depth 8 > tictactoe/data/connect4-book.txt
//! ```
//!
//! The sample is drawn from the positions of at least `--verify-depth` (8) stones more than the
//! root: fresh solves of those take well under a second each, where one of a position of 2 or 3
//! stones takes minutes. Times are this thread's CPU time (robust to a shared machine).
//!
//! The book keeps fewer stones when its text would exceed `--max-bytes` (8,000,000).
//!
//! `--root MOVES` builds the book of another position instead (for tests: a book is only as
//! good as the solve it keeps). Progress and timings go to standard error; the book (text, see `tictactoe::connect4::Book`)
//! to standard output.
//!
//! `--exact N` builds the other shipped book instead, `data/connect4-exact.bin`: the exact
//! score of every position of up to `N` stones (see `exact.rs` beside this file and
//! `docs/solver.md`, "The exact book"):
//!
//! ```sh
//! RUSTFLAGS="-C target-cpu=native" nice -n 19 cargo run --release --example connect4_book -- \
//!     --exact 9 [--book PATH] [--threads T] [--max-seconds S] [--sample K] [--verify K]
//! ```

#[path = "../common/cpu.rs"]
mod cpu;
use cpu::cpu_seconds;

use tictactoe::connect4::{Book, Position, Solver};

mod exact;
mod replies;

/// Checks `count` of `entries`, spread over them, against `fresh` (its table cleared before
/// each): each score must lie in its entry's bounds.
fn verify_sample(
    entries: &[(Position, i32, i32)],
    count: usize,
    mut fresh: Solver,
) -> Result<(), Box<dyn std::error::Error>> {
    let step = (entries.len() / count.max(1)).max(1);
    for &(position, lower, upper) in entries.iter().step_by(step).take(count) {
        fresh.reset();
        let t = cpu_seconds();
        let score = fresh.score(position);
        eprintln!(
            "verify {:#x} ({} stones): score {score} in {lower}..={upper}? {:.1} s of CPU",
            position.key(),
            position.moves(),
            cpu_seconds() - t
        );
        if !(lower..=upper).contains(&score) {
            return Err(format!("book entry {:#x} is wrong", position.key()).into());
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--exact") {
        return exact::main(&args);
    }
    if args.first().is_some_and(|a| a == "--replies") {
        return replies::main(&args);
    }
    let mut args = args.into_iter();
    let (mut stones, mut verify, mut root) = (8usize, 20usize, Position::EMPTY);
    let mut depth = 8usize;
    let mut max_bytes = 8_000_000usize;
    let mut root_text = None;
    while let Some(arg) = args.next() {
        let value = args.next().ok_or(format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--stones" => stones = value.parse()?,
            "--verify" => verify = value.parse()?,
            "--verify-depth" => depth = value.parse()?,
            "--max-bytes" => max_bytes = value.parse()?,
            "--root" => {
                root = value.parse()?;
                root_text = Some(value);
            }
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    let mut solver = Solver::new();
    solver.reset();
    let start = cpu_seconds();
    let score = solver.score(root);
    eprintln!(
        "root: score {score}, {} nodes, {:.1} s of CPU",
        solver.nodes(),
        cpu_seconds() - start
    );
    let solution = solver.solve(root);
    eprintln!(
        "with best moves: {solution:?}, {} nodes, {:.1} s of CPU",
        solver.nodes(),
        cpu_seconds() - start
    );
    // The deepest positions go first when the text would exceed --max-bytes.
    let mut book = Book::from_bounds(solver.proven_bounds(stones))?;
    while book.to_text().len() > max_bytes && stones > root.moves() {
        stones -= 1;
        book = Book::from_bounds(solver.proven_bounds(stones))?;
    }
    eprintln!("book: {} positions of at most {stones} stones", book.len());

    // A sample, spread over the book, each solved by a fresh solver: its score must lie in the
    // book's bounds.
    // The root itself is checked by the last step.
    let entries: Vec<_> = book
        .iter()
        .filter(|e| e.0.moves() >= root.moves() + depth)
        .collect();
    verify_sample(&entries, verify, Solver::new())?;

    let text = book.to_text();
    let reread: Book = text.parse()?;
    let mut with_book = Solver::with_book(reread);
    let t = cpu_seconds();
    let again = with_book.solve(root);
    eprintln!(
        "root with the book: {again:?}, {} nodes, {:.3} s of CPU",
        with_book.nodes(),
        cpu_seconds() - t
    );
    if again != solution {
        return Err("the book gives another solution of the root".into());
    }
    let moves = root_text.as_deref().unwrap_or("");
    println!(
        "# Connect Four opening book (issue 22): bounds proven by solving the position {moves:?} \
         (score and best moves), for the {} positions of at most {stones} stones left in the table.",
        book.len()
    );
    println!(
        "# Built by: cargo run --release --example connect4_book -- --stones {stones} --verify {verify} --verify-depth {depth}{}",
        root_text.map_or(String::new(), |m| format!(" --root {m}"))
    );
    println!("# Lines: 0xKEY LOWER UPPER (tictactoe::connect4::Book).");
    print!("{text}");
    Ok(())
}
