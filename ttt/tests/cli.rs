//! The `ttt` binary as users run it: arguments and standard input in, exact output and exit
//! status out. JSON is parsed with serde_json; key order is checked on the raw text.

mod common;

use std::io::Write;
use std::process::{Command, ExitStatus, Stdio};

use common::{finish, spawn};

use serde_json::{Value, json};
use tictactoe::encoding::{Encoding, Oriented, Rank};
use tictactoe::{Board, Position, Symmetry};

/// What a run of `ttt` printed, and how it ended.
struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|line| serde_json::from_str(line).expect("every output line is JSON"))
            .collect()
    }

    fn succeeded(&self) -> bool {
        self.status.success()
    }

    /// Exit code 1: inputs rejected (2 is clap's usage error).
    fn rejected_inputs(&self) -> bool {
        self.status.code() == Some(1)
    }
}

/// Runs `ttt args...` with `stdin` fed from a thread, so large inputs cannot deadlock.
fn ttt(args: &[&str], stdin: &str) -> Run {
    let output = ttt_in(std::path::Path::new("."), args, stdin.as_bytes());
    Run {
        status: output.status,
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

fn all_grids() -> Vec<String> {
    Board::all().map(|board| board.to_string()).collect()
}

fn board(text: &str) -> Board {
    text.parse().unwrap()
}

// ---------------------------------------------------------------- enumerate

#[test]
fn enumerate_json_has_every_count_in_order() {
    let run = ttt(&["enumerate", "--json"], "");
    assert!(run.succeeded());
    assert_eq!(
        run.stdout,
        concat!(
            r#"{"grids":19683,"count_valid":6046,"reachable":5478,"ongoing":4520,"#,
            r#""x_won":626,"o_won":316,"draw":16,"classes":765,"classes_finished":138,"#,
            r#""per_marks":[1,9,72,252,756,1260,1520,1140,390,78],"#,
            r#""classes_per_marks":[1,3,12,38,108,174,204,153,57,15],"#,
            r#""games":255168,"x_wins":131184,"o_wins":77904,"draws":46080,"#,
            r#""game_classes":26830,"tree_nodes":549946,"#,
            r#""perft":[1,9,72,504,3024,15120,54720,148176,200448,127872]}"#,
            "\n"
        )
    );
}

#[test]
fn enumerate_table_shows_the_counts() {
    let run = ttt(&["enumerate"], "");
    assert!(run.succeeded());
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], "grids                        19683");
    assert_eq!(lines[2], "reachable positions           5478");
    assert_eq!(lines[7], "symmetry classes               765");
    assert_eq!(
        lines[9],
        "positions by marks 0..9    1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78"
    );
}

// ---------------------------------------------------------------- encode

#[test]
fn encode_json_matches_the_public_vectors() {
    let run = ttt(
        &[
            "encode",
            "--json",
            ".........",
            "X........",
            "....X....",
            "XXXXXXXXX",
            "OOOOOOOOO",
            "X.O..O.X.",
            "XXX...OOO",
        ],
        "",
    );
    assert!(run.succeeded(), "{}", run.stderr);
    let codes: Vec<(Value, Value, Value)> = run
        .json()
        .into_iter()
        .map(|r| {
            (
                r["base4"].clone(),
                r["base3"].clone(),
                r["count_rank"].clone(),
            )
        })
        .collect();
    assert_eq!(
        codes,
        [
            (json!(0), json!(0), json!(0)),
            (json!(1), json!(1), json!(1)),
            (json!(256), json!(81), json!(5)),
            (json!(87381), json!(9841), Value::Null),
            (json!(174762), json!(19682), Value::Null),
            (json!(18465), json!(2692), json!(523)),
            (json!(172053), json!(18967), json!(2749)),
        ]
    );
    // González's worked example, in the project's layout.
    let gonzalez = ttt(&["encode", "--json", ".X./OX./.O."], "").json();
    assert_eq!(
        (&gonzalez[0]["base4"], &gonzalez[0]["base3"]),
        (&json!(33156), &json!(4512))
    );
    let unreachable = &run.json()[6];
    assert_eq!(unreachable["board"], "XXX...OOO");
    for key in ["rank", "canonical", "symmetry", "oriented"] {
        assert_eq!(unreachable[key], Value::Null, "{key}");
    }
}

#[test]
fn encode_json_keys_in_order_and_ranks_from_the_library() {
    let run = ttt(&["encode", "--json", "X.O/..O/.X."], "");
    let position = Position::try_from(board("X.O..O.X.")).unwrap();
    let oriented = Oriented::from_position(position);
    let expected = format!(
        r#"{{"board":"X.O..O.X.","base4":18465,"base3":2692,"bitboards":{},"count_rank":523,"rank":{},"canonical":{},"symmetry":"{}","oriented":{}}}"#,
        (1 << 0 | 1 << 7) | (1 << 2 | 1 << 5) << 9,
        Rank::from_position(position).code(),
        oriented.class().code(),
        oriented.symmetry().name(),
        oriented.code(),
    );
    assert_eq!(run.stdout, expected + "\n");
}

