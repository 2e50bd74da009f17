//! How `#[derive(Component)]` finds out whether a type implements `Debug`:
//! autoref detection. The derive calls `(&&DebugProbe(value)).debug_view()`;
//! method lookup tries the receiver `&&DebugProbe<T>` first, which only
//! [`ViaDebug`] (for `T: Debug`) takes, and falls back to [`WithoutDebug`] one
//! auto-deref later. Public only for the generated code.

use core::fmt;

/// Wraps a component value for the `Debug` detection.
#[doc(hidden)]
pub struct DebugProbe<'a, T>(pub &'a T);

/// The probe's answer when `T: Debug`: the value itself.
#[doc(hidden)]
pub trait ViaDebug<'a> {
    fn debug_view(&self) -> Option<&'a dyn fmt::Debug>;
}

impl<'a, T: fmt::Debug> ViaDebug<'a> for &DebugProbe<'a, T> {
    #[inline]
    fn debug_view(&self) -> Option<&'a dyn fmt::Debug> {
        Some(self.0)
    }
}

/// The probe's answer for every other `T`: nothing to show.
#[doc(hidden)]
pub trait WithoutDebug<'a> {
    fn debug_view(&self) -> Option<&'a dyn fmt::Debug>;
}

impl<'a, T> WithoutDebug<'a> for DebugProbe<'a, T> {
    #[inline]
    fn debug_view(&self) -> Option<&'a dyn fmt::Debug> {
        None
    }
}
