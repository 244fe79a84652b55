//! The Connect Four solver against Pascal Pons' solver, on 3,000 random positions whose scores
//! his solver computed (`tests/data/connect4/`, made by `scripts/bench-connect4 --data`; see
//! docs/solver.md), and against a plain negamax on the positions small enough for it.
//!
//! The end and middle sets run in full; the beginning set runs one position in ten (it is the
//! slow one), and in full with `cargo test --release --test connect4 -- --ignored`.

use tictactoe::connect4::{CELLS, Column, Position, Solver, distance_of, outcome_of};
use tictactoe::solver::Outcome;

fn load(name: &str) -> Vec<(String, Position, i32)> {
    let path = format!(
        "{}/tests/data/connect4/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let (moves, score) = line.split_once(' ').expect("a sequence and a score");
            let position = moves.parse().unwrap_or_else(|e| panic!("{moves}: {e}"));
            (moves.to_owned(), position, score.parse().expect("a score"))
        })
        .collect()
}

fn check(name: &str, step: usize) {
    let set = load(name);
    assert_eq!(set.len(), 1000, "{name}");
    let mut solver = Solver::new();
    for (moves, position, score) in set.into_iter().step_by(step) {
        assert_eq!(solver.score(position), score, "{name}: {moves}");
    }
}

#[test]
fn end_set_agrees_with_pons() {
    check("end", 1);
}

#[test]
fn middle_set_agrees_with_pons() {
    check("middle", 1);
}

#[test]
fn beginning_set_sample_agrees_with_pons() {
    check("begin", 10);
}

#[test]
#[ignore = "the whole beginning set takes minutes"]
fn beginning_set_agrees_with_pons() {
    check("begin", 1);
}

#[test]
fn weak_solve_agrees_with_the_sign_of_the_score() {
    let mut solver = Solver::new();
    for (moves, position, score) in load("middle").into_iter().step_by(4) {
        let expected = match score.signum() {
            1 => Outcome::Win,
            0 => Outcome::Draw,
            _ => Outcome::Loss,
        };
        assert_eq!(solver.solve_weak(position), expected, "{moves}");
    }
}

/// `perfect_move` keeps the value of every position Pons' solver scored (end and middle
/// sets, one in five, and the issue's `444441`, where only 3 and 5 keep X's win): a won
/// position's move wins at once or leaves the opponent lost, a drawn one's leaves it at most a
/// draw, checked by another solver; a lost position's move does not lose at once when another
/// does not. The player keeps its table from one position to the next, as in a game.
#[test]
fn the_perfect_move_keeps_the_value() {
    let mut player = Solver::with_book(tictactoe::connect4::Book::shipped());
    let mut judge = Solver::new();
    let issue: Position = "444441".parse().unwrap();
    let column = player.perfect_move(issue).unwrap();
    assert!([2, 4].contains(&column.index()), "{column}");
    for (moves, position, score) in load("end").into_iter().chain(load("middle")).step_by(5) {
        let column = player.perfect_move(position).expect("a free column");
        if position.is_winning_move(column) {
            assert!(
                score > 0,
                "{moves}: a win at once in a position of score {score}"
            );
            continue;
        }
        let child = position.play(column).unwrap();
        let kept = match outcome_of(score) {
            Outcome::Win => judge.solve_weak(child) == Outcome::Loss,
            Outcome::Draw => judge.solve_weak(child) != Outcome::Win,
            // Lost: no move keeps anything; it must not lose at once if some move does not.
            Outcome::Loss => {
                !child.can_win_next()
                    || Column::ALL
                        .iter()
                        .all(|&c| position.play(c).map_or(true, Position::can_win_next))
            }
        };
        assert!(kept, "{moves} (score {score}): column {column}");
    }
}

/// The score of every move of `position` by the solver: `None` for a full column.
fn move_scores(solver: &mut Solver, position: Position) -> [Option<i32>; 7] {
    Column::ALL.map(|column| {
        if !position.can_play(column) {
            None
        } else if position.is_winning_move(column) {
            Some((CELLS as i32 + 1 - position.moves() as i32) / 2)
        } else {
            Some(-solver.score(position.play(column).ok()?))
        }
    })
}

#[test]
fn best_moves_distance_and_value_agree_with_the_moves_scores() {
    let mut solver = Solver::new();
    for (moves, position, score) in load("end").into_iter().chain(load("middle")).step_by(20) {
        let solution = solver.solve(position);
        assert_eq!(solution.score, score, "{moves}");
        let scores = move_scores(&mut solver, position);
        for column in Column::ALL {
            let best = scores[column.index()] == Some(score);
            assert_eq!(
                solution.best_moves.contains(column),
                best,
                "{moves} {column}"
            );
        }
        assert_eq!(solution.distance, distance_of(score, position.moves()));
    }
}

/// Plain negamax: every move, no table, no ordering; the definition of the score.
fn plain_score(position: Position) -> i32 {
    if position.is_full() {
        return 0;
    }
    let mut best = i32::MIN;
    for column in Column::ALL {
        if position.is_winning_move(column) {
            return (CELLS as i32 + 1 - position.moves() as i32) / 2;
        }
        if let Ok(child) = position.play(column) {
            best = best.max(-plain_score(child));
        }
    }
    best
}

/// The plies to the end by plain minimax (winner fastest, loser slowest).
fn plain_distance(position: Position) -> u32 {
    distance_of(plain_score(position), position.moves())
}