#[test]
fn encode_for_people_gives_the_reason_for_each_dash() {
    let run = ttt(&["encode", "XXX...OOO", "OO......."], "");
    assert!(run.succeeded());
    // Rows longer than 100 columns are wrapped, continuation lines indented under the value.
    let unwrapped = run.stdout.replace("\n                ", " ");
    let lines: Vec<&str> = unwrapped.lines().collect();
    assert_eq!(lines[0], "XXX...OOO");
    assert_eq!(lines[1], "  base4       172053");
    assert_eq!(lines[4], "  count-rank  2749");
    let why = "- (not a reachable position: impossible board: game should have ended after the game was won)";
    assert_eq!(lines[5], format!("  rank        {why}"));
    assert_eq!(lines[6], format!("  canonical   {why}"));
    assert_eq!(lines[7], format!("  oriented    {why}"));
    assert_eq!(lines[8], "");
    assert_eq!(lines[9], "OO.......");
    assert!(lines[13].starts_with("  count-rank  - (impossible piece counts: 0 X and 2 O"));
    assert!(lines[14].ends_with("(not a reachable position: wrong turn order: O started)"));
}

#[test]
fn encode_rejects_bad_boards_and_answers_the_rest() {
    let run = ttt(
        &["encode", "--json"],
        "X.O..O.X.\nX.O..O.Z.\nX.O\n.........\n",
    );
    assert!(run.rejected_inputs());
    let out = run.json();
    assert_eq!(out.len(), 4);
    assert_eq!(out[0]["base3"], 2692);
    assert_eq!(
        out[1],
        json!({"input": "X.O..O.Z.", "line": 2, "error": "bad character 'Z' at index 7: expected X, O or . (and `/` between rows)"})
    );
    assert_eq!(
        out[2],
        json!({"input": "X.O", "line": 3, "error": "wrong length: 3 cells, expected 9 (X, O or . each, `/` allowed between rows)"})
    );
    assert_eq!(out[3]["base4"], 0);
    assert_eq!(run.stderr, "ttt: error: 2 of 4 inputs rejected\n");
}

// ---------------------------------------------------------------- decode

#[test]
fn decode_json_is_one_object_per_code() {
    let run = ttt(&["decode", "--encoding", "rank", "--json", "17", "0"], "");
    assert!(run.succeeded());
    let seventeen = Rank::try_from(17).unwrap().to_board().to_string();
    assert_eq!(
        run.stdout,
        format!(
            "{{\"encoding\":\"rank\",\"code\":17,\"board\":\"{seventeen}\"}}\n{}\n",
            r#"{"encoding":"rank","code":0,"board":"........."}"#
        )
    );
}

#[test]
fn decode_reads_hexadecimal_and_binary() {
    let run = ttt(
        &[
            "decode",
            "-e",
            "base4",
            "--json",
            "0x4821",
            "0X4821",
            "0b100100000100001",
        ],
        "",
    );
    assert!(run.succeeded());
    for record in run.json() {
        assert_eq!(record["board"], "X.O..O.X.");
        assert_eq!(record["code"], 18465);
    }
    let run = ttt(
        &[
            "decode",
            "-e",
            "bitboards",
            "--json",
            "0b000000100000000001",
        ],
        "",
    );
    assert_eq!(run.json()[0]["board"], "X.O......");
}

#[test]
fn decode_rejects_bad_codes_with_the_library_message_and_goes_on() {
    let input = "5478\nabc\n-1\n\n17\n99999999999999999999999\n0x\n";
    let run = ttt(&["decode", "--encoding", "rank", "--json"], input);
    assert!(run.rejected_inputs());
    // Error objects carry the input line (blank lines counted), and nothing else but the input.
    let error =
        |input: &str, line: u64, error: &str| json!({"input": input, "line": line, "error": error});
    let range = "out of range (codes are 0 to 5477)";
    assert_eq!(
        run.json(),
        [
            error("5478", 1, &format!("rank code 5478 is invalid: {range}")),
            error(
                "abc",
                2,
                "rank code \"abc\" is not a number: bad character 'a' at index 0 (expected decimal digits, or a 0x or 0b prefix)"
            ),
            error(
                "-1",
                3,
                &format!("rank code -1 is invalid: negative, {range}")
            ),
            json!({"encoding": "rank", "code": 17, "board": Rank::try_from(17).unwrap().to_board().to_string()}),
            error(
                "99999999999999999999999",
                6,
                &format!("rank code 99999999999999999999999 is invalid: {range}")
            ),
            error("0x", 7, "rank code \"0x\" is not a number: no digits"),
        ]
    );
    assert_eq!(run.stderr, "ttt: error: 5 of 6 inputs rejected\n");
}

#[test]
fn decode_rejects_invalid_patterns() {
    let run = ttt(&["decode", "-e", "base4", "--json", "3", "0b1100"], "");
    assert!(run.rejected_inputs());
    let errors: Vec<Value> = run.json().iter().map(|r| r["error"].clone()).collect();
    assert_eq!(
        errors,
        [
            "base4 code 3 is invalid: cell pattern 11 at cell 0",
            "base4 code 12 is invalid: cell pattern 11 at cell 1"
        ]
    );
    let run = ttt(&["decode", "-e", "bitboards", "--json", "513"], "");
    assert!(run.rejected_inputs());
    assert_eq!(
        run.json()[0]["error"],
        "bitboards code 513 is invalid: X and O both hold cell 0"
    );
    let run = ttt(&["decode", "-e", "oriented", "--json", "1"], "");
    assert!(run.rejected_inputs());
    assert_eq!(
        run.json()[0]["error"],
        "oriented code 1 is invalid: symmetry rot90 is not canonical here: identity gives the same board"
    );
    let run = ttt(&["decode", "-e", "count-rank", "--json", "6046"], "");
    assert!(run.rejected_inputs());
    assert_eq!(
        run.json()[0]["error"],
        "count-rank code 6046 is invalid: out of range (codes are 0 to 6045)"
    );
}

