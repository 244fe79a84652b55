//! `ttt bench` end to end, with tiny iteration counts: the output's shape and the counts it
//! computes, never its timings.

mod common;

use std::process::Output;

use serde_json::Value;

fn ttt(args: &[&str]) -> Output {
    common::run(std::path::Path::new("."), args, b"")
}

fn json_lines(args: &[&str]) -> Vec<Value> {
    let output = ttt(args);
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .expect("utf-8")
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

const KEYS: [&str; 12] = [
    "scenario",
    "method",
    "iterations",
    "trials",
    "mean_s",
    "std_s",
    "ns_per_check",
    "improvement_pct",
    "state_bytes",
    "table_bytes",
    "heap_bytes",
    "wrong_positions",
];

#[test]
fn json_has_one_kind_of_record_per_scenario_and_method_with_the_machine() {
    let lines = json_lines(&[
        "bench",
        "--json",
        "--iterations",
        "20",
        "--trials",
        "2",
        "--scenario",
        "row-win",
        "--scenario",
        "all-positions",
    ]);
    // One kind of object only: the machine is in every record, not a line of its own.
    let records = &lines[..];
    for machine in records {
        assert!(machine["machine"].is_string() && machine["cores"].as_u64() >= Some(1));
        let kernel = machine["batch_kernel"].as_str().expect("the batch kernel");
        assert!(
            tictactoe::status::batch::Kernel::ALL
                .iter()
                .any(|k| k.name() == kernel),
            "{kernel}"
        );
    }
    let methods = [
        "traditional",
        "paper",
        "masks",
        "table",
        "table-bits",
        "base3",
        "batch",
        "batch-portable",
    ];
    assert_eq!(records.len(), 2 * methods.len());
    for (record, (scenario, method)) in records.iter().zip(
        ["row-win", "all-positions"]
            .iter()
            .flat_map(|s| methods.iter().map(move |m| (*s, *m))),
    ) {
        for key in KEYS {
            assert!(record.get(key).is_some(), "{key} missing in {record}");
        }
        assert_eq!(record["scenario"], scenario);
        assert_eq!(record["method"], method);
        assert_eq!(record["iterations"], 20);
        assert_eq!(record["trials"], 2);
        assert_eq!(record["heap_bytes"], 0, "{record}");
        let wrong = record["wrong_positions"].as_u64().expect("a count");
        if method == "paper" {
            assert_eq!(wrong, 95);
        } else {
            assert_eq!(wrong, 0, "{method}");
        }
        assert!(record["ns_per_check"].as_f64() > Some(0.0));
    }
}

#[test]
fn every_method_can_be_asked_for() {
    let all = [
        "traditional",
        "paper",
        "masks",
        "table",
        "table-bits",
        "shift",
        "base3",
        "batch",
        "batch-portable",
        "batch-packed",
    ];
    let mut args = vec![
        "bench",
        "--json",
        "--iterations",
        "1",
        "--trials",
        "1",
        "--scenario",
        "all-grids",
    ];
    for method in all {
        args.extend(["--method", method]);
    }
    let lines = json_lines(&args);
    let methods: Vec<&str> = lines.iter().filter_map(|l| l["method"].as_str()).collect();
    assert_eq!(methods, all);
    for line in &lines[..all.len()] {
        assert_eq!(line["iterations"], 1);
        assert!(line["state_bytes"].as_u64() >= Some(2));
    }
}

#[test]
fn text_report_names_the_defect_and_the_published_figures() {
    let output = ttt(&[
        "bench",
        "--iterations",
        "10",
        "--trials",
        "1",
        "--scenario",
        "row-win",
        "--no-chart",
    ]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).expect("utf-8");
    assert!(
        text.contains("Row 3 = 0b000001111 covers 4 cells (0, 1, 2, 3)"),
        "{text}"
    );
    assert!(
        text.contains("95 of 5,478 positions and 570 of 19,683 grids"),
        "{text}"
    );
    assert!(text.contains("0.134855"), "published figures cited: {text}");
    assert!(text.contains("Language, hardware and method all differ"));
}

#[test]
fn chart_is_written_where_asked() {
    let dir = std::env::temp_dir().join(format!("ttt-bench-test-{}", std::process::id()));
    let path = dir.join("chart.svg");
    let path_text = path.to_str().expect("utf-8 path");
    let output = ttt(&[
        "bench",
        "--iterations",
        "5",
        "--trials",
        "1",
        "--scenario",
        "early-game",
        "--chart",
        path_text,
    ]);
    assert!(output.status.success(), "{output:?}");
    let svg = std::fs::read_to_string(&path).expect("chart written");
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("early-game") && svg.contains("masks"));
    assert!(String::from_utf8_lossy(&output.stdout).contains(path_text));
    std::fs::remove_dir_all(dir).expect("cleanup");
}

