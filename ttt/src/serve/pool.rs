//! The bounded pool that runs every search: at most `jobs` at once on tokio's blocking
//! threads (a semaphore), at most `queue` more waiting; beyond that a request is answered
//! `503 Service Unavailable` with `Retry-After` at once instead of growing a queue. Solvers
//! (tables of tens of MiB) are kept between jobs, one per running job at most.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::StatusCode;
use tictactoe::mnk::AnySolver;
use tokio::sync::Semaphore;

use super::error::ApiError;

/// Set when the server is asked to stop: every search's watch stops it, so streams end and
/// the graceful shutdown does not wait for the time budget.
pub static STOPPING: AtomicBool = AtomicBool::new(false);

/// Whether the server is stopping.
pub fn stopping() -> bool {
    STOPPING.load(Ordering::Relaxed)
}

/// Hint streams whose last line has not been taken yet.
static OPEN_STREAMS: AtomicUsize = AtomicUsize::new(0);

/// One open hint stream, counted while it lives: the graceful shutdown waits for the count
/// to reach 0 ([`streams_ended`]) before it closes connections.
pub struct OpenStream(());

impl OpenStream {
    pub fn new() -> OpenStream {
        OPEN_STREAMS.fetch_add(1, Ordering::AcqRel);
        OpenStream(())
    }
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        OPEN_STREAMS.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Waits until every open hint stream has ended, or `limit` has passed: `true` when they all
/// ended. Once the server is [`stopping`], each stream's search stops at its next check and
/// the stream ends with its unsolved moves and `done`.
pub async fn streams_ended(limit: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + limit;
    while OPEN_STREAMS.load(Ordering::Acquire) > 0 {
        if tokio::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    true
}

/// The pool's sizes and the time budget of one job.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Searches running at once.
    pub jobs: usize,
    /// Searches waiting for a slot, at most.
    pub queue: usize,
    /// The longest one request's searches may take.
    pub budget: Duration,
}

pub struct Pool {
    limits: Limits,
    slots: Arc<Semaphore>,
    admitted: AtomicUsize,
    solvers: Mutex<Vec<AnySolver>>,
}

/// A place in the pool (running or waiting), given back when dropped.
pub struct Ticket {
    pool: Arc<Pool>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.pool.admitted.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Pool {
    pub fn new(limits: Limits) -> Arc<Pool> {
        Arc::new(Pool {
            limits,
            slots: Arc::new(Semaphore::new(limits.jobs.max(1))),
            admitted: AtomicUsize::new(0),
            solvers: Mutex::new(Vec::new()),
        })
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// A place for one job, or `busy` (503, `Retry-After: 1`) when the running and waiting
    /// jobs are at their limits.
    ///
    /// # Errors
    /// `busy` as above.
    pub fn admit(self: &Arc<Pool>) -> Result<Ticket, ApiError> {
        let limit = self.limits.jobs.max(1) + self.limits.queue;
        let admitted = self
            .admitted
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < limit).then_some(n + 1)
            });
        match admitted {
            Ok(_) => Ok(Ticket {
                pool: Arc::clone(self),
            }),
            Err(_) => {
                let mut error = ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "busy",
                    format!(
                        "the server is busy: {} searches running and {} waiting, its limits \
(--jobs, --queue); retry in a second",
                        self.limits.jobs, self.limits.queue
                    ),
                );
                error.retry_after = Some(1);
                Err(error)
            }
        }
    }

    /// Runs `job` with a solver on a blocking thread once a slot is free, holding `ticket`
    /// until it ends. `None` when the runtime is shutting down.
    pub async fn run<T: Send + 'static>(
        self: &Arc<Pool>,
        ticket: Ticket,
        job: impl FnOnce(&mut AnySolver) -> T + Send + 'static,
    ) -> Option<T> {
        let slot = Arc::clone(&self.slots).acquire_owned().await.ok()?;
        let pool = Arc::clone(self);
        tokio::task::spawn_blocking(move || {
            let mut solver = pool.take_solver();
            let answer = job(&mut solver);
            drop(solver.set_watch(None));
            pool.give_back(solver);
            drop((slot, ticket));
            answer
        })
        .await
        .ok()
    }

    fn take_solver(&self) -> AnySolver {
        let kept = self.solvers.lock().ok().and_then(|mut kept| kept.pop());
        kept.unwrap_or_default()
    }

    fn give_back(&self, solver: AnySolver) {
        if let Ok(mut kept) = self.solvers.lock()
            && kept.len() < self.limits.jobs.max(1)
        {
            kept.push(solver);
        }
    }
}
