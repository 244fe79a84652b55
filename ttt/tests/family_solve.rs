//! End-to-end tests of `ttt solve --game SPEC`: agreement with the 3 × 3 solver of `analyze`
//! on every grid, with Pascal Pons' scores of Connect Four positions, the published value of
//! 4 × 4, node budgets, and every kind of bad input; and `ttt play --game` with every level of
//! the ladder.

mod common;

use std::path::Path;

use serde_json::Value;

use common::{json_lines, stderr, stdout, ttt};

/// Every grid of 3 × 3 (19,683, valid or not) as a board with `/` between rows.
fn every_grid() -> Vec<String> {
    (0..19_683u32)
        .map(|code| {
            let mut text = String::new();
            let mut rest = code;
            for cell in 0..9 {
                if cell > 0 && cell % 3 == 0 {
                    text.push('/');
                }
                text.push(['.', 'X', 'O'][(rest % 3) as usize]);
                rest /= 3;
            }
            text
        })
        .collect()
}

#[test]
fn tic_tac_toe_agrees_with_the_core_solver_on_every_grid() {
    let grids = every_grid().join("\n") + "\n";
    let core = ttt(&["analyze", "--json"], &grids);
    let family = ttt(&["solve", "--game", "tic-tac-toe", "--json"], &grids);
    let weak = ttt(
        &["solve", "--game", "tic-tac-toe", "--weak", "--json"],
        &grids,
    );
    let (core, family, weak) = (json_lines(&core), json_lines(&family), json_lines(&weak));
    assert_eq!(
        (core.len(), family.len(), weak.len()),
        (19_683, 19_683, 19_683)
    );
    let mut positions = 0;
    for ((core, family), weak) in core.iter().zip(&family).zip(&weak) {
        let valid = core["valid"].as_bool().expect("valid is a boolean");
        assert_eq!(valid, family.get("error").is_none(), "{core} {family}");
        assert_eq!(valid, weak.get("error").is_none(), "{core} {weak}");
        if !valid {
            assert_eq!(family["line"], weak["line"]);
            continue;
        }
        positions += 1;
        for key in ["value", "distance", "best_moves", "to_move"] {
            assert_eq!(core[key], family[key], "{key}: {core} {family}");
        }
        assert_eq!(core["value"], weak["value"], "{core} {weak}");
        assert!(weak["distance"].is_null() && weak["best_moves"].is_null());
    }
    assert_eq!(positions, 5_478);
}

/// The first `n` positions and Pons' scores of a set in `tictactoe/tests/data/connect4`.
fn pons(set: &str, n: usize) -> Vec<(String, i64)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tictactoe/tests/data/connect4")
        .join(format!("{set}.txt"));
    std::fs::read_to_string(path)
        .expect("the Connect Four data")
        .lines()
        .filter(|line| !line.starts_with('#'))
        .take(n)
        .map(|line| {
            let (moves, score) = line.split_once(' ').expect("moves and score");
            (moves.to_owned(), score.parse().expect("a score"))
        })
        .collect()
}