#[test]
fn bad_names_are_usage_errors_listing_the_valid_ones() {
    for (flag, bad, valid) in [
        ("--scenario", "row-wins", "row-win, column-win"),
        ("--method", "boolean", "traditional, paper, masks"),
    ] {
        let output = ttt(&["bench", flag, bad, "--iterations", "1"]);
        // A usage error: exit status 2, before anything is measured.
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        assert!(output.stdout.is_empty());
        let err = String::from_utf8(output.stderr).expect("utf-8");
        assert!(
            err.starts_with(&format!("error: invalid value '{bad}' for '{flag} <NAME>'")),
            "{err}"
        );
        assert!(err.contains(valid), "{err}");
    }
}

#[test]
fn bad_numbers_are_rejected() {
    for args in [
        ["bench", "--iterations", "0"],
        ["bench", "--trials", "0"],
        ["bench", "--iterations", "many"],
    ] {
        let output = ttt(&args);
        assert!(!output.status.success(), "{args:?}");
        assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
    }
}

#[test]
fn no_chart_unless_asked_and_an_unwritable_chart_fails_before_the_run() {
    let dir = std::env::temp_dir().join(format!("ttt-bench-nochart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let output = common::run(
        &dir,
        &[
            "bench",
            "--iterations=5",
            "--trials=1",
            "--scenario=row-win",
        ],
        b"",
    );
    assert!(output.status.success(), "{output:?}");
    let left: Vec<_> = std::fs::read_dir(&dir).expect("readable").collect();
    assert!(left.is_empty(), "bench wrote {left:?} without --chart");
    std::fs::remove_dir_all(&dir).expect("cleanup");

    // A chart that cannot be written: an I/O error (4) before anything is measured.
    let started = std::time::Instant::now();
    let output = ttt(&["bench", "--chart", "/proc/no/such/dir/chart.svg"]); // unwritable
    assert_eq!(output.status.code(), Some(4), "{output:?}");
    assert!(output.stdout.is_empty(), "nothing measured");
    assert!(started.elapsed().as_secs() < 5);
    assert!(String::from_utf8_lossy(&output.stderr).contains("/proc/no/such/dir"));
}

#[test]
fn text_report_fits_100_columns_unless_wide() {
    let args = ["bench", "--iterations", "5", "--trials", "1"];
    let narrow = String::from_utf8(ttt(&args).stdout).expect("utf-8");
    let wide_lines = |text: &str| text.lines().filter(|l| l.chars().count() > 100).count();
    assert_eq!(wide_lines(&narrow), 0, "{narrow}");
    let mut wide_args = args.to_vec();
    wide_args.push("--wide");
    let wide = String::from_utf8(ttt(&wide_args).stdout).expect("utf-8");
    assert!(wide_lines(&wide) > 0, "--wide shows the full table");
    assert!(wide.contains("s/100k checks"));
}

/// Issue 25: `--chart /dev/full` exited 0 after the failed write (plotters dropped the
/// error); now the chart is drawn in memory and written with every error checked.
#[cfg(target_os = "linux")]
#[test]
fn a_chart_that_cannot_be_written_is_an_io_error() {
    let output = ttt(&[
        "bench",
        "--iterations=5",
        "--trials=1",
        "--scenario=row-win",
        "--chart",
        "/dev/full",
    ]);
    assert_eq!(output.status.code(), Some(4), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot write the chart to /dev/full: No space left on device"),
        "{stderr}"
    );
}

/// The check before the run leaves no empty chart behind: it used to create the file, which a
/// run that then failed (a full disk, a kill) left at 0 bytes.
#[cfg(unix)]
#[test]
fn a_run_stopped_before_its_chart_leaves_no_file() {
    let dir = tempfile::tempdir().expect("a directory");
    let mut child = common::spawn(
        dir.path(),
        &["bench", "--trials=51", "--chart", "chart.svg"],
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().expect("ttt still runs");
    let output = child.wait_with_output().expect("ttt ends");
    assert!(!output.status.success(), "the run was cut short");
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("readable").collect();
    assert!(left.is_empty(), "{left:?}");
}
