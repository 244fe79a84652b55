//! `ttt match`: many games between two engine players.

use std::process::ExitCode;

use tictactoe::agents::{Agent, Strategy, Tally, play_game};
use tictactoe::mnk::agents::Strategy as FamilyStrategy;
use tictactoe::ultimate::agents::Strategy as UltimateStrategy;

use crate::ultimate::Spec;

use crate::output::outln;
use crate::progress::Progress;
use crate::util::clock_seed;

/// Play many games between two engine players and count the results.
///
/// X always moves first; each player draws its random choices from its own seeded generator.
#[derive(clap::Args)]
#[command(
    after_help = "Players: perfect, heuristic, random, eps:E; with --game, the family's players \
(random, heuristic, mcts, alphabeta, perfect); with --game ultimate, ultimate's players \
(random, heuristic, mcts = mcts:10000, mcts:N for N playouts a move; the output names the \
player that ran).\n\nExamples:\n  ttt match \
--x perfect --o random --games 1000\n  ttt match --x eps:0.1 --o heuristic --games 10000 \
--seed 3 --json\n  ttt match --game connect-four --x heuristic --o random --games 100\n  ttt match --game ultimate --x \
mcts:1000 --o heuristic --games 20"
)]
pub struct Args {
    /// Who plays X.
    #[arg(long, value_parser = parse_player)]
    x: Player,
    /// Who plays O.
    #[arg(long, value_parser = parse_player)]
    o: Player,
    /// Number of games.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the random choices (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: crate::args::Game,
}

/// A player of the 3 × 3 core, or one the family alone has (`mcts`, `alphabeta`).
#[derive(Clone, Debug)]
enum Player {
    Core(Strategy),
    Family(FamilyStrategy),
    /// A player only ultimate has (`mcts:N`).
    Ultimate(UltimateStrategy),
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Player::Core(strategy) => strategy.fmt(f),
            Player::Family(strategy) => strategy.fmt(f),
            Player::Ultimate(strategy) => strategy.fmt(f),
        }
    }
}

/// A 3 × 3 player as before (its errors unchanged), else a family player.
fn parse_player(text: &str) -> Result<Player, String> {
    match parse_strategy(text) {
        Ok(strategy) => Ok(Player::Core(strategy)),
        Err(error) => text
            .parse::<FamilyStrategy>()
            .map(Player::Family)
            .or_else(|_| text.parse::<UltimateStrategy>().map(Player::Ultimate))
            .map_err(|_| error),
    }
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

/// Plays `games` games (each `play` returns how one ended) and tallies them, as the library's
/// `play_match` does, with the games on a progress bar unless `json`.
fn tally_games(games: u64, json: bool, mut play: impl FnMut() -> tictactoe::Status) -> Tally {
    let progress = Progress::new(Some(games), "games").unless(json);
    let mut tally = Tally::default();
    for game in 0..games {
        tally.add(play());
        progress.set(game + 1);
    }
    progress.finish();
    tally
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(clock_seed);
    // The players as they ran (ultimate's `mcts` is `mcts:10000`).
    let mut names = [args.x.to_string(), args.o.to_string()];
    let tally = match args.game.spec {
        None => {
            let core = |player: &Player| match player {
                Player::Core(strategy) => Ok(*strategy),
                Player::Family(strategy) => crate::exit::usage(format!(
                    "{strategy} plays only the k-in-a-row family: give --game SPEC"
                )),
                Player::Ultimate(strategy) => crate::exit::usage(format!(
                    "{strategy} plays only ultimate tic-tac-toe: give --game ultimate"
                )),
            };
            let mut x = Agent::new(core(&args.x)?, seed);
            let mut o = Agent::new(core(&args.o)?, seed.wrapping_add(1));
            tally_games(args.games, args.json, || play_game(&mut x, &mut o).status())
        }
        Some(Spec::Ultimate) => {
            use tictactoe::ultimate::agents::{self, Agent};
            let x = crate::ultimate::player(&args.x.to_string())?;
            let o = crate::ultimate::player(&args.o.to_string())?;
            names = [x.to_string(), o.to_string()];
            let mut x = Agent::new(x, seed);
            let mut o = Agent::new(o, seed.wrapping_add(1));
            tally_games(args.games, args.json, || {
                agents::play_game(&mut x, &mut o).status()
            })
        }
        Some(Spec::Family(rules)) => {
            use tictactoe::mnk::agents::{self, Agent};
            let player = |player: &Player| crate::family::player(&player.to_string(), rules);
            let mut x = Agent::new(player(&args.x)?, seed);
            let mut o = Agent::new(player(&args.o)?, seed.wrapping_add(1));
            tally_games(args.games, args.json, || {
                agents::play_game(rules, &mut x, &mut o).status()
            })
        }
    };
    if args.json {
        let json = MatchJson {
            game: args.game.spec.map(|rules| rules.to_string()),
            x: names[0].clone(),
            o: names[1].clone(),
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
            .spec
            .map_or(String::new(), |rules| format!("{rules}: "));
        outln!(
            "{game}X {} vs O {}, {} games, seed {seed}",
            names[0],
            names[1],
            tally.games()
        );
        outln!("X wins {:>9} {:6.2}%", tally.x_wins, percent(tally.x_wins));
        outln!("O wins {:>9} {:6.2}%", tally.o_wins, percent(tally.o_wins));
        outln!("draws  {:>9} {:6.2}%", tally.draws, percent(tally.draws));
    }
    Ok(ExitCode::SUCCESS)
}
