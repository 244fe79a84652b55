//! Whether standard output was closed when the process started (`ttt ... >&-`).
//!
//! The standard library's start-up code opens `/dev/null` in place of a closed standard
//! stream, and its `stdout()` drops writes to a closed descriptor in silence, so by `main` a
//! closed standard output looks like `/dev/null` and every answer is lost with status 0. The
//! check runs before that start-up code, as a constructor in `.init_array` (Linux only;
//! elsewhere nothing is detected and the old behaviour stays).

use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether descriptor 1 was closed when the process started.
#[must_use]
pub fn was_closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

#[cfg(target_os = "linux")]
extern "C" fn check() {
    use std::os::fd::AsFd;
    // Duplicating a descriptor fails exactly when it is not open; nothing else is touched.
    let closed = std::io::stdout().as_fd().try_clone_to_owned().is_err();
    CLOSED.store(closed, Ordering::Relaxed);
}

// SAFETY: `check` is a plain function without arguments that only duplicates and closes a
// descriptor and stores a flag; the loader runs the `.init_array` entries before `main` and
// before the standard library replaces closed standard streams.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static CHECK: extern "C" fn() = check;
