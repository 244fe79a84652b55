//! `ttt play` behaves the same on every game (issue 36): `perfect` is exact or refused, the
//! replay hint names the players, levels and seed (and is absent without an engine), "Play
//! again?" asks again, undo with nothing to undo says so, one level vocabulary, a verdict per
//! move with --game, the last move marked, nothing on standard error or in colour when
//! piped, and Ctrl-C ending every game with status 130.

mod common;

use common::{stderr, stdout, ttt};

/// Every line of `needles` in `text`, in order.
fn says(text: &str, needles: &[&str]) {
    let mut rest = text;
    for needle in needles {
        match rest.find(needle) {
            Some(at) => rest = &rest[at + needle.len()..],
            None => panic!("{needle:?} missing (in order) in:\n{text}"),
        }
    }
}

#[test]
fn perfect_x_wins_the_connect_four_game_of_the_issue() {
    // The replies that beat the old budgeted player: perfect X now wins (the person's moves
    // that no longer fit are rejected or answered, and the extra lines answer "Play again?").
    let moves = "4\n4\n1\n5\n5\n5\n1\n1\n1\n2\n2\n3\n3\n3\n5\n7\n7\n2\nn\n";
    let output = ttt(
        &[
            "play",
            "--game",
            "connect-four",
            "--x",
            "perfect",
            "--o",
            "human",
            "--seed",
            "3",
        ],
        moves,
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(!text.contains("You win!"), "{text}");
    assert!(
        text.contains("You lose: the computer has 4 in a row."),
        "{text}"
    );
    assert!(
        text.contains(
            "The computer (perfect) played 4: keeps the win; the computer wins with best play"
        ),
        "{text}"
    );
}

#[test]
fn perfect_is_refused_where_it_has_no_time_bound() {
    for game in ["gomoku", "19,19,5", "5,5,4"] {
        let output = ttt(&["play", "--game", game, "--level", "perfect"], "");
        assert_eq!(output.status.code(), Some(2), "{game}");
        let error = stderr(&output);
        assert!(
            error.contains(&format!("perfect does not play {game}")),
            "{error}"
        );
        assert!(error.contains("use alphabeta"), "{error}");
    }
    let output = ttt(
        &[
            "match", "--game", "gomoku", "--x", "perfect", "--o", "random",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    // Where the solver finishes, perfect plays: 4x4 against itself is a draw.
    let output = ttt(
        &[
            "play", "--game", "4x4", "--x", "perfect", "--o", "perfect", "--seed", "1",
        ],
        "",
    );
    assert!(
        stdout(&output).contains("Draw: nobody has 4 in a row."),
        "{output:?}"
    );
}

#[test]
fn the_replay_hint_names_players_levels_and_seed_and_replays_the_game() {
    let args = ["play", "--game", "4x4", "--level", "hard", "--seed", "9"];
    let output = ttt(&args, "a1\nb2\nq\n");
    let text = stdout(&output);
    let hint =
        "Seed 9 (ttt play --game 4x4 --x human --o hard --seed 9 replays the computer's choices).";
    assert!(text.contains(hint), "{text}");
    assert!(
        text.contains("You are X, the computer (hard: alphabeta) is O."),
        "{text}"
    );
    // The hint's command gives the same game.
    let replay = ttt(
        &[
            "play", "--game", "4x4", "--x", "human", "--o", "hard", "--seed", "9",
        ],
        "a1\nb2\nq\n",
    );
    assert_eq!(stdout(&replay), text);
    // 3x3 names the players too; two people get no hint.
    let text = stdout(&ttt(&["play", "--level", "easy", "--seed", "2"], "q\n"));
    assert!(
        text.contains("Seed 2 (ttt play --x human --o easy --seed 2 replays"),
        "{text}"
    );
    for game in [None, Some("connect-four")] {
        let mut args = vec!["play", "--x", "human", "--o", "human", "--seed", "2"];
        if let Some(game) = game {
            args.extend(["--game", game]);
        }
        let text = stdout(&ttt(&args, "q\n"));
        assert!(!text.contains("Seed"), "{text}");
        assert!(!text.contains("replays"), "{text}");
    }
}

#[test]
fn play_again_asks_again_and_undo_says_when_there_is_nothing() {
    // Two people on 3,3,3 through the family: X wins on the top row.
    let script = "u\na3\na2\nb3\nb2\nc3\nmaybe\nn\n";
    let output = ttt(
        &["play", "--game", "3,3,3", "--x", "human", "--o", "human"],
        script,
    );
    let text = stdout(&output);
    says(
        &text,
        &[
            "X to move, cell: u\nnothing to undo: no move of yours yet",
            "X wins.",
            "Play again? (y/n): maybe\nnot an answer: \"maybe\"; type y or n",
            "Play again? (y/n): n\nThanks for playing.",
        ],
    );
    // Against the computer, the same.
    let output = ttt(&["play", "--game", "connect-four", "--seed", "1"], "u\nq\n");
    assert!(
        stdout(&output).contains("nothing to undo: no move of yours yet"),
        "{output:?}"
    );
}

#[test]
fn one_level_vocabulary_on_every_game() {
    // The 3x3 levels play every game, as documented players.
    for (level, player) in [
        ("easy", "random"),
        ("medium", "heuristic"),
        ("hard", "alphabeta"),
        ("perfect", "perfect"),
    ] {
        let output = ttt(
            &["play", "--game", "4x4", "--level", level, "--seed", "1"],
            "q\n",
        );
        let text = stdout(&output);
        assert!(output.status.success(), "{level}: {text}");
        let named = if level == player {
            format!("the computer ({player})")
        } else {
            format!("the computer ({level}: {player})")
        };
        assert!(text.contains(&named), "{level}: {text}");
    }
    // The family's players play tic-tac-toe without --game, through the family's engine.
    for player in ["mcts", "alphabeta"] {
        let output = ttt(&["play", "--x", player, "--o", "random", "--seed", "1"], "");
        let text = stdout(&output);
        assert!(output.status.success(), "{player}: {text}");
        assert!(
            text.starts_with("tic-tac-toe: 3 rows, 3 columns, 3 in a row wins."),
            "{text}"
        );
        assert!(
            text.contains(&format!("X is the computer ({player})")),
            "{text}"
        );
    }
    let output = ttt(&["play", "--level", "grandmaster"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("expected easy, medium, hard or perfect"));
}

#[test]
fn family_moves_get_a_verdict_and_the_last_move_is_marked() {
    // 4,4,3 is a win for the first player: b3 keeps it.
    let output = ttt(
        &[
            "play", "--game", "4,4,3", "--x", "human", "--o", "perfect", "--seed", "1",
        ],
        "b3\nq\n",
    );
    let text = stdout(&output);
    says(
        &text,
        &[
            "You played b3: keeps the win; you can win with best play",
            " 3  . (X) .  .  3",
            "The computer (perfect) played",
            ": the game was already lost; you can win with best play",
        ],
    );
    // Tic-tac-toe between two people: an edge reply to the centre throws away the draw.
    let output = ttt(
        &[
            "play",
            "--game",
            "tic-tac-toe",
            "--x",
            "human",
            "--o",
            "human",
        ],
        "b2\nb3\nq\n",
    );
    says(
        &stdout(&output),
        &[
            "X played b2: keeps the draw; a draw with best play",
            "O played b3: throws away the draw; X wins with best play",
        ],
    );
    // Gomoku is beyond the solver within the think time: no verdict, the game goes on.
    let output = ttt(
        &[
            "play",
            "--game",
            "gomoku",
            "--seed",
            "1",
            "--think-time",
            "0.5",
        ],
        "h8\nq\n",
    );
    assert!(stdout(&output).contains("You played h8.\n"), "{output:?}");
}

#[test]
fn piped_play_has_no_colour_and_nothing_on_standard_error() {
    // No terminal: no spinner on standard error, no escape codes, with or without NO_COLOR.
    for game in [None, Some("connect-four")] {
        let mut args = vec!["play", "--x", "alphabeta", "--o", "mcts", "--seed", "3"];
        if let Some(game) = game {
            args.extend(["--game", game]);
        }
        args.extend(["--think-time", "0.2"]);
        let output = ttt(&args, "");
        assert!(output.status.success(), "{output:?}");
        assert_eq!(stderr(&output), "", "{game:?}");
        assert!(!stdout(&output).contains('\x1b'), "{game:?}");
    }
}

#[test]
fn think_time_is_checked_and_documented() {
    for bad in ["0", "-1", "soon", "1e9"] {
        let output = ttt(&["play", &format!("--think-time={bad}")], "");
        assert_eq!(output.status.code(), Some(2), "{bad}");
        assert!(stderr(&output).contains("not a think time"), "{bad}");
    }
    let help = stdout(&ttt(&["play", "--help"], ""));
    for needle in [
        "--think-time <SECONDS>",
        "stopped at --think-time",
        "refused elsewhere (gomoku)",
        "easy = random, medium = heuristic, hard = alphabeta, perfect = perfect",
    ] {
        assert!(help.contains(needle), "{needle:?} missing in:\n{help}");
    }
    let top = stdout(&ttt(&["--help"], ""));
    assert!(!top.contains("Play tic-tac-toe"), "{top}");
    assert!(
        top.contains("any game\n") || top.contains("k-in-a-row"),
        "{top}"
    );
}

#[test]
fn ctrl_c_ends_every_game_with_status_130() {
    // Each waits for the person's first move: one play loop, one Ctrl-C for every game.
    for game in [
        &[][..],
        &["--game", "connect-four"],
        &["--game", "ultimate"],
    ] {
        let args: Vec<&str> = ["play"].iter().chain(game).copied().collect();
        let status = common::interrupted(&args);
        assert_eq!(status.code(), Some(130), "{args:?}: {status:?}");
    }
}
