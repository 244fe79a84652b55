//! How long a search may run: a node budget and a [`Watch`] the search calls now and then,
//! shared by the Connect Four solver and the family solver.
//!
//! | what | cost in the search loop |
//! |---|---|
//! | no budget, no watch | one compare a node (the checkpoint is `u64::MAX`) |
//! | a budget, a watch | the same compare; the watch runs once every [`WATCH_NODES`] nodes |

use crate::solver::{WATCH_NODES, Watch};

/// A search's node limit and watch: [`Limits::reached`] is the one compare a node; past the
/// checkpoint, [`Limits::check`] says whether to stop.
#[derive(Default)]
pub(crate) struct Limits {
    /// The last node the budget allows.
    limit: u64,
    /// The node count at which [`Limits::check`] runs next.
    checkpoint: u64,
    /// The node count when the search started.
    start: u64,
    watch: Option<Watch>,
    /// Whether this search calls `watch`.
    polling: bool,
}

impl Clone for Limits {
    /// A copy without the watch (a closure is not copied) and no search under way.
    fn clone(&self) -> Limits {
        Limits::new()
    }
}

impl Limits {
    /// No limit, no watch.
    pub(crate) const fn new() -> Limits {
        Limits {
            limit: u64::MAX,
            checkpoint: u64::MAX,
            start: 0,
            watch: None,
            polling: false,
        }
    }

    /// Keeps `watch` for the bounded searches; returns the watch kept before.
    pub(crate) fn set_watch(&mut self, watch: Option<Watch>) -> Option<Watch> {
        core::mem::replace(&mut self.watch, watch)
    }

    /// A search starts at node count `nodes`: with `budget` nodes and the watch when
    /// `bounded`, or unlimited.
    pub(crate) fn start(&mut self, nodes: u64, budget: u64, bounded: bool) {
        self.start = nodes;
        self.limit = nodes.saturating_add(budget);
        self.polling = bounded && self.watch.is_some();
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
            nodes.saturating_add(WATCH_NODES)
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

    /// At the checkpoint: `true` when the budget is spent or the watch says stop.
    #[cold]
    pub(crate) fn check(&mut self, nodes: u64) -> bool {
        if nodes > self.limit {
            return true;
        }
        let taken = nodes - self.start;
        if self.polling && self.watch.as_mut().is_some_and(|watch| !watch(taken)) {
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
    fn a_budget_stops_after_its_last_node_and_the_watch_runs_every_watch_nodes() {
        let mut limits = Limits::new();
        limits.start(10, 5, true);
        assert!(!limits.reached(15));
        assert!(limits.reached(16) && limits.check(16));
        let calls = alloc::sync::Arc::new(core::sync::atomic::AtomicU64::new(0));
        let counted = calls.clone();
        // Goes on at its first call (after WATCH_NODES nodes of the search), stops at its second.
        let _ = limits.set_watch(Some(alloc::boxed::Box::new(move |taken| {
            assert_eq!(taken % WATCH_NODES, 0);
            counted.fetch_add(1, core::sync::atomic::Ordering::Relaxed) == 0
        })));
        let start = 7;
        limits.start(start, u64::MAX, true);
        assert!(!limits.reached(start + WATCH_NODES - 1));
        assert!(limits.reached(start + WATCH_NODES) && !limits.check(start + WATCH_NODES));
        assert!(limits.reached(start + 2 * WATCH_NODES) && limits.check(start + 2 * WATCH_NODES));
        // Unbounded searches never call the watch.
        limits.start(0, u64::MAX, false);
        assert!(!limits.reached(u64::MAX - 1));
        limits.finish();
        assert_eq!(calls.load(core::sync::atomic::Ordering::Relaxed), 2);
    }
}
