//! `ttt game`: games as exact integer codes, and back.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use tictactoe::Game;
use tictactoe::game::{GameCode, PrefixCode};

use crate::input;
use crate::number::parse_number;

/// Encode games as exact integer codes, or decode them.
///
/// A game is written as its move digits in order: `40` is X in the centre, then O top left.
#[derive(clap::Args)]
#[command(
    after_help = "Codes: the prefix code numbers all 549,946 games (any length, the \
empty game is 0) in 20 bits; the game code numbers the 255,168 complete games in 18 bits.\n\n\
Examples:\n  ttt game encode 40 4012 031425786\n  ttt game decode 0 255167\n  ttt game decode \
--prefix 1 549945\n  printf '40\\n12\\n' | ttt game encode --json"
)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Move strings to codes (arguments, or one per line on standard input).
    /// The codes of games given as move digits (`031425` or `""` for the empty game).
    #[command(
        after_help = "Examples:\n  ttt game encode 40 408 03142\n  ttt game encode --json \
03142\n  printf '40\\n12\\n' | ttt game encode --json"
    )]
    Encode {
        /// Games as move digits; standard input when none.
        moves: Vec<std::ffi::OsString>,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
    },
    /// Codes to move strings (arguments, or one per line on standard input).
    /// The game behind each code: decimal, or hexadecimal after `0x`, or binary after `0b`.
    #[command(
        after_help = "Examples:\n  ttt game decode 7316\n  ttt game decode --prefix --json \
16067\n  ttt game decode 0x1c94"
    )]
    Decode {
        /// Codes; standard input when none.
        #[arg(allow_negative_numbers = true)]
        codes: Vec<std::ffi::OsString>,
        /// Read prefix codes (any game) instead of game codes (complete games).
        #[arg(long)]
        prefix: bool,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (inputs, json) = match &args.command {
        Command::Encode { moves, json } => (moves, *json),
        Command::Decode { codes, json, .. } => (codes, *json),
    };
    input::answer_each(inputs, |item, out| {
        let result = item
            .checked_text()
            .map_err(anyhow::Error::from)
            .and_then(|text| match &args.command {
                Command::Encode { .. } => encode(text, json),
                Command::Decode { prefix, .. } => decode(text, *prefix, json),
            });
        match result {
            Ok(line) => {
                writeln!(out, "{line}")?;
                Ok(input::Outcome::Answered)
            }
            Err(error) if json => {
                input::reject_json(out, &input::InputError::new(&item, format!("{error:#}")))
            }
            Err(error) => input::reject(out, item.origin, format_args!("{error:#}")),
        }
    })
}

fn encode(text: &str, json: bool) -> anyhow::Result<String> {
    let game: Game = text
        .parse()
        .with_context(|| format!("{text:?} is not a game"))?;
    let prefix = PrefixCode::from_game(&game).code();
    let code = GameCode::from_game(&game).map(GameCode::code);
    Ok(if json {
        serde_json::to_string(&GameJson::of(&game))?
    } else {
        let code = code.map_or("-".to_owned(), |c| c.to_string());
        format!(
            "{:<9}  prefix {prefix:>6}  game {code:>6}  {}",
            shown(&game),
            game.status()
        )
    })
}

fn decode(text: &str, prefix: bool, json: bool) -> anyhow::Result<String> {
    let code = parse_number(text)
        .ok()
        .and_then(|code| u32::try_from(code).ok())
        .with_context(|| {
            format!("{text:?} is not a code (a non-negative integer: decimal, 0x hex or 0b binary)")
        })?;
    let game = if prefix {
        PrefixCode::try_from(code)?.to_game()
    } else {
        GameCode::try_from(code)?.to_game()
    };
    Ok(if json {
        serde_json::to_string(&GameJson::of(&game))?
    } else {
        format!("{code:>6}  {:<9}  {}", shown(&game), game.status())
    })
}

/// The move digits, or `-` for the empty game.
fn shown(game: &Game) -> String {
    if game.is_empty() {
        "-".to_owned()
    } else {
        game.to_string()
    }
}

/// The one JSON object of a game, from `game encode` and `game decode` alike.
#[derive(serde::Serialize)]
struct GameJson {
    moves: String,
    status: &'static str,
    prefix_code: u32,
    /// Null for a game that is not complete.
    game_code: Option<u32>,
}

impl GameJson {
    fn of(game: &Game) -> GameJson {
        GameJson {
            moves: game.to_string(),
            status: game.status().as_str(),
            prefix_code: PrefixCode::from_game(game).code(),
            game_code: GameCode::from_game(game).map(GameCode::code),
        }
    }
}
