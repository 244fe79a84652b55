//! `ttt match`: many games between two engine players.

use std::process::ExitCode;

use tictactoe::agents::{Agent, Strategy, play_match};

use crate::output::outln;
use crate::util::clock_seed;

/// Play many games between two engine players and count the results.
///
/// X always moves first; each player draws its random choices from its own seeded generator.
#[derive(clap::Args)]
#[command(
    after_help = "Players: perfect, heuristic, random, eps:E; with --game, the family's players \
(random, heuristic).\n\nExamples:\n  ttt match \
--x perfect --o random --games 1000\n  ttt match --x eps:0.1 --o heuristic --games 10000 \
--seed 3 --json\n  ttt match --game connect-four --x heuristic --o random --games 100"
)]
pub struct Args {
    /// Who plays X.
    #[arg(long, value_parser = parse_strategy)]
    x: Strategy,
    /// Who plays O.
    #[arg(long, value_parser = parse_strategy)]
    o: Strategy,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the random choices (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// A game of the k-in-a-row family instead of the 3x3 core: tic-tac-toe, 4x4,
    /// connect-four, gomoku, or ROWS,COLS,K with an optional ,gravity (e.g. 6,7,4,gravity).
    #[arg(long, value_name = "SPEC", value_parser = crate::family::parse_game)]
    game: Option<tictactoe::mnk::Rules>,
}

fn parse_strategy(text: &str) -> Result<Strategy, String> {
    if text == "human" {
        return Err("human players only play in `ttt play`".to_owned());
    }
    text.parse()
        .map_err(|e: tictactoe::agents::ParseStrategyError| e.to_string())
}

/// The JSON object of `match`, keys in this order.
#[derive(serde::Serialize)]
struct MatchJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    x: String,
    o: String,
    seed: u64,
    games: u64,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(clock_seed);
    let tally = match args.game {
        None => {
            let mut x = Agent::new(args.x, seed);
            let mut o = Agent::new(args.o, seed.wrapping_add(1));
            play_match(&mut x, &mut o, args.games)
        }
        Some(rules) => {
            use tictactoe::mnk::agents::{self, Agent};
            let player = |strategy: Strategy| crate::family::player(&strategy.to_string(), rules);
            let mut x = Agent::new(player(args.x)?, seed);
            let mut o = Agent::new(player(args.o)?, seed.wrapping_add(1));
            agents::play_match(rules, &mut x, &mut o, args.games)
        }
    };
    if args.json {
        let json = MatchJson {
            game: args.game.map(|rules| rules.to_string()),
            x: args.x.to_string(),
            o: args.o.to_string(),
            seed,
            games: tally.games(),
            x_wins: tally.x_wins,
            o_wins: tally.o_wins,
            draws: tally.draws,
        };
        outln!("{}", serde_json::to_string(&json)?);
    } else {
        let percent = |n: u64| 100.0 * n as f64 / tally.games().max(1) as f64;
        let game = args
            .game
            .map_or(String::new(), |rules| format!("{rules}: "));
        outln!(
            "{game}X {} vs O {}, {} games, seed {seed}",
            args.x,
            args.o,
            tally.games()
        );
        outln!("X wins {:>9} {:6.2}%", tally.x_wins, percent(tally.x_wins));
        outln!("O wins {:>9} {:6.2}%", tally.o_wins, percent(tally.o_wins));
        outln!("draws  {:>9} {:6.2}%", tally.draws, percent(tally.draws));
    }
    Ok(ExitCode::SUCCESS)
}
