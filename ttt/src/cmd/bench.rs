//! `ttt bench`: the paper's experiment reproduced, its defect found, and faster methods timed.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;
use tictactoe::lab::{paper, traditional::Array};
use tictactoe::status::Method;
use tictactoe::status::batch::Kernel;
use tictactoe::{Board, Position};

use crate::args::StatusMethod;
use crate::bench::{self, Measurement, Scenario, chart, published};
use crate::output::{errln, grouped};
use crate::progress::Progress;

/// Time the status methods on the paper's five scenarios and on every position and grid.
///
/// Without flags: the paper's protocol (100,000 iterations x 5 trials per scenario) for every
/// method, then all 5,478 positions and all 19,683 grids; a table like the paper's Figs. 4.1
/// and 4.2, the defect in the paper's patterns, and a comparison with its published figures.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  \
    ttt bench\n  \
    ttt bench --scenario row-win --method traditional --method paper\n  \
    ttt bench --trials 51 --chart bench.svg\n  \
    ttt bench --wide\n  \
    ttt bench --json --iterations 1000\n\n\
    Scenarios: row-win XXX/OO./..., column-win XO./XO./X.., diagonal-win XOO/OXX/XOX,\n\
    full-board-draw XOX/XOO/OXX, early-game X../.O./..., all-positions, all-grids.\n\
    Methods: traditional, paper, masks, table, table-bits, base3, batch, batch-portable by\n\
    default; shift and batch-packed on request (each loses to a default method). batch\n\
    runs on the widest kernel the CPU has (avx512, avx2 or portable, named in the report);\n\
    batch-portable always on the portable one.")]
pub struct Args {
    /// Iterations per trial; in all-positions and all-grids one iteration checks every board
    /// once [default: 100,000 for one board, else enough passes for 100,000 checks]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    iterations: Option<u64>,
    /// Trials per scenario and method.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    trials: u32,
    /// Scenario to run (repeatable) [default: all].
    #[arg(long = "scenario", value_name = "NAME", value_enum)]
    scenarios: Vec<Scenario>,
    /// Method to time (repeatable) [default: all but shift and batch-packed].
    #[arg(long = "method", value_name = "NAME", value_enum)]
    methods: Vec<StatusMethod>,
    /// One JSON object per line per (scenario, method), the machine in each.
    #[arg(long)]
    json: bool,
    /// The full tables (every timing column, the paper's standard deviations and memory), wider
    /// than 100 columns.
    #[arg(long)]
    wide: bool,
    /// Write an SVG chart here (checked writable before anything is measured); no chart
    /// without it.
    #[arg(long, value_name = "PATH")]
    chart: Option<PathBuf>,
    /// No chart (the default; kept for scripts written for earlier versions).
    #[arg(long, conflicts_with = "chart", hide = true)]
    no_chart: bool,
}

/// One (scenario, method) result, as `--json` prints it.
#[derive(Serialize)]
struct Record {
    scenario: &'static str,
    method: &'static str,
    iterations: u64,
    trials: u32,
    checks_per_trial: u64,
    mean_s: f64,
    std_s: f64,
    median_s: f64,
    min_s: f64,
    ns_per_check: f64,
    improvement_pct: Option<f64>,
    state_bytes: usize,
    table_bytes: usize,
    heap_bytes: u64,
    wrong_positions: usize,
    /// The CPU model, from `/proc/cpuinfo`.
    machine: String,
    cores: usize,
    /// The batch kernel `batch` ran on: `portable`, `avx2` or `avx512`.
    batch_kernel: &'static str,
}

/// The asked values of `all`, in `all`'s order (all of them when none was asked).
fn select<T: Copy + PartialEq>(asked: &[T], all: &[T]) -> Vec<T> {
    all.iter()
        .copied()
        .filter(|v| asked.is_empty() || asked.contains(v))
        .collect()
}

/// Everything measured for one scenario.
struct ScenarioRun {
    name: &'static str,
    boards: Vec<Board>,
    iterations: u64,
    results: Vec<(Method, Measurement)>,
}