#[test]
fn decode_for_people_draws_the_board() {
    let run = ttt(&["decode", "--encoding", "base3", "2692"], "");
    assert!(run.succeeded());
    assert_eq!(
        run.stdout,
        "base3 2692\n   X | . | O\n  ---+---+---\n   . | . | O\n  ---+---+---\n   . | X | .\nX.O..O.X.\n\n"
    );
    let run = ttt(&["decode", "--encoding", "rank", "5478", "1"], "");
    assert!(run.rejected_inputs());
    assert!(run.stdout.starts_with("rank 1\n"));
    assert_eq!(
        run.stderr,
        "ttt: error: argument 1: rank code 5478 is invalid: out of range (codes are 0 to 5477)\n\
         ttt: error: 1 of 2 inputs rejected\n"
    );
}

#[test]
fn decode_needs_a_known_encoding() {
    let run = ttt(&["decode", "--encoding", "base5", "1"], "");
    assert_eq!(run.status.code(), Some(2));
    assert!(
        run.stderr.contains("invalid value 'base5'"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("count-rank"), "{}", run.stderr);
    let run = ttt(&["decode", "--encoding", "count_rank", "523", "--json"], "");
    assert_eq!(run.json()[0]["board"], "X.O..O.X.");
}

/// Every grid through `encode`, then every code of every encoding back through `decode`.
#[test]
fn every_encoding_round_trips_through_decode_for_every_grid() {
    let grids = all_grids();
    let encoded = ttt(&["encode", "--json"], &(grids.join("\n") + "\n"));
    assert!(encoded.succeeded());
    let records = encoded.json();
    assert_eq!(records.len(), 19_683);
    for (key, encoding, holds) in [
        ("base4", "base4", 19_683),
        ("base3", "base3", 19_683),
        ("bitboards", "bitboards", 19_683),
        ("count_rank", "count-rank", 6_046),
        ("rank", "rank", 5_478),
        ("oriented", "oriented", 5_478),
        ("canonical", "canonical", 5_478),
    ] {
        let held: Vec<&Value> = records.iter().filter(|r| r[key].is_u64()).collect();
        assert_eq!(held.len(), holds, "{encoding}");
        let codes: String = held.iter().map(|r| format!("{}\n", r[key])).collect();
        let decoded = ttt(&["decode", "--json", "--encoding", encoding], &codes);
        assert!(decoded.succeeded(), "{encoding}: {}", decoded.stderr);
        let boards = decoded.json();
        assert_eq!(boards.len(), held.len());
        for (record, decoded) in held.iter().zip(&boards) {
            let text = record["board"].as_str().unwrap();
            assert_eq!(decoded["code"], record[key]);
            assert_eq!(decoded["encoding"], encoding);
            let back = decoded["board"].as_str().unwrap();
            if encoding == "canonical" {
                // The class representative, which the symmetry carries onto the board.
                let symmetry: Symmetry = record["symmetry"].as_str().unwrap().parse().unwrap();
                assert_eq!(symmetry.apply(board(back)), board(text));
            } else {
                assert_eq!(back, text, "{encoding} {}", record[key]);
            }
        }
    }
}

// ---------------------------------------------------------------- analyze

#[test]
fn analyze_json_keys_in_order() {
    let run = ttt(&["analyze", "--json", "X.O..O.X."], "");
    assert!(run.succeeded());
    let position = Position::try_from(board("X.O..O.X.")).unwrap();
    let oriented = Oriented::from_position(position);
    let expected = format!(
        concat!(
            r#"{{"board":"X.O..O.X.","valid":true,"errors":[],"status":"ongoing","to_move":"X","#,
            r#""winner":null,"lines":[],"value":"x-wins","distance":3,"best_moves":[8],"#,
            r#""codes":{{"base4":18465,"base3":2692,"bitboards":18561,"count_rank":523,"#,
            r#""rank":{},"canonical":{},"symmetry":"{}","oriented":{}}}}}"#,
            "\n"
        ),
        Rank::from_position(position).code(),
        oriented.class().code(),
        oriented.symmetry().name(),
        oriented.code(),
    );
    assert_eq!(run.stdout, expected);
}

#[test]
fn analyze_json_for_won_invalid_and_drawn_boards() {
    let run = ttt(
        &[
            "analyze",
            "--json",
            "XXX...OOO",
            "XXX/XOO/XOO",
            "OXO/XOX/XOX",
            "OOO......",
            "XOX/O../...",
        ],
        "",
    );
    assert!(run.succeeded());
    let out = run.json();
    let fields = |r: &Value| {
        json!([
            r["valid"],
            r["errors"],
            r["status"],
            r["to_move"],
            r["winner"],
            r["lines"]
        ])
    };
    assert_eq!(
        fields(&out[0]),
        json!([
            false,
            ["continued-after-win"],
            null,
            null,
            null,
            [[0, 1, 2], [6, 7, 8]]
        ])
    );
    assert_eq!(
        out[0]["codes"],
        json!({"base4": 172053, "base3": 18967, "bitboards": 229383, "count_rank": 2749, "rank": null, "canonical": null, "symmetry": null, "oriented": null})
    );
    assert_eq!(
        fields(&out[1]),
        json!([true, [], "x-won", null, "X", [[0, 1, 2], [0, 3, 6]]])
    );
    assert_eq!(fields(&out[2]), json!([true, [], "draw", null, null, []]));
    assert_eq!(
        fields(&out[3]),
        json!([
            false,
            ["o-started", "continued-after-win"],
            null,
            null,
            null,
            [[0, 1, 2]]
        ])
    );
    assert_eq!(out[3]["codes"]["count_rank"], Value::Null);
    assert_eq!(out[3]["codes"]["base3"], 2 * (1 + 3 + 9));
    assert_eq!(fields(&out[4]), json!([true, [], "ongoing", "X", null, []]));
}

#[test]
fn analyze_streams_stdin_with_good_and_bad_lines() {
    let input =
        "X.O..O.X.\n\nXXZ......\r\nXXX...OOO\n  x.o/..o/.x.  \n........\nXX.X.....\nOXOXOXXOX";
    let run = ttt(&["analyze", "--json"], input);
    assert!(run.rejected_inputs());
    let out = run.json();
    assert_eq!(out.len(), 7);
    assert_eq!(out[0]["board"], "X.O..O.X.");
    assert_eq!(
        out[1],
        json!({"input": "XXZ......", "line": 3, "error": "bad character 'Z' at index 2: expected X, O or . (and `/` between rows)"})
    );
    assert_eq!(out[2]["board"], "XXX...OOO");
    assert_eq!(out[3]["board"], "X.O..O.X.", "lowercase and slashes read");
    assert_eq!(
        out[4],
        json!({"input": "........", "line": 6, "error": "wrong length: 8 cells, expected 9 (X, O or . each, `/` allowed between rows)"})
    );
    assert_eq!(out[5]["errors"], json!(["x-went-twice"]));
    assert_eq!(out[6]["status"], "draw", "a last line without newline");
    assert_eq!(run.stderr, "ttt: error: 2 of 7 inputs rejected\n");
}

#[test]
fn analyze_for_people_explains_every_violation() {
    let run = ttt(&["analyze"], "OOO......\nXXX/OO./...\nX.Z\n");
    assert!(run.rejected_inputs());
    let expected = "\
OOO......
  [O]|[O]|[O]
  ---+---+---
   . | . | .
  ---+---+---
   . | . | .
status    invalid: not a reachable position
why       o-started: wrong turn order: O started
why       continued-after-win: impossible board: game should have ended after the game was won
lines     0-1-2 (O)
codes     base4 42, base3 26, count-rank - (impossible piece counts: 0 X and 3 O, but X moves first
          so has as many marks as O or one more), rank -, canonical - (invalid board)

XXXOO....
  [X]|[X]|[X]
  ---+---+---
   O | O | .
  ---+---+---
   . | . | .
status    x-won, X has a line: game over
perfect   x-wins in 0 plies
lines     0-1-2 (X)
";
    assert!(run.stdout.starts_with(expected), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("\ncodes     base4 661, base3 229, count-rank ")
    );
    assert_eq!(
        run.stderr,
        "ttt: error: line 3: \"X.Z\": bad character 'Z' at index 2: expected X, O or . (and `/` between rows)\n\
         ttt: error: 1 of 3 inputs rejected\n"
    );
}

#[test]
fn analyze_for_people_states_status_and_turn() {
    let run = ttt(
        &[
            "analyze",
            "X.O/..O/.X.",
            "X../.../...",
            "XX./OOO/X..",
            "OXO/XOX/XOX",
        ],
        "",
    );
    assert!(run.succeeded());
    let statuses: Vec<&str> = run
        .stdout
        .lines()
        .filter(|line| line.starts_with("status "))
        .collect();
    assert_eq!(
        statuses,
        [
            "status    ongoing, X to move",
            "status    ongoing, O to move",
            "status    o-won, O has a line: game over",
            "status    draw, the board is full and no one has a line",
        ]
    );
    assert!(run.stdout.contains("\nlines     3-4-5 (O)\n"));
}

/// A line longer than 4096 bytes is skipped to its end, never held whole.
#[test]
fn overlong_lines_are_rejected_and_skipped() {
    let input = format!("{}\nX........\n{}", ".".repeat(100_000), "7".repeat(5_000));
    let run = ttt(&["analyze", "--json"], &input);
    assert!(run.rejected_inputs());
    let out = run.json();
    assert_eq!(out.len(), 3);
    assert_eq!(out[0]["error"], "line too long: more than 4096 bytes");
    assert_eq!(out[0]["input"].as_str().unwrap().len(), 4096);
    assert_eq!(out[1]["board"], "X........");
    assert_eq!(out[2]["error"], "line too long: more than 4096 bytes");
    let run = ttt(&["decode", "--encoding", "rank"], &input);
    assert!(run.rejected_inputs());
    assert!(
        run.stderr
            .starts_with("ttt: error: line 1: rank code: line too long: more than 4096 bytes\n"),
        "{}",
        run.stderr
    );
    // Exactly 4096 bytes is still a line.
    let run = ttt(
        &["decode", "--encoding", "rank", "--json"],
        &"7".repeat(4096),
    );
    assert!(
        run.json()[0]["error"]
            .as_str()
            .unwrap()
            .contains("out of range")
    );
}

#[test]
fn analyze_with_empty_stdin_prints_nothing_and_succeeds() {
    let run = ttt(&["analyze", "--json"], "\n\n");
    assert!(run.succeeded());
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr, "");
}

