//! The `ttt` examples in the documentation are real: every ```` ```console ```` block of
//! `README.md` and `docs/*.md` is run, and its output compared byte for byte.
//!
//! A block is a sequence of commands, each a line starting with `$ `, each followed by the
//! output it prints (standard output and standard error, in the order the shell sees them).
//! Each command runs through `sh -c` in a fresh temporary directory shared by the blocks of its
//! file (so an example can write a file and a later one read it back), with the `ttt` under test first on
//! `PATH`, `NO_COLOR` set, the `C` locale and no standard input; `$?` starts as the exit status
//! of the block's previous command, as in an interactive shell. A block tagged
//! ```` ```console,ignore-output ```` is for commands whose output varies (timings): its commands
//! must exit with status 0 and their output is not compared. Exit statuses are shown in the
//! docs with `echo $?` and so are checked too.
//!
//! To regenerate the outputs after a deliberate change, run `scripts/regen-docs` (it sets
//! `TTT_DOCS_BLESS=1`, which rewrites the outputs in place instead of comparing them), then
//! review the diff.

use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One `$ command` line of a checked block and the output shown under it.
struct Example {
    /// 1-based line of the command in its file.
    line: usize,
    command: String,
    /// Whether the output is compared (false in `ignore-output` blocks).
    compare: bool,
    /// The 0-based range of the output lines in the file.
    output: std::ops::Range<usize>,
}

/// The checked blocks of the Markdown file `name`, each a list of examples.
fn blocks(name: &str, text: &str) -> Vec<Vec<Example>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_end();
        let compare = match fence {
            "```console" => true,
            "```console,ignore-output" => false,
            _ => {
                i += 1;
                continue;
            }
        };
        let mut block: Vec<Example> = Vec::new();
        i += 1;
        while i < lines.len() && lines[i].trim_end() != "```" {
            if let Some(command) = lines[i].strip_prefix("$ ") {
                block.push(Example {
                    line: i + 1,
                    command: command.to_owned(),
                    compare,
                    output: i + 1..i + 1,
                });
            } else if let Some(example) = block.last_mut() {
                example.output.end = i + 1;
            } else {
                panic!(
                    "{name}:{}: a console block must start with a `$ ` command",
                    i + 1
                );
            }
            i += 1;
        }
        blocks.push(block);
        i += 1;
    }
    blocks
}

/// Runs `command` through `sh -c` in `dir`; returns its merged output and its exit status.
fn run(command: &str, dir: &Path, path: &str) -> (String, i32) {
    let (mut reader, writer) = std::io::pipe().expect("pipe");
    let mut child = {
        let mut sh = Command::new("sh");
        sh.arg("-c")
            .arg(command)
            .current_dir(dir)
            .env("PATH", path)
            .env("NO_COLOR", "1")
            .env("LC_ALL", "C")
            .env_remove("TTT_DOCS_BLESS")
            .stdin(Stdio::null())
            .stdout(writer.try_clone().expect("pipe"))
            .stderr(writer);
        sh.spawn().expect("sh runs")
    };
    let mut output = Vec::new();
    reader.read_to_end(&mut output).expect("read output");
    let status = child.wait().expect("wait for sh");
    let code = status.code().unwrap_or(-1);
    (String::from_utf8_lossy(&output).into_owned(), code)
}

/// Where `expected` and `actual` first differ, as a short report.
fn first_difference(expected: &str, actual: &str) -> String {
    let (mut e, mut a) = (expected.lines(), actual.lines());
    let mut n = 0;
    loop {
        n += 1;
        match (e.next(), a.next()) {
            (Some(x), Some(y)) if x == y => {}
            (None, None) => return "the outputs differ only in the final newline".to_owned(),
            (x, y) => {
                let show =
                    |l: Option<&str>| l.map_or("(end of output)".to_owned(), |l| format!("{l:?}"));
                return format!(
                    "first difference at output line {n}:\n    docs:   {}\n    actual: {}",
                    show(x),
                    show(y)
                );
            }
        }
    }
}

fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ next to ttt/")
        .map(|entry| entry.expect("docs entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn console_examples_in_the_docs_match_the_binary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let bin = Path::new(env!("CARGO_BIN_EXE_ttt"));
    let path = format!(
        "{}:{}",
        bin.parent().expect("binary directory").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let bless = std::env::var_os("TTT_DOCS_BLESS").is_some();
    let mut failures = String::new();
    let mut checked = 0;
    for file in markdown_files(root) {
        let text = std::fs::read_to_string(&file).expect("read docs");
        let name = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .display()
            .to_string();
        let lines: Vec<&str> = text.lines().collect();
        let mut replacements: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        let dir = tempfile::tempdir().expect("temporary directory");
        for block in blocks(&name, &text) {
            let mut status = 0;
            for example in block {
                let command = format!("(exit {status}); {}", example.command);
                let (actual, code) = run(&command, dir.path(), &path);
                let success = code == 0;
                status = code;
                checked += 1;
                let place = format!("{name}:{}: $ {}", example.line, example.command);
                if !example.compare {
                    if !success {
                        let _ = writeln!(failures, "{place}\n  failed:\n{actual}");
                    }
                    continue;
                }
                let expected: String = lines[example.output.clone()]
                    .iter()
                    .map(|l| format!("{l}\n"))
                    .collect();
                if actual == expected {
                    continue;
                }
                if bless {
                    replacements.push((example.output.clone(), actual));
                } else {
                    let _ = writeln!(
                        failures,
                        "{place}\n  {}\n",
                        first_difference(&expected, &actual)
                    );
                }
            }
        }
        if bless && !replacements.is_empty() {
            let mut out = String::new();
            let mut next = 0;
            for (range, actual) in replacements {
                lines[next..range.start]
                    .iter()
                    .for_each(|l| out.extend([l, "\n"]));
                out.push_str(&actual);
                if !actual.is_empty() && !actual.ends_with('\n') {
                    out.push('\n');
                }
                next = range.end;
            }
            lines[next..].iter().for_each(|l| out.extend([l, "\n"]));
            std::fs::write(&file, out).expect("rewrite docs");
            eprintln!("rewrote the outputs in {name}");
        }
    }
    assert!(checked > 0, "no console examples found");
    assert!(
        failures.is_empty(),
        "console examples in the docs differ from the binary \
         (run scripts/regen-docs to regenerate them, then review the diff):\n\n{failures}"
    );
}

/// One object type of `docs/json.md`: its keys in order, each with its type and whether it may
/// be left out.
struct ObjectType {
    name: String,
    keys: Vec<(String, String, bool)>,
}

/// The object types of `docs/json.md`: each `### \`name\`` heading and the table under it.
fn json_vocabulary() -> Vec<ObjectType> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/json.md");
    let text = std::fs::read_to_string(path).expect("docs/json.md");
    let mut types: Vec<ObjectType> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("### `") {
            types.push(ObjectType {
                name: name.trim_end_matches('`').to_owned(),
                keys: Vec::new(),
            });
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(current), [_, key, kind, _meaning, _]) = (types.last_mut(), cells.as_slice())
        else {
            continue;
        };
        let Some(key) = key.strip_prefix('`').and_then(|k| k.strip_suffix('`')) else {
            continue;
        };
        let optional = kind.ends_with(", optional");
        let kind = kind.trim_end_matches(", optional").to_owned();
        current.keys.push((key.to_owned(), kind, optional));
    }
    types
}

/// Whether `value` has the documented `kind` (`integer`, `string or null`...).
fn has_type(value: &serde_json::Value, kind: &str) -> bool {
    use serde_json::Value;
    let (base, nullable) = match kind.strip_suffix(" or null") {
        Some(base) => (base, true),
        None => (kind, false),
    };
    match value {
        Value::Null => nullable,
        Value::Bool(_) => base == "boolean",
        Value::Number(n) => base == "number" || (base == "integer" && (n.is_u64() || n.is_i64())),
        Value::String(_) => base == "string",
        Value::Array(_) => base == "array",
        Value::Object(_) => base == "object",
    }
}

