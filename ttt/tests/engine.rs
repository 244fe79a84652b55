//! End-to-end tests of the engine subcommands: play, perft, match, game, selfplay.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::{json_lines, stderr, stdout, ttt};

#[test]
fn scripted_play_reprompts_on_bad_moves_and_ends_at_end_of_input() {
    let output = ttt(
        &["play", "--x", "human", "--o", "perfect", "--seed", "1"],
        "0\nzz\n0\n9\n8\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("not a cell: \"zz\"; type a number from 0 to 8 (h for help)"),
        "{text}"
    );
    assert!(
        text.contains("cell 0 is occupied by X; choose an empty cell"),
        "{text}"
    );
    assert!(text.contains("no such cell 9: cells are 0 to 8"), "{text}");
    assert!(
        text.contains("The computer (perfect) played 4: best move; a draw with best play"),
        "{text}"
    );
    assert!(
        text.contains("end of input: game left unfinished"),
        "{text}"
    );
    assert!(!text.contains('\x1b'), "no colour when stdout is a pipe");
    // The board shows cell numbers on empty cells.
    assert!(text.contains("    0 | 1 | 2\n"), "{text}");
}

#[test]
fn a_human_who_blunders_loses_to_the_solver() {
    // X tries the cells in order, re-prompted when one is taken; 3 is the losing mistake.
    let moves = "1\n2\n3\n5\n6\n7\n8\n0\n";
    let output = ttt(&["play", "--o", "perfect", "--seed", "4"], moves);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("You played 3: mistake; the computer wins in 3 moves with best play"),
        "{text}"
    );
    assert!(
        text.contains("You lose: the computer has three in a row."),
        "{text}"
    );
    let output = ttt(
        &["play", "--x", "perfect", "--o", "perfect", "--seed", "4"],
        "",
    );
    assert!(
        stdout(&output)
            .trim_end()
            .ends_with("Draw: nobody has three in a row.")
    );
}

#[test]
fn human_against_human_announces_the_winner() {
    let output = ttt(&["play", "--o", "human"], "0\n3\n1\n4\n2\n");
    let text = stdout(&output);
    assert!(output.status.success());
    assert!(text.contains("X wins."), "{text}");
    assert!(text.contains("X played 2: best move; X won"), "{text}");
    // The winning line is marked.
    assert!(text.contains("   [X]|[X]|[X]\n"), "{text}");
}

#[test]
fn bad_players_are_rejected() {
    let output = ttt(&["play", "--x", "robot"], "");
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("unknown player"),
        "{}",
        stderr(&output)
    );
    let output = ttt(&["match", "--x", "human", "--o", "perfect"], "");
    assert!(!output.status.success());
}

