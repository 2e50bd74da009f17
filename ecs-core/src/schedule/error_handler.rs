//! What a schedule does with the error a system returned.

use crate::error::SystemError;

/// The error handlers a schedule can be given
/// ([`Schedule::set_error_handler`](super::Schedule::set_error_handler)), or
/// any `fn(&SystemError)` of your own.
///
/// A schedule calls its handler after each frame, on the calling thread,
/// once per system that returned an `Err` that frame (with its first error);
/// [`Schedule::system_errors`](super::Schedule::system_errors) lists every
/// one. The default, [`warn`](Self::warn), writes it to stderr.
///
/// ```
/// use ecs_core::prelude::*;
///
/// fn fails() -> Result<(), String> {
///     Err("out of ammunition".into())
/// }
///
/// let mut world = World::new();
/// let mut schedule = Schedule::new();
/// schedule.set_error_handler(|error| assert_eq!(error.system(), "fails"));
/// schedule.add_system(Stage::Update, fails)?;
/// schedule.run(&mut world)?;
/// assert_eq!(schedule.stats()[0].failed, 1);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ErrorHandler;

impl ErrorHandler {
    /// Writes the error to stderr, naming the system and the frame: the
    /// default handler.
    pub fn warn(error: &SystemError) {
        eprintln!("{error}");
    }

    /// Panics with the error's words, once the frame has ended (the world
    /// is consistent and every stage ran).
    ///
    /// ```should_panic
    /// use ecs_core::prelude::*;
    ///
    /// fn fails() -> Result<(), String> {
    ///     Err("out of ammunition".into())
    /// }
    ///
    /// let mut world = World::new();
    /// let mut schedule = Schedule::new();
    /// schedule.set_error_handler(ErrorHandler::panic);
    /// schedule.add_system(Stage::Update, fails).unwrap();
    /// let _ = schedule.run(&mut world); // panics: "system `fails` failed in frame 0: ..."
    /// ```
    pub fn panic(error: &SystemError) {
        panic!("{error}");
    }

    /// Does nothing: the errors are still listed in
    /// [`Schedule::system_errors`](super::Schedule::system_errors) and
    /// counted in [`SystemStats::failed`](super::SystemStats::failed).
    pub fn ignore(error: &SystemError) {
        let _ = error;
    }
}
