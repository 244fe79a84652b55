//! `ttt perft`: move sequences by depth, counted by walking the game tree.

use std::process::ExitCode;

use crate::output::outln;
use tictactoe::Position;

/// Count move sequences by depth (perft).
///
/// Prints, for each depth up to DEPTH, the number of move sequences of that length from the
/// empty board; finished games are not continued. With --game, the count keeps the distinct
/// positions of each ply in memory: a depth whose positions would pass the memory limit is
/// refused before the count starts, with the estimate. With --game ultimate, the count walks
/// the tree on every core (depth 7 is 33,782,544).
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  ttt perft 9\n  ttt perft 4 --json\n  ttt perft --game connect-four 8\n  \
ttt perft --game gomoku 3 --max-memory 2G\n  ttt perft --game ultimate 6 --json"
)]
pub struct Args {
    /// The largest depth, 0 to 9 (a game lasts at most nine moves; with --game, its cells; 81
    /// with --game ultimate).
    #[arg(value_parser = parse_any_depth)]
    depth: u32,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: crate::args::Game,
    /// With --game: the memory the count may take, e.g. 8G or 512M (default: half the memory
    /// available). A depth the growth model says would take more is refused before it starts.
    #[arg(long, value_name = "SIZE", requires = "game", value_parser = crate::family::memory::parse_size)]
    max_memory: Option<u64>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.game.spec {
        Some(crate::ultimate::Spec::Family(rules)) => {
            return crate::family::perft::run(rules, args.depth, args.max_memory, args.json);
        }
        Some(crate::ultimate::Spec::Ultimate) => {
            if args.max_memory.is_some() {
                return crate::exit::usage(
                    "--max-memory is for the family's count; ultimate's perft walks the tree \
in little memory",
                );
            }
            return crate::ultimate::perft::run(args.depth, args.json);
        }
        None => {}
    }
    if let Err(message) = parse_depth(&args.depth.to_string()) {
        // The error clap gave before `--game` allowed deeper depths, word for word.
        crate::output::errln!(
            "error: invalid value '{}' for '<DEPTH>': {message}\n\nFor more information, try \
'--help'.",
            args.depth
        );
        return Ok(ExitCode::from(crate::exit::USAGE));
    }
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

/// A depth of any game of the family (at most 19 x 19 moves); [`parse_depth`] checks 3x3's.
fn parse_any_depth(text: &str) -> Result<u32, String> {
    let depth: u32 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a depth (0 to 9)"))?;
    if depth > 19 * 19 {
        return parse_depth(text);
    }
    Ok(depth)
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
