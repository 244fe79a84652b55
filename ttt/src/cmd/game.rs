//! `ttt game`: games as exact integer codes, and back.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use tictactoe::Game;
use tictactoe::game::{GameCode, PrefixCode};

use crate::input;

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
    Encode {
        /// Games as move digits; standard input when none.
        moves: Vec<String>,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
    },
    /// Codes to move strings (arguments, or one per line on standard input).
    Decode {
        /// Codes; standard input when none.
        #[arg(allow_negative_numbers = true)]
        codes: Vec<String>,
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
                let error = format!("{error:#}");
                input::reject_json(
                    out,
                    &input::InputError {
                        input: item.text,
                        error,
                    },
                )
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
        serde_json::json!({
            "moves": game.to_string(),
            "status": game.status().as_str(),
            "prefix_code": prefix,
            "game_code": code,
        })
        .to_string()
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
    let code: u32 = text
        .parse()
        .with_context(|| format!("{text:?} is not a code (a non-negative integer)"))?;
    let game = if prefix {
        PrefixCode::try_from(code)?.to_game()
    } else {
        GameCode::try_from(code)?.to_game()
    };
    Ok(if json {
        serde_json::json!({
            "code": code,
            "moves": game.to_string(),
            "status": game.status().as_str(),
        })
        .to_string()
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
