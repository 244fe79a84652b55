//! The family solver ([`tictactoe::mnk::solver`]) against its slow twins on every reachable
//! position of games small enough for them, and the published values of the small
//! m,n,k-games.
//!
//! - (3,3,3): every reachable position against the 3 × 3 core's table
//!   ([`tictactoe::solver`]): value, distance and best moves; and the plain negamax
//!   ([`plain_score`]) on every one.
//! - (4,3,3), (3,4,3), (4,4,3,gravity), (4,4,4,gravity): every reachable position against a
//!   plain negamax over every move, without table, symmetry, bounds or pruning (memoised by
//!   the exact board so each position is scored once), with the solver's table kept between
//!   positions and again with a table of 16 entries (replacement on almost every store).
//! - The values of (3,3,3), (4,3,3), (4,4,3), (4,4,4), (5,4,4); (5,5,4) is `#[ignore]`d
//!   (about 20 s): `cargo test --release -p tictactoe-kit --test mnk_solver -- --ignored`.

use std::collections::HashMap;

use tictactoe::lab::mnk::{describe_score, plain_score};
use tictactoe::mnk::solver::Solver;
use tictactoe::mnk::{Board, Position, Rules, count};
use tictactoe::solver::{self, Outcome, Value};

fn rules(text: &str) -> Rules {
    text.parse().unwrap()
}

/// Every position a game of `rules` reaches, each once.
fn reachable(rules: Rules) -> Vec<Position<1>> {
    let mut seen = HashMap::new();
    let mut stack = vec![Position::<1>::new(rules).unwrap()];
    while let Some(position) = stack.pop() {
        if seen.insert(position.board(), position).is_some() {
            continue;
        }
        for action in position.legal_actions() {
            let mut child = position;
            child.play(action).unwrap();
            stack.push(child);
        }
    }
    let mut all: Vec<Position<1>> = seen.into_values().collect();
    all.sort_by_key(|p| (p.plies(), p.hash()));
    all
}

/// Plain negamax over every move: the exact score of `position` for the side to move
/// (`cells + 1 - e` for a win ending with `e` marks on the board, its negative for a loss, 0
/// for a draw), memoised by the exact board.
fn plain(position: &Position<1>, memo: &mut HashMap<Board<1>, i32>) -> i32 {
    if let Some(&score) = memo.get(&position.board()) {
        return score;
    }
    let score = match position.status() {
        tictactoe::Status::Draw => 0,
        tictactoe::Status::Won(_) => {
            -(position.rules().cells() as i32 + 1 - position.plies() as i32)
        }
        tictactoe::Status::Ongoing => position
            .legal_actions()
            .map(|action| {
                let mut child = *position;
                child.play(action).unwrap();
                -plain(&child, memo)
            })
            .max()
            .unwrap(),
    };
    memo.insert(position.board(), score);
    score
}

/// The best moves by the plain scores: the moves whose child scores `-score`.
fn plain_best(position: &Position<1>, memo: &mut HashMap<Board<1>, i32>) -> Vec<usize> {
    let score = plain(position, memo);
    position
        .legal_actions()
        .filter(|&action| {
            let mut child = *position;
            child.play(action).unwrap();
            -plain(&child, memo) == score
        })
        .collect()
}

fn check_against_plain(spec: &str, expected_positions: usize) {
    let rules = rules(spec);
    let all = reachable(rules);
    assert_eq!(all.len(), expected_positions, "{spec}");
    let layers = count::layers(rules, rules.cells(), 1 << 24).unwrap();
    let counted: u64 = layers.iter().map(|l| l.positions).sum();
    assert_eq!(counted, expected_positions as u64, "{spec}");
    let mut memo = HashMap::new();
    let mut kept = Solver::<1>::with_table_bits(rules, 16).unwrap();
    let mut tiny = Solver::<1>::with_table_bits(rules, 3).unwrap();
    for (i, position) in all.iter().enumerate() {
        let score = plain(position, &mut memo);
        let (value, distance) = describe_score(position, score);
        let best = plain_best(position, &mut memo);
        let solution = kept.solve(position);
        assert_eq!(
            (solution.value, solution.distance, &solution.best_moves),
            (value, distance, &best),
            "{spec} {position}"
        );
        assert_eq!(
            kept.outcome(position),
            solution.outcome,
            "{spec} {position}"
        );
        // The small table on one position in seven (every position would take a while).
        if i % 7 == 0 {
            let again = tiny.solve(position);
            assert_eq!(
                (again.value, again.distance, &again.best_moves),
                (value, distance, &best),
                "{spec} {position} (16-entry table)"
            );
        }
    }
}

