//! The hint latency of the 3 × 3 and 4 × 4 boards (docs/benchmarks.md, "Hints on the 3 × 3
//! and 4 × 4 boards"): the CPU time an analysis board (`ttt serve`) takes to answer every hint
//! of a position, for every position of real games.
//!
//! ```sh
//! cargo run --release --example board_hints -- GAME GAMES SEED
//! ```
//!
//! `GAME` is `tic-tac-toe` or `4x4`. The positions: every position before the end of `GAMES`
//! games between the family's players (`tictactoe::mnk::agents`: X and O taken in turn from
//! the pairs of random, heuristic, mcts and alphabeta, seeds from `SEED`). A position's hints
//! are what `ttt serve` computes for it: the position's own value and the value of every legal
//! move's position, each a full solve (value, distance, score, best moves). On tic-tac-toe
//! that is the 3 × 3 core's `solver::solve` (its tables), as the server does; on 4 × 4 the
//! family solver (`AnySolver`, default table) with no node budget, timed two ways:
//!
//! - `fresh`: a new solver for each position (its 32 MiB table allocated in the timed span),
//!   the worst case: a position no earlier request has touched, on a server just started;
//! - `kept`: one solver for all positions, in game order, as the server's pool keeps its
//!   solvers from one request to the next.
//!
//! Each answer is timed by the thread's CPU time; the output is one line per range of stones
//! with the positions, p50, p95 and the maximum in microseconds.

use tictactoe::Status;
use tictactoe::mnk::agents::{Agent, Chooser, Strategy};
use tictactoe::mnk::{AnyPosition, AnySolver, Rules};

fn cpu_micros() -> f64 {
    use nix::time::{ClockId, clock_gettime};
    clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID)
        .map_or(0.0, |t| t.tv_sec() as f64 * 1e6 + t.tv_nsec() as f64 / 1e3)
}

/// Every position before the end of `count` games between the family's players.
fn positions(rules: Rules, count: u64, seed: u64) -> Vec<AnyPosition> {
    let levels = [
        Strategy::Random,
        Strategy::Heuristic,
        Strategy::Mcts,
        Strategy::AlphaBeta,
    ];
    let pairs: Vec<(Strategy, Strategy)> = levels
        .iter()
        .flat_map(|&x| levels.iter().map(move |&o| (x, o)))
        .filter(|(x, o)| x != o)
        .collect();
    let mut all = Vec::new();
    for game in 0..count {
        let (x, o) = pairs[game as usize % pairs.len()];
        let mut players = [
            Agent::new(x, seed + 2 * game),
            Agent::new(o, seed + 2 * game + 1),
        ];
        let mut position = AnyPosition::new(rules);
        for turn in 0.. {
            if position.status() != Status::Ongoing {
                break;
            }
            let Some(action) = players[turn % 2].choose(&position) else {
                break;
            };
            all.push(position);
            if position.play(action).is_err() {
                break;
            }
        }
    }
    all
}

/// The position itself and every legal move's position: what the server solves for its hints.
fn targets(position: &AnyPosition) -> Vec<AnyPosition> {
    core::iter::once(*position)
        .chain(position.legal_actions().filter_map(|action| {
            let mut child = *position;
            child.play(action).ok().map(|_| child)
        }))
        .collect()
}

/// The 3 × 3 core's answer for `position`, as the server computes it; `false` if the board is
/// not a position of the core (it always is, for positions of tic-tac-toe games).
fn core_solve(position: &AnyPosition) -> bool {
    let Ok(board) = position.board().to_string().parse::<tictactoe::Board>() else {
        return false;
    };
    let Ok(core) = tictactoe::Position::try_from(board) else {
        return false;
    };
    let solution = tictactoe::solver::solve(core);
    core::hint::black_box(&solution);
    true
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn report(name: &str, rows: &[(u32, f64)], ranges: &[(u32, u32)]) {
    for &(low, high) in ranges {
        let mut times: Vec<f64> = rows
            .iter()
            .filter(|(stones, _)| (low..=high).contains(stones))
            .map(|&(_, micros)| micros)
            .collect();
        if times.is_empty() {
            continue;
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{name} stones {low}-{high}: {} positions, p50 {:.1} µs, p95 {:.1} µs, max {:.1} µs",
            times.len(),
            percentile(&times, 0.5),
            percentile(&times, 0.95),
            times[times.len() - 1],
        );
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, count, seed] = &args[..] else {
        return Err("usage: board_hints tic-tac-toe|4x4 GAMES SEED".into());
    };
    let rules = match game.as_str() {
        "tic-tac-toe" => Rules::TIC_TAC_TOE,
        "4x4" => Rules::FOUR_BY_FOUR,
        other => return Err(format!("game {other:?}: expected tic-tac-toe or 4x4").into()),
    };
    let all = positions(rules, count.parse()?, seed.parse()?);
    let cells = rules.rows() * rules.cols();
    let ranges: Vec<(u32, u32)> = (0..cells as u32)
        .step_by(4)
        .map(|low| (low, (low + 3).min(cells as u32 - 1)))
        .collect();
    if rules == Rules::TIC_TAC_TOE {
        let mut rows = Vec::new();
        for position in &all {
            let start = cpu_micros();
            for target in targets(position) {
                if !core_solve(&target) {
                    return Err(format!("{position}: not a position of the 3 × 3 core").into());
                }
            }
            rows.push((position.plies(), cpu_micros() - start));
        }
        report("core", &rows, &ranges);
        return Ok(());
    }
    for mode in ["fresh", "kept"] {
        let mut kept = AnySolver::new();
        let mut rows = Vec::new();
        for position in &all {
            let start = cpu_micros();
            let mut fresh = AnySolver::new();
            let solver = if mode == "fresh" {
                &mut fresh
            } else {
                &mut kept
            };
            for target in targets(position) {
                if solver.solve(&target, u64::MAX).is_none() {
                    return Err(format!("{target}: no answer without a budget").into());
                }
            }
            rows.push((position.plies(), cpu_micros() - start));
        }
        report(mode, &rows, &ranges);
    }
    Ok(())
}