fn complete_lines(board: &str) -> Vec<[usize; 3]> {
    let cells = board.as_bytes();
    [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ]
    .into_iter()
    .filter(|&[a, b, c]| cells[a] != b'.' && cells[a] == cells[b] && cells[b] == cells[c])
    .map(|mut line| {
        line.sort_unstable();
        line
    })
    .collect()
}

/// Every grid through `analyze --json` at once, checked against the library and counted.
#[test]
fn analyze_every_grid_agrees_with_the_library() {
    let grids = all_grids();
    let run = ttt(&["analyze", "--json"], &grids.join("\n"));
    assert!(run.succeeded());
    let reports = run.json();
    assert_eq!(reports.len(), 19_683);
    let mut statuses = std::collections::BTreeMap::new();
    for (text, report) in grids.iter().zip(&reports) {
        let grid = board(text);
        assert_eq!(report["board"], text.as_str());
        let lines: Vec<[usize; 3]> = serde_json::from_value(report["lines"].clone()).unwrap();
        assert_eq!(lines, complete_lines(text), "{text}");
        let errors: Vec<&str> = grid
            .violations()
            .iter()
            .map(tictactoe::Violation::code)
            .collect();
        assert_eq!(report["errors"], json!(errors));
        let codes = &report["codes"];
        assert_eq!(
            codes["count_rank"].as_u64(),
            tictactoe::encoding::CountRank::encode(grid)
                .ok()
                .map(|c| u64::from(c.code()))
        );
        match Position::try_from(grid) {
            Ok(position) => {
                assert_eq!(report["valid"], true);
                assert_eq!(report["status"], position.status().as_str());
                let to_move = position.to_move().map(|p| p.to_string());
                assert_eq!(report["to_move"], json!(to_move));
                let winner = position.winner().map(|p| p.to_string());
                assert_eq!(report["winner"], json!(winner));
                assert_eq!(codes["rank"], Rank::from_position(position).code());
                let oriented = Oriented::from_position(position);
                assert_eq!(codes["canonical"], oriented.class().code());
                assert_eq!(codes["symmetry"], oriented.symmetry().name());
                let solution = tictactoe::solver::solve(position);
                assert_eq!(report["value"], solution.value.as_str());
                assert_eq!(report["distance"], solution.distance);
                let best: Vec<usize> = solution
                    .best_moves
                    .iter()
                    .map(tictactoe::Cell::index)
                    .collect();
                assert_eq!(report["best_moves"], json!(best));
                if position.status().is_finished() {
                    assert_eq!((solution.distance, best.len()), (0, 0), "{text}");
                }
            }
            Err(_) => {
                assert_eq!(report["valid"], false);
                assert_eq!(report["best_moves"], json!([]));
                for key in ["status", "to_move", "winner", "value", "distance"] {
                    assert_eq!(report[key], Value::Null);
                }
                for key in ["rank", "canonical", "symmetry"] {
                    assert_eq!(codes[key], Value::Null);
                }
            }
        }
        *statuses
            .entry(report["status"].as_str().unwrap_or("invalid").to_owned())
            .or_insert(0) += 1;
    }
    let counts: Vec<(&str, i32)> = statuses.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        counts,
        [
            ("draw", 16),
            ("invalid", 19_683 - 5_478),
            ("o-won", 316),
            ("ongoing", 4_520),
            ("x-won", 626)
        ]
    );
}

