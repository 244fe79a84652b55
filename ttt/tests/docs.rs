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
