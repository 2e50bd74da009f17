//! What a scheduled system may return: nothing, or a `Result` whose error
//! goes to its schedule's error handler ([`SystemError`]) instead of stopping
//! the frame. Defined beside the one-shot systems, whose commands report a
//! run's error the same way.

use crate::error::BoxedError;
#[cfg(doc)]
use crate::error::SystemError;

/// What a system may return: `()`, or `Result<(), E>` for any `E` that
/// converts into a [`BoxedError`] (every `std::error::Error + Send + Sync`,
/// `String`, `&str`), so a system can use `?`.
///
/// An `Err` does not stop the frame: the schedule hands it, with the
/// system's name and the frame, to its error handler
/// ([`Schedule::set_error_handler`](crate::schedule::Schedule::set_error_handler))
/// and lists it in [`Schedule::system_errors`](crate::schedule::Schedule::system_errors).
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Levels(Vec<&'static str>);
///
/// fn load_level(levels: Res<Levels>) -> Result<(), String> {
///     let first = levels.0.first().ok_or("no level to load")?;
///     assert_eq!(*first, "intro");
///     Ok(())
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Levels(vec!["intro"]));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, load_level)?;
/// schedule.run(&mut world)?;
/// assert!(schedule.system_errors().is_empty());
/// # Ok::<(), Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "a system cannot return `{Self}`",
    label = "systems return `()` or `Result<(), E>`",
    note = "return nothing, or `Result<(), E>` for an `E` that converts into \
            `Box<dyn Error + Send + Sync>` (any error type, a `String`, a `&str`), so that `?` works"
)]
pub trait SystemOutput: sealed::Sealed + 'static {
    /// The error the run returned, if it failed.
    #[doc(hidden)]
    fn into_failure(self) -> Option<BoxedError>;
}

mod sealed {
    /// Implemented for `()`, `!` and `Result<(), E>` only.
    pub trait Sealed {}

    /// The output type of a function pointer: how `!`, which stable Rust
    /// names only as a function's return type, is named elsewhere.
    pub trait FnOutput {
        type Output;
    }

    impl<R> FnOutput for fn() -> R {
        type Output = R;
    }
}

impl sealed::Sealed for () {}

impl SystemOutput for () {
    #[inline(always)]
    fn into_failure(self) -> Option<BoxedError> {
        None
    }
}

/// `!`: what a closure whose body only panics returns.
type Never = <fn() -> ! as sealed::FnOutput>::Output;

impl sealed::Sealed for Never {}

/// A system or observer that only panics (`|| panic!("..")`) never
/// returns, so it returns no error.
impl SystemOutput for Never {
    fn into_failure(self) -> Option<BoxedError> {
        self
    }
}

impl<E: Into<BoxedError> + 'static> sealed::Sealed for Result<(), E> {}

impl<E: Into<BoxedError> + 'static> SystemOutput for Result<(), E> {
    #[inline]
    fn into_failure(self) -> Option<BoxedError> {
        self.err().map(Into::into)
    }
}
