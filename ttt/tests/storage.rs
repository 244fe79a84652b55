//! `ttt pack`, `ttt unpack` and `ttt info`, run as a user would.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Output, Stdio};

fn ttt(args: &[&str], stdin: &[u8], dir: &Path) -> Output {
    common::run(dir, args, stdin)
}

use common::text;

/// Every reachable position once, in a scrambled order, as text lines.
fn boards_text() -> String {
    let mut lines: Vec<String> = tictactoe::Position::all().map(|p| p.to_string()).collect();
    let n = lines.len();
    for i in 0..n {
        lines.swap(i, (i * 2_654_435_761) % n);
    }
    lines.join("\n") + "\n"
}

#[test]
fn pack_and_unpack_round_trip_through_files_for_every_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let input = boards_text();
    std::fs::write(dir.path().join("boards.txt"), &input).unwrap();
    for encoding in ["mixed-radix", "rank", "count-rank", "base3", "base4"] {
        let out = ttt(
            &["pack", "boards.txt", "-e", encoding, "-o", "b.ttt"],
            b"",
            dir.path(),
        );
        assert!(out.status.success(), "{encoding}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("packed 5478 positions"),
            "{}",
            text(&out.stderr)
        );
        let out = ttt(&["unpack", "b.ttt"], b"", dir.path());
        assert!(out.status.success(), "{encoding}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), input, "{encoding}");
    }
}

#[test]
fn pack_and_unpack_through_stdin_and_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let input = "X.O/..O/.X.\n\n.........\r\nxox/xoo/oxx\n";
    let packed = ttt(&["pack", "-o", "-"], input.as_bytes(), dir.path());
    assert!(packed.status.success(), "{}", text(&packed.stderr));
    let out = ttt(&["unpack", "-"], &packed.stdout, dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "X.O..O.X.\n.........\nXOXXOOOXX\n");
    // Several input files are packed in order; without -o the output is standard output.
    std::fs::write(dir.path().join("a.txt"), "X........\n").unwrap();
    std::fs::write(dir.path().join("b.txt"), "XO.......\n").unwrap();
    let packed = ttt(&["pack", "a.txt", "b.txt"], b"", dir.path());
    let out = ttt(&["unpack", "-"], &packed.stdout, dir.path());
    assert_eq!(text(&out.stdout), "X........\nXO.......\n");
}

#[test]
fn bad_line_is_an_error_naming_the_line_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("in.txt"),
        "X........\n.........\nXXX......\n",
    )
    .unwrap();
    let out = ttt(&["pack", "in.txt", "-o", "out.ttt"], b"", dir.path());
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("ttt: error: in.txt line 3: XXX......: not a reachable position"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "only the input remains: {left:?}");

    let out = ttt(
        &["pack", "-o", "out.ttt"],
        b"X........\nX.Z......\n",
        dir.path(),
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr)
            .starts_with("ttt: error: standard input line 2: \"X.Z......\" is not a board"),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.path().join("out.ttt").exists());
    // Any grid is fine for base3.
    let out = ttt(
        &["pack", "in.txt", "-e", "base3", "-o", "out.ttt"],
        b"",
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn skip_invalid_reports_how_many_lines_it_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let input = b"X........\nnonsense\nXXX......\nO........\n.........\n";
    let out = ttt(
        &["pack", "--skip-invalid", "-o", "out.ttt"],
        input,
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("skipped 3 invalid lines"),
        "{}",
        text(&out.stderr)
    );
    let out = ttt(&["unpack", "out.ttt"], b"", dir.path());
    assert_eq!(text(&out.stdout), "X........\n.........\n");
}

