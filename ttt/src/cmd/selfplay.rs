//! `ttt selfplay`: random self-play throughput on one or more threads.

use std::process::ExitCode;
use std::time::Instant;

use rayon::prelude::*;

use tictactoe::selfplay::{self, Totals};

/// Measure random self-play throughput.
///
/// Plays games of uniformly random legal moves on one or more threads and reports moves and
/// games per second.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  ttt selfplay\n  ttt selfplay --threads 1 --games 20000000 \
--json"
)]
pub struct Args {
    /// Threads (default: all cores).
    #[arg(long)]
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
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    if threads == 0 {
        anyhow::bail!("--threads must be at least 1");
    }
    let (start, cpu_start) = (Instant::now(), process_cpu_seconds());
    // One task per thread, each with its own share and seed (seed + i), so a run is reproducible
    // whichever worker picks a task up.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let totals = pool.install(|| {
        (0..threads as u64)
            .into_par_iter()
            .map(|i| {
                let share =
                    args.games / threads as u64 + u64::from(i < args.games % threads as u64);
                selfplay::run(share, args.seed.wrapping_add(i))
            })
            .reduce(Totals::default, Totals::merge)
    });
    let seconds = start.elapsed().as_secs_f64();
    // CPU time of the whole process: on a busy machine it shows what each core delivered.
    let cpu_seconds = process_cpu_seconds()
        .zip(cpu_start)
        .map(|(end, start)| end - start);
    let moves_per_s = totals.moves as f64 / seconds;
    let games_per_s = totals.games as f64 / seconds;
    if args.json {
        let json = serde_json::json!({
            "threads": threads,
            "games": totals.games,
            "moves": totals.moves,
            "seconds": seconds,
            "moves_per_s": moves_per_s,
            "games_per_s": games_per_s,
            "cpu_seconds": cpu_seconds,
            "moves_per_cpu_s": cpu_seconds.map(|cpu| totals.moves as f64 / cpu),
            "x_wins": totals.tally.x_wins,
            "o_wins": totals.tally.o_wins,
            "draws": totals.tally.draws,
        });
        println!("{json}");
    } else {
        println!("threads      {threads}");
        println!("games        {}", totals.games);
        println!("moves        {}", totals.moves);
        println!("seconds      {seconds:.3}");
        println!("moves/s      {:.1} M", moves_per_s / 1e6);
        println!("games/s      {:.1} M", games_per_s / 1e6);
        if let Some(cpu) = cpu_seconds {
            println!(
                "cpu seconds  {cpu:.3} ({:.1} M moves per cpu second)",
                totals.moves as f64 / cpu / 1e6
            );
        }
        let tally = totals.tally;
        let percent = |n: u64| 100.0 * n as f64 / tally.games().max(1) as f64;
        println!(
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
