//! One module per subcommand: each has `Args` (clap) and `run(Args) -> anyhow::Result<ExitCode>`.

pub mod analyze;
pub mod bench;
pub mod completions;
pub mod decode;
pub mod encode;
pub mod enumerate;
pub mod game;
pub mod info;
pub mod man;
pub mod matches;
pub mod pack;
pub mod perft;
pub mod play;
pub mod selfplay;
pub mod serve;
pub mod solve;
pub mod unpack;
