//! `SyncCell`: a value that only `&mut` can reach, and so may be shared.

/// Holds a `Send` value that is reachable only by taking the cell apart
/// ([`into_inner`](Self::into_inner)), which makes the cell `Sync` even when
/// the value is not: a shared reference to the cell gives no access to the
/// value at all.
///
/// Command buffers hold boxed `FnOnce + Send` calls this way, so a world
/// holding one stays `Sync`.
#[derive(Default)]
pub(crate) struct SyncCell<T>(T);

impl<T> SyncCell<T> {
    pub(crate) fn new(value: T) -> Self {
        Self(value)
    }

    pub(crate) fn into_inner(self) -> T {
        self.0
    }
}

// SAFETY: no method reaches the value through `&self` (or `&mut self`), so
// sharing the cell across threads shares nothing of `T`; moving it needs `T: Send`.
unsafe impl<T: Send> Sync for SyncCell<T> {}
