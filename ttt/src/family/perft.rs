//! `ttt perft --game SPEC DEPTH`: move sequences by depth, from the library's breadth-first
//! count ([`tictactoe::mnk::count::layers`]), which merges the sequences that reach one
//! position.

use std::process::ExitCode;

use tictactoe::mnk::Rules;
use tictactoe::mnk::count::{self, CountError};

use crate::exit;
use crate::output::outln;

/// Most distinct positions one ply may hold: about 1.5 GB of hash map on the widest boards.
pub const LIMIT: u64 = 16_000_000;

/// The sequences of each depth 0 to `depth` (0 past the end of every game).
///
/// # Errors
/// A usage error for a depth past the last move or a layer past [`LIMIT`].
pub fn sequences(rules: Rules, depth: u32) -> anyhow::Result<Vec<u64>> {
    if depth > rules.cells() {
        return exit::usage(format!(
            "depth {depth} is too deep: a {rules} game lasts at most {} moves (depths 0 to {})",
            rules.cells(),
            rules.cells()
        ));
    }
    let layers = count::layers(rules, depth, LIMIT).or_else(refuse)?;
    let mut counts: Vec<u64> = layers.iter().map(|l| l.sequences).collect();
    counts.resize(depth as usize + 1, 0);
    Ok(counts)
}

/// A count the library refused, as a usage error (a request the tool refuses).
///
/// # Errors
/// Always.
pub fn refuse<T>(error: CountError) -> anyhow::Result<T> {
    exit::usage(error.to_string())
}

/// Prints the sequences by depth, as the 3 × 3 `perft` does, with the game in JSON.
///
/// # Errors
/// As [`sequences`], or a failed write.
pub fn run(rules: Rules, depth: u32, json: bool) -> anyhow::Result<ExitCode> {
    let counts = sequences(rules, depth)?;
    if json {
        outln!(
            "{}",
            serde_json::json!({ "game": rules.to_string(), "perft": counts })
        );
    } else {
        for (depth, count) in counts.iter().enumerate() {
            outln!("{depth} {count}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
