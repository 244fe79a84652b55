//! End-to-end tests of `--game SPEC`, the k-in-a-row family, on every subcommand that takes it:
//! answers, JSON, error objects and exit statuses. The JSON keys are checked against
//! `docs/json.md` by `tests/docs.rs`.

mod common;

use std::process::Output;

use common::{json_lines, stderr, stdout, ttt};

fn json(output: &Output) -> serde_json::Value {
    let lines = json_lines(output);
    assert_eq!(lines.len(), 1, "{}", stdout(output));
    lines.into_iter().next().expect("one line")
}

#[test]
fn a_bad_spec_is_a_usage_error_everywhere() {
    for args in [
        &["analyze", "--game", "chess", "X"][..],
        &["perft", "--game", "3,3", "2"],
        &["enumerate", "--game", "20,3,3"],
        &["selfplay", "--game", "3,4,5", "--games", "1"],
        &["match", "--game", "", "--x", "random", "--o", "random"],
        &["play", "--game", "6,7,4,gravity,x"],
    ] {
        let output = ttt(args, "");
        assert_eq!(output.status.code(), Some(2), "ttt {args:?}: {output:?}");
        assert!(
            stderr(&output).contains("for '--game <SPEC>'"),
            "{}",
            stderr(&output)
        );
    }
    let output = ttt(&["perft", "--game", "20,3,3", "1"], "");
    assert!(stderr(&output).contains("rows must be from 1 to 19, got 20"));
}

#[test]
fn analyze_answers_in_the_vocabulary_of_3x3() {
    let output = ttt(
        &[
            "analyze",
            "--game",
            "connect-four",
            "--json",
            "......./......./...X.../...XO../...XO../...XO..",
            "......./......./......./......./......./...X...",
            "......./......./......./......./X....../.......",
            "......./......./......./......./......./XX.....",
        ],
        "",
    );
    assert!(output.status.success(), "{output:?}");
    let answers = json_lines(&output);
    assert_eq!(answers.len(), 4);
    let won = &answers[0];
    assert_eq!(won["game"], "connect-four");
    assert_eq!(won["valid"], true);
    assert_eq!(won["status"], "x-won");
    assert_eq!(won["winner"], "X");
    assert_eq!(won["to_move"], serde_json::Value::Null);
    // Column 3 from row 2 down: cells 2*7+3, 3*7+3, 4*7+3, 5*7+3.
    assert_eq!(won["lines"], serde_json::json!([[17, 24, 31, 38]]));
    assert_eq!(answers[1]["status"], "ongoing");
    assert_eq!(answers[1]["to_move"], "O");
    assert_eq!(answers[1]["errors"], serde_json::json!([]));
    assert_eq!(answers[2]["valid"], false);
    assert_eq!(answers[2]["errors"], serde_json::json!(["floating-mark"]));
    assert_eq!(answers[2]["status"], serde_json::Value::Null);
    assert_eq!(answers[3]["errors"], serde_json::json!(["x-went-twice"]));

    // Gomoku: a line of six counts (k or more), as one maximal line.
    let mut rows = vec![".".repeat(15); 15];
    rows[7] = "....XXXXXX.....".to_owned();
    rows[8] = "....OOOOO......".to_owned();
    let board = rows.join("/");
    let output = ttt(&["analyze", "--game", "gomoku", "--json", &board], "");
    let answer = json(&output);
    // X has six, O five: both have a line.
    assert_eq!(answer["errors"], serde_json::json!(["both-won"]));
    assert_eq!(
        answer["lines"],
        serde_json::json!([[109, 110, 111, 112, 113, 114], [124, 125, 126, 127, 128]])
    );
}

