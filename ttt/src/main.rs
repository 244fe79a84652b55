//! `ttt`: the command-line face of the tictactoe library.

// A `GlobalAlloc` must be an `unsafe impl`; each of its calls forwards to `System` unchanged.
#[allow(unsafe_code)]
mod alloc_count;
mod args;
mod bench;
// One constructor in `.init_array`, which needs an unsafe attribute.
#[allow(unsafe_code)]
mod closed_stdout;
mod cmd;
mod codes;
mod dialogue;
mod draw;
mod exit;
mod family;
mod input;
mod number;
mod output;
mod progress;
mod serve;
mod ultimate;
mod util;

use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

// Counts heap bytes so `ttt bench` can report allocations inside its timed loops.
#[global_allocator]
static ALLOCATOR: alloc_count::Counting = alloc_count::Counting;

/// Compact tic-tac-toe encodings, exhaustive validation and fast game-status analysis.
#[derive(Parser)]
#[command(
    name = "ttt",
    version,
    about,
    propagate_version = true,
    after_help = "Exit status: 0 success, 1 bad input, 2 usage error, 3 damaged data partly \
recovered, 4 I/O error."
)]
struct Cli {
    /// Write each answer as soon as it is complete (the default when standard input or
    /// standard output is a terminal).
    #[arg(long, global = true)]
    line_buffered: bool,
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
    Solve(cmd::solve::Args),
    Serve(cmd::serve::Args),
    Completions(cmd::completions::Args),
    Man(cmd::man::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    output::set_line_buffered(cli.line_buffered);
    // Every subcommand answers on standard output but `pack -o FILE` (`pack` checks for itself).
    if !matches!(cli.command, Command::Pack(_))
        && let Err(error) = output::require_stdout()
    {
        return exit::report(&error.into());
    }
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
        Command::Solve(args) => cmd::solve::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Completions(args) => cmd::completions::run(&args, Cli::command()),
        Command::Man(args) => cmd::man::run(&args, Cli::command()),
    };
    match result {
        Ok(code) => code,
        Err(error) => exit::report(&error),
    }
}
