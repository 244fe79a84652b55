//! The one progress bar of `ttt`: on standard error, only when it is a terminal, never with
//! `--json` (see [`Progress::unless`]), and only once a run has taken a second (short runs and
//! pipelines never see it).

use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before its bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// A progress bar on standard error, shown only on a terminal and only once a run has lasted
/// a second (short runs print nothing). Shared by reference between threads: every method
/// takes `&self`.
pub struct Progress {
    bar: ProgressBar,
    /// Whether the bar may ever be drawn (false with `--json`).
    allowed: bool,
    shown: AtomicBool,
}

impl Progress {
    /// A bar counting to `total` (a spinner and a count when `None`), labelled `what`.
    pub fn new(total: Option<u64>, what: &str) -> Progress {
        // Hidden until shown, but counting from the start so that rates and times are right.
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        let template = match total {
            Some(_) => "{bar:40} {human_pos}/{human_len} {msg} ({elapsed}, {eta} left)",
            None => "{spinner} {human_pos} {msg} ({elapsed})",
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_message(what.to_owned());
        Progress {
            bar,
            allowed: true,
            shown: AtomicBool::new(false),
        }
    }

    /// A spinner with a message only (`{msg}` says everything: nodes, plies), for work whose
    /// end is unknown.
    pub fn spinner(what: &str) -> Progress {
        let progress = Progress::new(None, what);
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
            progress.bar.set_style(style);
        }
        progress
    }

    /// Never draws when `hide` is true: `--json` output is for programs, so nothing else is
    /// written while it runs, not even to standard error.
    #[must_use]
    pub fn unless(mut self, hide: bool) -> Progress {
        self.allowed = !hide;
        self
    }

    /// Whether this bar would draw once a second has passed: standard error is a terminal and
    /// `--json` was not given.
    pub fn may_draw(&self) -> bool {
        self.allowed && io::stderr().is_terminal()
    }

    /// Starts drawing once the run has lasted [`DELAY`].
    fn show_when_due(&self) {
        if !self.shown.load(Ordering::Relaxed)
            && self.bar.elapsed() > DELAY
            && self.may_draw()
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Updates the position (cheap: call it every few thousand records).
    pub fn set(&self, position: u64) {
        self.show_when_due();
        self.bar.set_position(position);
    }

    /// Advances the position by `n` (from any thread).
    pub fn inc(&self, n: u64) {
        self.show_when_due();
        self.bar.inc(n);
    }

    /// Sets the position and the length (the bar's end) together.
    pub fn set_of(&self, position: u64, length: u64) {
        self.bar.set_length(length);
        self.set(position);
    }

    /// Replaces the message and checks whether the bar is due.
    pub fn message(&self, message: String) {
        self.bar.set_message(message);
        self.show_when_due();
        self.bar.tick();
    }

    /// Advances by one step and shows `message` (for runs counted in steps, like `ttt bench`'s
    /// rounds). Call it between timed loops only: drawing allocates.
    pub fn step(&self, message: String) {
        let position = self.bar.position() + 1;
        self.bar.set_message(message);
        self.set(position);
    }

    /// Clears the bar and starts again from nothing, hidden until the next run has lasted
    /// [`DELAY`] (between the inputs of a stream: a bar never waits on a terminal for input).
    pub fn restart(&self) {
        if self.shown.swap(false, Ordering::Relaxed) {
            self.bar.finish_and_clear();
            self.bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        self.bar.reset();
    }

    /// Clears the bar.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}
