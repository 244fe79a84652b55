//! Inputs given as arguments, or one per line on standard input or in files, read in bounded
//! memory with one line-length limit ([`MAX_LINE`]) for every subcommand.
//!
//! Every board subcommand has the same shape: answer each input on standard output, report a
//! bad input without stopping, and exit non-zero if any input was bad. [`answer_each`] is that
//! loop, so the subcommands only say how to answer one input.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufReader, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use tictactoe::{Board, ParseBoardError};

use crate::exit;
use crate::output::{self, Out, errln};

/// Where an input came from, for error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The n-th argument, from 1.
    Argument(usize),
    /// The n-th line of standard input, from 1 (blank lines counted).
    Line(u64),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Argument(n) => write!(f, "argument {n}"),
            Origin::Line(n) => write!(f, "line {n}"),
        }
    }
}

/// Longest line kept, in bytes, in every subcommand: far more than any board, code or move, and
/// the bound on the memory a line can take (`ttt pack < /dev/zero` must not grow without end).
pub const MAX_LINE: usize = 4096;

/// A line that cannot be an input, whatever the subcommand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// Longer than [`MAX_LINE`]; it was skipped to its end.
    #[error("line too long: more than {MAX_LINE} bytes")]
    TooLong,
    /// Not UTF-8 text.
    #[error("not UTF-8 text: byte {byte:#04x} at index {index}")]
    NotUtf8 { byte: u8, index: usize },
}

/// Lines of a byte stream, at most [`MAX_LINE`] bytes each kept, numbered from 1.
pub struct Lines {
    reader: BufReader<Box<dyn Read>>,
    line: Vec<u8>,
    number: u64,
    too_long: bool,
}

impl Lines {
    /// The lines of `reader`, read `capacity` bytes at a time.
    #[must_use]
    pub fn new(reader: Box<dyn Read>, capacity: usize) -> Lines {
        Lines {
            reader: BufReader::with_capacity(capacity, reader),
            line: Vec::with_capacity(64),
            number: 0,
            too_long: false,
        }
    }

    /// The lines of standard input.
    #[must_use]
    pub fn stdin() -> Lines {
        Lines::new(Box::new(io::stdin().lock()), 1 << 16)
    }

    /// The number of the last line read, from 1.
    #[must_use]
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Reads the next line (`false` at the end of the input): [`Lines::raw`] holds its first
    /// [`MAX_LINE`] bytes without the newline, and [`Lines::checked`] says whether it was too long
    /// (the rest is skipped) or not UTF-8. `before_wait` runs whenever the next read may block, so that answers
    /// already written reach whoever waits for them (a flush).
    ///
    /// # Errors
    /// A failed read, or a failure of `before_wait`.
    pub fn next_raw(
        &mut self,
        before_wait: &mut dyn FnMut() -> io::Result<()>,
    ) -> io::Result<bool> {
        self.line.clear();
        self.too_long = false;
        let mut any = false;
        loop {
            if self.reader.buffer().is_empty() {
                before_wait()?;
            }
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                break;
            }
            any = true;
            let newline = available.iter().position(|&byte| byte == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            let room = MAX_LINE - self.line.len();
            if chunk.len() > room {
                self.too_long = true;
            }
            self.line.extend_from_slice(&chunk[..chunk.len().min(room)]);
            let used = newline.map_or(available.len(), |end| end + 1);
            self.reader.consume(used);
            if newline.is_some() {
                break;
            }
        }
        if any {
            self.number += 1;
        }
        Ok(any)
    }

