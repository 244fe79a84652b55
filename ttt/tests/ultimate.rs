//! End-to-end tests of `--game ultimate` (ultimate tic-tac-toe) on `perft`, `analyze`,
//! `play`, `selfplay` and `match`: counts, answers, JSON, errors and exit statuses. The JSON
//! keys are checked against `docs/json.md` by `tests/docs.rs`.

mod common;

use std::process::Output;

use common::{json_lines, stderr, stdout, ttt};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use tictactoe::ultimate::{Move, Position};
use tictactoe::{Player, Status};

fn json(output: &Output) -> serde_json::Value {
    let lines = json_lines(output);
    assert_eq!(lines.len(), 1, "{}", stdout(output));
    lines.into_iter().next().expect("one line")
}

#[test]
fn perft_counts_match_the_library_and_pyspiel() {
    // From the empty board to depth 7; the library's `perft_matches_pyspiel` holds the same
    // figures, which pyspiel's `ultimate_tic_tac_toe` gives too (docs/ultimate.md).
    let output = ttt(&["perft", "--game", "ultimate", "7", "--json"], "");
    assert!(output.status.success(), "{output:?}");
    let value = json(&output);
    assert_eq!(value["game"], "ultimate");
    let counts: Vec<u64> = value["perft"]
        .as_array()
        .expect("an array")
        .iter()
        .map(|n| n.as_u64().expect("a count"))
        .collect();
    assert_eq!(
        counts,
        [1, 81, 720, 6_336, 55_080, 473_256, 4_020_960, 33_782_544]
    );
    for (depth, &count) in counts.iter().enumerate().take(6) {
        assert_eq!(count, Position::EMPTY.perft(depth as u32));
    }
    let text = stdout(&ttt(&["perft", "--game", "ultimate", "3"], ""));
    assert_eq!(text, "0 1\n1 81\n2 720\n3 6336\n");
    let output = ttt(&["perft", "--game", "ultimate", "82"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("at most 81 moves"),
        "{}",
        stderr(&output)
    );
    let output = ttt(
        &["perft", "--game", "ultimate", "2", "--max-memory", "1G"],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn analyze_reports_every_board_the_meta_board_and_the_legal_moves() {
    let output = ttt(&["analyze", "--game", "ultimate", "4:4,4:0"], "");
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    assert!(text.contains("valid     yes\n"), "{text}");
    assert!(
        text.contains("status    ongoing, X to move in board 0\n"),
        "{text}"
    );
    assert!(text.contains("boards    0 open, 1 open"), "{text}");
    assert!(text.contains("legal     9 moves: 0:0 0:1 0:2"), "{text}");
    // O wins board 4's top row; as JSON, with the won board and the meta-board.
    let moves = "4:4 4:0 0:4 4:1 1:4 4:2 2:5";
    let output = ttt(&["analyze", "--game", "ultimate", "--json", moves], "");
    let value = json(&output);
    assert_eq!(value["valid"], true);
    assert_eq!(value["to_move"], "O");
    assert_eq!(value["boards"][4], "o-won");
    assert_eq!(value["meta"], "....O....");
    assert_eq!(value["next_board"], 5);
    assert_eq!(value["legal_moves"].as_array().map(Vec::len), Some(9));
    // A setup that breaks a rule: every reason, and valid false (not a rejected input).
    let e = ".........";
    let o_started = format!("O......../{}/{e} *", [e; 7].join("/"));
    let output = ttt(&["analyze", "--game", "ultimate", &o_started], "");
    assert!(output.status.success(), "{output:?}");
    assert!(
        stdout(&output).contains("why       o-started: wrong turn order: O started"),
        "{}",
        stdout(&output)
    );
    let value = json(&ttt(
        &["analyze", "--game", "ultimate", "--json", &o_started],
        "",
    ));
    assert_eq!(value["valid"], false);
    assert_eq!(value["errors"][0], "o-started");
    assert_eq!(value["status"], serde_json::Value::Null);
}

#[test]
fn bad_inputs_say_what_and_where() {
    let output = ttt(&["analyze", "--game", "ultimate", "4:4 0:0", "XZ"], "");
    assert_eq!(output.status.code(), Some(1));
    let text = stdout(&output) + &stderr(&output);
    assert!(
        text.contains(
            "move 2 (0:0): move 0:0 is in board 0, but the last move sends the mover to board 4"
        ),
        "{text}"
    );
    assert!(text.contains("bad character 'Z' at index 1"), "{text}");
    let output = ttt(&["analyze", "--game", "ultimate", "--json"], "4:9\n");
    let value = json(&output);
    assert_eq!(value["line"], 1);
    assert!(
        value["error"]
            .as_str()
            .is_some_and(|e| e.contains("0 to 8")),
        "{value}"
    );
}

/// A random game's moves, as `B:C` lines, and how it ended.
fn random_game(seed: u64) -> (Vec<Move>, Status) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut position = Position::EMPTY;
    let mut moves = Vec::new();
    while !position.status().is_finished() {
        let played = position
            .pick(rand::RngCore::next_u32(&mut rng))
            .expect("a move");
        position.play(played).expect("legal");
        moves.push(played);
    }
    (moves, position.status())
}

#[test]
fn a_whole_game_is_played_through_standard_input() {
    for seed in [1, 2, 3] {
        let (moves, status) = random_game(seed);
        // Moves as B:C, or the cell alone where the board is fixed, alternately.
        let mut position = Position::EMPTY;
        let mut input = String::new();
        for (i, played) in moves.iter().enumerate() {
            if i % 2 == 1 && position.next_board().is_some() {
                input.push_str(&format!("{}\n", played.cell()));
            } else {
                input.push_str(&format!("{played}\n"));
            }
            position.play(*played).expect("legal");
        }
        let output = ttt(
            &["play", "--game", "ultimate", "--x", "human", "--o", "human"],
            &input,
        );
        assert!(output.status.success(), "{output:?}");
        let text = stdout(&output);
        let end = match status {
            Status::Won(Player::X) => "X wins: three boards in a row.",
            Status::Won(Player::O) => "O wins: three boards in a row.",
            _ => "Draw: every board is closed and nobody has three in a row.",
        };
        assert!(text.contains(end), "seed {seed}: {text}");
        assert_eq!(text.matches(" played ").count(), moves.len(), "seed {seed}");
        assert!(!text.contains("choose another"), "{text}");
    }
}

#[test]
fn play_refuses_bad_moves_with_the_rule_and_undoes() {
    let input = "4:4\n0:0\n9\n4\n1\nu\nu\nq\n";
    let output = ttt(
        &["play", "--game", "ultimate", "--x", "human", "--o", "human"],
        input,
    );
    assert!(output.status.success(), "{output:?}");
    let text = stdout(&output);
    // O is sent to board 4: 0:0 is in another board, 9 is no cell, 4 is taken.
    assert!(
        text.contains(
            "move 0:0 is in board 0, but the last move sends the mover to board 4; choose another"
        ),
        "{text}"
    );
    assert!(text.contains("\"9\": cells are 0 to 8"), "{text}");
    assert!(
        text.contains("move 4:4: the cell is occupied by X; choose another"),
        "{text}"
    );
    assert!(text.contains("O played 4:1."), "{text}");
    // Two people: an undo takes back the mover's last move and the answer to it, here the
    // whole game; then nothing is left to undo.
    assert_eq!(
        text.matches("ongoing, X to move in any open board").count(),
        2,
        "{text}"
    );
    assert!(text.contains("Game left unfinished. Bye."), "{text}");
}

#[test]
fn the_computer_plays_and_the_seed_replays_it() {
    let args = [
        "play",
        "--game",
        "ultimate",
        "--x",
        "mcts:300",
        "--o",
        "heuristic",
        "--seed",
        "5",
    ];
    let first = ttt(&args, "");
    assert!(first.status.success(), "{first:?}");
    let text = stdout(&first);
    assert!(text.contains("X is the computer (mcts:300), O is the computer (heuristic)."));
    assert!(text.contains("(300 playouts)"), "{text}");
    assert!(
        text.contains("three boards in a row") || text.contains("Draw"),
        "{text}"
    );
    assert_eq!(stdout(&ttt(&args, "")), text);
    // A person against a level: the greeting names it, the level answers.
    let output = ttt(
        &[
            "play", "--game", "ultimate", "--level", "easy", "--seed", "1",
        ],
        "4:4\nq\n",
    );
    let text = stdout(&output);
    assert!(
        text.contains("You are X, the computer (easy: random) is O."),
        "{text}"
    );
    assert!(text.contains("The computer (random) played 4:"), "{text}");
}

#[test]
fn players_only_one_game_has_are_refused_elsewhere() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["play", "--game", "ultimate", "--level", "perfect"],
            "perfect does not play ultimate: the game is unsolved",
        ),
        (
            &[
                "match",
                "--game",
                "ultimate",
                "--x",
                "alphabeta",
                "--o",
                "random",
            ],
            "alphabeta does not play ultimate",
        ),
        (
            &["match", "--x", "mcts:10", "--o", "random"],
            "mcts:10 plays only ultimate tic-tac-toe: give --game ultimate",
        ),
        (
            &["play", "--x", "mcts:10"],
            "mcts:10 plays only ultimate tic-tac-toe: give --game ultimate",
        ),
        (
            &["play", "--threads", "2", "--o", "random"],
            "--threads is for --game ultimate",
        ),
    ];
    for (args, message) in cases {
        let output = ttt(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    let output = ttt(
        &[
            "match", "--game", "ultimate", "--x", "mcts:0", "--o", "random",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn match_and_selfplay_answer_in_the_vocabulary_of_3x3() {
    let args = [
        "match", "--game", "ultimate", "--x", "mcts", "--o", "random", "--games", "2", "--seed",
        "4", "--json",
    ];
    let value = json(&ttt(&args, ""));
    assert_eq!(value["game"], "ultimate");
    // `mcts` is named as it ran.
    assert_eq!(value["x"], "mcts:10000");
    assert_eq!(value["games"], 2);
    assert_eq!(value["x_wins"], 2);
    let output = ttt(
        &[
            "selfplay",
            "--game",
            "ultimate",
            "--threads",
            "1",
            "--games",
            "1000",
            "--seed",
            "3",
            "--json",
        ],
        "",
    );
    let value = json(&output);
    assert_eq!(value["game"], "ultimate");
    assert_eq!(value["games"], 1000);
    let tally = tictactoe::ultimate::agents::random_games_chunked(1000, 3, 1000, &mut |_| {});
    assert_eq!(value["moves"], tally.moves);
    assert_eq!(value["x_wins"], tally.tally.x_wins);
}

#[test]
fn ctrl_c_ends_play_while_the_computer_thinks() {
    // A search of a trillion playouts with a think time of an hour: only the signal ends it.
    let status = common::interrupted(&[
        "play",
        "--game",
        "ultimate",
        "--x",
        "mcts:1000000000000",
        "--o",
        "human",
        "--think-time",
        "3600",
    ]);
    assert_eq!(status.code(), Some(130), "{status:?}");
}
