//! `ttt completions SHELL`: a shell completion script, generated from the clap definitions.

use std::io::Write;
use std::process::ExitCode;

use clap_complete::Shell;

/// Print a completion script for a shell.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  ttt completions bash > ~/.local/share/bash-completion/completions/ttt
  ttt completions zsh > ~/.zfunc/_ttt
  ttt completions fish > ~/.config/fish/completions/ttt.fish")]
pub struct Args {
    /// The shell.
    shell: Shell,
}

/// Writes the script for `command` (the whole `ttt` command line).
///
/// # Errors
/// A failed write.
pub fn run(args: &Args, mut command: clap::Command) -> anyhow::Result<ExitCode> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "ttt", &mut script);
    let mut out = crate::output::stdout();
    out.write_all(&script)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