/// The members of the outermost object of a JSON text, in the order written (serde_json's map
/// sorts them): each key with the raw text of its value.
fn members_in_order(json: &str) -> Vec<(String, &str)> {
    let (mut members, mut depth, mut in_string, mut escaped) = (Vec::new(), 0, false, false);
    let (mut current, mut last_string, mut start) = (String::new(), None, None);
    let mut key = None;
    for (i, ch) in json.char_indices() {
        if in_string {
            match (escaped, ch) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => {
                    in_string = false;
                    last_string = Some(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            }
            current.push(ch);
            continue;
        }
        match ch {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            ':' if depth == 1 => {
                key = last_string.take();
                start = Some(i + 1);
            }
            ',' | '}' if depth == 1 => {
                if let (Some(key), Some(start)) = (key.take(), start.take()) {
                    members.push((key, json[start..i].trim()));
                }
                if ch == '}' {
                    depth -= 1;
                }
            }
            '}' | ']' => depth -= 1,
            _ => {}
        }
    }
    members
}

/// Checks one object against its documented type: keys in order, types, nested objects.
fn check_object(types: &[ObjectType], name: &str, raw: &str, context: &str) {
    let value: serde_json::Value = serde_json::from_str(raw).expect("a JSON object");
    let object = value.as_object().expect("an object");
    let ty = types
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("docs/json.md has no object type `{name}`"));
    let expected: Vec<&str> = ty
        .keys
        .iter()
        .filter(|(key, _, optional)| !optional || object.contains_key(key))
        .map(|(key, _, _)| key.as_str())
        .collect();
    let members = members_in_order(raw);
    let actual: Vec<&str> = members.iter().map(|(key, _)| key.as_str()).collect();
    assert_eq!(
        actual, expected,
        "{context}: keys of `{name}` against docs/json.md"
    );
    for (key, kind, _) in &ty.keys {
        let Some(value) = object.get(key) else {
            continue;
        };
        assert!(
            has_type(value, kind),
            "{context}: `{name}.{key}` = {value} is not {kind}"
        );
        if value.is_object() {
            let inner = members
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, raw)| *raw)
                .expect("the member's text");
            check_object(types, key, inner, context);
        }
    }
}