#[test]
fn perft_prints_each_depth_and_rejects_deep_ones() {
    let output = ttt(&["perft", "9"], "");
    assert!(output.status.success());
    let counts: Vec<String> = stdout(&output).lines().map(str::to_owned).collect();
    assert_eq!(counts.len(), 10);
    assert_eq!(counts[0], "0 1");
    assert_eq!(counts[5], "5 15120");
    assert_eq!(counts[9], "9 127872");
    let output = ttt(&["perft", "10"], "");
    // A usage error, as clap reports them (status 2).
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("depth 10 is too deep"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn perfect_players_always_draw_and_never_lose_to_random() {
    let output = ttt(
        &[
            "match", "--x", "perfect", "--o", "perfect", "--games", "200", "--seed", "1", "--json",
        ],
        "",
    );
    let json = &json_lines(&output)[0];
    assert_eq!(json["draws"], 200);
    assert_eq!(json["x_wins"], 0);
    assert_eq!(json["o_wins"], 0);
    for (x, o, loser) in [
        ("perfect", "random", "o_wins"),
        ("random", "perfect", "x_wins"),
    ] {
        let args = [
            "match", "--x", x, "--o", o, "--games", "1000", "--seed", "7", "--json",
        ];
        let json = &json_lines(&ttt(&args, ""))[0];
        assert_eq!(json[loser], 0, "{json}");
        let wins = if loser == "o_wins" {
            "x_wins"
        } else {
            "o_wins"
        };
        assert!(json[wins].as_u64().unwrap_or(0) > 500, "{json}");
    }
}

#[test]
fn seeded_matches_repeat() {
    let args = [
        "match",
        "--x",
        "eps:0.5",
        "--o",
        "heuristic",
        "--games",
        "500",
        "--seed",
        "9",
        "--json",
    ];
    assert_eq!(stdout(&ttt(&args, "")), stdout(&ttt(&args, "")));
}

#[test]
fn game_codes_round_trip_and_errors_name_the_move() {
    let output = ttt(
        &["game", "encode", "--json", "40", "03142", "", "404", "4a"],
        "",
    );
    assert!(!output.status.success());
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["moves"], "40");
    assert!(lines[0]["game_code"].is_null());
    assert_eq!(lines[2]["prefix_code"], 0);
    let code = lines[1]["game_code"]
        .as_u64()
        .expect("a complete game has a code");
    let prefix = lines[1]["prefix_code"]
        .as_u64()
        .expect("every game has a prefix code");
    // In --json mode a bad input is answered on stdout as {"input", "error"}, like analyze.
    assert_eq!(lines[3]["input"], "404");
    assert_eq!(
        lines[3]["error"],
        "\"404\" is not a game: move 3 repeats cell 4"
    );
    assert_eq!(lines[4]["input"], "4a");
    assert_eq!(
        lines[4]["error"],
        "\"4a\" is not a game: move 2 ('a') is not a cell: expected a digit 0 to 8"
    );
    assert_eq!(stderr(&output), "ttt: error: 2 of 5 inputs rejected\n");

    let output = ttt(&["game", "decode", "--json", &code.to_string()], "");
    assert_eq!(json_lines(&output)[0]["moves"], "03142");
    let output = ttt(
        &["game", "decode", "--prefix", "--json"],
        &format!("{prefix}\n0\n"),
    );
    let lines = json_lines(&output);
    assert_eq!(lines[0]["moves"], "03142");
    assert_eq!(lines[1]["moves"], "");

    let output = ttt(&["game", "decode", "255168", "255167"], "");
    assert!(!output.status.success());
    assert!(stderr(&output).contains("game code 255168 is invalid: out of range"));
    assert!(stdout(&output).contains("255167"));
    let output = ttt(&["game", "decode", "-1"], "");
    assert!(
        stderr(&output).contains("argument 1: \"-1\" is not a code"),
        "{}",
        stderr(&output)
    );
    let output = ttt(&["game", "decode", "--prefix", "549946"], "");
    assert!(stderr(&output).contains("prefix code 549946 is invalid"));
}

#[test]
fn selfplay_reports_throughput_as_json() {
    let output = ttt(
        &["selfplay", "--threads", "2", "--games", "20000", "--json"],
        "",
    );
    assert!(output.status.success());
    let lines = json_lines(&output);
    let last = lines.last().expect("a JSON line");
    for key in [
        "threads",
        "games",
        "moves",
        "seconds",
        "moves_per_s",
        "games_per_s",
    ] {
        assert!(last.get(key).is_some(), "{key} missing from {last}");
    }
    assert_eq!(last["threads"], 2);
    assert_eq!(last["games"], 20_000);
    let moves = last["moves"].as_u64().unwrap_or(0);
    assert!((5 * 20_000..=9 * 20_000).contains(&moves));
}

#[test]
fn enumerate_counts_games() {
    let output = ttt(&["enumerate", "--json"], "");
    let json = &json_lines(&output)[0];
    assert_eq!(json["games"], 255_168);
    // The same game-tally keys as `match` and `selfplay`.
    assert_eq!(json["x_wins"], 131_184);
    assert_eq!(json["o_wins"], 77_904);
    assert_eq!(json["draws"], 46_080);
    assert_eq!(json["game_classes"], 26_830);
    assert_eq!(json["tree_nodes"], 549_946);
    assert_eq!(json["perft"][9], 127_872);
}

/// Asserts that `text` holds every one of `parts`.
fn says(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "{part:?} missing in:\n{text}");
    }
}

