//! `ttt perft`: move sequences by depth, counted by walking the game tree.

use std::process::ExitCode;

use crate::output::outln;
use tictactoe::Position;

/// Count move sequences by depth (perft).
///
/// Prints, for each depth up to DEPTH, the number of move sequences of that length from the
/// empty board; finished games are not continued.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  ttt perft 9\n  ttt perft 4 --json")]
pub struct Args {
    /// The largest depth, 0 to 9 (a game lasts at most nine moves).
    #[arg(value_parser = parse_depth)]
    depth: u32,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let counts: Vec<u64> = (0..=args.depth).map(|d| Position::EMPTY.perft(d)).collect();
    if args.json {
        outln!("{}", serde_json::json!({ "perft": counts }));
    } else {
        for (depth, count) in counts.iter().enumerate() {
            outln!("{depth} {count}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A depth from 0 to 9: deeper is a usage error.
fn parse_depth(text: &str) -> Result<u32, String> {
    let depth: u32 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a depth (0 to 9)"))?;
    if depth > 9 {
        return Err(format!(
            "depth {depth} is too deep: a game lasts at most 9 moves (depths 0 to 9)"
        ));
    }
    Ok(depth)
}
