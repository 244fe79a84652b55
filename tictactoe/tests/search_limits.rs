//! Node budgets and watches on every solver behind `AnySolver`: Connect Four's honours its
//! budget as the family's does, a watch sees the nodes of a search as it goes and can stop it,
//! and a stopped search leaves a table that later searches can trust.

use std::sync::{Arc, Mutex, OnceLock};

use tictactoe::connect4::{self, Book};
use tictactoe::mnk::{AnyPosition, AnySolver, Rules, parse_position};
use tictactoe::solver::{WATCH_NODES, Watch};

/// The first position of seven stones (column digits in order, from `1111112`) that the
/// shipped books hold no score for and whose search with the books takes more than 100,000
/// nodes (several watch periods) but at most 20 million (a few seconds at most). Chosen from
/// the books rather than written out, because the shipped exact book grows with each run of
/// its resumable build (it now answers `4444435`, which these tests used before, as it
/// answered `44` before that).
fn off_the_books_moves() -> &'static str {
    static FOUND: OnceLock<String> = OnceLock::new();
    FOUND.get_or_init(|| {
        let book = Book::shipped();
        for n in 0..7u32.pow(7) {
            let moves: String = (0..7)
                .rev()
                .map(|i| char::from(b'1' + (n / 7u32.pow(i) % 7) as u8))
                .collect();
            let Ok(position) = moves.parse::<connect4::Position>() else {
                continue;
            };
            if position.can_win_next() || book.score(position).is_some() {
                continue;
            }
            let mut probe = connect4::Solver::with_book(book.clone());
            if probe.solve_within(position, 100_000).is_none()
                && probe.solve_within(position, 20_000_000).is_some()
            {
                return moves;
            }
        }
        panic!("no position of seven stones is off the books and of the right size")
    })
}

fn off_the_books() -> connect4::Position {
    off_the_books_moves().parse().unwrap()
}

/// The first position of three stones (column digits in order) the shipped books hold no score
/// for: its value needs a search of millions of nodes.
fn three_stones_off_the_books() -> &'static str {
    static FOUND: OnceLock<String> = OnceLock::new();
    FOUND.get_or_init(|| {
        let book = Book::shipped();
        for a in '1'..='7' {
            for b in '1'..='7' {
                for c in '1'..='7' {
                    let moves = format!("{a}{b}{c}");
                    let position: connect4::Position = moves.parse().unwrap();
                    if book.score(position).is_none() {
                        return moves;
                    }
                }
            }
        }
        panic!("the shipped books score every position of three stones: pick a slower one")
    })
}

/// A watch that records every count it is shown and stops the search once `stop_after` calls
/// have been made.
fn recording(stop_after: usize) -> (Watch, Arc<Mutex<Vec<u64>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    let watch: Watch = Box::new(move |nodes| {
        let mut seen = record.lock().unwrap();
        seen.push(nodes);
        seen.len() < stop_after
    });
    (watch, seen)
}

#[test]
fn connect_four_stops_at_its_budget_and_its_table_stays_true() {
    let mut fresh = connect4::Solver::with_book(Book::shipped());
    let expected = fresh.solve(off_the_books());
    let mut solver = connect4::Solver::with_book(Book::shipped());
    assert_eq!(solver.solve_within(off_the_books(), 100_000), None);
    assert!(
        (100_000..100_100).contains(&solver.nodes()),
        "{}",
        solver.nodes()
    );
    // A position of three stones the books do not score needs a search for its value too.
    let three: connect4::Position = three_stones_off_the_books().parse().unwrap();
    assert_eq!(solver.solve_weak_within(three, 1000), None);
    // What the stopped searches stored is true: the same answer as a fresh solver.
    assert_eq!(
        solver.solve_within(off_the_books(), u64::MAX),
        Some(expected)
    );
    assert_eq!(solver.solve(off_the_books()), expected);
    // A budget that is enough changes nothing.
    let mut roomy = connect4::Solver::with_book(Book::shipped());
    assert_eq!(
        roomy.solve_within(off_the_books(), u64::MAX),
        Some(expected)
    );
}

#[test]
fn a_watch_sees_the_nodes_and_can_stop_the_search() {
    let mut solver = connect4::Solver::with_book(Book::shipped());
    let (watch, seen) = recording(usize::MAX);
    assert!(solver.set_watch(Some(watch)).is_none());
    let solution = solver.solve_within(off_the_books(), u64::MAX);
    assert!(solution.is_some());
    let nodes = solver.nodes();
    let seen = seen.lock().unwrap().clone();
    // One call per WATCH_NODES nodes, each with the nodes taken so far (the first node past
    // the period, which starts again there).
    assert_eq!(
        seen.len() as u64,
        nodes / (WATCH_NODES + 1),
        "{seen:?} of {nodes}"
    );
    for (i, &count) in seen.iter().enumerate() {
        assert_eq!(count, (i as u64 + 1) * (WATCH_NODES + 1), "{seen:?}");
    }
    // A watch that says stop: no answer, within one period.
    let mut solver = connect4::Solver::with_book(Book::shipped());
    let (watch, seen) = recording(1);
    solver.set_watch(Some(watch));
    assert_eq!(solver.solve_within(off_the_books(), u64::MAX), None);
    assert_eq!(seen.lock().unwrap().len(), 1);
    assert!(solver.nodes() <= WATCH_NODES + 2, "{}", solver.nodes());
    // Taken away, the watch is no longer called and the search finishes.
    assert!(solver.set_watch(None).is_some());
    assert!(solver.solve_within(off_the_books(), u64::MAX).is_some());
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[test]
fn any_solver_bounds_and_watches_every_game() {
    let mut solver = AnySolver::new();
    let c4 = parse_position(Rules::CONNECT_FOUR, off_the_books_moves()).unwrap();
    assert_eq!(solver.solve(&c4, 1000), None);
    // Off both books: three stones the books do not score.
    let off = parse_position(Rules::CONNECT_FOUR, three_stones_off_the_books()).unwrap();
    assert_eq!(solver.value(&off, 1000), None);
    let (watch, seen) = recording(usize::MAX);
    solver.set_watch(Some(watch));
    let solution = solver.solve(&c4, u64::MAX).expect("no budget");
    assert!(solution.nodes > WATCH_NODES);
    assert!(!seen.lock().unwrap().is_empty());
    // The family's solver: a watch that stops the first search of 5,5,4.
    let (watch, seen) = recording(1);
    solver.set_watch(Some(watch));
    let rules: Rules = "5,5,4".parse().unwrap();
    assert_eq!(solver.solve(&AnyPosition::new(rules), u64::MAX), None);
    assert_eq!(seen.lock().unwrap().len(), 1);
    // Without it, a small game is solved as before.
    solver.set_watch(None);
    let solution = solver.solve(&AnyPosition::new(Rules::TIC_TAC_TOE), u64::MAX);
    assert_eq!(solution.map(|s| s.distance), Some(9));
}
