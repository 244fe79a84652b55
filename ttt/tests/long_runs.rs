//! Long runs as a user sees them: progress on a terminal only (never in piped or `--json`
//! output), node budgets on every game including Connect Four, memory estimated before it is
//! spent (`perft` and `enumerate --game`), and the one input vocabulary of `analyze` and
//! `solve` (boards, move strings, the empty position).

mod common;

use std::process::Command;

use serde_json::Value;

use common::{json_lines, stderr, stdout, ttt};

/// `ttt args...` run under a pseudo-terminal by `script` (util-linux, on every Linux this
/// project's CI runs): everything the terminal received, standard error included.
#[cfg(target_os = "linux")]
fn on_terminal(args: &[&str]) -> String {
    let ttt = env!("CARGO_BIN_EXE_ttt");
    let command = std::iter::once(ttt)
        .chain(args.iter().copied())
        .map(|word| format!("'{word}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let typescript = tempfile::NamedTempFile::new().expect("a temporary file");
    let status = Command::new("script")
        .args(["-qec", &command])
        .arg(typescript.path())
        .env_remove("NO_COLOR")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .status()
        .expect("script(1) from util-linux runs");
    assert!(status.success(), "{command}: {status}");
    String::from_utf8_lossy(&std::fs::read(typescript.path()).expect("the typescript")).into_owned()
}

#[cfg(target_os = "linux")]
#[test]
fn long_runs_show_progress_on_a_terminal_and_never_in_json() {
    // Each runs for several seconds: the bar appears after one.
    let perft = on_terminal(&["perft", "--game", "connect-four", "11"]);
    assert!(perft.contains("of ply 10 expanded"), "{perft}");
    assert!(perft.contains("11 1844590828"), "{perft}");
    let solve = on_terminal(&[
        "solve",
        "--game",
        "connect-four",
        "--max-nodes",
        "30000000",
        "6411771644",
    ]);
    assert!(solve.contains("searching: "), "{solve}");
    assert!(solve.contains(" nodes"), "{solve}");
    let selfplay = on_terminal(&["selfplay", "--threads", "1", "--games", "60000000"]);
    assert!(selfplay.contains("games ("), "{selfplay}");
    // With --json the terminal gets the JSON alone.
    let json = on_terminal(&["perft", "--game", "connect-four", "11", "--json"]);
    assert!(!json.contains("expanded"), "{json}");
    assert!(json.contains("1844590828]}"), "{json}");
}

#[test]
fn progress_never_reaches_a_pipe() {
    for args in [
        &["perft", "--game", "connect-four", "10"][..],
        &["enumerate", "--game", "4x4"],
        &["selfplay", "--threads", "1", "--games", "30000000"],
        &[
            "match", "--game", "4x4", "--x", "perfect", "--o", "random", "--games", "300",
        ],
        &[
            "solve",
            "--game",
            "connect-four",
            "--max-nodes",
            "20000000",
            "6411771644",
        ],
    ] {
        let output = ttt(args, "");
        assert!(output.status.success(), "{args:?}: {}", stderr(&output));
        assert_eq!(stderr(&output), "", "{args:?}");
        assert!(!stdout(&output).contains('\r'), "{args:?}");
    }
}

#[test]
fn max_nodes_bounds_connect_four_and_its_default_does_not() {
    let output = ttt(
        &[
            "solve",
            "--game",
            "connect-four",
            "--max-nodes",
            "1000",
            "--json",
            "6411771644",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let answer = &json_lines(&output)[0];
    assert_eq!(answer["value"], Value::Null, "{answer}");
    assert_eq!(
        answer["unsolved"],
        "not solved within 1000 nodes (--max-nodes)"
    );
    let nodes = answer["nodes"].as_u64().expect("nodes");
    assert!((1000..1100).contains(&nodes), "{nodes}");
    // --weak too.
    let output = ttt(
        &[
            "solve",
            "--game",
            "connect-four",
            "--weak",
            "--max-nodes",
            "1000",
            "6411771644",
        ],
        "",
    );
    assert_eq!(
        stdout(&output),
        "6411771644: not solved within 1000 nodes (--max-nodes)\n"
    );
    // Without --max-nodes Connect Four is solved: the empty board in 9 nodes with the book.
    let output = ttt(&["solve", "--game", "connect-four", "--json", ""], "");
    let answer = &json_lines(&output)[0];
    assert_eq!(answer["value"], "x-wins", "{answer}");
    assert_eq!(answer["nodes"], 9, "{answer}");
}

#[test]
fn perft_and_enumerate_refuse_up_front_what_would_not_fit() {
    // Gomoku's ply 4 holds up to 623,775,600 positions: refused at once, whatever the machine.
    let output = ttt(
        &["perft", "--game", "gomoku", "4", "--max-memory", "8G"],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    let error = stderr(&output);
    assert!(
        error.starts_with(
            "ttt: error: gomoku: ply 4 would hold up to 623,775,600 positions, about 122.1 GiB \
by the growth model"
        ),
        "{error}"
    );
    assert!(
        error.contains("past the memory limit of 8.0 GiB (--max-memory); plies 0 to 3 fit"),
        "{error}"
    );
    // The default limit is a share of this machine: ply 4 passes it too.
    let output = ttt(&["perft", "--game", "gomoku", "4"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output)
            .contains("(the default: half the available memory; raise it with --max-memory)"),
        "{}",
        stderr(&output)
    );
    // What fits runs: Connect Four's 9 plies need about 37 MiB.
    let output = ttt(
        &[
            "perft",
            "--game",
            "connect-four",
            "9",
            "--max-memory",
            "100M",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).ends_with("9 39394572\n"));
    let output = ttt(
        &[
            "perft",
            "--game",
            "connect-four",
            "10",
            "--max-memory",
            "100M",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("plies 0 to 9 fit"),
        "{}",
        stderr(&output)
    );
    let output = ttt(
        &[
            "enumerate",
            "--game",
            "connect-four",
            "--max-plies",
            "10",
            "--max-memory",
            "100M",
            "--json",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output), "");
    assert!(
        stderr(&output).contains("ply 10 would hold up to"),
        "{}",
        stderr(&output)
    );
    // Sizes are checked like every other value.
    for bad in ["lots", "0", "5X"] {
        let output = ttt(&["perft", "--game", "gomoku", "2", "--max-memory", bad], "");
        assert_eq!(output.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&output).contains("is not a size"),
            "{bad}: {}",
            stderr(&output)
        );
    }
    // --max-memory belongs to the family's counts.
    let output = ttt(&["perft", "9", "--max-memory", "1G"], "");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn analyze_and_solve_take_the_same_positions() {
    let c4 = "connect-four";
    let board = "......./......./......./......./...OO../...XX..";
    // Column digits, columns with commas and the board: one position.
    let forms = ["4455", "4,4,5,5", board];
    let analyze = ttt(
        &[&["analyze", "--game", c4, "--json"][..], &forms].concat(),
        "",
    );
    let solve = ttt(
        &[&["solve", "--game", c4, "--json"][..], &forms].concat(),
        "",
    );
    for output in [&analyze, &solve] {
        assert!(output.status.success(), "{}", stderr(output));
        let lines = json_lines(output);
        assert_eq!(lines.len(), 3);
        for line in &lines {
            assert_eq!(line["board"], board, "{line}");
        }
    }
    // The empty position: an empty argument, or `-` (on a line of standard input too).
    let empty = "......./......./......./......./......./.......";
    let output = ttt(&["solve", "--game", c4, ""], "");
    assert_eq!(
        stdout(&output),
        "\"\": x-wins, distance 41, score 1, best moves 4\n"
    );
    let output = ttt(&["solve", "--game", c4, "--json"], "-\n4455\n");
    let lines = json_lines(&output);
    assert_eq!(lines[0]["board"], empty);
    assert_eq!(lines[0]["input"], "-");
    assert_eq!(lines[1]["input"], "4455");
    let output = ttt(&["analyze", "--game", "gomoku", "--json"], "-\nh8,h9,i8\n");
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 2, "{}", stderr(&output));
    assert_eq!(lines[0]["status"], "ongoing");
    assert_eq!(lines[1]["to_move"], "O");
    // A gravity board wider than 9 columns, in columns with commas.
    let output = ttt(
        &["analyze", "--game", "5,12,4,gravity", "--json", "10,3,12"],
        "",
    );
    assert_eq!(
        json_lines(&output)[0]["board"],
        "............/............/............/............/..O......X.X"
    );
    let output = ttt(&["analyze", "--game", "5,12,4,gravity", "130"], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("move 3 is column 0: the game has columns 1 to 12 (digits are one column each: separate columns by commas, e.g. 10,3,12)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn errors_name_the_character_of_the_form_meant() {
    for (command, input, error) in [
        (
            "solve",
            "4x53",
            "bad character 'x' at index 1: expected column digits 1 to 7",
        ),
        (
            "analyze",
            "4x53",
            "bad character 'x' at index 1: expected column digits 1 to 7",
        ),
        (
            "analyze",
            "XX4",
            "bad character '4' at index 2: expected X, O, . or / between rows",
        ),
        (
            "solve",
            "4,4;5",
            "bad character ';' at index 3: expected columns 1 to 7 separated by commas",
        ),
    ] {
        let output = ttt(&[command, "--game", "connect-four", "--json", input], "");
        assert_eq!(output.status.code(), Some(1), "{command} {input}");
        assert_eq!(json_lines(&output)[0]["error"], error, "{command} {input}");
    }
}