#[test]
fn every_json_object_is_in_the_vocabulary() {
    let types = json_vocabulary();
    assert!(types.len() >= 11, "docs/json.md lists the object types");
    // Every subcommand with --json, with answers and rejected inputs, from arguments and lines.
    let runs: &[(&[&str], &str, &[&str])] = &[
        (
            &["encode", "--json", "X.O..O.X.", "XXX...OOO", "ZZZ"],
            "",
            &["encode", "input-error"],
        ),
        (
            &["encode", "--json"],
            "X.O..O.X.\n\nZZZ\n",
            &["encode", "input-error"],
        ),
        (
            &["analyze", "--json", "X.O..O.X.", "XXX...OOO", "OXOXOXXOX"],
            "",
            &["analyze"],
        ),
        (
            &["analyze", "--json"],
            "X........\n\nZZZ\n",
            &["analyze", "input-error"],
        ),
        (
            &["decode", "-e", "rank", "--json", "17", "99999"],
            "",
            &["decode", "input-error"],
        ),
        (
            &["decode", "-e", "base4", "--json"],
            "0x4821\nabc\n",
            &["decode", "input-error"],
        ),
        (
            &["game", "encode", "--json", "03142", "40", "44"],
            "",
            &["game", "input-error"],
        ),
        (
            &["game", "decode", "--json", "7316", "0x10", "x"],
            "",
            &["game", "input-error"],
        ),
        (
            &["game", "decode", "--prefix", "--json"],
            "16067\n",
            &["game"],
        ),
        (&["enumerate", "--json"], "", &["enumerate"]),
        (&["perft", "4", "--json"], "", &["perft"]),
        (
            &[
                "match", "--x", "random", "--o", "perfect", "--games", "5", "--json",
            ],
            "",
            &["match"],
        ),
        (
            &["selfplay", "--threads", "1", "--games", "100", "--json"],
            "",
            &["selfplay"],
        ),
        (
            &[
                "analyze",
                "--game",
                "connect-four",
                "--json",
                "......./......./......./......./......./...X...",
                "XXXX",
            ],
            "",
            &["analyze-game", "input-error"],
        ),
        (
            &["analyze", "--game", "4x4", "--json"],
            "XXXX/OOO./..../....\nX.../O.../..../O...\nXXZ.\n",
            &["analyze-game", "input-error"],
        ),
        (
            &["enumerate", "--game", "tic-tac-toe", "--json"],
            "",
            &["enumerate-game"],
        ),
        (
            &[
                "enumerate",
                "--game",
                "connect-four",
                "--max-plies",
                "4",
                "--json",
            ],
            "",
            &["enumerate-game"],
        ),
        (
            &["perft", "--game", "connect-four", "4", "--json"],
            "",
            &["perft"],
        ),
        (
            &[
                "analyze", "--game", "ultimate", "--json", "4:4 4:0", "-", "4:9",
            ],
            "",
            &["analyze-ultimate", "input-error"],
        ),
        (
            &["perft", "--game", "ultimate", "3", "--json"],
            "",
            &["perft"],
        ),
        (
            &[
                "match", "--game", "ultimate", "--x", "mcts:50", "--o", "random", "--games", "2",
                "--json",
            ],
            "",
            &["match"],
        ),
        (
            &[
                "selfplay",
                "--game",
                "ultimate",
                "--threads",
                "1",
                "--games",
                "10",
                "--json",
            ],
            "",
            &["selfplay"],
        ),
        (
            &[
                "match",
                "--game",
                "connect-four",
                "--x",
                "heuristic",
                "--o",
                "random",
                "--games",
                "5",
                "--json",
            ],
            "",
            &["match"],
        ),
        (
            &[
                "selfplay",
                "--game",
                "gomoku",
                "--threads",
                "1",
                "--games",
                "10",
                "--json",
            ],
            "",
            &["selfplay"],
        ),
        (
            &[
                "bench",
                "--json",
                "--iterations",
                "2",
                "--trials",
                "1",
                "--scenario",
                "row-win",
            ],
            "",
            &["bench"],
        ),
        (
            &[
                "solve",
                "--game",
                "connect-four",
                "--json",
                "4455",
                "448",
                "1212121",
            ],
            "",
            &["solve-game", "input-error"],
        ),
        (
            &[
                "solve",
                "--game",
                "11,11,5",
                "--max-nodes",
                "100",
                "--weak",
                "--json",
            ],
            "...........\n",
            &["input-error"],
        ),
        (
            &["solve", "--game", "5,5,4", "--max-nodes", "100", "--json"],
            "...../...../...../...../.....\n",
            &["solve-game"],
        ),
    ];
    for (args, stdin, kinds) in runs {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
            .args(*args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ttt runs");
        std::io::Write::write_all(&mut child.stdin.take().expect("piped"), stdin.as_bytes())
            .expect("stdin written");
        let output = child.wait_with_output().expect("ttt finishes");
        let text = String::from_utf8(output.stdout).expect("UTF-8");
        let mut seen = Vec::new();
        for line in text.lines() {
            let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            let object = value.as_object().expect("an object per line");
            // An error object is told apart by its `error` key; every other line is the kind
            // the subcommand answers with.
            let kind = if object.contains_key("error") {
                "input-error"
            } else {
                kinds[0]
            };
            check_object(&types, kind, line, &format!("ttt {args:?}"));
            seen.push(kind);
        }
        for kind in *kinds {
            assert!(
                seen.contains(kind),
                "ttt {args:?} printed no `{kind}`: {text}"
            );
        }
    }
}
