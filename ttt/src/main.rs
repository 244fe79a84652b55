//! `ttt`: the command-line face of the tictactoe library.

// A `GlobalAlloc` must be an `unsafe impl`; each of its calls forwards to `System` unchanged.
#[allow(unsafe_code)]
mod alloc_count;
mod args;
mod bench;
mod cmd;
mod codes;
mod draw;
mod input;
mod progress;
mod util;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

// Counts heap bytes so `ttt bench` can report allocations inside its timed loops.
#[global_allocator]
static ALLOCATOR: alloc_count::Counting = alloc_count::Counting;

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
    Encode(cmd::encode::Args),
    Decode(cmd::decode::Args),
    Analyze(cmd::analyze::Args),
    Bench(cmd::bench::Args),
    Pack(cmd::pack::Args),
    Unpack(cmd::unpack::Args),
    Info(cmd::info::Args),
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
        Command::Encode(args) => cmd::encode::run(args),
        Command::Decode(args) => cmd::decode::run(args),
        Command::Analyze(args) => cmd::analyze::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Pack(args) => cmd::pack::run(args),
        Command::Unpack(args) => cmd::unpack::run(args),
        Command::Info(args) => cmd::info::run(args),
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