/// Packs 100,000 positions (three blocks of mixed radix) and damages the middle block.
fn damaged_file(dir: &Path) -> (Vec<u8>, String) {
    let all: Vec<String> = tictactoe::Position::all().map(|p| p.to_string()).collect();
    let lines: Vec<&str> = (0..100_000).map(|i| all[i % all.len()].as_str()).collect();
    let input = lines.join("\n") + "\n";
    std::fs::write(dir.join("in.txt"), &input).unwrap();
    let out = ttt(&["pack", "in.txt", "-o", "good.ttt"], b"", dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut bytes = std::fs::read(dir.join("good.ttt")).unwrap();
    // Header (32) + block 0 (8 + 65,528) + head of block 1 (8) + 100 bytes into its payload.
    bytes[32 + 65_536 + 8 + 100] ^= 0x04;
    std::fs::write(dir.join("bad.ttt"), &bytes).unwrap();
    (bytes, input)
}

#[test]
fn damaged_block_is_an_error_and_salvage_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let (_, input) = damaged_file(dir.path());
    let out = ttt(&["unpack", "bad.ttt"], b"", dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "ttt: error: cannot read bad.ttt: block 1 (records 40955 to 81909) is damaged: \
         checksum mismatch\n"
    );
    let out = ttt(&["unpack", "--salvage", "bad.ttt"], b"", dir.path());
    // Damaged data partly recovered: status 3 (2 is a usage error).
    assert_eq!(out.status.code(), Some(3));
    let expected: Vec<&str> = input
        .lines()
        .enumerate()
        .filter(|(i, _)| !(40_955..81_910).contains(i))
        .map(|(_, line)| line)
        .collect();
    assert_eq!(text(&out.stdout), expected.join("\n") + "\n");
    assert_eq!(
        text(&out.stderr),
        "ttt: bad.ttt: records 40955 to 81909 lost (40955): block 1 (records 40955 to 81909) \
         is damaged: checksum mismatch\nttt: bad.ttt: salvaged 59045 records, lost 40955\n"
    );
}

#[test]
fn truncated_and_foreign_files_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    damaged_file(dir.path());
    let bytes = std::fs::read(dir.path().join("good.ttt")).unwrap();
    std::fs::write(dir.path().join("cut.ttt"), &bytes[..bytes.len() - 1_000]).unwrap();
    let out = ttt(&["unpack", "cut.ttt"], b"", dir.path());
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("the file is truncated at byte"),
        "{}",
        text(&out.stderr)
    );
    std::fs::write(dir.path().join("text.ttt"), "X........\n").unwrap();
    let out = ttt(&["unpack", "text.ttt"], b"", dir.path());
    assert!(
        text(&out.stderr).contains(r#"not a .ttt file (wrong magic b"X.......")"#),
        "{}",
        text(&out.stderr)
    );
    let mut version = bytes.clone();
    version[8] = 7;
    std::fs::write(dir.path().join("v7.ttt"), &version).unwrap();
    let out = ttt(&["info", "v7.ttt"], b"", dir.path());
    assert!(
        text(&out.stderr).contains("unknown format version 7"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn info_reports_sizes_against_text_and_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in.txt"), boards_text()).unwrap();
    ttt(&["pack", "in.txt", "-o", "all.ttt"], b"", dir.path());
    let out = ttt(&["info", "--verify", "all.ttt"], b"", dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for expected in [
        "encoding          mixed-radix (reachable positions of 5478; 12.80 bits each)",
        "records           5478 (from the header)",
        "file size         8824 bytes (as the layout requires: 8824)",
        "text form         54780 bytes at 10 bytes/line: the file is 16.1% of it",
        "information limit log2(5478) = 12.419 bits/position",
        "verified          every block checksum",
    ] {
        assert!(stdout.contains(expected), "{expected:?} not in\n{stdout}");
    }
    ttt(
        &["pack", "in.txt", "-e", "base3", "-o", "b3.ttt"],
        b"",
        dir.path(),
    );
    let stdout = text(&ttt(&["info", "b3.ttt"], b"", dir.path()).stdout);
    assert!(
        stdout.contains("information limit log2(19683) = 14.265"),
        "{stdout}"
    );
}

/// `ttt pack -o out.ttt` in `dir`, fed several blocks' worth of input and left running once
/// part of its output reached the temporary file; its stdin is kept open.
fn pack_mid_stream(dir: &Path) -> (Child, ChildStdin, PathBuf) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ttt"))
        .args(["pack", "-o", "out.ttt"])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Several blocks' worth, so that part of the output reaches the disk.
    stdin.write_all(&b".........\n".repeat(300_000)).unwrap();
    stdin.flush().unwrap();
    let temp = (0..1_000)
        .find_map(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            std::fs::read_dir(dir)
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .find(|path| std::fs::metadata(path).is_ok_and(|m| m.len() > 0))
        })
        .expect("the temporary file appears");
    (child, stdin, temp)
}

/// SIGINT and SIGTERM in the middle of `ttt pack -o FILE` remove the temporary file (issue
/// 14: no temporary file survives any failure that can be caught), and so do SIGQUIT, SIGUSR1
/// and the other signals whose default action ends the process (issue 25).
#[cfg(unix)]
#[test]
fn interrupted_pack_removes_its_temporary_file() {
    for signal in ["-INT", "-TERM", "-HUP", "-QUIT", "-USR1", "-USR2", "-ALRM"] {
        let dir = tempfile::tempdir().unwrap();
        let (mut child, stdin, _) = pack_mid_stream(dir.path());
        let pid = child.id().to_string();
        assert!(
            Command::new("kill")
                .args([signal, &pid])
                .status()
                .unwrap()
                .success()
        );
        let status = child.wait().unwrap();
        drop(stdin);
        assert_eq!(status.code(), Some(130), "{signal}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{signal}: {left:?}");
    }
}

#[test]
fn interrupted_pack_leaves_no_file_that_looks_complete() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, stdin, temp) = pack_mid_stream(dir.path());
    child.kill().unwrap();
    child.wait().unwrap();
    drop(stdin);
    assert!(!dir.path().join("out.ttt").exists());
    let name = temp.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with(".out.ttt.") && name.ends_with(".tmp"),
        "{name}"
    );
    // What was written so far is not a complete file either: it has no trailer.
    let bytes = std::fs::read(&temp).unwrap();
    let error = tictactoe::file::Reader::new(&bytes[..])
        .and_then(tictactoe::file::Reader::read_all)
        .unwrap_err();
    assert!(
        matches!(
            error.format(),
            Some(tictactoe::file::FormatError::Truncated { .. })
        ),
        "{error}"
    );
}