#[test]
fn solver_agrees_with_plain_negamax_near_the_end() {
    let mut solver = Solver::new();
    let mut checked = 0;
    for (moves, position, score) in load("end") {
        if position.moves() >= 33 {
            assert_eq!(plain_score(position), score, "{moves}: the data");
            let solution = solver.solve(position);
            assert_eq!(solution.score, score, "{moves}");
            assert_eq!(solution.distance, plain_distance(position), "{moves}");
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked}");
}

#[test]
fn distance_counts_plies_to_the_win() {
    // The first player wins with its 4th stone: X, O, X (two threats), O, X.
    let position: Position = "4455".parse().unwrap();
    let solution = Solver::new().solve(position);
    assert_eq!((solution.score, solution.distance), (18, 3));
    assert_eq!(solution.best_moves.to_string(), "36");
    assert_eq!(distance_of(0, 40), 2);
}

#[test]
fn a_book_of_a_solve_answers_it_again_at_once() {
    use tictactoe::connect4::Book;
    let root: Position = "2262754616712".parse().unwrap();
    let mut solver = Solver::new();
    let solution = solver.solve(root);
    let searched = solver.nodes();
    let book = Book::from_bounds(solver.proven_bounds(root.moves() + 4)).unwrap();
    let reread: Book = book.to_text().parse().unwrap();
    assert_eq!(reread, book);
    // Every entry holds the score a fresh solver finds (a sample).
    let mut fresh = Solver::new();
    for (position, lower, upper) in book.iter().step_by(book.len() / 10 + 1) {
        fresh.reset();
        let score = fresh.score(position);
        assert!((lower..=upper).contains(&score), "{position:?}");
    }
    let mut with_book = Solver::with_book(book);
    assert_eq!(with_book.solve(root), solution);
    assert!(
        with_book.nodes() * 100 < searched,
        "{} {searched}",
        with_book.nodes()
    );
}

#[test]
fn the_shipped_book_answers_the_empty_board() {
    use tictactoe::connect4::Book;
    use tictactoe::solver::Value;
    // Built by examples/connect4_book.rs (docs/solver.md, "The opening book"); without it the
    // empty board takes 7.7 × 10^8 nodes.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/connect4-book.txt");
    let book: Book = std::fs::read_to_string(path).unwrap().parse().unwrap();
    let mut solver = Solver::with_book(book);
    let solution = solver.solve(Position::EMPTY);
    assert_eq!((solution.score, solution.value), (1, Value::XWins));
    assert_eq!(
        (solution.distance, solution.best_moves.to_string()),
        (41, "4".to_owned())
    );
    assert!(solver.nodes() < 1000, "{} nodes", solver.nodes());
}

#[test]
fn bad_sequences_are_errors() {
    use tictactoe::connect4::ParseMovesError;
    assert_eq!(
        "1111111".parse::<Position>(),
        Err(ParseMovesError::ColumnFull {
            index: 6,
            column: 1
        })
    );
    assert_eq!(
        "1212121".parse::<Position>(),
        Err(ParseMovesError::Won { index: 6 })
    );
    assert_eq!(
        "12121213".parse::<Position>(),
        Err(ParseMovesError::AfterWin { index: 7 })
    );
    assert_eq!(
        "4x".parse::<Position>(),
        Err(ParseMovesError::BadChar { index: 1, ch: 'x' })
    );
    assert_eq!("".parse::<Position>(), Ok(Position::EMPTY));
}

#[test]
fn keys_decode_and_mirror() {
    for (_, position, _) in load("middle").into_iter().step_by(50) {
        assert_eq!(Position::from_key(position.key()), Some(position));
        assert_eq!(position.mirror().key(), position.mirror_key());
        assert_eq!(position.mirror().canonical_key(), position.canonical_key());
    }
}

#[test]
fn a_budget_stops_the_search_and_what_it_learnt_stays_true() {
    let mut solver = Solver::new();
    let hard: Position = "6".parse().unwrap_or_default();
    // Without the book, column 6 first needs millions of nodes: 1,000 is not enough.
    assert_eq!(solver.solve_within(hard, 1_000), None);
    assert_eq!(solver.solve_weak_within(hard, 1_000), None);
    assert!(solver.nodes() <= 2_002, "{} nodes", solver.nodes());
    // A cut search leaves the table true: every position of the sets, solved after it by the
    // same solver, within a budget it never reaches, gets Pons' score.
    for (moves, position, score) in load("end").into_iter().step_by(50) {
        let solution = solver.solve_within(position, u64::MAX);
        assert_eq!(solution.map(|s| s.score), Some(score), "{moves}");
        let weak = solver.solve_weak_within(position, u64::MAX);
        assert_eq!(weak, Some(outcome_of(score)), "{moves}");
    }
}

#[test]
fn a_watch_stops_a_bounded_search_and_only_it() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};
    let calls = Arc::new(AtomicU64::new(0));
    let counted = Arc::clone(&calls);
    let mut solver = Solver::new();
    // Stops at its third call, after 3 x WATCH_NODES nodes.
    let _ = solver.set_watch(Some(Box::new(move |_nodes| {
        counted.fetch_add(1, Ordering::Relaxed) < 2
    })));
    let hard: Position = "6".parse().unwrap_or_default();
    assert_eq!(solver.solve_within(hard, u64::MAX), None);
    assert_eq!(calls.load(Ordering::Relaxed), 3);
    assert!(
        // The third call comes after 3 x WATCH_NODES nodes; the search unwinds in a few more.
        solver.nodes() <= 3 * tictactoe::solver::WATCH_NODES + 16,
        "{}",
        solver.nodes()
    );
    // The unbounded solve never calls it.
    let easy: Position = "4455".parse().unwrap_or_default();
    assert_eq!(solver.solve(easy).score, 18);
    assert_eq!(calls.load(Ordering::Relaxed), 3);
    assert!(solver.set_watch(None).is_some());
}