#[test]
fn connect_four_agrees_with_pons_scores_as_moves_and_as_boards() {
    let mut positions = pons("end", 12);
    positions.extend(pons("middle", 3));
    let moves: Vec<&str> = positions.iter().map(|(m, _)| m.as_str()).collect();
    let output = ttt(
        &["solve", "--game", "connect-four", "--json"],
        &(moves.join("\n") + "\n"),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let answers = json_lines(&output);
    // The same positions as boards give the same answers.
    let boards: Vec<&str> = answers
        .iter()
        .map(|a| a["board"].as_str().expect("a board"))
        .collect();
    let as_boards = json_lines(&ttt(
        &["solve", "--game", "connect-four", "--json"],
        &(boards.join("\n") + "\n"),
    ));
    let weak = json_lines(&ttt(
        &["solve", "--game", "connect-four", "--weak", "--json"],
        &(moves.join("\n") + "\n"),
    ));
    assert_eq!(answers.len(), positions.len());
    for (i, ((moves, score), answer)) in positions.iter().zip(&answers).enumerate() {
        assert_eq!(answer["input"], moves.as_str());
        assert_eq!(answer["score"], *score, "{moves}");
        let mover = if moves.len() % 2 == 0 { "x" } else { "o" };
        let value = match score.signum() {
            0 => "draw".to_owned(),
            1 => format!("{mover}-wins"),
            _ => format!("{}-wins", if mover == "x" { "o" } else { "x" }),
        };
        assert_eq!(answer["value"], value.as_str(), "{moves}");
        assert_eq!(weak[i]["value"], value.as_str(), "{moves}");
        // A win: the winner's stones at the end are 22 - |score|.
        let end = moves.len() as i64 + answer["distance"].as_i64().expect("a distance");
        if *score != 0 {
            assert_eq!(22 - score.abs(), (end + 1) / 2, "{moves}");
        } else {
            assert_eq!(end, 42);
        }
        assert!(!answer["best_moves"].as_array().expect("moves").is_empty());
        for key in [
            "value",
            "distance",
            "score",
            "best_moves",
            "board",
            "to_move",
        ] {
            assert_eq!(answer[key], as_boards[i][key], "{key}: {moves}");
        }
    }
}

#[test]
fn four_by_four_is_a_draw_and_the_people_line_says_so() {
    let empty = "..../..../..../....";
    let output = ttt(&["solve", "--game", "4,4,4", "--json", empty], "");
    let answer = &json_lines(&output)[0];
    assert_eq!(answer["game"], "4x4");
    assert_eq!(answer["value"], "draw");
    assert_eq!(answer["distance"], 16);
    assert_eq!(answer["score"], 0);
    assert_eq!(
        answer["best_moves"],
        serde_json::json!((0..16).collect::<Vec<_>>())
    );
    let output = ttt(&["solve", "--game", "4,4,4", "--weak", empty], "");
    assert_eq!(stdout(&output), format!("{empty}: draw\n"));
    // Columns from 1 with gravity, cells as drawn without, in the line for people.
    let output = ttt(&["solve", "--game", "connect-four", "4455"], "");
    assert_eq!(
        stdout(&output),
        "4455: x-wins, distance 3, score 18, best moves 3 6\n"
    );
    let output = ttt(&["solve", "--game", "4,4,3", "..../..../..../...."], "");
    assert_eq!(
        stdout(&output),
        "..../..../..../....: x-wins, distance 5, score 6, best moves b3 c3 b2 c2\n"
    );
    // A finished game: distance 0, no best move, the side to move has lost.
    let output = ttt(
        &["solve", "--game", "connect-four", "--json", "1212121"],
        "",
    );
    let answer = &json_lines(&output)[0];
    assert_eq!(answer["value"], "x-wins");
    assert_eq!(
        (answer["distance"].as_i64(), answer["score"].as_i64()),
        (Some(0), Some(-18))
    );
    assert_eq!(answer["to_move"], Value::Null);
    assert_eq!(answer["best_moves"], serde_json::json!([]));
}

#[test]
fn the_score_generalises_to_every_gravity_game() {
    // 4,4,3 with gravity: every position from a few openings, score against value and distance.
    let openings = ["1", "2", "12", "23", "1234", "2233", "14", "321"];
    let output = ttt(
        &["solve", "--game", "4,4,3,gravity", "--json"],
        &(openings.join("\n") + "\n"),
    );
    for (moves, answer) in openings.iter().zip(json_lines(&output)) {
        let end = moves.len() as i64 + answer["distance"].as_i64().expect("a distance");
        let margin = (16 + 1) / 2 + 1 - (end + 1) / 2;
        let mover_wins = answer["value"].as_str()
            == Some(if moves.len() % 2 == 0 {
                "x-wins"
            } else {
                "o-wins"
            });
        let expected = match answer["value"].as_str() {
            Some("draw") => 0,
            _ if mover_wins => margin,
            _ => -margin,
        };
        assert_eq!(answer["score"], expected, "{moves}: {answer}");
    }
}

#[test]
fn a_node_budget_reports_the_position_unsolved() {
    let empty = ["..........."; 11].join("/");
    let output = ttt(
        &[
            "solve",
            "--game",
            "11,11,5",
            "--max-nodes",
            "2000",
            "--json",
            &empty,
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let answer = &json_lines(&output)[0];
    for key in ["value", "distance", "score", "best_moves"] {
        assert_eq!(answer[key], Value::Null, "{key}: {answer}");
    }
    assert_eq!(
        answer["unsolved"],
        "not solved within 2000 nodes (--max-nodes)"
    );
    assert!(answer["nodes"].as_u64().expect("nodes") >= 2000);
    let output = ttt(
        &[
            "solve",
            "--game",
            "11,11,5",
            "--weak",
            "--max-nodes",
            "2000",
            &empty,
        ],
        "",
    );
    assert_eq!(
        stdout(&output),
        format!("{empty}: not solved within 2000 nodes (--max-nodes)\n")
    );
    // The same search with room finishes.
    let output = ttt(
        &[
            "solve",
            "--game",
            "tic-tac-toe",
            "--max-nodes",
            "2000",
            "--json",
            ".........",
        ],
        "",
    );
    assert!(json_lines(&output)[0].get("unsolved").is_none());
}

#[test]
fn bad_positions_get_error_objects_naming_line_and_move() {
    let input = "448\n40\n\n1111111\n12121211\nX......\n......./......./......./......./......./O......\n4x\n";
    let output = ttt(&["solve", "--game", "connect-four", "--json"], input);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("7 of 7 inputs rejected"),
        "{}",
        stderr(&output)
    );
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 7);
    assert_eq!(lines[0]["input"], "448");
    let errors: Vec<(u64, &str)> = lines
        .iter()
        .map(|l| {
            (
                l["line"].as_u64().expect("a line"),
                l["error"].as_str().expect("an error"),
            )
        })
        .collect();
    assert_eq!(
        errors[0],
        (1, "move 3 is column 8: the game has columns 1 to 7")
    );
    assert_eq!(
        errors[1],
        (2, "move 2 is column 0: the game has columns 1 to 7")
    );
    assert_eq!(errors[2], (4, "move 7 plays column 1, which is full"));
    assert_eq!(
        errors[3],
        (
            5,
            "move 8 comes after the end of the game (move 7 ended it)"
        )
    );
    assert_eq!(
        errors[4],
        (6, "7 cells, expected 42 for a connect-four board")
    );
    assert!(
        errors[5]
            .1
            .starts_with("not a reachable position (o-started)"),
        "{:?}",
        errors[6]
    );
    // Meant as moves (it starts with a digit): the `x` is named, not the `4`.
    assert_eq!(
        errors[6],
        (
            8,
            "bad character 'x' at index 1: expected column digits 1 to 7"
        )
    );
    // For people: one line on standard error per bad input, naming its line.
    let output = ttt(&["solve", "--game", "connect-four"], "448\n");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output)
            .contains("line 1: \"448\": move 3 is column 8: the game has columns 1 to 7"),
        "{}",
        stderr(&output)
    );
    // Without gravity digits are no position; without --game solve is a usage error.
    let output = ttt(&["solve", "--game", "4x4", "--json", "44"], "");
    assert_eq!(
        json_lines(&output)[0]["error"],
        "bad character '4' at index 0: expected X, O, . or / between rows"
    );
    let output = ttt(&["solve", "X.O..O.X."], "");
    assert_eq!(output.status.code(), Some(2));
    let output = ttt(&["solve", "--game", "3,4,5", "X"], "");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn play_takes_every_level_of_the_ladder() {
    for level in [
        "random",
        "heuristic",
        "mcts",
        "alphabeta",
        "perfect",
        "easy",
        "hard",
    ] {
        // The person plays the centre, then quits; the computer answers at its level.
        let output = ttt(
            &[
                "play",
                "--game",
                "tic-tac-toe",
                "--level",
                level,
                "--seed",
                "3",
            ],
            "b2\nq\n",
        );
        assert!(output.status.success(), "{level}: {}", stderr(&output));
        let text = stdout(&output);
        // With --game the levels are family players: hard is alphabeta (docs/cli.md).
        let shown = match level {
            "easy" => "random",
            "hard" => "alphabeta",
            other => other,
        };
        assert!(
            text.contains(&format!("The computer ({shown}) played")),
            "{level}: {text}"
        );
    }
    // Two levels against each other, to the end: perfect never loses tic-tac-toe.
    for (x, o) in [
        ("perfect", "mcts"),
        ("alphabeta", "perfect"),
        ("mcts", "alphabeta"),
    ] {
        let output = ttt(
            &[
                "play",
                "--game",
                "tic-tac-toe",
                "--x",
                x,
                "--o",
                o,
                "--seed",
                "1",
            ],
            "",
        );
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(
            text.contains(&format!(
                "X is the computer ({x}), O is the computer ({o})."
            )),
            "{text}"
        );
        let perfect_lost = (x == "perfect" && text.contains("O wins."))
            || (o == "perfect" && text.contains("X wins."));
        assert!(!perfect_lost, "{text}");
    }
    // A rung only the family has plays tic-tac-toe through the family's engine without --game.
    let output = ttt(&["play", "--level", "mcts", "--seed", "1"], "q\n");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("You are X, the computer (mcts) is O."));
    let output = ttt(&["play", "--level", "genius"], "");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn connect_four_opens_from_the_shipped_book() {
    // After the centre opening the first player wins: `--weak` answers from the books instead
    // of a search of 10^8 nodes.
    let output = ttt(
        &["solve", "--game", "connect-four", "--weak", "--json"],
        "4\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let answers = json_lines(&output);
    assert_eq!(answers[0]["value"], "x-wins");
    let nodes = answers[0]["nodes"].as_u64().expect("nodes");
    assert!(nodes < 1_000_000, "{}", answers[0]);
}