/// Issue 25: `pack -o` over an existing file made a 600 file 644; the replacement keeps the
/// permissions of the file it replaces.
#[cfg(unix)]
#[test]
fn pack_over_an_existing_file_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.ttt");
    for mode in [0o600, 0o640, 0o604] {
        std::fs::write(&path, b"old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        let out = ttt(&["pack", "-o", "out.ttt"], b"X........\n", dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, mode, "{mode:o}");
        assert_eq!(meta.len(), 64, "replaced");
    }
}

/// Issue 25: a root-owned 444 file in a world-writable directory was replaced by user
/// `nobody`. A file the user could not write is not replaced (the refusal names it, exit 4,
/// nothing left behind). As root, the run is made as `nobody` with `setpriv`; as anyone else,
/// with the user's own read-only file.
#[cfg(unix)]
#[test]
fn pack_refuses_to_replace_a_file_the_user_could_not_write() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let path = dir.path().join("locked.ttt");
    std::fs::write(&path, b"keep").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout == b"0\n");
    let run = |args: &[&str]| -> Output {
        let mut command = if root {
            let mut command = Command::new("setpriv");
            command
                .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"])
                .arg(env!("CARGO_BIN_EXE_ttt"));
            command
        } else {
            Command::new(env!("CARGO_BIN_EXE_ttt"))
        };
        command
            .args(args)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    if root {
        // `nobody` must be able to run the binary at all (setpriv present, the build directory
        // readable); if not, the case cannot be made here.
        let out = run(&["--version"]);
        if !out.status.success() {
            eprintln!(
                "skipped: cannot run ttt as nobody: {}",
                text(&out.stderr).trim()
            );
            return;
        }
    }
    std::fs::write(dir.path().join("in.txt"), "X........\n").unwrap();
    std::fs::set_permissions(
        dir.path().join("in.txt"),
        std::fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    let out = run(&["pack", "in.txt", "-o", "locked.ttt"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("refusing to replace")
            && text(&out.stderr).contains("locked.ttt")
            && text(&out.stderr).contains("Permission denied"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&path).unwrap(), b"keep");
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["in.txt", "locked.ttt"]);
}