#[test]
fn play_speaks_to_a_person() {
    // Help, a bad word, undo, quit: a scripted session at the default level.
    let output = ttt(&["play", "--seed", "4"], "h\nfoo\n1\nu\n4\nquit\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.starts_with("Tic-tac-toe: three in a row wins.\n"));
    says(
        &text,
        &[
            "You are X, the computer (perfect) is O.",
            "u to undo, h for help, q to quit",
            "Seed 4 (ttt play --x human --o perfect --seed 4 replays the computer's choices).",
            "  u, undo   take back your last move",
            "not a cell: \"foo\"",
            // After `u` the board is empty again, then 4 is played.
            "Your move (X), cell: u\n\n    0 | 1 | 2\n",
            "You played 4: best move",
        ],
    );
    assert!(text.trim_end().ends_with("Game left unfinished. Bye."));
}

#[test]
fn play_names_the_outcome_marks_the_line_and_offers_another_game() {
    // Against the easy level (random moves) with seed 1, X wins on the diagonal, then a second
    // game is accepted and quit.
    let output = ttt(
        &["play", "--level", "easy", "--seed", "1"],
        "4\n0\n8\ny\nq\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    says(
        &text,
        &[
            "the computer (easy) is O",
            "You win!",
            "   [X]| 1 | 2\n",
            "Play again? (y/n): y",
        ],
    );
    let empty = "    0 | 1 | 2\n   ---+---+---\n    3 | 4 | 5\n   ---+---+---\n    6 | 7 | 8\n";
    assert_eq!(
        text.matches(empty).count(),
        2,
        "a second empty board: {text}"
    );
    // The same seed replays the same game.
    let again = ttt(
        &["play", "--level", "easy", "--seed", "1"],
        "4\n0\n8\ny\nq\n",
    );
    assert_eq!(stdout(&again), text);
    // Levels map to the engine players; a person can also move second.
    let output = ttt(
        &["play", "--o", "human", "--level", "hard", "--seed", "2"],
        "q\n",
    );
    let text = stdout(&output);
    assert!(
        text.contains("You are O, the computer (hard) is X."),
        "{text}"
    );
    assert!(text.contains("The computer (hard) played"), "{text}");
}

#[test]
fn play_counts_in_moves_and_survives_odd_bytes() {
    // X plays 3, a mistake: O wins in 5 plies, which is 3 of O's moves.
    let output = ttt(&["play", "--seed", "4"], "1\n3\n");
    let text = stdout(&output);
    assert!(
        text.contains("You played 3: mistake; the computer wins in 3 moves with best play"),
        "{text}"
    );
    assert!(!text.contains("plies"), "{text}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
        .args(["play", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ttt runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(b"\xff\xfe\n4\n")
        .expect("written");
    let output = child.wait_with_output().expect("ttt finishes");
    assert!(output.status.success());
    assert!(
        stdout(&output).contains("You played 4"),
        "a bad byte does not end the game"
    );
}

/// Issue 25: `u` with nothing of the person's to undo said nothing (and, with the computer
/// playing X, took back its move and replayed it); now it says so and the game stays.
#[test]
fn undo_with_nothing_to_undo_says_so() {
    let output = ttt(
        &["play", "--x", "human", "--o", "perfect", "--seed", "1"],
        "u\n0\nu\nq\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert_eq!(
        text.matches("nothing to undo: no move of yours yet")
            .count(),
        1,
        "{text}"
    );
    // The second `u` took back X's 0 and the computer's answer: the empty board again.
    assert!(text.contains("You played 0"), "{text}");
    let output = ttt(
        &["play", "--x", "perfect", "--o", "human", "--seed", "1"],
        "u\nq\n",
    );
    let text = stdout(&output);
    assert!(
        text.contains("nothing to undo: no move of yours yet"),
        "{text}"
    );
    assert_eq!(
        text.matches("played").count(),
        1,
        "the computer's move stays: {text}"
    );
}

/// Issue 25: "Play again? (y/n)" took any answer but `y` for no; it asks again instead.
#[test]
fn play_again_asks_until_yes_or_no() {
    let output = ttt(&["play", "--o", "human"], "0\n3\n1\n4\n2\nmaybe\n\nn\n");
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("not an answer: \"maybe\"; type y or n"),
        "{text}"
    );
    assert_eq!(text.matches("Play again? (y/n)").count(), 3, "{text}");
    assert!(text.trim_end().ends_with("Thanks for playing."), "{text}");
    // `y` starts another game; the end of the input ends it.
    let output = ttt(&["play", "--o", "human"], "0\n3\n1\n4\n2\ny\n");
    assert_eq!(stdout(&output).matches("X wins.").count(), 1);
    assert!(stdout(&output).contains("end of input: game left unfinished"));
}
