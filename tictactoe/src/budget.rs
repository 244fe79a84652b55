//! How long a search may run: a node budget and a [`StopCheck`] the search calls now and then,
//! shared by the Connect Four solver and the family solver.
//!
//! | what | cost in the search loop |
//! |---|---|
//! | no budget, no check | one compare a node (the checkpoint is `u64::MAX`) |
//! | a budget, a check | the same compare; the check runs once every [`POLL_NODES`] nodes |

use alloc::boxed::Box;

/// A check a bounded search calls about every [`POLL_NODES`] nodes: `true` stops the search,
/// as a spent node budget does (the search then answers `None`). A command line can stop on
/// Ctrl-C with it, Python on `KeyboardInterrupt`, a server on a deadline. Kept by the solver
/// (see [`connect4::Solver::set_stop_check`](crate::connect4::Solver::set_stop_check)); only
/// the searches with a budget (`*_within`) call it.
pub type StopCheck = Box<dyn FnMut() -> bool + Send + Sync>;

/// Nodes between two calls of a [`StopCheck`]: 2^16, a few milliseconds of either solver.
pub const POLL_NODES: u64 = 1 << 16;

/// A search's node limit and stop check: [`Limits::reached`] is the one compare a node; past
/// the checkpoint, [`Limits::check`] says whether to stop.
#[derive(Default)]
pub(crate) struct Limits {
    /// The last node the budget allows.
    limit: u64,
    /// The node count at which [`Limits::check`] runs next.
    checkpoint: u64,
    stop: Option<StopCheck>,
    /// Whether this search calls `stop`.
    polling: bool,
}

impl Clone for Limits {
    /// A copy without the stop check (a closure is not copied) and no search under way.
    fn clone(&self) -> Limits {
        Limits::new()
    }
}

impl Limits {
    /// No limit, no check.
    pub(crate) const fn new() -> Limits {
        Limits {
            limit: u64::MAX,
            checkpoint: u64::MAX,
            stop: None,
            polling: false,
        }
    }

    /// Keeps `stop` for the bounded searches; returns the check kept before.
    pub(crate) fn set_stop_check(&mut self, stop: Option<StopCheck>) -> Option<StopCheck> {
        core::mem::replace(&mut self.stop, stop)
    }

    /// A search starts at node count `nodes`: with `budget` nodes and the stop check when
    /// `bounded`, or unlimited.
    pub(crate) fn start(&mut self, nodes: u64, budget: u64, bounded: bool) {
        self.limit = nodes.saturating_add(budget);
        self.polling = bounded && self.stop.is_some();
        self.checkpoint = self.next_checkpoint(nodes);
    }

    /// The search is over: no limit until the next [`Limits::start`].
    pub(crate) fn finish(&mut self) {
        self.limit = u64::MAX;
        self.checkpoint = u64::MAX;
        self.polling = false;
    }

    fn next_checkpoint(&self, nodes: u64) -> u64 {
        let poll = if self.polling {
            nodes.saturating_add(POLL_NODES)
        } else {
            u64::MAX
        };
        self.limit.saturating_add(1).min(poll)
    }

    /// Whether `nodes` is at the checkpoint (then call [`Limits::check`]).
    #[inline(always)]
    pub(crate) const fn reached(&self, nodes: u64) -> bool {
        nodes >= self.checkpoint
    }

    /// At the checkpoint: `true` when the budget is spent or the stop check says stop.
    #[cold]
    pub(crate) fn check(&mut self, nodes: u64) -> bool {
        if nodes > self.limit {
            return true;
        }
        if self.polling && self.stop.as_mut().is_some_and(|stop| stop()) {
            return true;
        }
        self.checkpoint = self.next_checkpoint(nodes);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_stops_after_its_last_node_and_a_check_every_poll() {
        let mut limits = Limits::new();
        limits.start(10, 5, true);
        assert!(!limits.reached(15));
        assert!(limits.reached(16) && limits.check(16));
        let calls = alloc::sync::Arc::new(core::sync::atomic::AtomicU64::new(0));
        let counted = calls.clone();
        let _ = limits.set_stop_check(Some(Box::new(move || {
            counted.fetch_add(1, core::sync::atomic::Ordering::Relaxed) >= 1
        })));
        limits.start(0, u64::MAX, true);
        assert!(!limits.reached(POLL_NODES - 1));
        assert!(limits.reached(POLL_NODES) && !limits.check(POLL_NODES));
        assert!(limits.reached(2 * POLL_NODES) && limits.check(2 * POLL_NODES));
        // Unbounded searches never call the check.
        limits.start(0, u64::MAX, false);
        assert!(!limits.reached(u64::MAX - 1));
        limits.finish();
        assert_eq!(calls.load(core::sync::atomic::Ordering::Relaxed), 2);
    }
}
