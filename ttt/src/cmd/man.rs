//! `ttt man`: the manual page (roff), generated from the clap definitions.

use std::io::Write;
use std::process::ExitCode;

/// Print the manual page of `ttt` (roff, for `man -l -`).
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  ttt man | man -l -
  ttt man > ~/.local/share/man/man1/ttt.1")]
pub struct Args {}

/// Writes the page of `command` (the whole `ttt` command line).
///
/// # Errors
/// A failed write.
pub fn run(_args: &Args, command: clap::Command) -> anyhow::Result<ExitCode> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    let mut out = crate::output::stdout();
    out.write_all(&page)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