/// `ttt analyze --json < big | head -1`: the reader leaves early and ttt ends quietly.
#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    use std::io::{BufRead, BufReader};
    for json in [true, false] {
        let mut args = vec!["analyze"];
        args.extend(json.then_some("--json"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut pipe = child.stdin.take().unwrap();
        // Far more output than a pipe buffers, so ttt is still writing when the reader leaves.
        let input = all_grids().join("\n");
        let writer = std::thread::spawn(move || pipe.write_all(input.as_bytes()));
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.starts_with(if json { "{" } else { "........." }));
        let output = child.wait_with_output().unwrap();
        // The writer may or may not see the pipe close, depending on timing.
        let _ = writer.join();
        assert_eq!(String::from_utf8_lossy(&output.stderr), "", "json: {json}");
        assert!(output.status.success(), "json: {json}");
    }
}

// ---------------------------------------------------------------- help

#[test]
fn every_subcommand_help_shows_examples() {
    for (subcommand, example) in [
        ("encode", "ttt encode X.O..O.X."),
        ("decode", "ttt decode --encoding rank 0 17 5477"),
        ("analyze", "ttt analyze X.O..O.X."),
        ("enumerate", "ttt enumerate --json"),
    ] {
        let run = ttt(&[subcommand, "--help"], "");
        assert!(run.succeeded(), "{subcommand}");
        assert!(run.stdout.contains("Examples:"), "{subcommand}");
        assert!(run.stdout.contains(example), "{subcommand}: {}", run.stdout);
    }
    let run = ttt(&["--help"], "");
    for subcommand in ["encode", "decode", "analyze", "enumerate"] {
        assert!(run.stdout.contains(subcommand), "{subcommand}");
    }
}

// ---------------------------------------------------------------- the command-line contract

/// Runs `ttt args...` in `dir` with `stdin` bytes.
fn ttt_in(dir: &std::path::Path, args: &[&str], stdin: &[u8]) -> std::process::Output {
    common::run(dir, args, stdin)
}

/// A scratch directory holding a good board file, a bad one and a `.ttt` file.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("good.txt"), "X.O..O.X.\nXXXOO....\n").unwrap();
    std::fs::write(dir.path().join("bad.txt"), "X.O..O.X.\nXX.......\n").unwrap();
    std::fs::write(dir.path().join("not.ttt"), "X.O/..O/.X.\n").unwrap();
    let out = ttt_in(dir.path(), &["pack", "good.txt", "-o", "good.ttt"], b"");
    assert!(out.status.success(), "{out:?}");
    dir
}

