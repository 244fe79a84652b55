//! What the integration tests share: `ttt` run as a user runs it (one copy of the spawn helper
//! for every test file; each uses a part of it).
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

/// `ttt args...` in `dir`, not yet started (`NO_COLOR` removed, so colour depends only on
/// the terminal).
pub fn command(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ttt"));
    command.args(args).current_dir(dir).env_remove("NO_COLOR");
    command
}

/// `ttt args...` started in `dir`, every stream piped.
pub fn spawn(dir: &Path, args: &[&str]) -> Child {
    command(dir, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ttt starts")
}

/// Feeds `stdin` from a thread (so large inputs cannot deadlock) and waits for the end.
pub fn finish(mut child: Child, stdin: &[u8]) -> Output {
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.to_owned();
    let writer = std::thread::spawn(move || pipe.write_all(&input));
    let output = child.wait_with_output().expect("ttt finishes");
    // A run that stops reading early (an error, a closed pipe) may leave the writer failing.
    let _ = writer.join();
    output
}

/// `ttt args...` in `dir` with `stdin`, to its end.
pub fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    finish(spawn(dir, args), stdin)
}

/// Output as text (lossy: a test that needs exact UTF-8 checks it itself).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `ttt args...` in the current directory with `stdin` as text, to its end.
pub fn ttt(args: &[&str], stdin: &str) -> Output {
    run(Path::new("."), args, stdin.as_bytes())
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("utf-8 output")
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("utf-8 output")
}

/// Standard output as JSON lines.
pub fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// The exit status of `ttt args...` sent SIGINT (Ctrl-C) half a second after it starts, its
/// standard input left open; fails if it ended before the signal or runs 5 s after it.
pub fn interrupted(args: &[&str]) -> std::process::ExitStatus {
    use std::time::{Duration, Instant};
    let mut child = command(Path::new("."), args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("ttt starts");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        child.try_wait().expect("wait").is_none(),
        "{args:?} still runs"
    );
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{args:?} still runs 5 s after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