#[test]
fn every_tic_tac_toe_position_matches_the_core_table_and_the_plain_negamax() {
    let rules = Rules::TIC_TAC_TOE;
    let all = reachable(rules);
    assert_eq!(all.len(), 5_478);
    let mut solver = Solver::<1>::with_table_bits(rules, 12).unwrap();
    for position in &all {
        let text = position.board().to_string();
        let core =
            tictactoe::Position::try_from(text.parse::<tictactoe::Board>().unwrap()).unwrap();
        let expected = solver::solve(core);
        let solution = solver.solve(position);
        assert_eq!(solution.value, expected.value, "{text}");
        assert_eq!(solution.distance, u32::from(expected.distance), "{text}");
        let best: Vec<usize> = expected
            .best_moves
            .iter()
            .map(tictactoe::Cell::index)
            .collect();
        assert_eq!(solution.best_moves, best, "{text}");
        assert_eq!(
            solution.outcome,
            expected.value.for_player(position.side_to_move())
        );
        let plain = describe_score(position, plain_score(position));
        assert_eq!(
            plain,
            (expected.value, u32::from(expected.distance)),
            "{text}"
        );
    }
}

#[test]
fn every_position_of_small_games_matches_the_plain_negamax() {
    check_against_plain("4,3,3", 111_973);
    check_against_plain("3,4,3", 111_973);
}

#[test]
fn every_position_of_small_gravity_games_matches_the_plain_negamax() {
    check_against_plain("4,4,3,gravity", 41_750);
    check_against_plain("4,4,4,gravity", 161_029);
}

fn solve_empty(spec: &str) -> tictactoe::mnk::solver::Solution {
    let rules = rules(spec);
    let mut solver = Solver::<1>::with_table_bits(rules, 18).unwrap();
    solver.solve(&Position::new(rules).unwrap())
}

#[test]
fn the_small_games_have_their_published_values() {
    let all: Vec<usize> = (0..9).collect();
    let s = solve_empty("3,3,3");
    assert_eq!((s.value, s.distance, s.best_moves), (Value::Draw, 9, all));
    // 4,4,3: a first-player win; X's third mark wins, from one of the four centre cells.
    let s = solve_empty("4,4,3");
    assert_eq!(
        (s.value, s.outcome, s.distance),
        (Value::XWins, Outcome::Win, 5)
    );
    assert_eq!(s.best_moves, [5, 6, 9, 10]);
    let s = solve_empty("4,3,3");
    assert_eq!(
        (s.value, s.distance, s.best_moves),
        (Value::XWins, 7, vec![3, 4, 5, 6, 7, 8])
    );
    let all: Vec<usize> = (0..16).collect();
    let s = solve_empty("4,4,4");
    assert_eq!((s.value, s.distance, s.best_moves), (Value::Draw, 16, all));
    let all: Vec<usize> = (0..20).collect();
    let s = solve_empty("5,4,4");
    assert_eq!((s.value, s.distance, s.best_moves), (Value::Draw, 20, all));
}

#[test]
fn every_first_move_of_four_by_four_draws() {
    let rules = Rules::FOUR_BY_FOUR;
    let mut solver = Solver::<1>::with_table_bits(rules, 18).unwrap();
    let values = solver.move_values(&Position::new(rules).unwrap());
    assert_eq!(values.len(), 16);
    for (action, mv) in values.iter().enumerate() {
        assert_eq!(
            (mv.action, mv.value, mv.distance),
            (action, Value::Draw, 16)
        );
    }
}

#[test]
#[ignore = "about 20 s in release"]
fn five_by_five_four_is_a_draw() {
    let all: Vec<usize> = (0..25).collect();
    let s = solve_empty("5,5,4");
    assert_eq!((s.value, s.distance, s.best_moves), (Value::Draw, 25, all));
}

#[test]
fn a_node_budget_stops_the_search_and_leaves_a_correct_table() {
    let rules = Rules::FOUR_BY_FOUR;
    let mut solver = Solver::<1>::with_table_bits(rules, 16).unwrap();
    let empty = Position::new(rules).unwrap();
    assert_eq!(solver.solve_within(&empty, 100), None);
    let s = solver.solve_within(&empty, u64::MAX).unwrap();
    assert_eq!((s.value, s.distance), (Value::Draw, 16));
}

#[test]
fn finished_games_have_distance_zero() {
    let rules = Rules::TIC_TAC_TOE;
    let mut game = Position::<1>::new(rules).unwrap();
    for action in [0, 3, 1, 4, 2] {
        game.play(action).unwrap();
    }
    let mut solver = Solver::<1>::with_table_bits(rules, 8).unwrap();
    let s = solver.solve(&game);
    assert_eq!(
        (s.value, s.outcome, s.distance),
        (Value::XWins, Outcome::Loss, 0)
    );
    assert!(s.best_moves.is_empty());
}
