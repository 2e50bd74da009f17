//! How `#[derive(Component)]` finds out whether a type implements `Clone`:
//! autoref detection, as for `Debug` (`debug.rs`). The derive calls
//! `(&&CloneProbe(value)).clone_view()`; method lookup tries the receiver
//! `&&CloneProbe<T>` first, which only [`ViaClone`] (for `T: Clone`) takes,
//! and falls back to [`WithoutClone`] one auto-deref later. Public only for
//! the generated code.

/// Wraps a component value for the `Clone` detection.
#[doc(hidden)]
pub struct CloneProbe<'a, T>(pub &'a T);

/// The probe's answer when `T: Clone`: a copy of the value.
#[doc(hidden)]
pub trait ViaClone<T> {
    fn clone_view(&self) -> Option<T>;
}

impl<T: Clone> ViaClone<T> for &CloneProbe<'_, T> {
    #[inline]
    fn clone_view(&self) -> Option<T> {
        Some(self.0.clone())
    }
}

/// The probe's answer for every other `T`: no copy.
#[doc(hidden)]
pub trait WithoutClone<T> {
    fn clone_view(&self) -> Option<T>;
}

impl<T> WithoutClone<T> for CloneProbe<'_, T> {
    #[inline]
    fn clone_view(&self) -> Option<T> {
        None
    }
}
