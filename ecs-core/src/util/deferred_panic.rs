//! Finishing a loop of drops even when one of them panics.

use core::any::Any;
use std::panic::{self, AssertUnwindSafe};

/// What a caught panic carries, to be resumed later.
pub(crate) type PanicPayload = Box<dyn Any + Send>;

/// The first panic of a loop that must run to the end: each step that may
/// panic runs under [`run`](Self::run) (or hands its caught panic to
/// [`keep`](Self::keep)), and [`resume`](Self::resume) re-raises the first one
/// once everything is done. Later panics of the same loop are dropped.
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

    /// Re-raises the first panic kept, if any.
    pub(crate) fn resume(self) {
        if let Some(payload) = self.0 {
            panic::resume_unwind(payload);
        }
    }
}