#[test]
fn analyze_rejects_wrong_sizes_and_bad_characters_with_error_objects() {
    let output = ttt(
        &["analyze", "--game", "4x4", "--json"],
        "XXXX/OOO./..../....\nXXXX/OOO.\n\nXXZ./..../..../....\nXO..\nX...............\n",
    );
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let answers = json_lines(&output);
    assert_eq!(answers.len(), 5);
    assert_eq!(answers[0]["status"], "x-won");
    assert_eq!(answers[1]["line"], 2);
    assert_eq!(
        answers[1]["error"], "2 rows, expected 4 for a 4x4 board",
        "{answers:?}"
    );
    assert_eq!(answers[2]["line"], 4);
    assert!(
        answers[2]["error"]
            .as_str()
            .unwrap()
            .starts_with("bad character 'Z' at index 2"),
        "{answers:?}"
    );
    assert_eq!(answers[3]["error"], "4 cells, expected 16 for a 4x4 board");
    // Sixteen cells without `/` are a board too.
    assert_eq!(answers[4]["board"], "X.../..../..../....");
    assert!(stderr(&output).contains("3 of 5 inputs rejected"));

    // For people: the reasons on standard error, the board drawn on standard output.
    let output = ttt(
        &["analyze", "--game", "tic-tac-toe", "XXX/OO./...", "XX"],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output);
    assert!(text.contains(" 3 [X][X][X] 3"), "{text}");
    assert!(text.contains("status    x-won"), "{text}");
    assert!(text.contains("lines     a3-b3-c3 (X)"), "{text}");
    assert!(
        stderr(&output).contains("argument 2: \"XX\": 2 cells, expected 9"),
        "{}",
        stderr(&output)
    );
    // Unreachable: answered, with every reason, exit status 0 as for 3x3.
    let output = ttt(&["analyze", "--game", "tic-tac-toe", "OOO......"], "");
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("why       o-started"), "{text}");
    assert!(text.contains("why       continued-after-win"), "{text}");
}