impl ScenarioRun {
    fn ns(&self, method: Method) -> Option<f64> {
        self.results
            .iter()
            .find(|(m, _)| *m == method)
            .map(|(_, r)| r.ns_per_check())
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let scenarios = select(&args.scenarios, &Scenario::ALL);
    let methods = if args.methods.is_empty() {
        bench::DEFAULT_METHODS.to_vec()
    } else {
        let asked: Vec<Method> = args.methods.iter().map(|m| m.0).collect();
        select(&asked, &Method::ALL)
    };
    let wrong: Vec<usize> = methods.iter().map(|&m| bench::wrong_positions(m)).collect();
    // An unwritable place for the chart fails before the run, not after (and leaves no file).
    if let Some(path) = &args.chart {
        chart::check_writable(path)?;
    }

    let with_split = methods.contains(&Method::Paper);
    let (runs, splits) = measure_all(&args, &scenarios, &methods, with_split);

    let (cpu, cores) = bench::machine();
    let records = records(&runs, &wrong, args.trials, &cpu, cores);
    for r in records.iter().filter(|r| r.ns_per_check < bench::FLOOR_NS) {
        errln!(
            "ttt: warning: {} {} measured {:.4} ns/check, below {} ns: the work was optimised away",
            r.scenario,
            r.method,
            r.ns_per_check,
            bench::FLOOR_NS
        );
    }
    let mut out = crate::output::stdout();
    if args.json {
        for record in &records {
            writeln!(out, "{}", serde_json::to_string(record)?)?;
        }
    } else {
        print_table(
            &mut out,
            &records,
            &cpu,
            cores,
            args.trials,
            &runs,
            args.wide,
        )?;
        if with_split {
            print_defect(&mut out)?;
            print_split(&mut out, &runs, &splits)?;
        }
        print_published(&mut out, &runs, args.wide)?;
    }
    if let Some(path) = &args.chart {
        write_chart(path, &records, &cpu)?;
        if args.json {
            errln!("chart: {}", path.display());
        } else {
            writeln!(out, "\nchart: {}", path.display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Times every (scenario, method) pair, and the paper's conversion and check apart when
/// `with_split`. Within a scenario the trials are interleaved ([`bench::run_interleaved`]).
fn measure_all(
    args: &Args,
    scenarios: &[Scenario],
    methods: &[Method],
    with_split: bool,
) -> (Vec<ScenarioRun>, Vec<Split>) {
    let progress =
        Progress::new(Some(scenarios.len() as u64 * u64::from(args.trials)), "").unless(args.json);
    let (mut runs, mut splits) = (Vec::new(), Vec::new());
    for &scenario in scenarios {
        let (name, boards) = (scenario.name(), scenario.boards());
        let iterations = args
            .iterations
            .unwrap_or_else(|| bench::default_iterations(boards.len()));
        let mut timers: Vec<bench::Timer> = methods
            .iter()
            .map(|&method| bench::timer(method, &boards, iterations))
            .collect();
        if with_split {
            timers.extend(split_timers(&boards, iterations));
        }
        let mut measured = bench::run_interleaved(&mut timers, args.trials, |round| {
            progress.step(format!("{name}: round {} of {}", round + 1, args.trials));
        });
        if with_split {
            let check = measured.pop().expect("the split's two timers");
            let conversion = measured.pop().expect("the split's two timers");
            splits.push(Split { conversion, check });
        }
        runs.push(ScenarioRun {
            name,
            boards,
            iterations,
            results: methods.iter().copied().zip(measured).collect(),
        });
    }
    progress.finish();
    (runs, splits)
}

/// Draws the chart of every record to `path`.
fn write_chart(path: &std::path::Path, records: &[Record], cpu: &str) -> anyhow::Result<()> {
    let bars: Vec<chart::Bar<'_>> = records
        .iter()
        .map(|r| chart::Bar {
            scenario: r.scenario,
            method: r.method,
            ns: r.ns_per_check,
        })
        .collect();
    chart::write(path, &bars, &format!("ttt bench: ns per check, {cpu}"))
}

fn records(
    runs: &[ScenarioRun],
    wrong: &[usize],
    trials: u32,
    cpu: &str,
    cores: usize,
) -> Vec<Record> {
    let mut records = Vec::new();
    for run in runs {
        let base = run.ns(Method::Traditional);
        for (i, (method, m)) in run.results.iter().enumerate() {
            let (state_bytes, table_bytes) = (method.state_bytes(), method.table_bytes());
            let ns = m.ns_per_check();
            records.push(Record {
                scenario: run.name,
                method: method.name(),
                iterations: run.iterations,
                trials,
                checks_per_trial: m.checks_per_trial,
                mean_s: m.mean_s(),
                std_s: m.std_s(),
                median_s: m.median_s(),
                min_s: m.min_s(),
                ns_per_check: ns,
                improvement_pct: base.map(|b| (b - ns) / b * 100.0),
                state_bytes,
                table_bytes,
                heap_bytes: m.heap_bytes,
                wrong_positions: wrong[i],
                machine: cpu.to_owned(),
                cores,
                batch_kernel: Kernel::best().name(),
            });
        }
    }
    records
}

fn print_table(
    out: &mut impl Write,
    records: &[Record],
    cpu: &str,
    cores: usize,
    trials: u32,
    runs: &[ScenarioRun],
    wide: bool,
) -> io::Result<()> {
    // The CPU name is the one part of unknown length: cut so the line fits 100 columns.
    let cpu: String = if wide {
        cpu.to_owned()
    } else {
        cpu.chars().take(60).collect()
    };
    writeln!(
        out,
        "ttt bench: {trials} trials per scenario and method\nmachine: {cpu}, {cores} cores; \
         batch kernel: {}",
        Kernel::best().name()
    )?;
    for run in runs {
        writeln!(
            out,
            "  {:<16} {} board(s) x {} iterations = {} checks per trial",
            run.name,
            run.boards.len(),
            run.iterations,
            run.boards.len() as u64 * run.iterations
        )?;
    }
    if wide {
        writeln!(
            out,
            "\n{:<16} {:<14} {:>14} {:>12} {:>9} {:>10} {:>6} {:>6} {:>6} {:>6}",
            "scenario",
            "method",
            "s/100k checks",
            "std",
            "ns/check",
            "vs trad.",
            "state",
            "table",
            "heap",
            "wrong"
        )?;
    } else {
        writeln!(
            out,
            "\n{:<16} {:<14} {:>9} {:>10} {:>6} {:>6}",
            "scenario", "method", "ns/check", "vs trad.", "heap", "wrong"
        )?;
    }
    let mut last = "";
    for r in records {
        if r.scenario != last && !last.is_empty() {
            writeln!(out)?;
        }
        last = r.scenario;
        let scale = 100_000.0 / r.checks_per_trial as f64;
        let improvement = r
            .improvement_pct
            .map_or_else(|| "-".to_owned(), |p| format!("{p:+.1}%"));
        if wide {
            writeln!(
                out,
                "{:<16} {:<14} {:>14.8} {:>12.8} {:>9.3} {:>10} {:>6} {:>6} {:>6} {:>6}",
                r.scenario,
                r.method,
                r.mean_s * scale,
                r.std_s * scale,
                r.ns_per_check,
                improvement,
                r.state_bytes,
                r.table_bytes,
                r.heap_bytes,
                r.wrong_positions
            )?;
        } else {
            writeln!(
                out,
                "{:<16} {:<14} {:>9.3} {:>10} {:>6} {:>6}",
                r.scenario, r.method, r.ns_per_check, improvement, r.heap_bytes, r.wrong_positions
            )?;
        }
    }
    if wide {
        writeln!(
            out,
            "\nstate = bytes per board of the method's representation, table = bytes of static \
             tables,\nheap = bytes allocated inside the timed loops (counting allocator), wrong = how many \
             of the 5,478 positions answered wrongly.\ns/100k checks and std: mean and standard \
             deviation of the trials, as in the paper; ns/check and vs trad.: the median trial."
        )?;
    } else {
        writeln!(
            out,
            "\nns/check and vs trad.: the median trial; heap = bytes allocated inside the timed loops;\n\
             wrong = how many of the 5,478 positions the method answers wrongly. --wide adds the\n\
             paper's columns (mean and std per 100,000 checks, state and table bytes), --json all."
        )?;
    }
    Ok(())
}

/// The paper's method taken apart: conversion alone, pattern check alone (ns per check).
struct Split {
    conversion: Measurement,
    check: Measurement,
}

/// Timers for the paper's conversion alone and its pattern check alone, in that order.
fn split_timers(boards: &[Board], iterations: u64) -> [bench::Timer; 2] {
    let arrays: Vec<Array> = boards.iter().map(|&b| Array::from(b)).collect();
    let bitboards: Vec<(u16, u16)> = arrays.iter().map(|&a| paper::to_bitboards(a)).collect();
    [
        bench::time_fn(&arrays, iterations, paper::to_bitboards, |(x, o)| {
            u64::from(x ^ o)
        }),
        bench::time_fn(
            &bitboards,
            iterations,
            |(x, o)| paper::check_bitboards(x, o),
            |w| w as u64,
        ),
    ]
}

fn print_defect(out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "\nThe paper's defect (Fig. 3.3), found by exhaustive comparison"
    )?;
    for (label, pattern) in paper::DEFECTIVE.iter().flatten() {
        let cells: Vec<String> = (0..9)
            .filter(|i| pattern >> i & 1 != 0)
            .map(|i| i.to_string())
            .collect();
        writeln!(
            out,
            "  pattern {label} = {pattern:#011b} covers {} cells ({}) with bit i = cell i\n  \
             (as its board_to_bitboard sets them): not a line.",
            cells.len(),
            cells.join(", ")
        )?;
    }
    let wrong_grids = bench::wrong_grids(Method::Paper);
    let wrong_positions: Vec<Position> = Position::all()
        .filter(|p| Method::Paper.winner(p.board()) != p.winner())
        .collect();
    writeln!(
        out,
        "  A top-row win is missed unless the winner also holds cell 3: the printed method \
         answers\n  wrongly on {} of {} positions and {} of {} grids (every other method: 0).",
        grouped(wrong_positions.len() as u64),
        grouped(Position::all().count() as u64),
        grouped(wrong_grids.len() as u64),
        grouped(Board::all().len() as u64)
    )?;
    writeln!(
        out,
        "  Three of the positions it gets wrong (it answers \"no winner\"):"
    )?;
    let examples: Vec<Board> = wrong_positions.iter().take(3).map(|p| p.board()).collect();
    for row in 0..3 {
        let line: Vec<String> = examples
            .iter()
            .map(|b| format!("{b:#}").lines().nth(row).unwrap_or("").to_owned())
            .collect();
        writeln!(out, "      {}", line.join("        "))?;
    }
    let row_win_text = Scenario::RowWin.board_text().expect("a one-board scenario");
    let row_win: Board = row_win_text.parse().expect("valid scenario board");
    if Method::Paper.winner(row_win).is_none() {
        writeln!(
            out,
            "  The paper's own row-win scenario {row_win_text} is one of them: the method it \
             times there\n  answers \"no winner\"."
        )?;
    }
    Ok(())
}

/// The paper's timing taken apart: conversion alone and check alone next to the whole.
fn print_split(out: &mut impl Write, runs: &[ScenarioRun], splits: &[Split]) -> io::Result<()> {
    writeln!(
        out,
        "\n  Conversion separated from check (ns per check; improvement over traditional):"
    )?;
    writeln!(
        out,
        "  {:<16} {:>11} {:>11} {:>11} {:>11} {:>14} {:>14}",
        "scenario", "traditional", "paper", "convert", "check", "paper vs trad", "check vs trad"
    )?;
    for (run, split) in runs.iter().zip(splits) {
        let (Some(trad), Some(whole)) = (run.ns(Method::Traditional), run.ns(Method::Paper)) else {
            continue;
        };
        let (conv, check) = (split.conversion.ns_per_check(), split.check.ns_per_check());
        writeln!(
            out,
            "  {:<16} {:>11.3} {:>11.3} {:>11.3} {:>11.3} {:>13.1}% {:>13.1}%",
            run.name,
            trad,
            whole,
            conv,
            check,
            (trad - whole) / trad * 100.0,
            (trad - check) / trad * 100.0
        )?;
    }
    if runs.iter().all(|r| r.ns(Method::Traditional).is_none()) {
        writeln!(out, "  (add --method traditional for the comparison)")?;
    }
    Ok(())
}

/// The paper's published figures next to ours.
fn print_published(out: &mut impl Write, runs: &[ScenarioRun], wide: bool) -> io::Result<()> {
    let paper_runs: Vec<&ScenarioRun> = runs
        .iter()
        .filter(|r| published::for_scenario(r.name).is_some())
        .collect();
    if paper_runs.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "\nAgainst the paper's published figures (Figs. 4.1, 4.2; seconds per 100,000 checks)\n  \
         The paper ran Python on unstated hardware; we run compiled Rust on the machine above.\n  \
         Language, hardware and method all differ, so a ratio measures the three together.\n  \
         (* median trial, seconds per 100,000 checks)"
    )?;
    if !wide {
        print_published_narrow(out, &paper_runs)?;
        return print_ratios(out, &paper_runs);
    }
    writeln!(
        out,
        "  {:<16} {:>20} {:>20} {:>8} {:>11} | {:>10} {:>10} {:>8} {:>6}",
        "scenario",
        "pub. trad. (std)",
        "pub. Boolean (std)",
        "pub. +%",
        "pub. KB t/B",
        "our trad.*",
        "our paper*",
        "our +%",
        "heap"
    )?;
    for run in &paper_runs {
        let p = published::for_scenario(run.name).expect("filtered above");
        let Ours {
            trad,
            paper,
            improvement,
        } = Ours::of(run);
        let s = Ours::seconds;
        let heap = trad
            .iter()
            .chain(paper.iter())
            .map(|m| m.heap_bytes)
            .sum::<u64>();
        writeln!(
            out,
            "  {:<16} {:>9.6} ({:>8.6}) {:>9.6} ({:>8.6}) {:>8.1} {:>5.1}/{:<5.1} | {:>10} {:>10} {:>8} {:>5}B",
            run.name,
            p.traditional_s,
            p.traditional_std,
            p.boolean_s,
            p.boolean_std,
            p.improvement_pct,
            p.traditional_kb,
            p.boolean_kb,
            s(trad),
            s(paper),
            improvement,
            heap
        )?;
    }
    print_ratios(out, &paper_runs)
}

/// Our traditional and paper timings of one scenario, and the gain of the paper's method.
struct Ours<'a> {
    trad: Option<&'a Measurement>,
    paper: Option<&'a Measurement>,
    improvement: String,
}

impl<'a> Ours<'a> {
    fn of(run: &'a ScenarioRun) -> Ours<'a> {
        let ours = |method: Method| {
            run.results
                .iter()
                .find(|(m, _)| *m == method)
                .map(|(_, m)| m)
        };
        let (trad, paper) = (ours(Method::Traditional), ours(Method::Paper));
        let improvement = match (trad, paper) {
            (Some(t), Some(b)) => format!(
                "{:+.1}",
                (t.median_s()
                    - b.median_s() * t.checks_per_trial as f64 / b.checks_per_trial as f64)
                    / t.median_s()
                    * 100.0
            ),
            _ => "-".to_owned(),
        };
        Ours {
            trad,
            paper,
            improvement,
        }
    }

    /// The median trial in seconds per 100,000 checks, or `-`.
    fn seconds(m: Option<&Measurement>) -> String {
        m.map_or_else(
            || "-".to_owned(),
            |m| format!("{:.7}", m.per_100k(m.median_s())),
        )
    }
}

/// The published figures against ours in 100 columns (the deviations and memory with --wide).
fn print_published_narrow(out: &mut impl Write, paper_runs: &[&ScenarioRun]) -> io::Result<()> {
    writeln!(
        out,
        "  {:<16} {:>10} {:>12} {:>8} | {:>10} {:>10} {:>8}",
        "scenario", "pub. trad.", "pub. Boolean", "pub. +%", "our trad.*", "our paper*", "our +%"
    )?;
    for run in paper_runs {
        let (p, ours) = (
            published::for_scenario(run.name).expect("only the paper's scenarios"),
            Ours::of(run),
        );
        writeln!(
            out,
            "  {:<16} {:>10.6} {:>12.6} {:>8.1} | {:>10} {:>10} {:>8}",
            run.name,
            p.traditional_s,
            p.boolean_s,
            p.improvement_pct,
            Ours::seconds(ours.trad),
            Ours::seconds(ours.paper),
            ours.improvement
        )?;
    }
    Ok(())
}

/// How many times faster per check than the paper's Python each method is, per scenario.
fn print_ratios(out: &mut impl Write, paper_runs: &[&ScenarioRun]) -> io::Result<()> {
    let methods: Vec<&str> = paper_runs[0]
        .results
        .iter()
        .map(|(m, _)| m.name())
        .collect();
    writeln!(
        out,
        "\n  Times faster per check than the paper's Python (traditional vs its traditional, \
         paper vs\n  its Boolean, every other method vs the faster of the two):"
    )?;
    write!(out, "  {:<14}", "method")?;
    for run in paper_runs {
        write!(out, " {:>15}", run.name)?;
    }
    writeln!(out)?;
    for (i, name) in methods.iter().enumerate() {
        write!(out, "  {name:<14}")?;
        for run in paper_runs {
            let p = published::for_scenario(run.name).expect("only the paper's scenarios");
            let Some((method, m)) = run.results.get(i) else {
                continue;
            };
            // Ours against the paper's own method; the faster methods against its best.
            let counterpart = match *method {
                Method::Traditional => p.traditional_s,
                Method::Paper => p.boolean_s,
                Method::Masks
                | Method::Table
                | Method::TableBits
                | Method::Shift
                | Method::Base3
                | Method::Batch
                | Method::BatchPortable
                | Method::BatchPacked => p.traditional_s.min(p.boolean_s),
            };
            write!(out, " {:>14.0}x", counterpart / m.per_100k(m.median_s()))?;
        }
        writeln!(out)?;
    }
    Ok(())
}
