//! Node budgets and watches on every solver behind `AnySolver`: Connect Four's honours its
//! budget as the family's does, a watch sees the nodes of a search as it goes and can stop it,
//! and a stopped search leaves a table that later searches can trust.

use std::sync::{Arc, Mutex};

use tictactoe::connect4::{self, Book};
use tictactoe::mnk::{AnyPosition, AnySolver, Rules, parse_position};
use tictactoe::solver::{WATCH_NODES, Watch};

/// A Connect Four position of ten stones (column digits in order) that no shipped book scores
/// (checked below; the exact book's deepest positions have nine stones, docs/solver.md "The
/// exact book", so its build does not reach ten). Its solve with the books takes about 7.6
/// million nodes: more than 100,000 (several watch periods), at most a few seconds.
const OFF_THE_BOOKS: &str = "1256376645";

/// Another position of ten stones off the books, whose value alone takes about 12 million
/// nodes.
const VALUE_OFF_THE_BOOKS: &str = "6411771644";

fn off_the_books() -> connect4::Position {
    OFF_THE_BOOKS.parse().unwrap()
}

#[test]
fn the_positions_these_tests_search_are_off_the_books() {
    let book = Book::shipped();
    for moves in [OFF_THE_BOOKS, VALUE_OFF_THE_BOOKS] {
        let position: connect4::Position = moves.parse().unwrap();
        assert!(!position.can_win_next(), "{moves}");
        assert_eq!(book.score(position), None, "{moves}");
        let mut probe = connect4::Solver::with_book(book.clone());
        assert_eq!(probe.solve_weak_within(position, 100_000), None, "{moves}");
    }
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
    // Another position the books do not score needs a search for its value too.
    let other: connect4::Position = VALUE_OFF_THE_BOOKS.parse().unwrap();
    assert_eq!(solver.solve_weak_within(other, 1000), None);
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
    let c4 = parse_position(Rules::CONNECT_FOUR, OFF_THE_BOOKS).unwrap();
    assert_eq!(solver.solve(&c4, 1000), None);
    // Off the books: a position they do not score.
    let off = parse_position(Rules::CONNECT_FOUR, VALUE_OFF_THE_BOOKS).unwrap();
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
