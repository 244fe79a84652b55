//! `ttt perft --game SPEC DEPTH`: move sequences by depth, from the library's breadth-first
//! count ([`tictactoe::mnk::count::layers_within`]), which merges the sequences that reach one
//! position, under a memory limit ([`super::memory`]) checked before the count starts and
//! again before each table grows, with the plies on a progress bar.

use std::process::ExitCode;

use tictactoe::mnk::Rules;
use tictactoe::mnk::count::{self, CountError, Counted, Layer, Tick};

use super::memory::{self, Limit};
use crate::exit;
use crate::output::grouped;
use crate::output::{errln, outln};
use crate::progress::Progress;

/// Refuses a depth past the last move.
///
/// # Errors
/// A usage error.
pub fn check_depth(rules: Rules, depth: u32) -> anyhow::Result<()> {
    if depth > rules.cells() {
        return exit::usage(format!(
            "depth {depth} is too deep: a {rules} game lasts at most {} moves (depths 0 to {})",
            rules.cells(),
            rules.cells()
        ));
    }
    Ok(())
}

/// Counts the plies 0 to `plies` of `rules` within `limit`, refusing up front what the growth
/// model says would not fit, and showing the plies on a progress bar unless `json`.
///
/// # Errors
/// The up-front refusal (a usage error).
pub fn count(rules: Rules, plies: u32, limit: Limit, json: bool) -> anyhow::Result<Counted> {
    memory::check(rules, plies, limit)?;
    let progress = Progress::spinner("").unless(json);
    let counted = count::layers_within(rules, plies, limit.bytes, &mut |tick| match tick {
        Tick::Parents {
            plies: ply,
            done,
            of,
            positions,
        } => progress.message(format!(
            "ply {ply} of {plies}: {} of {} positions of ply {} expanded, {} found",
            grouped(done),
            grouped(of),
            ply - 1,
            grouped(positions)
        )),
        Tick::Finished(layer) => progress.message(format!(
            "ply {} of {plies} done: {} positions",
            layer.plies,
            grouped(layer.positions)
        )),
    });
    progress.finish();
    Ok(counted)
}

/// A count the library refused, as a usage error (a request the tool refuses).
///
/// # Errors
/// Always.
pub fn refuse<T>(error: CountError) -> anyhow::Result<T> {
    exit::usage(error.to_string())
}

/// Why a count stopped, for people: the ply, the reason, and that the plies before are
/// complete.
#[must_use]
pub fn stopped(error: CountError, limit: Limit, finished: &[Layer]) -> String {
    let last = finished.last().map_or(0, |l| l.plies);
    match error {
        CountError::OutOfMemory { rules, plies, .. } => format!(
            "{rules}: stopped before ply {plies} would pass {}; plies 0 to {last} are complete",
            limit.describe()
        ),
        other => format!("{other}; plies 0 to {last} are complete"),
    }
}

/// Prints the sequences by depth, as the 3 × 3 `perft` does, with the game in JSON; a count
/// stopped by the memory limit prints the plies it finished (`"stopped"` in JSON) and exits
/// with status 2.
///
/// # Errors
/// A depth past the end of the game, a count refused up front, or a failed write.
pub fn run(
    rules: Rules,
    depth: u32,
    max_memory: Option<u64>,
    json: bool,
) -> anyhow::Result<ExitCode> {
    check_depth(rules, depth)?;
    let limit = Limit::of(max_memory);
    let counted = count(rules, depth, limit, json)?;
    let mut counts: Vec<u64> = counted.layers.iter().map(|l| l.sequences).collect();
    let why = counted
        .stopped
        .map(|error| stopped(error, limit, &counted.layers));
    if why.is_none() {
        // Past the end of every game there are no sequences.
        counts.resize(depth as usize + 1, 0);
    }
    if json {
        let mut object = serde_json::json!({ "game": rules.to_string(), "perft": counts });
        if let Some(why) = &why {
            object["stopped"] = why.clone().into();
        }
        outln!("{object}");
    } else {
        for (depth, count) in counts.iter().enumerate() {
            outln!("{depth} {count}");
        }
    }
    match why {
        None => Ok(ExitCode::SUCCESS),
        Some(why) => {
            errln!("ttt: error: {why}");
            Ok(ExitCode::from(exit::USAGE))
        }
    }
}
