//! One module per subcommand: each has `Args` (clap) and `run(Args) -> anyhow::Result<ExitCode>`.

pub mod enumerate;
pub mod game;
pub mod matches;
pub mod perft;
pub mod play;
pub mod selfplay;
