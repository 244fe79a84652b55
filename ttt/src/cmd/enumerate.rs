//! `ttt enumerate`: counts computed by enumerating the state space.

use std::process::ExitCode;

use crate::output::outln;
use serde::Serialize;
use tictactoe::game::{TreeCounts, canonical_games};
use tictactoe::{Board, Position, Status, encoding::Canonical};

/// Count grids, positions and symmetry classes by enumeration.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  ttt enumerate\n  ttt enumerate --json\n  ttt enumerate --game 4x4\n  \
ttt enumerate --game connect-four --max-plies 8"
)]
pub struct Args {
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// A game of the k-in-a-row family instead of the 3x3 core: tic-tac-toe, 4x4,
    /// connect-four, gomoku, or ROWS,COLS,K with an optional ,gravity (e.g. 6,7,4,gravity).
    #[arg(long, value_name = "SPEC", value_parser = crate::family::parse_game)]
    game: Option<tictactoe::mnk::Rules>,
    /// With --game: count positions ply by ply from the empty board up to N plies, instead
    /// of classifying every grid (which only boards of at most 16 cells allow).
    #[arg(long, value_name = "N", requires = "game")]
    max_plies: Option<u32>,
    /// With --max-plies: the memory the count may take, e.g. 8G or 512M (default: half the
    /// memory available). Plies the growth model says would take more are refused before the
    /// count starts.
    #[arg(long, value_name = "SIZE", requires = "max_plies", value_parser = crate::family::memory::parse_size)]
    max_memory: Option<u64>,
}

/// Everything `enumerate` reports, all computed.
#[derive(Serialize)]
struct Counts {
    grids: usize,
    count_valid: usize,
    reachable: usize,
    ongoing: usize,
    x_won: usize,
    o_won: usize,
    draw: usize,
    #[serde(rename = "classes")]
    canonical: usize,
    #[serde(rename = "classes_finished")]
    canonical_finished: usize,
    per_marks: [usize; 10],
    #[serde(rename = "classes_per_marks")]
    per_marks_canonical: [usize; 10],
    games: u64,
    #[serde(rename = "x_wins")]
    games_x: u64,
    #[serde(rename = "o_wins")]
    games_o: u64,
    #[serde(rename = "draws")]
    games_draw: u64,
    #[serde(rename = "game_classes")]
    games_canonical: u64,
    tree_nodes: u64,
    perft: [u64; 10],
}

fn count() -> Counts {
    let tree = TreeCounts::compute();
    let mut counts = Counts {
        grids: Board::all().count(),
        count_valid: Board::all()
            .filter(|b| tictactoe::encoding::CountRank::try_from_board(*b).is_ok())
            .count(),
        reachable: 0,
        ongoing: 0,
        x_won: 0,
        o_won: 0,
        draw: 0,
        canonical: 0,
        canonical_finished: 0,
        per_marks: [0; 10],
        per_marks_canonical: [0; 10],
        games: tree.games,
        games_x: tree.x_wins,
        games_o: tree.o_wins,
        games_draw: tree.draws,
        games_canonical: canonical_games(Position::EMPTY),
        tree_nodes: tree.nodes,
        perft: tree.perft,
    };
    for position in Position::all() {
        counts.reachable += 1;
        let status = position.status();
        match status {
            Status::Ongoing => counts.ongoing += 1,
            Status::Won(tictactoe::Player::X) => counts.x_won += 1,
            Status::Won(tictactoe::Player::O) => counts.o_won += 1,
            Status::Draw => counts.draw += 1,
        }
        let marks = position.board().marks() as usize;
        counts.per_marks[marks] += 1;
        if Canonical::canonical_form(position.board()).0 == position.board() {
            counts.canonical += 1;
            counts.per_marks_canonical[marks] += 1;
            counts.canonical_finished += usize::from(status.is_finished());
        }
    }
    counts
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(rules) = args.game {
        return crate::family::enumerate::run(rules, args.max_plies, args.max_memory, args.json);
    }
    let counts = count();
    if args.json {
        outln!("{}", serde_json::to_string(&counts)?);
        return Ok(ExitCode::SUCCESS);
    }
    let join = |a: &[usize]| {
        a.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let join64 = |a: &[u64]| {
        a.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    outln!("grids                      {:>7}", counts.grids);
    outln!("possible piece counts      {:>7}", counts.count_valid);
    outln!("reachable positions        {:>7}", counts.reachable);
    outln!("  ongoing                  {:>7}", counts.ongoing);
    outln!("  X won                    {:>7}", counts.x_won);
    outln!("  O won                    {:>7}", counts.o_won);
    outln!("  draw                     {:>7}", counts.draw);
    outln!("symmetry classes           {:>7}", counts.canonical);
    outln!(
        "  finished                 {:>7}",
        counts.canonical_finished
    );
    outln!("positions by marks 0..9    {}", join(&counts.per_marks));
    outln!(
        "classes by marks 0..9      {}",
        join(&counts.per_marks_canonical)
    );
    outln!("complete games             {:>7}", counts.games);
    outln!("  X wins                   {:>7}", counts.games_x);
    outln!("  O wins                   {:>7}", counts.games_o);
    outln!("  draws                    {:>7}", counts.games_draw);
    outln!("games up to symmetry       {:>7}", counts.games_canonical);
    outln!("game-tree nodes            {:>7}", counts.tree_nodes);
    outln!("perft depths 0..9          {}", join64(&counts.perft));
    Ok(ExitCode::SUCCESS)
}
