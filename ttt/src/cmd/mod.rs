//! One module per subcommand: each has `Args` (clap) and `run(Args) -> anyhow::Result<ExitCode>`.

pub mod analyze;
pub mod bench;
pub mod decode;
pub mod encode;
pub mod enumerate;
pub mod info;
pub mod pack;
pub mod unpack;
