//! A global allocator that can count the net bytes a piece of code leaves
//! allocated, for the memory figure. Outside a count it costs one relaxed load
//! per call, so the timings are not skewed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

/// The system allocator, plus a net byte count while [`CountingAlloc::measure`] runs.
pub struct CountingAlloc;

static COUNTING: AtomicBool = AtomicBool::new(false);
static NET_BYTES: AtomicIsize = AtomicIsize::new(0);

impl CountingAlloc {
    /// Runs `f` and returns its result with the bytes it left allocated: every
    /// thread's allocations minus its frees (including frees of older memory)
    /// while `f` ran.
    pub fn measure<T>(f: impl FnOnce() -> T) -> (T, isize) {
        NET_BYTES.store(0, Ordering::SeqCst);
        COUNTING.store(true, Ordering::SeqCst);
        let value = f();
        COUNTING.store(false, Ordering::SeqCst);
        (value, NET_BYTES.load(Ordering::SeqCst))
    }

    /// Adds `delta` to the count, if counting.
    fn record(delta: isize) {
        if COUNTING.load(Ordering::Relaxed) {
            NET_BYTES.fetch_add(delta, Ordering::Relaxed);
        }
    }
}

/// A size as a signed delta; allocations never exceed `isize::MAX` bytes.
fn signed(size: usize) -> isize {
    size as isize
}

// SAFETY: every method forwards to `System` with the caller's arguments
// unchanged, so `System`'s guarantees carry over; the counter never touches
// the memory handed out.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is; the caller upholds `alloc`'s contract.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            Self::record(signed(layout.size()));
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as is; the caller upholds `alloc_zeroed`'s contract.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            Self::record(signed(layout.size()));
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as is; `ptr` came from this allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        Self::record(-signed(layout.size()));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as is; the caller upholds `realloc`'s contract.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            Self::record(signed(new_size) - signed(layout.size()));
        }
        new
    }
}
