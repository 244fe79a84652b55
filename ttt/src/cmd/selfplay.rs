//! `ttt selfplay`: random self-play throughput on one or more threads.

use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;

use crate::output::outln;
use crate::progress::Progress;

/// Games a thread plays between two updates of the progress bar.
const CHUNK: u64 = 1 << 14;
use tictactoe::selfplay::{self, Totals};

/// Measure random self-play throughput.
///
/// Plays games of uniformly random legal moves on one or more threads and reports moves and
/// games per second.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  ttt selfplay\n  ttt selfplay --threads 1 --games 20000000 \
--json\n  ttt selfplay --game connect-four --games 1000000\n  ttt selfplay --game ultimate --games 1000000"
)]
pub struct Args {
    /// Threads, 1 to 256 (default: all cores).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Games in total, split evenly between the threads.
    #[arg(long, default_value_t = 10_000_000)]
    games: u64,
    /// Seed of the first thread (thread i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: crate::args::Game,
}

/// The JSON object of `selfplay`, keys in this order.
#[derive(serde::Serialize)]
struct SelfplayJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    threads: usize,
    seed: u64,
    games: u64,
    moves: u64,
    seconds: f64,
    moves_per_s: f64,
    games_per_s: f64,
    cpu_seconds: Option<f64>,
    moves_per_cpu_s: Option<f64>,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    // One task per thread, each with its own share and seed (seed + i), so a run is reproducible
    // whichever worker picks a task up. The clock starts once the threads exist, so a short run
    // measures games, not thread start-up.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    pool.broadcast(|_| ());
    let progress = Progress::new(Some(args.games), "games").unless(args.json);
    let (start, cpu_start) = (Instant::now(), process_cpu_seconds());
    let totals = pool.install(|| {
        (0..threads as u64)
            .into_par_iter()
            .map(|i| {
                let share =
                    args.games / threads as u64 + u64::from(i < args.games % threads as u64);
                let seed = args.seed.wrapping_add(i);
                // A chunk takes a few milliseconds: the bar moves smoothly and costs nothing.
                let mut done = |n| progress.inc(n);
                match args.game.spec {
                    None => selfplay::run_chunked(share, seed, CHUNK, &mut done),
                    Some(crate::ultimate::Spec::Family(rules)) => {
                        tictactoe::mnk::agents::random_games_chunked(
                            rules, share, seed, CHUNK, &mut done,
                        )
                    }
                    Some(crate::ultimate::Spec::Ultimate) => {
                        tictactoe::ultimate::agents::random_games_chunked(
                            share, seed, CHUNK, &mut done,
                        )
                    }
                }
            })
            .reduce(Totals::default, Totals::merge)
    });
    progress.finish();
    let seconds = start.elapsed().as_secs_f64();
    // CPU time of the whole process: on a busy machine it shows what each core delivered.
    let cpu_seconds = process_cpu_seconds()
        .zip(cpu_start)
        .map(|(end, start)| end - start);
    let moves_per_s = totals.moves as f64 / seconds;
    let games_per_s = totals.games as f64 / seconds;
    if args.json {
        let json = SelfplayJson {
            game: args.game.spec.map(|rules| rules.to_string()),
            threads,
            seed: args.seed,
            games: totals.games,
            moves: totals.moves,
            seconds,
            moves_per_s,
            games_per_s,
            cpu_seconds,
            moves_per_cpu_s: cpu_seconds.map(|cpu| totals.moves as f64 / cpu),
            x_wins: totals.tally.x_wins,
            o_wins: totals.tally.o_wins,
            draws: totals.tally.draws,
        };
        outln!("{}", serde_json::to_string(&json)?);
    } else {
        if let Some(rules) = args.game.spec {
            outln!("game         {rules}");
        }
        outln!("threads      {threads}");
        outln!("games        {}", totals.games);
        outln!("moves        {}", totals.moves);
        outln!("seconds      {seconds:.3}");
        outln!("moves/s      {}", rate(moves_per_s));
        outln!("games/s      {}", rate(games_per_s));
        if let Some(cpu) = cpu_seconds {
            outln!(
                "cpu seconds  {cpu:.3} ({} moves per cpu second)",
                rate(totals.moves as f64 / cpu)
            );
        }
        let tally = totals.tally;
        let percent = |n: u64| 100.0 * n as f64 / tally.games().max(1) as f64;
        outln!(
            "results      X {:.2}%, O {:.2}%, draw {:.2}%",
            percent(tally.x_wins),
            percent(tally.o_wins),
            percent(tally.draws)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// User plus system CPU seconds of this process so far, from `/proc/self/stat` (Linux; `None`
/// elsewhere). Fields 14 and 15 count clock ticks of 1/100 s (`USER_HZ`, fixed by the Linux ABI).
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces; the fields after it are plain numbers.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some((ticks(11)? + ticks(12)?) as f64 / 100.0)
}

/// Most threads `--threads` takes: far more than the cores of any machine it runs on, and few
/// enough that starting them does not dwarf the games.
const MAX_THREADS: usize = 256;

/// A thread count from 1 to [`MAX_THREADS`]: anything else is a usage error.
fn parse_threads(text: &str) -> Result<usize, String> {
    let threads: usize = text
        .parse()
        .map_err(|_| format!("{text:?} is not a thread count (1 to {MAX_THREADS})"))?;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    match threads {
        0 => Err("at least 1 thread is needed".to_owned()),
        n if n > MAX_THREADS => Err(format!(
            "{n} threads is too many: at most {MAX_THREADS} (this machine has {cores} cores)"
        )),
        n => Ok(n),
    }
}

/// A rate in the unit that shows its digits: `12.3 M`, `456.7 k`, `89.0`; `-` when the time was
/// too short to measure (no rate, rather than a wrong one).
fn rate(per_second: f64) -> String {
    if !per_second.is_finite() {
        "- (too short to measure)".to_owned()
    } else if per_second >= 1e6 {
        format!("{:.1} M", per_second / 1e6)
    } else if per_second >= 1e3 {
        format!("{:.1} k", per_second / 1e3)
    } else {
        format!("{per_second:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_keep_their_digits() {
        assert_eq!(rate(12_345_678.0), "12.3 M");
        assert_eq!(rate(45_678.0), "45.7 k");
        assert_eq!(rate(12.0), "12.0");
        assert_eq!(rate(f64::INFINITY), "- (too short to measure)");
    }

    #[test]
    fn thread_counts_are_bounded() {
        assert_eq!(parse_threads("4"), Ok(4));
        assert!(parse_threads("0").is_err());
        assert!(parse_threads("5000").unwrap_err().contains("at most 256"));
    }
}