#[test]
fn perft_counts_sequences_by_depth() {
    let output = ttt(&["perft", "--game", "connect-four", "6", "--json"], "");
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        json(&output),
        serde_json::json!({"game": "connect-four", "perft": [1, 7, 49, 343, 2401, 16807, 117649]})
    );
    // The family engine on 3x3 agrees with the core.
    let family = ttt(&["perft", "--game", "tic-tac-toe", "9"], "");
    let core = ttt(&["perft", "9"], "");
    assert_eq!(stdout(&family), stdout(&core));
    let output = ttt(&["perft", "--game", "tic-tac-toe", "10"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("lasts at most 9 moves"));
    // Deeper than 9 is still refused without --game, as before.
    let output = ttt(&["perft", "12"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("depth 12 is too deep"));
}

#[test]
fn enumerate_classifies_small_boards_and_counts_plies_of_large_ones() {
    let output = ttt(&["enumerate", "--game", "tic-tac-toe", "--json"], "");
    assert!(output.status.success(), "{output:?}");
    let counts = json(&output);
    assert_eq!(counts["method"], "grids");
    assert_eq!(counts["grids"], 19_683);
    assert_eq!(counts["count_valid"], 6_046);
    assert_eq!(counts["reachable"], 5_478);
    assert_eq!(
        (
            &counts["ongoing"],
            &counts["x_won"],
            &counts["o_won"],
            &counts["draw"]
        ),
        (
            &serde_json::json!(4520),
            &serde_json::json!(626),
            &serde_json::json!(316),
            &serde_json::json!(16)
        )
    );
    assert_eq!(
        counts["per_marks"],
        serde_json::json!([1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78])
    );
    assert_eq!(counts["perft"], serde_json::Value::Null);

    let output = ttt(
        &[
            "enumerate",
            "--game",
            "connect-four",
            "--max-plies",
            "4",
            "--json",
        ],
        "",
    );
    let counts = json(&output);
    assert_eq!(counts["method"], "plies");
    assert_eq!(
        counts["per_marks"],
        serde_json::json!([1, 7, 49, 238, 1120])
    );
    assert_eq!(counts["perft"], serde_json::json!([1, 7, 49, 343, 2401]));
    assert_eq!(counts["by_marks"][4]["positions"], 1120);

    // Refusals: the whole space of a large board, --max-plies without --game.
    let output = ttt(&["enumerate", "--game", "gomoku"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("give --max-plies N"), "{output:?}");
    let output = ttt(&["enumerate", "--max-plies", "3"], "");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn the_search_players_play_matches_with_game_only() {
    let output = ttt(
        &[
            "match",
            "--game",
            "connect-four",
            "--x",
            "mcts",
            "--o",
            "alphabeta",
            "--games",
            "2",
            "--seed",
            "1",
            "--json",
        ],
        "",
    );
    assert!(output.status.success(), "{output:?}");
    let json: serde_json::Value = serde_json::from_str(stdout(&output).trim()).unwrap();
    assert_eq!(
        (json["x"].as_str(), json["o"].as_str()),
        (Some("mcts"), Some("alphabeta"))
    );
    assert_eq!(json["games"], 2);
    let output = ttt(&["match", "--x", "alphabeta", "--o", "random"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("alphabeta plays only the k-in-a-row family"));
}

#[test]
fn selfplay_and_match_play_the_family() {
    let output = ttt(
        &[
            "selfplay",
            "--game",
            "connect-four",
            "--threads",
            "2",
            "--games",
            "1000",
            "--json",
        ],
        "",
    );
    assert!(output.status.success(), "{output:?}");
    let report = json(&output);
    assert_eq!(report["game"], "connect-four");
    assert_eq!(report["games"], 1000);
    let tally = ["x_wins", "o_wins", "draws"].map(|k| report[k].as_u64().unwrap());
    assert_eq!(tally.iter().sum::<u64>(), 1000);
    let moves = report["moves"].as_u64().unwrap();
    assert!((7_000..=42_000).contains(&moves), "{moves}");

    let seeded = [
        "match",
        "--game",
        "connect-four",
        "--x",
        "random",
        "--o",
        "heuristic",
        "--games",
        "100",
        "--seed",
        "3",
        "--json",
    ];
    let output = ttt(&seeded, "");
    assert!(output.status.success(), "{output:?}");
    let tally = json(&output);
    assert_eq!(tally["game"], "connect-four");
    assert_eq!(tally["o"], "heuristic");
    assert!(tally["o_wins"].as_u64().unwrap() >= 80, "{tally}");
    // The same seed, the same games.
    let again = ttt(&seeded, "");
    assert_eq!(stdout(&again), stdout(&output));
    // A player of 3x3 only.
    let output = ttt(
        &["match", "--game", "4x4", "--x", "eps:0.5", "--o", "random"],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("eps:0.5 does not play 4x4"));
}

#[test]
fn play_a_scripted_game_to_a_win_with_undo() {
    // Two people at Connect Four: X stacks column 1, O column 2; two bad columns on the way,
    // and an undo that takes back O's and X's last moves.
    let script = "1\n9\nx\n2\n1\n2\nu\n1\n2\n1\n2\n1\nn\n";
    let output = ttt(
        &[
            "play",
            "--game",
            "connect-four",
            "--x",
            "human",
            "--o",
            "human",
        ],
        script,
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("connect-four: 6 rows, 7 columns, 4 in a row wins"));
    assert!(
        text.contains("not a column: \"9\"; enter a column number (1 to 7)"),
        "{text}"
    );
    assert!(text.contains("not a column: \"x\""), "{text}");
    // The first moves' verdicts come from the shipped books (the rest as the solver finishes
    // them in time, which depends on the machine).
    assert!(
        text.contains("X played 1: throws away the win; O wins with best play"),
        "{text}"
    );
    assert!(
        text.contains("O played 2: keeps the win; O wins with best play"),
        "{text}"
    );
    assert!(text.contains("X wins."), "{text}");
    assert!(text.contains("  [X] O  .  .  .  .  ."), "{text}");
    assert!(
        text.ends_with("Play again? (y/n): n\nThanks for playing.\n"),
        "{text}"
    );

    // Against the computer on gomoku: a cell as drawn, a taken cell, help, quit.
    let output = ttt(
        &["play", "--game", "gomoku", "--seed", "1"],
        "h8\nh8\nz1\nh\nq\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("You are X, the computer (heuristic) is O."),
        "{text}"
    );
    assert!(text.contains("You played h8."), "{text}");
    assert!(text.contains("The computer (heuristic) played"), "{text}");
    assert!(text.contains("h8 is taken; choose an empty cell"), "{text}");
    assert!(text.contains("not a cell: \"z1\""), "{text}");
    assert!(text.contains("Enter a cell as drawn (a1 to o15)"), "{text}");
    assert!(text.contains("Game left unfinished. Bye."), "{text}");
    // 15 x 15 drawn with both axes, within 100 columns.
    assert!(text.contains("      a  b  c  d  e  f  g  h  i  j  k  l  m  n  o\n"));
    assert!(text.lines().all(|l| l.chars().count() <= 100));

    // The computer against itself, to the end; a level the family has not is a usage error.
    let output = ttt(
        &[
            "play",
            "--game",
            "4x4",
            "--x",
            "heuristic",
            "--o",
            "random",
            "--seed",
            "5",
        ],
        "",
    );
    assert!(output.status.success());
    assert!(stdout(&output).contains("X is the computer (heuristic), O is the computer (random)."));
    let output = ttt(&["play", "--game", "4x4", "--level", "eps:0.5"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("eps:0.5 does not play 4x4"),
        "{output:?}"
    );
    // The end of the input ends the game quietly.
    let output = ttt(
        &["play", "--game", "connect-four", "--level", "easy"],
        "4\n",
    );
    assert!(output.status.success());
    assert!(stdout(&output).contains("end of input: game left unfinished"));
}
