//! This thread's CPU time, for the examples that time searches on a shared machine.

/// Seconds of CPU this thread has used (0 where the clock is not available).
#[cfg(unix)]
pub fn cpu_seconds() -> f64 {
    use nix::time::{ClockId, clock_gettime};
    clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID)
        .map_or(0.0, |t| t.tv_sec() as f64 + t.tv_nsec() as f64 / 1e9)
}

/// Seconds of CPU this thread has used (0 where the clock is not available).
#[cfg(not(unix))]
pub fn cpu_seconds() -> f64 {
    0.0
}
