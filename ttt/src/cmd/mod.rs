//! One module per subcommand: each has `Args` (clap) and `run(Args) -> anyhow::Result<ExitCode>`.

pub mod bench;
pub mod enumerate;
