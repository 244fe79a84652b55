//! `ttt perft`: move sequences by depth, counted by walking the game tree.

use std::process::ExitCode;

use tictactoe::Position;

/// Count move sequences by depth (perft).
///
/// Prints, for each depth up to DEPTH, the number of move sequences of that length from the
/// empty board; finished games are not continued.
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  ttt perft 9\n  ttt perft 4 --json")]
pub struct Args {
    /// The largest depth, 0 to 9 (a game lasts at most nine moves).
    depth: u32,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.depth > 9 {
        anyhow::bail!(
            "depth {} is too deep: a game lasts at most 9 moves (depths 0 to 9)",
            args.depth
        );
    }
    let counts: Vec<u64> = (0..=args.depth).map(|d| Position::EMPTY.perft(d)).collect();
    if args.json {
        println!("{}", serde_json::json!({ "perft": counts }));
    } else {
        for (depth, count) in counts.iter().enumerate() {
            println!("{depth} {count}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
