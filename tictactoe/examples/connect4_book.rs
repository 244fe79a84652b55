//! Builds the Connect Four opening book: solves the empty board (its score and every best
//! move) from scratch, keeps the bounds the table then holds for every position of at most
//! `--stones` stones, checks a sample of them against fresh solves, and checks that a solver
//! with the book gives the empty board's solution again.
//!
//! ```sh
//! cargo run --release --example connect4_book -- [--stones 8] [--verify 20] > tictactoe/data/connect4-book.txt
//! ```
//!
//! `--root MOVES` builds the book of another position instead (for tests: a book is only as
//! good as the solve it keeps). Progress and timings go to standard error; the book (text, see `tictactoe::connect4::Book`)
//! to standard output.

use std::time::Instant;

use tictactoe::connect4::{Book, Position, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (mut stones, mut verify, mut root) = (8usize, 20usize, Position::EMPTY);
    let mut root_text = None;
    while let Some(arg) = args.next() {
        let value = args.next().ok_or(format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--stones" => stones = value.parse()?,
            "--verify" => verify = value.parse()?,
            "--root" => {
                root = value.parse()?;
                root_text = Some(value);
            }
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    let mut solver = Solver::new();
    solver.reset();
    let start = Instant::now();
    let score = solver.score(root);
    eprintln!(
        "root: score {score}, {} nodes, {:.1} s",
        solver.nodes(),
        start.elapsed().as_secs_f64()
    );
    let solution = solver.solve(root);
    eprintln!(
        "with best moves: {solution:?}, {} nodes, {:.1} s",
        solver.nodes(),
        start.elapsed().as_secs_f64()
    );
    let book = Book::from_bounds(solver.proven_bounds(stones))?;
    eprintln!("book: {} positions of at most {stones} stones", book.len());

    // A sample, spread over the book, each solved by a fresh solver: its score must lie in the
    // book's bounds.
    // The root itself is checked by the last step.
    let entries: Vec<_> = book.iter().filter(|e| e.0.moves() > root.moves()).collect();
    let step = (entries.len() / verify.max(1)).max(1);
    let mut fresh = Solver::new();
    for &(position, lower, upper) in entries.iter().step_by(step).take(verify) {
        fresh.reset();
        let t = Instant::now();
        let score = fresh.score(position);
        eprintln!(
            "verify {:#x} ({} stones): score {score} in {lower}..={upper}? {:.1} s",
            position.key(),
            position.moves(),
            t.elapsed().as_secs_f64()
        );
        if !(lower..=upper).contains(&score) {
            return Err(format!("book entry {:#x} is wrong", position.key()).into());
        }
    }

    let text = book.to_text();
    let reread: Book = text.parse()?;
    let mut with_book = Solver::with_book(reread);
    let t = Instant::now();
    let again = with_book.solve(root);
    eprintln!(
        "root with the book: {again:?}, {} nodes, {:.3} s",
        with_book.nodes(),
        t.elapsed().as_secs_f64()
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
        "# Built by: cargo run --release --example connect4_book -- --stones {stones} --verify {verify}{}",
        root_text.map_or(String::new(), |m| format!(" --root {m}"))
    );
    println!("# Lines: 0xKEY LOWER UPPER (tictactoe::connect4::Book).");
    print!("{text}");
    Ok(())
}
