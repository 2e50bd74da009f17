//! The one shape the schedule runs every system through, whatever it was
//! made from: a function, a `System` impl, or an exclusive `&mut World` call.

use std::panic::{self, AssertUnwindSafe};

use crate::change::RunTicks;
use crate::error::{BoxedError, Error};
use crate::world::World;

use super::access::SystemAccess;
use super::condition::AnyCondition;
use super::param::SystemWorld;

/// What one run of a system came to, when it could run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RunOutcome {
    /// The system ran: its change-detection horizon moves to this run.
    Ran,
    /// The system ran and returned an error, which it keeps until
    /// [`AnySystem::take_failure`]: its horizon moves too, and its schedule
    /// hands the error to its error handler. (Kept by the system rather than
    /// carried here, so that a run's outcome stays a byte on the hot path.)
    Failed,
    /// A run condition said no: nothing ran, and the horizon stays where it
    /// was, so the next run still sees what happened meanwhile.
    Skipped,
}

/// A system with its params' state, ready to run.
pub(crate) trait AnySystem: Send {
    /// What the system touches, computed once when it was made.
    fn access(&self) -> &SystemAccess;

    /// Readies the world for the system's params before a frame
    /// ([`SystemParam::prepare`](super::SystemParam::prepare)).
    fn prepare(&mut self, world: &mut World);

    /// Whether [`prepare`](Self::prepare) may have anything to do
    /// ([`SystemParam::PREPARES`](super::SystemParam::PREPARES) of its
    /// params): a schedule skips it for a system that prepares nothing.
    fn prepares(&self) -> bool {
        true
    }

    /// Runs the system once on a world shared with other running systems.
    ///
    /// # Safety
    /// `world` was made for this run, no system whose access conflicts with
    /// this one's runs meanwhile, and this one's access has no clash (what
    /// [`SystemParam::fetch`](super::SystemParam::fetch) requires of its
    /// params). Never called for an exclusive system.
    unsafe fn run(&mut self, world: SystemWorld<'_>) -> Result<RunOutcome, Error>;

    /// Runs the system once with the world to itself, with the change ticks
    /// of this run.
    fn run_exclusive(&mut self, world: &mut World, ticks: RunTicks) -> Result<RunOutcome, Error> {
        // SAFETY: `&mut World` rules out every other user of the world, and
        // the world made here serves this run alone; the executor runs only
        // systems that `Schedule::add_system` found free of clashes.
        unsafe { self.run(SystemWorld::new(world, None, ticks)) }
    }

    /// Applies what the system deferred (its commands).
    fn apply(
        &mut self,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    );

    /// Drops what the system deferred, unapplied.
    fn discard(&mut self);

    /// Takes `conditions` into the system's own, when it has some already
    /// (a system added with `run_if`), so that they are all asked alike;
    /// leaves them for the caller to wrap the system with otherwise.
    fn add_conditions(&mut self, conditions: &mut Vec<Box<dyn AnyCondition>>) {
        let _ = conditions;
    }

    /// The error of the last run that came to [`RunOutcome::Failed`], taken.
    fn take_failure(&mut self) -> Option<BoxedError> {
        None
    }

    /// Whether [`apply`](Self::apply) and [`discard`](Self::discard) may
    /// have anything to do ([`SystemParam::DEFERS`](super::SystemParam::DEFERS)
    /// of its params): a schedule skips both for a system that defers
    /// nothing.
    fn defers(&self) -> bool {
        true
    }

    /// The names of the run conditions guarding the system, for `explain`.
    fn conditions(&self) -> Vec<String> {
        Vec::new()
    }
}

/// Drops, unapplied, what `system` deferred: every value once, past a
/// `Drop` that panics. For a run already ending in a panic, which is the one
/// that goes on: a `Drop`'s panic here is dropped.
pub(crate) fn discard_past_panics(system: &mut dyn AnySystem) {
    if system.defers() {
        let _ = panic::catch_unwind(AssertUnwindSafe(|| system.discard()));
    }
}

/// After a panic while `systems` ran (a scheduled stage's, or a one-shot
/// system's): drops what they deferred, unapplied, and despawns every
/// entity reserved since the world last settled its reservations but the
/// reservation numbers in `unused` (ascending, never handed out). Those ids
/// are the runs' spawns: kept, the buffers would apply during a later run,
/// and the ids, once settled, would be alive and hold nothing.
///
/// A value whose `Drop` panics is dropped past, like the rest: the panic
/// being handled is the one the caller resumes.
pub(crate) fn drop_unapplied<'s>(
    systems: impl IntoIterator<Item = &'s mut (dyn AnySystem + 'static)>,
    world: &mut World,
    unused: &[u32],
) {
    for system in systems {
        discard_past_panics(system);
    }
    release_reserved(world, unused);
}

/// Despawns every entity reserved since the world last settled its
/// reservations but the reservation numbers in `unused` (ascending, never
/// handed out): the spawns of runs that panicked, whose commands were
/// dropped. Reserved and never given a component, they tell no hook or
/// observer.
pub(crate) fn release_reserved(world: &mut World, unused: &[u32]) {
    let mut made = Vec::new();
    world.settle_reserved_except(unused, |_, entity| made.push(entity));
    for entity in made {
        // Reserved and never given a component: no hook or observer runs.
        let _ = world.despawn(entity);
    }
}
