//! `--replies N`: the book of the second player's replies, `data/connect4-replies.txt`.
//!
//! The perfect player (`Solver::perfect_move`) as the second player answers at once where the
//! books prove a move keeps the value; elsewhere it searches, and its replies to the first
//! player's first two stones took 4 to 9 CPU s each (proving a position of 4 stones lost or
//! drawn). This walks every game of the first player's choosing up to the second player's
//! reply at `N` stones (every first-player move at each of its turns, the perfect player's
//! reply at each of the second player's), and keeps, for each position where the second player
//! is to move, its weak bounds (won: score at least 1, drawn: 0, lost: at most -1) and those of
//! the position its reply makes (`Solver::solve_weak`, exact). With these bounds in the book,
//! `perfect_move` answers every such position from the book: the reply's position is proven,
//! and a drawn position is proven to hold no win.
//!
//! ```sh
//! nice -n 10 cargo run --release --example connect4_book -- --replies 5 \
//!     > tictactoe/data/connect4-replies.txt
//! ```
//!
//! The walk then runs again with a solver that reads the new book with the shipped ones, and
//! checks that every reply takes at most `CHECK_NODES` nodes (it counts the replies other than
//! the build's: a transposition can make the book prove another move first).

use std::collections::BTreeMap;

use tictactoe::connect4::{Book, Column, Position, Solver};
use tictactoe::solver::Outcome;

use super::cpu_seconds;

/// The most nodes a reply may search with the new book.
const CHECK_NODES: u64 = 10_000;

/// Weak bounds: what `solve_weak` proves of a score.
fn bounds(outcome: Outcome) -> (i32, i32) {
    match outcome {
        Outcome::Win => (1, 18),
        Outcome::Draw => (0, 0),
        Outcome::Loss => (-18, -1),
    }
}

struct Walk {
    solver: Solver,
    /// Bounds kept, by position key.
    kept: BTreeMap<u64, (Position, i32, i32)>,
    /// The reply chosen at each second-player position, by key.
    replies: BTreeMap<u64, Column>,
    /// Per number of stones: positions answered and their CPU seconds.
    per_ply: BTreeMap<usize, (usize, f64, f64)>,
    stones: usize,
    record: bool,
    /// With the book: replies other than the walk's, and replies over `CHECK_NODES` nodes.
    other: usize,
    over: Vec<(Position, u64)>,
}

impl Walk {
    fn keep(&mut self, position: Position) {
        if position.can_win_next() || self.kept.contains_key(&position.key()) {
            return;
        }
        let (lower, upper) = bounds(self.solver.solve_weak(position));
        self.kept.insert(position.key(), (position, lower, upper));
    }

    fn walk(&mut self, position: Position) -> Result<(), String> {
        if position.moves() > self.stones {
            return Ok(());
        }
        if position.moves().is_multiple_of(2) {
            // The first player: every move.
            for column in Column::ALL {
                if let Ok(child) = position.play(column) {
                    self.walk(child)?;
                }
            }
            return Ok(());
        }
        if self.replies.contains_key(&position.key()) && self.record {
            return Ok(());
        }
        let (nodes, t) = (self.solver.nodes(), cpu_seconds());
        let Some(column) = self.solver.perfect_move(position) else {
            return Ok(());
        };
        let (nodes, seconds) = (self.solver.nodes() - nodes, cpu_seconds() - t);
        let entry = self.per_ply.entry(position.moves()).or_default();
        entry.0 += 1;
        entry.1 += seconds;
        entry.2 = entry.2.max(seconds);
        if self.record {
            self.replies.insert(position.key(), column);
            self.keep(position);
            if let Ok(child) = position.play(column) {
                self.keep(child);
            }
        } else {
            // A transposition can make the book prove another reply first: it keeps the value
            // too, and the walk follows it.
            if self.replies.get(&position.key()) != Some(&column) {
                self.other += 1;
            }
            if nodes > CHECK_NODES {
                self.over.push((position, nodes));
            }
        }
        match position.play(column) {
            Ok(child) => self.walk(child),
            Err(_) => Ok(()),
        }
    }

    fn report(&self, what: &str) {
        for (stones, (n, total, max)) in &self.per_ply {
            eprintln!(
                "{what}: replies at {stones} stones: {n}, {total:.1} CPU s in all, {max:.3} s at most"
            );
        }
    }
}

pub fn main(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let stones: usize = match args {
        [_, n] => n.parse()?,
        _ => return Err("usage: --replies N".into()),
    };
    let shipped = Book::shipped();
    let mut walk = Walk {
        solver: Solver::with_book(shipped.clone()),
        kept: BTreeMap::new(),
        replies: BTreeMap::new(),
        per_ply: BTreeMap::new(),
        stones,
        record: true,
        other: 0,
        over: Vec::new(),
    };
    let t = cpu_seconds();
    walk.walk(Position::EMPTY)?;
    walk.report("build");
    eprintln!("build: {:.1} CPU s", cpu_seconds() - t);
    let book = Book::from_bounds(walk.kept.values().copied())?;
    let text = book.to_text();
    let reread: Book = text.parse()?;
    let mut check = Walk {
        solver: Solver::with_book(shipped.merged(&reread)?),
        kept: BTreeMap::new(),
        replies: walk.replies,
        per_ply: BTreeMap::new(),
        stones,
        record: false,
        other: 0,
        over: Vec::new(),
    };
    check.walk(Position::EMPTY)?;
    check.report("with the book");
    eprintln!(
        "with the book: {} replies other than the build's (a transposition the book proves), {} over {CHECK_NODES} nodes: {:?}",
        check.other,
        check.over.len(),
        check
            .over
            .iter()
            .map(|(p, n)| format!("{:#x} {n}", p.key()))
            .collect::<Vec<_>>()
    );
    if !check.over.is_empty() {
        return Err("some replies still search with the book".into());
    }
    println!(
        "# Connect Four replies book: weak bounds (won 1..18, drawn 0, lost -18..-1) of {} positions: those where the second player",
        book.len()
    );
    println!(
        "# moves in the games of up to {stones} stones (every first-player move, the perfect player's replies), and those its replies make."
    );
    println!("# Built by: cargo run --release --example connect4_book -- --replies {stones}");
    println!("# Lines: 0xKEY LOWER UPPER (tictactoe::connect4::Book).");
    print!("{text}");
    Ok(())
}
