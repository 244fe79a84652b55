//! The one progress bar of `ttt`: on standard error, only when it is a terminal, and only once
//! a run has taken a second (short runs and pipelines never see it).

use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar on standard error, shown only on a terminal and only once a run has lasted
/// a second (short runs print nothing).
pub struct Progress {
    bar: ProgressBar,
    shown: bool,
    start: Instant,
}

impl Progress {
    pub fn new(total: Option<u64>, what: &'static str) -> Progress {
        // Hidden until shown, but counting from the start so that rates and times are right.
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        let template = match total {
            Some(_) => "{bar:40} {human_pos}/{human_len} {msg} ({elapsed}, {eta} left)",
            None => "{spinner} {human_pos} {msg} ({elapsed})",
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_message(what);
        Progress {
            bar,
            shown: false,
            start: Instant::now(),
        }
    }

    /// Updates the position (cheap: call it every few thousand records).
    pub fn set(&mut self, position: u64) {
        if !self.shown
            && self.start.elapsed() > Duration::from_secs(1)
            && io::stderr().is_terminal()
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.bar.set_position(position);
    }

    /// Advances by one step and shows `message` (for runs counted in steps, like `ttt bench`'s
    /// rounds). Call it between timed loops only: drawing allocates.
    pub fn step(&mut self, message: String) {
        let position = self.bar.position() + 1;
        self.bar.set_message(message);
        self.set(position);
    }

    /// Clears the bar.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}