#[test]
fn one_exit_status_table_in_every_subcommand() {
    let dir = scratch();
    // (status, arguments, standard input): 0 success, 1 bad input, 2 usage error,
    // 3 damaged data partly recovered (tests/storage.rs), 4 I/O error.
    let cases: &[(i32, &[&str], &str)] = &[
        (0, &["encode", "X.O..O.X."], ""),
        (1, &["encode", "ZZZ"], ""),
        (2, &["encode", "--bogus"], ""),
        (0, &["decode", "-e", "rank", "17"], ""),
        (1, &["decode", "-e", "rank", "99999"], ""),
        (2, &["decode", "-e", "base5", "1"], ""),
        (0, &["analyze", "--json"], "X.O..O.X.\n"),
        (1, &["analyze", "--json"], "ZZZ\n"),
        (2, &["analyze", "--bogus"], ""),
        (0, &["enumerate", "--json"], ""),
        (2, &["enumerate", "--bogus"], ""),
        (0, &["perft", "3"], ""),
        (2, &["perft", "10"], ""),
        (0, &["game", "encode", "40"], ""),
        (1, &["game", "encode", "44"], ""),
        (1, &["game", "decode", "999999999"], ""),
        (2, &["game", "bogus"], ""),
        (
            0,
            &["match", "--x", "random", "--o", "random", "--games", "3"],
            "",
        ),
        (2, &["match", "--x", "human", "--o", "random"], ""),
        (0, &["selfplay", "--threads", "1", "--games", "10"], ""),
        (2, &["selfplay", "--threads", "0"], ""),
        (2, &["selfplay", "--threads", "5000"], ""),
        (2, &["bench", "--method", "boolean"], ""),
        (0, &["play", "--seed", "1"], "q\n"),
        (2, &["play", "--level", "impossible"], ""),
        (0, &["pack", "good.txt", "-o", "out.ttt"], ""),
        (1, &["pack", "bad.txt", "-o", "out.ttt"], ""),
        (2, &["pack", "good.txt", "-o", "good.txt"], ""),
        (4, &["pack", "missing.txt", "-o", "out.ttt"], ""),
        (
            4,
            &["pack", "good.txt", "-o", "/proc/no/such/dir/out.ttt"],
            "",
        ),
        (0, &["unpack", "good.ttt"], ""),
        (1, &["unpack", "not.ttt"], ""),
        (4, &["unpack", "missing.ttt"], ""),
        (0, &["info", "good.ttt"], ""),
        (1, &["info", "not.ttt"], ""),
        (4, &["info", "missing.ttt"], ""),
        (0, &["completions", "bash"], ""),
        (2, &["completions", "nosuchshell"], ""),
        (0, &["man"], ""),
    ];
    for (status, args, stdin) in cases {
        let out = ttt_in(dir.path(), args, stdin.as_bytes());
        assert_eq!(out.status.code(), Some(*status), "ttt {args:?}: {out:?}");
    }
}

#[test]
fn a_closed_standard_error_is_no_panic() {
    // `ttt encode ZZZ 2>&1 | true`: both streams go to a pipe nobody reads.
    for args in [
        &["encode", "ZZZ"][..],
        &["perft", "10"],
        &["unpack", "missing.ttt"],
    ] {
        let mut child = spawn(std::path::Path::new("."), args);
        drop(child.stdin.take());
        drop(child.stdout.take());
        drop(child.stderr.take());
        let status = child.wait().expect("ttt finishes");
        assert_ne!(status.code(), Some(101), "ttt {args:?} panicked");
        assert!(
            status.code().is_some_and(|c| (1..=4).contains(&c)),
            "{args:?}: {status}"
        );
    }
}

#[test]
fn broken_pipes_end_quietly_everywhere() {
    let dir = scratch();
    let boards = "X.O..O.X.\n".repeat(200_000);
    let cases: &[(&[&str], &str)] = &[
        (&["analyze", "--json"], &boards),
        (&["analyze"], &boards),
        (&["encode"], &boards),
        (&["pack", "-o", "-"], &boards),
        (&["decode", "-e", "rank"], &"17\n".repeat(200_000)),
        (&["game", "encode"], &"40\n".repeat(200_000)),
        (&["enumerate"], ""),
        (&["perft", "9"], ""),
        (&["unpack", "good.ttt"], ""),
        (&["info", "good.ttt"], ""),
        (&["completions", "bash"], ""),
        (&["man"], ""),
        (
            &["match", "--x", "random", "--o", "random", "--games", "10"],
            "",
        ),
    ];
    for (args, stdin) in cases {
        let mut child = spawn(dir.path(), args);
        // The reader goes away before anything is written.
        drop(child.stdout.take());
        let out = finish(child, stdin.as_bytes());
        assert_eq!(out.status.code(), Some(0), "ttt {args:?}: {out:?}");
        assert!(
            out.stderr.is_empty(),
            "ttt {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn lines_are_bounded_in_every_reader() {
    // A 20 MB line without a newline: one short error, not the line echoed back.
    let long = vec![0u8; 20 << 20];
    let dir = scratch();
    for args in [
        &["pack", "-o", "out.ttt"][..],
        &["analyze", "--json"],
        &["game", "encode"],
    ] {
        let out = ttt_in(dir.path(), args, &long);
        assert_eq!(out.status.code(), Some(1), "ttt {args:?}");
        // At most the first 4096 bytes come back (escaped in JSON), not 20 MB.
        assert!(
            out.stderr.len() + out.stdout.len() < 40_000,
            "ttt {args:?} echoed the line"
        );
        let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
        assert!(
            text.contains("line too long: more than 4096 bytes"),
            "{text}"
        );
    }
    let out = ttt_in(dir.path(), &["play", "--seed", "1"], &long);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stdout.len() < 10_000,
        "play echoed the line: {} bytes",
        out.stdout.len()
    );
}

#[test]
fn answers_stream_line_by_line_through_a_pipe() {
    use std::io::{BufRead, BufReader};
    // `(echo X........; sleep 3; echo .X.......) | ttt analyze --json`: the first answer comes
    // before the second line is sent.
    for args in [
        &["analyze", "--json"][..],
        &["encode"],
        &["decode", "-e", "rank"],
    ] {
        let mut child = spawn(std::path::Path::new("."), args);
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let line = if args[0] == "decode" {
            "17\n"
        } else {
            "X........\n"
        };
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut first = String::new();
            let _ = BufReader::new(stdout).read_line(&mut first);
            let _ = send.send(first);
        });
        let first = receive.recv_timeout(std::time::Duration::from_secs(10));
        drop(stdin);
        let _ = child.wait();
        let first = first.unwrap_or_else(|_| panic!("ttt {args:?} held its answer back"));
        assert!(!first.is_empty(), "ttt {args:?}");
    }
}