    /// The whole lines read ahead and not yet taken, each with its newline, for a caller that
    /// scans many lines in one buffer rather than one [`Lines::next_raw`] at a time; empty
    /// when no whole line is buffered (at the end of the input, or in a line that goes on past
    /// the buffer: [`Lines::next_raw`] takes that one). Hand back what was used with
    /// [`Lines::consume_lines`].
    ///
    /// # Errors
    /// A failed read.
    pub fn buffered_lines(&mut self) -> io::Result<&[u8]> {
        loop {
            match self.reader.fill_buf() {
                Ok(_) => break,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        let available = self.reader.buffer();
        let whole = available.iter().rposition(|&byte| byte == b'\n');
        Ok(&available[..whole.map_or(0, |end| end + 1)])
    }

    /// Takes the first `bytes` of [`Lines::buffered_lines`], `lines` lines (each with its
    /// newline), counting them in [`Lines::number`].
    pub fn consume_lines(&mut self, bytes: usize, lines: u64) {
        self.reader.consume(bytes);
        self.number += lines;
    }

    /// The bytes of the last line read (at most [`MAX_LINE`]).
    #[must_use]
    pub fn raw(&self) -> &[u8] {
        &self.line
    }

    /// Whether the last line read was too long or not UTF-8.
    ///
    /// # Errors
    /// The reason the last line is no input.
    pub fn checked(&self) -> Result<&str, LineError> {
        if self.too_long {
            return Err(LineError::TooLong);
        }
        std::str::from_utf8(&self.line).map_err(|error| LineError::NotUtf8 {
            byte: self.line[error.valid_up_to()],
            index: error.valid_up_to(),
        })
    }
}

/// One input: its text, trimmed of surrounding whitespace (and a `\r`), and where it came from.
#[derive(Clone, Copy, Debug)]
pub struct Item<'a> {
    /// The text (lossy when the line is no text; only its first [`MAX_LINE`] bytes when the
    /// line was too long).
    pub text: &'a str,
    pub origin: Origin,
    problem: Option<LineError>,
}

impl<'a> Item<'a> {
    /// The text, or the error for a line that cannot be an input.
    ///
    /// # Errors
    /// The line was too long or not UTF-8.
    pub fn checked_text(&self) -> Result<&'a str, LineError> {
        match self.problem {
            Some(problem) => Err(problem),
            None => Ok(self.text),
        }
    }
}

/// Whether an input was answered or rejected (the answer then holds the reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Answered,
    Rejected,
}

/// Calls `each` on every argument, or, with none, on every non-blank line of standard input
/// (blank lines are counted in the line numbers), flushing `out` whenever standard input may
/// make it wait.
///
/// # Errors
/// A failed read, or an error of `each`.
pub fn for_each(
    args: &[OsString],
    out: &mut Out,
    mut each: impl FnMut(Item<'_>, &mut Out) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for (i, arg) in args.iter().enumerate() {
        // An argument that is not UTF-8 is a bad input, as the same bytes on a line are (not a
        // usage error: the exit status does not depend on where the input came from).
        let bytes = arg.as_encoded_bytes();
        let (text, problem) = match std::str::from_utf8(bytes) {
            Ok(text) => (std::borrow::Cow::Borrowed(text), None),
            Err(error) => (
                String::from_utf8_lossy(bytes),
                Some(LineError::NotUtf8 {
                    byte: bytes[error.valid_up_to()],
                    index: error.valid_up_to(),
                }),
            ),
        };
        let item = Item {
            text: text.trim(),
            origin: Origin::Argument(i + 1),
            problem,
        };
        each(item, out)?;
    }
    if !args.is_empty() {
        return Ok(());
    }
    if io::stdin().is_terminal() {
        errln!("ttt: reading one input per line from standard input (end with Ctrl-D)");
    }
    let mut lines = Lines::stdin();
    loop {
        if !lines.next_raw(&mut || out.flush())? {
            return Ok(());
        }
        let checked = lines.checked();
        let text = match checked {
            Ok(text) => std::borrow::Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(lines.raw()),
        };
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let item = Item {
            text,
            origin: Origin::Line(lines.number()),
            problem: checked.err(),
        };
        each(item, out)?;
    }
}

