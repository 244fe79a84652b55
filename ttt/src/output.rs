//! Where answers go: buffered standard output that is flushed per answer when someone reads it
//! as it comes (`--line-buffered`, a terminal on either end), messages on standard error that
//! never panic, and the small wording helpers every subcommand shares.

use std::fmt;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once by `main` from `--line-buffered`.
static LINE_BUFFERED: AtomicBool = AtomicBool::new(false);

/// Asks for every answer to be flushed as soon as it is complete (`--line-buffered`).
pub fn set_line_buffered(on: bool) {
    LINE_BUFFERED.store(on, Ordering::Relaxed);
}

/// Whether answers are flushed one by one: asked for, or a terminal on standard input or
/// standard output (someone types, or someone reads).
#[must_use]
pub fn line_buffered() -> bool {
    LINE_BUFFERED.load(Ordering::Relaxed) || io::stdin().is_terminal() || io::stdout().is_terminal()
}

/// Standard output, unbuffered here, whose write errors say where they happened ("cannot
/// write standard output: No space left on device"); the kind is kept, so a broken pipe is
/// still recognised as one.
pub struct Stdout(io::StdoutLock<'static>);

/// Standard output, locked, naming itself in its errors.
#[must_use]
pub fn stdout() -> Stdout {
    Stdout(io::stdout().lock())
}

fn named(error: io::Error) -> io::Error {
    io::Error::new(
        error.kind(),
        format!("cannot write standard output: {error}"),
    )
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(named)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.write_all(buf).map_err(named)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(named)
    }
}

/// Fails when standard output was closed (`ttt ... >&-`): the standard library would drop
/// every write to it in silence.
///
/// # Errors
/// An I/O error saying standard output is closed.
pub fn require_stdout() -> io::Result<()> {
    if crate::closed_stdout::was_closed() {
        return Err(io::Error::other(
            "standard output is closed: nothing could be written",
        ));
    }
    Ok(())
}

/// Buffered standard output: one `write` system call per 64 KiB in bulk, one per answer when
/// [`line_buffered`]. Readers of standard input also flush it before they wait for more input,
/// so a pipe driven line by line gets each answer before it sends the next line.
pub struct Out {
    inner: BufWriter<Stdout>,
    line_buffered: bool,
}

impl Out {
    /// Standard output, buffered.
    #[must_use]
    pub fn new() -> Out {
        Out {
            inner: BufWriter::with_capacity(1 << 16, stdout()),
            line_buffered: line_buffered(),
        }
    }

    /// Marks the end of one answer: flushed now when line-buffered.
    ///
    /// # Errors
    /// A failed write.
    pub fn end_answer(&mut self) -> io::Result<()> {
        if self.line_buffered {
            self.inner.flush()?;
        }
        Ok(())
    }
}

impl Default for Out {
    fn default() -> Out {
        Out::new()
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes one line to standard output; unlike `println!`, a failure is an error, not a panic.
///
/// # Errors
/// A failed write (a broken pipe included, which `main` ends quietly).
pub fn line(text: fmt::Arguments<'_>) -> io::Result<()> {
    let mut out = stdout();
    out.write_fmt(text)?;
    out.write_all(b"\n")
}

/// Writes one line to standard error, ignoring failure: a closed standard error must not turn
/// a run into a panic (`ttt encode ZZZ 2>&1 | true`).
pub fn warn(text: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(text).and_then(|()| err.write_all(b"\n"));
}

/// `println!` that returns an error instead of panicking (use in functions returning
/// `anyhow::Result`).
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))?
    };
}

/// `eprintln!` that never panics.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::warn(format_args!($($arg)*))
    };
}

pub(crate) use {errln, outln};

/// Writes `value` as one line of JSON, the end of one answer.
///
/// # Errors
/// A failed write.
pub fn json_line(out: &mut Out, value: &impl serde::Serialize) -> anyhow::Result<()> {
    // As an `io::Error`, so that `main` recognizes a broken pipe (`ttt ... | head`).
    serde_json::to_writer(&mut *out, value).map_err(io::Error::from)?;
    out.write_all(b"\n")?;
    out.end_answer()?;
    Ok(())
}

/// `1 position`, `2 positions`: a count with its noun in the right number.
#[must_use]
pub fn count(n: u64, singular: &str, plural: &str) -> String {
    if n == 1 {
        format!("{n} {singular}")
    } else {
        format!("{n} {plural}")
    }
}

/// Width of text output for people.
pub const WIDTH: usize = 100;

/// `text` (one line) wrapped at spaces to [`WIDTH`] columns, continuation lines starting with
/// `indent`; a word longer than a line stays whole.
#[must_use]
pub fn wrap(text: &str, indent: &str) -> String {
    let mut wrapped = String::with_capacity(text.len() + 16);
    let mut column = 0;
    for (i, word) in text.split(' ').enumerate() {
        let width = word.chars().count();
        if i > 0 && column + 1 + width > WIDTH && column > indent.len() {
            wrapped.push('\n');
            wrapped.push_str(indent);
            column = indent.len();
        } else if i > 0 {
            wrapped.push(' ');
            column += 1;
        }
        wrapped.push_str(word);
        column += width;
    }
    wrapped
}

/// `623,360,700`: digits in groups of three.
#[must_use]
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_group_by_three_digits() {
        assert_eq!(grouped(623_360_700), "623,360,700");
        assert_eq!(grouped(19_683), "19,683");
        assert_eq!(grouped(100), "100");
        assert_eq!(grouped(0), "0");
    }

    #[test]
    fn wrapping_keeps_lines_within_the_width() {
        let long = format!("codes     {}", "word ".repeat(40).trim_end());
        let wrapped = wrap(&long, "          ");
        assert!(
            wrapped.lines().all(|line| line.chars().count() <= WIDTH),
            "{wrapped}"
        );
        assert!(
            wrapped
                .lines()
                .skip(1)
                .all(|line| line.starts_with("          word"))
        );
        assert_eq!(wrapped.replace("\n         ", ""), long);
        assert_eq!(wrap("short line", "  "), "short line");
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(count(1, "input", "inputs"), "1 input");
        assert_eq!(count(0, "input", "inputs"), "0 inputs");
        assert_eq!(count(2, "line", "lines"), "2 lines");
    }
}