#[test]
fn json_errors_carry_the_input_line_with_blank_lines_counted() {
    let run = ttt(&["analyze", "--json"], "X........\n\n\nZZZ\n");
    let out = run.json();
    assert_eq!(out[1]["line"], 4);
    assert_eq!(out[1]["input"], "ZZZ");
    let run = ttt(&["encode", "--json", "X........", "ZZZ"], "");
    assert_eq!(run.json()[1]["argument"], 2);
    let run = ttt(&["game", "decode", "--json"], "0\n\nxyz\n");
    assert_eq!(run.json()[1]["line"], 3);
}

#[test]
fn smaller_defects_stay_fixed() {
    let dir = scratch();
    // A non-UTF-8 byte is named as a byte.
    let out = ttt_in(dir.path(), &["analyze"], b"X\xff.......\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not UTF-8 text: byte 0xff at index 1"),
        "{err}"
    );
    // game decode reads hexadecimal like decode.
    let out = ttt_in(dir.path(), &["game", "decode", "0x10"], b"");
    assert!(out.status.success(), "{out:?}");
    // `-` is standard input in pack and info.
    let good = std::fs::read(dir.path().join("good.txt")).unwrap();
    let out = ttt_in(dir.path(), &["pack", "-", "-o", "stdin.ttt"], &good);
    assert!(out.status.success(), "{out:?}");
    let packed = std::fs::read(dir.path().join("stdin.ttt")).unwrap();
    let out = ttt_in(dir.path(), &["info", "-"], &packed);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("records           2"),
        "{out:?}"
    );
    // A file is not packed into itself.
    let out = ttt_in(dir.path(), &["pack", "good.txt", "-o", "good.txt"], b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("refusing to pack good.txt into itself"));
    assert_eq!(std::fs::read(dir.path().join("good.txt")).unwrap(), good);
    // A file name given as a board gets a hint.
    let out = ttt_in(dir.path(), &["analyze", "good.txt"], b"");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("< good.txt"),
        "{out:?}"
    );
    // Plurals agree.
    let out = ttt_in(dir.path(), &["encode", "ZZZ"], b"");
    assert!(String::from_utf8_lossy(&out.stderr).ends_with("1 of 1 input rejected\n"));
    std::fs::write(dir.path().join("one.txt"), "X........\n").unwrap();
    let out = ttt_in(dir.path(), &["pack", "one.txt", "-o", "one.ttt"], b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("packed 1 position (mixed-radix)"));
    // `--encoding` takes the same spellings in pack as in decode.
    let out = ttt_in(
        dir.path(),
        &["pack", "-e", "count_rank", "good.txt", "-o", "cr.ttt"],
        b"",
    );
    assert!(out.status.success(), "{out:?}");
    // An empty file has no bits per position.
    std::fs::write(dir.path().join("empty.txt"), "").unwrap();
    let out = ttt_in(dir.path(), &["pack", "empty.txt", "-o", "empty.ttt"], b"");
    assert!(out.status.success());
    let out = ttt_in(dir.path(), &["info", "empty.ttt"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("384.000") && !text.contains("4800.0%"),
        "{text}"
    );
    assert!(text.contains("bits/position     - (no records"), "{text}");
    // bench --help does not point into a source tree an installed binary lacks.
    let out = ttt_in(dir.path(), &["bench", "--help"], b"");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("docs/"));
    // Thread counts are capped with a clear message, and short runs have honest rates.
    let out = ttt_in(dir.path(), &["selfplay", "--threads", "5000"], b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 256"));
    let out = ttt_in(
        dir.path(),
        &["selfplay", "--threads", "1", "--games", "10"],
        b"",
    );
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("0.0 M"),
        "{out:?}"
    );
}

#[test]
fn every_subcommand_shows_examples_in_its_help() {
    let subcommands: &[&[&str]] = &[
        &["enumerate"],
        &["encode"],
        &["decode"],
        &["analyze"],
        &["bench"],
        &["pack"],
        &["unpack"],
        &["info"],
        &["play"],
        &["perft"],
        &["match"],
        &["game"],
        &["game", "encode"],
        &["game", "decode"],
        &["selfplay"],
        &["serve"],
        &["completions"],
        &["man"],
    ];
    for args in subcommands {
        let mut args = args.to_vec();
        args.push("--help");
        let run = ttt(&args, "");
        assert!(
            run.stdout.contains("Examples:"),
            "ttt {args:?}: {}",
            run.stdout
        );
    }
}

