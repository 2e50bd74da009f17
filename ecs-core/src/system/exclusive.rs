//! Exclusive systems: `FnMut(&mut World)`, run alone with the whole world.

use crate::change::RunTicks;
use crate::error::Error;
use crate::world::World;

use super::access::SystemAccess;
use super::erased::{AnySystem, RunOutcome};
use super::param::SystemWorld;

/// A function or closure taking `&mut World`: it may do anything, so it runs
/// with no other system of its stage running.
pub(crate) struct ExclusiveSystem<F> {
    function: F,
    access: SystemAccess,
}

impl<F: FnMut(&mut World) + Send + 'static> ExclusiveSystem<F> {
    pub(crate) fn new(function: F) -> Self {
        let mut access = SystemAccess::new();
        access.set_exclusive();
        Self { function, access }
    }
}

impl<F: FnMut(&mut World) + Send + 'static> AnySystem for ExclusiveSystem<F> {
    fn access(&self) -> &SystemAccess {
        &self.access
    }

    fn prepare(&mut self, _: &mut World) {}

    fn prepares(&self) -> bool {
        false
    }

    unsafe fn run(&mut self, _: SystemWorld<'_>) -> Result<RunOutcome, Error> {
        unreachable!("the schedule runs exclusive systems with `&mut World` only")
    }

    /// An exclusive system reaches the world directly: its queries compare
    /// against tick 0 unless it keeps a tick for `changed_since` itself.
    fn run_exclusive(&mut self, world: &mut World, _: RunTicks) -> Result<RunOutcome, Error> {
        (self.function)(world);
        Ok(RunOutcome::Ran)
    }

    fn apply(&mut self, _: &mut World, _: &mut dyn FnMut(Error), _: &mut Vec<String>) {}

    fn discard(&mut self) {}

    fn defers(&self) -> bool {
        false
    }
}
