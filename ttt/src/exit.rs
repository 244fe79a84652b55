//! The one exit-status table of every subcommand (documented in `docs/cli.md`), and the
//! classification of an error into its status.
//!
//! | status | meaning                                                         |
//! |--------|-----------------------------------------------------------------|
//! | 0      | success (also: the reader of standard output went away)         |
//! | 1      | bad input: an input was rejected, or a file is not what it says |
//! | 2      | usage error: an unknown option, a bad value, a refused request  |
//! | 3      | damaged data, partly recovered (`unpack --salvage`)             |
//! | 4      | I/O error: a file cannot be opened, read or written             |

use std::io;
use std::process::ExitCode;

use tictactoe::file::FileError;

/// An input was rejected, or a file is not what it claims to be.
pub const BAD_INPUT: u8 = 1;
/// An unknown option, a bad value, a request the tool refuses (clap uses 2 as well).
pub const USAGE: u8 = 2;
/// Damaged data of which the intact part was recovered.
pub const DAMAGED: u8 = 3;
/// A file or stream could not be opened, read or written.
pub const IO_ERROR: u8 = 4;

/// An error in how the tool was asked, not in the data: exit status [`USAGE`].
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Usage(pub String);

/// Fails with a usage error.
///
/// # Errors
/// Always: the usage error with `message`.
pub fn usage<T>(message: impl Into<String>) -> anyhow::Result<T> {
    Err(Usage(message.into()).into())
}

/// The I/O error in an error's chain, if any (including one inside a `.ttt` file error).
fn io_error(error: &anyhow::Error) -> Option<&io::Error> {
    error.chain().find_map(|e| {
        e.downcast_ref::<io::Error>()
            .or_else(|| match e.downcast_ref::<FileError>() {
                Some(FileError::Io(io)) => Some(io),
                _ => None,
            })
    })
}

/// Whether the error is a write to a reader that went away (`ttt ... | head`).
#[must_use]
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    io_error(error).is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
}

/// The exit status of a run that failed with `error`, after reporting it on standard error
/// (quietly for a broken pipe).
#[must_use]
pub fn report(error: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(error) {
        return ExitCode::SUCCESS;
    }
    crate::output::warn(format_args!("ttt: error: {error:#}"));
    ExitCode::from(status(error))
}

/// The status of an error: usage, I/O, or else bad input.
#[must_use]
pub fn status(error: &anyhow::Error) -> u8 {
    if error.chain().any(<dyn std::error::Error>::is::<Usage>) {
        USAGE
    } else if io_error(error).is_some() {
        IO_ERROR
    } else {
        BAD_INPUT
    }
}
