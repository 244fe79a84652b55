//! A global allocator that counts the bytes it hands out, so `ttt bench` can report the heap
//! bytes allocated inside each timed loop (the paper reports memory; ours is measured, not
//! estimated).
//!
//! It forwards every call to the system allocator and adds the requested size to a counter of
//! the calling thread: no lock, no allocation of its own, a few nanoseconds per allocation and
//! nothing at all in a loop that does not allocate. Per thread, so that what a timed loop
//! allocates is not mixed with what other threads (a progress bar, other tests) allocate
//! meanwhile.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Bytes this thread requested from the allocator since it started (allocations and
    /// growing reallocations; frees are not subtracted). Const-initialised without a
    /// destructor, so reading it never allocates.
    static ALLOCATED: Cell<u64> = const { Cell::new(0) };
}

/// The system allocator, counting.
pub struct Counting;

/// Bytes this thread has allocated so far.
pub fn allocated_bytes() -> u64 {
    ALLOCATED.try_with(Cell::get).unwrap_or(0)
}

fn count(bytes: usize) {
    // During a thread's teardown the counter may be gone: that allocation is not counted.
    let _ = ALLOCATED.try_with(|total| total.set(total.get() + bytes as u64));
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so the
// `GlobalAlloc` contract holds exactly as it holds for `System`; the counter has no effect on
// the memory returned.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded unchanged; the caller upholds `alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: forwarded unchanged; the caller upholds `alloc_zeroed`'s contract.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged; `ptr` came from this allocator, i.e. from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size.saturating_sub(layout.size()));
        // SAFETY: forwarded unchanged; the caller upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_counted() {
        let before = allocated_bytes();
        let v: Vec<u8> = std::hint::black_box(Vec::with_capacity(1000));
        assert!(allocated_bytes() - before >= 1000);
        drop(v);
    }

    #[test]
    fn other_threads_allocations_are_not_counted_here() {
        let before = allocated_bytes();
        std::thread::scope(|scope| {
            scope.spawn(|| std::hint::black_box(vec![0u8; 1 << 20]));
        });
        // Spawning a thread allocates a little here (its handle), never its megabyte.
        assert!(allocated_bytes() - before < 1 << 16);
    }
}
