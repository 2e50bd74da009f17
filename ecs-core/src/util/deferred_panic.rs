//! Finishing a loop of drops even when one of them panics.

use core::any::Any;
use std::panic::{self, AssertUnwindSafe};

/// What a caught panic carries, to be resumed later.
pub(crate) type PanicPayload = Box<dyn Any + Send>;

/// The first panic of a loop that must run to the end: each step that may
/// panic runs under [`run`](Self::run) (or hands its caught panic to
/// [`keep`](Self::keep)), and [`resume`](Self::resume) re-raises the first one
/// once everything is done. Later panics of the same loop are dropped.
///
/// A panic raised while another unwinds aborts the process, so every value
/// a loop drops must be dropped under one of these, never by a container's
/// own drop glue (`Vec::clear`, a `Vec` going out of scope), which goes on
/// to the next value while the first panic unwinds.
#[derive(Default)]
pub(crate) struct DeferredPanic(Option<PanicPayload>);

impl DeferredPanic {
    /// Runs `step`, keeping its panic for later.
    pub(crate) fn run(&mut self, step: impl FnOnce()) {
        self.keep(panic::catch_unwind(AssertUnwindSafe(step)));
    }

    /// Keeps the panic of a step that caught its own.
    pub(crate) fn keep(&mut self, result: Result<(), PanicPayload>) {
        if let Err(payload) = result {
            self.0.get_or_insert(payload);
        }
    }

    /// Drops every value of `values`, each on its own, keeping the first
    /// panic of their `Drop`s; `values.next()` itself must not panic (a
    /// `Vec`'s `drain` does not).
    ///
    /// One `catch_unwind` per panic, not per value: a value is out of the
    /// iterator before it drops, so after a panic the loop starts again at
    /// the next one.
    pub(crate) fn drop_each<T>(&mut self, mut values: impl Iterator<Item = T>) {
        if !core::mem::needs_drop::<T>() {
            values.for_each(drop);
            return;
        }
        while let Err(payload) =
            panic::catch_unwind(AssertUnwindSafe(|| values.by_ref().for_each(drop)))
        {
            self.0.get_or_insert(payload);
        }
    }

    /// Re-raises the first panic kept, if any; but while this thread already
    /// unwinds from another panic (the loop runs in a `Drop` during an
    /// unwind), the kept one is dropped instead: raising it would abort the
    /// process, and the panic under way still reaches the caller.
    ///
    /// Inlined, with the raising out of line: on the common path, with no
    /// panic kept, it is one test.
    #[inline]
    pub(crate) fn resume(self) {
        if let Some(payload) = self.0 {
            resume_kept(payload);
        }
    }
}

/// [`DeferredPanic::resume`] once a panic was kept.
#[cold]
#[inline(never)]
fn resume_kept(payload: PanicPayload) {
    if !std::thread::panicking() {
        panic::resume_unwind(payload);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// Counts its drops in a shared cell; panics when dropped if `bad`.
    struct Counted<'a>(&'a Cell<usize>, bool);

    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.set(self.0.get() + 1);
            if self.1 {
                panic!("bad value {}", self.0.get());
            }
        }
    }

    #[test]
    fn drop_each_drops_every_value_past_panics_and_keeps_the_first() {
        let drops = Cell::new(0);
        let mut values: Vec<_> = [false, true, false, true, true, false]
            .into_iter()
            .map(|bad| Counted(&drops, bad))
            .collect();
        let mut panics = DeferredPanic::default();
        panics.drop_each(values.drain(..));
        assert_eq!(drops.get(), 6);
        assert!(values.is_empty());
        let payload = panic::catch_unwind(AssertUnwindSafe(|| panics.resume())).unwrap_err();
        assert_eq!(payload.downcast_ref::<String>().unwrap(), "bad value 2");
    }
}
