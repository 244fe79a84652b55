//! Inputs given as arguments, or one per line on standard input, streamed with bounded memory,
//! and the buffered output the answers go to.
//!
//! Every board subcommand has the same shape: answer each input on standard output, report a
//! bad input without stopping, and exit non-zero if any input was bad. [`answer_each`] is that
//! loop, so the subcommands only say how to answer one input.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufRead, BufWriter, IsTerminal, Read, Write};
use std::process::ExitCode;

use tictactoe::{Board, ParseBoardError};

/// Buffered standard output: one `write` system call per 64 KiB, not per line.
pub type Out = BufWriter<io::StdoutLock<'static>>;

/// Where an input came from, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The n-th argument, from 1.
    Argument(usize),
    /// The n-th line of standard input, from 1.
    Line(usize),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Argument(n) => write!(f, "argument {n}"),
            Origin::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// Longest line of standard input kept, in bytes: far more than any board or code, and the
/// bound on the memory a line can take (`ttt analyze < /dev/zero` must not grow without end).
pub const MAX_LINE: usize = 4096;

/// A line of standard input longer than [`MAX_LINE`]; it is skipped to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line too long: more than {MAX_LINE} bytes")]
pub struct LineTooLong;

/// One input: its text, trimmed of surrounding whitespace (and a `\r`), and where it came from.
#[derive(Clone, Copy, Debug)]
pub struct Item<'a> {
    /// The text; only its first [`MAX_LINE`] bytes when the line was too long.
    pub text: &'a str,
    pub origin: Origin,
    too_long: bool,
}

impl<'a> Item<'a> {
    /// The text, or the error for a line too long to be an input.
    pub fn checked_text(&self) -> Result<&'a str, LineTooLong> {
        if self.too_long {
            Err(LineTooLong)
        } else {
            Ok(self.text)
        }
    }
}

/// Whether an input was answered or rejected (the answer then holds the reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Answered,
    Rejected,
}

/// Calls `each` on every argument, or, with none, on every non-blank line of standard input,
/// reusing one line buffer of at most [`MAX_LINE`] bytes. Lines that are not UTF-8 are read
/// lossily (U+FFFD), so a stray byte is reported as a bad character rather than ending the run.
pub fn for_each(
    args: &[String],
    mut each: impl FnMut(Item<'_>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for (i, text) in args.iter().enumerate() {
        each(Item {
            text: text.trim(),
            origin: Origin::Argument(i + 1),
            too_long: false,
        })?;
    }
    if !args.is_empty() {
        return Ok(());
    }
    let stdin = io::stdin();
    if stdin.is_terminal() {
        eprintln!("ttt: reading one input per line from standard input (end with Ctrl-D)");
    }
    let mut stdin = stdin.lock();
    let mut line = Vec::with_capacity(64);
    let mut number = 0;
    loop {
        line.clear();
        if (&mut stdin)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)?
            == 0
        {
            return Ok(());
        }
        number += 1;
        let too_long = line.len() > MAX_LINE && line.last() != Some(&b'\n');
        if too_long {
            skip_line(&mut stdin)?;
            line.truncate(MAX_LINE);
        }
        let text: Cow<'_, str> = String::from_utf8_lossy(&line);
        let text = text.trim();
        if !text.is_empty() {
            each(Item {
                text,
                origin: Origin::Line(number),
                too_long,
            })?;
        }
    }
}

/// Reads past the next newline (or to the end of the input) without keeping anything.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let all = buffer.len();
                input.consume(all);
            }
        }
    }
}

/// Answers every input with `answer`, which writes to the buffered standard output and says
/// whether the input was good. The exit status is failure if any input was rejected.
pub fn answer_each(
    args: &[String],
    mut answer: impl FnMut(Item<'_>, &mut Out) -> anyhow::Result<Outcome>,
) -> anyhow::Result<ExitCode> {
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let (mut total, mut rejected) = (0u64, 0u64);
    for_each(args, |item| {
        total += 1;
        if answer(item, &mut out)? == Outcome::Rejected {
            rejected += 1;
        }
        Ok(())
    })?;
    out.flush()?;
    if rejected == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!("ttt: error: {rejected} of {total} inputs rejected");
    Ok(ExitCode::FAILURE)
}

/// [`answer_each`] for subcommands that take boards: an input that is not a board is rejected
/// with the parse error (as [`InputError`] JSON when `json`), the others go to `answer`.
pub fn answer_each_board(
    args: &[String],
    json: bool,
    mut answer: impl FnMut(Board, &mut Out) -> anyhow::Result<Outcome>,
) -> anyhow::Result<ExitCode> {
    let parse = |item: &Item<'_>| -> Result<Board, String> {
        let text = item.checked_text().map_err(|error| error.to_string())?;
        text.parse()
            .map_err(|error: ParseBoardError| error.to_string())
    };
    answer_each(args, |item, out| match parse(&item) {
        Ok(board) => answer(board, out),
        Err(error) if json => reject_json(
            out,
            &InputError {
                input: item.text,
                error,
            },
        ),
        Err(error) => reject(out, item.origin, format_args!("{:?}: {error}", item.text)),
    })
}

/// Reports a rejected input to people: one line on standard error saying where the input came
/// from and why it was rejected (`why` names the input). Standard output is flushed first so
/// the two streams stay in order on a terminal.
pub fn reject(out: &mut Out, origin: Origin, why: impl fmt::Display) -> anyhow::Result<Outcome> {
    out.flush()?;
    eprintln!("ttt: error: {origin}: {why}");
    Ok(Outcome::Rejected)
}

/// Writes `value` as one line of JSON.
pub fn json_line(out: &mut Out, value: &impl serde::Serialize) -> anyhow::Result<Outcome> {
    // As an `io::Error`, so that `main` recognizes a broken pipe (`ttt ... | head`).
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    out.write_all(b"\n")?;
    Ok(Outcome::Answered)
}

/// The JSON answer to an input that is not a board (or code): `{"input":…,"error":…}`.
#[derive(serde::Serialize)]
pub struct InputError<'a> {
    pub input: &'a str,
    pub error: String,
}

/// Reports a rejected input as a JSON line on standard output.
pub fn reject_json(out: &mut Out, value: &impl serde::Serialize) -> anyhow::Result<Outcome> {
    json_line(out, value)?;
    Ok(Outcome::Rejected)
}