#[test]
fn completions_and_the_man_page_are_generated() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = ttt(&["completions", shell], "");
        assert!(run.succeeded());
        assert!(run.stdout.contains("analyze"), "{shell}");
    }
    let run = ttt(&["man"], "");
    assert!(
        run.stdout.starts_with(".ie") || run.stdout.contains(".TH ttt"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("analyze"));
}

#[test]
fn precomputed_answers_are_the_computed_ones() {
    // `analyze` computes its first answers and then copies precomputed ones: in forward and in
    // reverse order, each grid is answered both ways, and the answers must agree byte for byte.
    let mut grids = all_grids();
    for args in [&["analyze", "--json"][..], &["analyze"]] {
        let forward = ttt(args, &(grids.join("\n") + "\n"));
        grids.reverse();
        let backward = ttt(args, &(grids.join("\n") + "\n"));
        grids.reverse();
        assert!(forward.succeeded() && backward.succeeded());
        // One answer per grid: a line in JSON, a block ending in a blank line for people.
        let split = |text: &str| -> Vec<String> {
            if args.len() == 2 {
                text.lines().map(str::to_owned).collect()
            } else {
                text.split_inclusive("\n\n").map(str::to_owned).collect()
            }
        };
        let (mut forward, backward) = (split(&forward.stdout), split(&backward.stdout));
        forward.reverse();
        assert_eq!(forward.len(), 19_683);
        assert!(
            forward == backward,
            "{args:?}: answers differ between the two ways"
        );
    }
}

#[test]
fn text_output_fits_100_columns() {
    let grids = all_grids().join("\n") + "\n";
    for args in [&["analyze"][..], &["encode"]] {
        let run = ttt(args, &grids);
        let wide: Vec<&str> = run
            .stdout
            .lines()
            .filter(|line| line.chars().count() > 100)
            .take(3)
            .collect();
        assert!(wide.is_empty(), "ttt {args:?}: {wide:?}");
    }
    for args in [
        &["enumerate"][..],
        &["perft", "9"],
        &["game", "decode", "0", "255167"],
    ] {
        let run = ttt(args, "");
        assert!(
            run.stdout.lines().all(|line| line.chars().count() <= 100),
            "{args:?}"
        );
    }
}

/// Issue 25: `ttt encode $'\xff'` was a usage error (2) while the same byte on standard input
/// was a rejected input (1); both are rejected inputs now, with the same message.
#[cfg(unix)]
#[test]
fn a_byte_that_is_not_utf8_is_bad_input_as_an_argument_or_a_line() {
    use std::os::unix::ffi::OsStrExt;
    let dir = std::path::Path::new(".");
    for command in ["encode", "analyze"] {
        let output = common::command(dir, &[command])
            .arg(std::ffi::OsStr::from_bytes(b"\xff"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        let stderr = common::text(&output.stderr);
        assert!(
            stderr.contains("argument 1: \"\u{fffd}\": not UTF-8 text: byte 0xff at index 0"),
            "{stderr}"
        );
        let output = ttt_in(dir, &[command], b"\xff\n");
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        assert!(
            common::text(&output.stderr).contains("line 1: \"\u{fffd}\": not UTF-8 text"),
            "{output:?}"
        );
    }
    let output = common::command(dir, &["decode", "-e", "rank"])
        .arg(std::ffi::OsStr::from_bytes(b"1\xff"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{output:?}");
}

/// Issue 25: a failed write to standard output said only "No space left on device"; it names
/// standard output now, and exits 4.
#[cfg(target_os = "linux")]
#[test]
fn a_write_error_on_standard_output_names_it() {
    for args in [
        &["enumerate"][..],
        &["encode", "X........"],
        &["perft", "3"],
        &["man"],
    ] {
        let output = common::command(std::path::Path::new("."), args)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(4), "{args:?}: {output:?}");
        let stderr = common::text(&output.stderr);
        assert!(
            stderr.contains("cannot write standard output: No space left on device"),
            "{args:?}: {stderr}"
        );
    }
}

/// Issue 25: with standard output closed, `pack -o -` (and every answer) was dropped in
/// silence with status 0: the standard library puts `/dev/null` in its place. It fails with
/// status 4 now; `pack -o FILE` needs no standard output and still works.
#[cfg(target_os = "linux")]
#[test]
fn a_closed_standard_output_is_an_io_error() {
    let dir = tempfile::tempdir().unwrap();
    let closed = |command: &str| {
        Command::new("sh")
            .args(["-c", &format!("exec \"$0\" {command} >&-")])
            .arg(env!("CARGO_BIN_EXE_ttt"))
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    for command in ["pack -o - /dev/null", "encode X........", "enumerate"] {
        let output = closed(command);
        assert_eq!(output.status.code(), Some(4), "{command}: {output:?}");
        assert!(
            common::text(&output.stderr).contains("standard output is closed"),
            "{command}: {output:?}"
        );
    }
    std::fs::write(dir.path().join("in.txt"), "X........\n").unwrap();
    let output = closed("pack in.txt -o out.ttt");
    assert!(output.status.success(), "{output:?}");
    assert!(dir.path().join("out.ttt").exists());
    // `/dev/null` given on purpose (as Python's `subprocess.DEVNULL` does, read-write) is no
    // closed output.
    let output = common::command(dir.path(), &["encode", "X........"])
        .stdout(
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open("/dev/null")
                .unwrap(),
        )
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
}
