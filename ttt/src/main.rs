//! `ttt`: the command-line face of the tictactoe library.

mod cmd;
mod input;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Compact tic-tac-toe encodings, exhaustive validation and fast game-status analysis.
#[derive(Parser)]
#[command(name = "ttt", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Enumerate(cmd::enumerate::Args),
    Play(cmd::play::Args),
    Perft(cmd::perft::Args),
    #[command(name = "match")]
    Match(cmd::matches::Args),
    Game(cmd::game::Args),
    Selfplay(cmd::selfplay::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Enumerate(args) => cmd::enumerate::run(args),
        Command::Play(args) => cmd::play::run(args),
        Command::Perft(args) => cmd::perft::run(args),
        Command::Match(args) => cmd::matches::run(args),
        Command::Game(args) => cmd::game::run(args),
        Command::Selfplay(args) => cmd::selfplay::run(args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            // Broken pipes (`ttt ... | head`) end the run quietly.
            if error.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("ttt: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