/// Answers every input with `answer`, which writes to the buffered standard output and says
/// whether the input was good. The exit status is [`exit::BAD_INPUT`] if any input was rejected.
///
/// # Errors
/// A failed read or write.
pub fn answer_each(
    args: &[OsString],
    mut answer: impl FnMut(Item<'_>, &mut Out) -> anyhow::Result<Outcome>,
) -> anyhow::Result<ExitCode> {
    let mut out = Out::new();
    let (mut total, mut rejected) = (0u64, 0u64);
    for_each(args, &mut out, |item, out| {
        total += 1;
        if answer(item, out)? == Outcome::Rejected {
            rejected += 1;
        }
        out.end_answer()?;
        Ok(())
    })?;
    out.flush()?;
    if rejected == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    errln!(
        "ttt: error: {rejected} of {} rejected",
        output::count(total, "input", "inputs")
    );
    Ok(ExitCode::from(exit::BAD_INPUT))
}

/// The reason an input is not a board, with a hint when it names a file.
fn not_a_board(item: &Item<'_>, error: &dyn fmt::Display) -> String {
    let hint = if matches!(item.origin, Origin::Argument(_)) && Path::new(item.text).is_file() {
        format!(
            " ({:?} is a file: to read its lines, give it as standard input: < {})",
            item.text, item.text
        )
    } else {
        String::new()
    };
    format!("{error}{hint}")
}

/// [`answer_each`] for subcommands that take boards: an input that is not a board is rejected
/// with the parse error (as [`InputError`] JSON when `json`), the others go to `answer`.
///
/// # Errors
/// A failed read or write.
pub fn answer_each_board(
    args: &[OsString],
    json: bool,
    mut answer: impl FnMut(Board, &mut Out) -> anyhow::Result<Outcome>,
) -> anyhow::Result<ExitCode> {
    let parse = |item: &Item<'_>| -> Result<Board, String> {
        let text = item.checked_text().map_err(|error| error.to_string())?;
        text.parse()
            .map_err(|error: ParseBoardError| not_a_board(item, &error))
    };
    answer_each(args, |item, out| match parse(&item) {
        Ok(board) => answer(board, out),
        Err(error) if json => reject_json(out, &InputError::new(&item, error)),
        Err(error) => reject(out, item.origin, format_args!("{:?}: {error}", item.text)),
    })
}

/// Reports a rejected input to people: one line on standard error saying where the input came
/// from and why it was rejected (`why` names the input). Standard output is flushed first so
/// the two streams stay in order on a terminal.
///
/// # Errors
/// A failed write.
pub fn reject(out: &mut Out, origin: Origin, why: impl fmt::Display) -> anyhow::Result<Outcome> {
    out.flush()?;
    errln!("ttt: error: {origin}: {why}");
    Ok(Outcome::Rejected)
}

/// The JSON answer to an input that is no board (or code, or game):
/// `{"input":…,"line":…,"error":…}` (`argument` instead of `line` for an argument).
#[derive(serde::Serialize)]
pub struct InputError<'a> {
    /// The input as given (trimmed).
    pub input: &'a str,
    /// The argument it was, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub argument: Option<usize>,
    /// The line of standard input it was, from 1, blank lines counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// Why it was rejected.
    pub error: String,
}

impl<'a> InputError<'a> {
    /// The error object for `item`.
    #[must_use]
    pub fn new(item: &Item<'a>, error: String) -> InputError<'a> {
        let (argument, line) = match item.origin {
            Origin::Argument(n) => (Some(n), None),
            Origin::Line(n) => (None, Some(n)),
        };
        InputError {
            input: item.text,
            argument,
            line,
            error,
        }
    }
}

/// Reports a rejected input as a JSON line on standard output.
///
/// # Errors
/// A failed write.
pub fn reject_json(out: &mut Out, value: &impl serde::Serialize) -> anyhow::Result<Outcome> {
    output::json_line(out, value)?;
    Ok(Outcome::Rejected)
}

/// Writes `value` as one JSON line: an answered input.
///
/// # Errors
/// A failed write.
pub fn json_line(out: &mut Out, value: &impl serde::Serialize) -> anyhow::Result<Outcome> {
    output::json_line(out, value)?;
    Ok(Outcome::Answered)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_lines(bytes: &'static [u8]) -> Vec<Result<String, LineError>> {
        let mut lines = Lines::new(Box::new(bytes), 16);
        let mut seen = Vec::new();
        while lines.next_raw(&mut || Ok(())).unwrap() {
            seen.push(lines.checked().map(str::to_owned));
        }
        seen
    }

    #[test]
    fn lines_are_bounded_and_numbered() {
        let mut long = vec![b'x'; MAX_LINE + 10];
        long.extend_from_slice(b"\nok\n\xff\n");
        let long: &'static [u8] = long.leak();
        assert_eq!(
            all_lines(long),
            [
                Err(LineError::TooLong),
                Ok("ok".to_owned()),
                Err(LineError::NotUtf8 {
                    byte: 0xff,
                    index: 0
                })
            ]
        );
        assert_eq!(
            all_lines(b"a\n\nb"),
            [Ok("a".into()), Ok(String::new()), Ok("b".into())]
        );
        let exact: &'static [u8] = vec![b'y'; MAX_LINE].leak();
        assert_eq!(all_lines(exact).len(), 1);
        assert!(all_lines(exact)[0].is_ok());
    }
}
