//! `ttt perft --game ultimate DEPTH`: move sequences by depth from the empty board, counted by
//! the library's `Position::perft` under each move of the first two plies, those subtrees
//! shared between the cores, with the subtrees done on a progress bar.

use std::process::ExitCode;

use rayon::prelude::*;
use tictactoe::ultimate::Position;

use crate::exit;
use crate::output::outln;
use crate::progress::Progress;

/// The longest game: every cell played.
const MAX_DEPTH: u32 = 81;

/// The positions after every sequence of `plies` moves from `position` (each with its
/// sequence's multiplicity 1), and the finished games met on the way are dropped.
fn frontier(position: Position, plies: u32) -> Vec<Position> {
    let mut layer = vec![position];
    for _ in 0..plies {
        layer = layer
            .iter()
            .flat_map(|p| {
                p.legal_moves().iter().map(move |m| {
                    let mut child = *p;
                    child.play_unchecked(m);
                    child
                })
            })
            .collect();
    }
    layer
}

/// Counts depths 0 to `depth` and prints them, as the 3 × 3 `perft` does (`"game":
/// "ultimate"` in JSON).
///
/// # Errors
/// A depth past the end of the game, or a failed write.
pub fn run(depth: u32, json: bool) -> anyhow::Result<ExitCode> {
    if depth > MAX_DEPTH {
        return exit::usage(format!(
            "depth {depth} is too deep: an ultimate game lasts at most {MAX_DEPTH} moves \
(depths 0 to {MAX_DEPTH})"
        ));
    }
    let mut counts = Vec::with_capacity(depth as usize + 1);
    for d in 0..=depth {
        counts.push(count(d, json, depth));
    }
    if json {
        outln!(
            "{}",
            serde_json::json!({ "game": "ultimate", "perft": counts })
        );
    } else {
        for (d, n) in counts.iter().enumerate() {
            outln!("{d} {n}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Perft `depth` from the empty board: shallow depths directly, deeper ones over the 720
/// positions after two plies (no game ends in two), in parallel.
fn count(depth: u32, json: bool, of: u32) -> u64 {
    if depth <= 3 {
        return Position::EMPTY.perft(depth);
    }
    let roots = frontier(Position::EMPTY, 2);
    let progress = Progress::new(
        Some(roots.len() as u64),
        &format!("subtrees of depth {depth} of {of}"),
    )
    .unless(json);
    let total = roots
        .par_iter()
        .map(|root| {
            let n = root.perft(depth - 2);
            progress.inc(1);
            n
        })
        .sum();
    progress.finish();
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_count_is_the_library_count() {
        assert_eq!(frontier(Position::EMPTY, 2).len(), 720);
        for depth in 0..=5 {
            assert_eq!(
                count(depth, true, 5),
                Position::EMPTY.perft(depth),
                "{depth}"
            );
        }
    }
}
