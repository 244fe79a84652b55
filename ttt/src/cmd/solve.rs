//! `ttt solve --game SPEC`: perfect play for positions of the k-in-a-row family.

use std::process::ExitCode;

/// Solve positions of a k-in-a-row game: who wins, in how many plies, the score and the best
/// moves under perfect play.
///
/// With no POSITION, reads one position per line from standard input and streams the answers.
/// A position is a board (rows top to bottom separated by `/`, cells X, O and `.`) or the moves
/// from the empty board: with gravity, column digits 1-9 as in the Connect Four benchmark sets
/// (`4453`: X in column 4, O in 4, X in 5, O in 3) or columns separated by commas (`10,3,12`,
/// for boards of more than 9 columns); without, cells as drawn separated by commas
/// (`h8,h9,i8`). An empty argument, or `-`, is the empty position. A line that is no position
/// is reported (the character and its index, or the move) and the run goes on; the exit status
/// is then non-zero. On a terminal, a long search shows its nodes on a progress line.
#[derive(clap::Args)]
#[command(after_help = "\
Values: x-wins, o-wins, draw (as in `ttt analyze`). The distance is in plies to the end under
perfect play (a draw's is the number of empty cells); the score is for the side to move, 22
minus the winner's stones on Connect Four ((cells+1)/2 + 1 minus them in general), negative
for a loss, 0 for a draw. Best moves: columns from 1 with gravity, cells as drawn (a1 at the
bottom left) without; in JSON the library's actions (columns from 0, cells row * cols + col).

Examples:
  ttt solve --game connect-four 4453 44 -
  ttt solve --game 6,12,4,gravity 10,3,12
  ttt solve --game 4,4,4 ..../..../..../.... --json
  ttt solve --game connect-four --weak --json < positions.txt
  ttt solve --game gomoku --max-nodes 1000000 < boards.txt")]
pub struct Args {
    /// Positions: boards, moves (column digits or comma-separated columns with gravity,
    /// comma-separated cells without), or `-` for the empty position. With none, one per line
    /// is read from standard input.
    #[arg(value_name = "POSITION")]
    positions: Vec<std::ffi::OsString>,
    /// The game: tic-tac-toe, 4x4, connect-four, gomoku, or ROWS,COLS,K with an optional
    /// ,gravity (e.g. 6,7,4,gravity).
    #[arg(long, value_name = "SPEC", value_parser = crate::family::parse_game)]
    game: tictactoe::mnk::Rules,
    /// Print one JSON object per position, one per line.
    #[arg(long)]
    json: bool,
    /// Only who wins (x-wins, o-wins, draw): faster, without distance, score or best moves.
    #[arg(long)]
    weak: bool,
    /// Nodes the search may spend on one position before it gives up and reports it
    /// unsolved [default: 100000000, about a minute; on Connect Four none: its solver always
    /// finishes, within minutes on the hardest positions]
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    crate::family::solve::run(
        args.game,
        &args.positions,
        crate::family::solve::Options {
            json: args.json,
            weak: args.weak,
            max_nodes: args.max_nodes,
        },
    )
}
