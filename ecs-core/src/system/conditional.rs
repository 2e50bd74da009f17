//! A system guarded by run conditions: the conditions are asked right
//! before it would run, and a "no" skips it without moving its horizon.

use crate::change::RunTicks;
use crate::error::Error;
use crate::world::World;

use super::access::SystemAccess;
use super::condition::AnyCondition;
use super::erased::{AnySystem, RunOutcome};
use super::param::SystemWorld;

/// A system and the conditions that must all hold for it to run.
///
/// Only systems given a condition are wrapped, so a system without one pays
/// nothing for conditions.
pub(crate) struct Conditional {
    system: Box<dyn AnySystem>,
    conditions: Vec<Box<dyn AnyCondition>>,
    /// The system's access with every condition's reads added: what the
    /// schedule keeps apart from other systems.
    access: SystemAccess,
}

impl Conditional {
    pub(crate) fn new(system: Box<dyn AnySystem>, conditions: Vec<Box<dyn AnyCondition>>) -> Self {
        let mut access = system.access().clone();
        for condition in &conditions {
            access.extend_for_scheduling(condition.access());
        }
        Self {
            system,
            conditions,
            access,
        }
    }

    /// Asks every condition, in order, and whether all of them said yes.
    ///
    /// Each is asked even after one said no: a condition that counts frames
    /// or keeps a timer in a `Local` sees every frame its system is reached,
    /// whichever `run_if` came first. (`and` / `or` inside one condition
    /// keep their short-circuit.)
    ///
    /// # Safety
    /// As [`AnyCondition::evaluate`].
    unsafe fn allowed(&mut self, world: SystemWorld<'_>) -> Result<bool, Error> {
        let mut allowed = true;
        for condition in &mut self.conditions {
            // SAFETY: the caller keeps every system conflicting with this
            // one's access, which holds the condition's, apart meanwhile.
            allowed &= unsafe { condition.evaluate(world)? };
        }
        Ok(allowed)
    }
}

impl AnySystem for Conditional {
    fn access(&self) -> &SystemAccess {
        &self.access
    }

    fn prepare(&mut self, world: &mut World) {
        for condition in &mut self.conditions {
            condition.prepare(world);
        }
        self.system.prepare(world);
    }

    unsafe fn run(&mut self, world: SystemWorld<'_>) -> Result<RunOutcome, Error> {
        // SAFETY: this function's contract covers the conditions' access,
        // which is part of this system's.
        if !unsafe { self.allowed(world)? } {
            return Ok(RunOutcome::Skipped);
        }
        // SAFETY: the conditions' params are dropped; the system's access is
        // part of this one's, which the caller keeps apart (this function's
        // contract).
        unsafe { self.system.run(world) }
    }

    fn run_exclusive(&mut self, world: &mut World, ticks: RunTicks) -> Result<RunOutcome, Error> {
        // SAFETY: `&mut World` rules out every other user of the world, and
        // the world made here serves the conditions alone.
        let allowed = unsafe { self.allowed(SystemWorld::new(world, None, ticks))? };
        if !allowed {
            return Ok(RunOutcome::Skipped);
        }
        self.system.run_exclusive(world, ticks)
    }

    fn apply(
        &mut self,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    ) {
        self.system.apply(world, failed, removals);
    }

    fn discard(&mut self) {
        self.system.discard();
    }

    fn take_failure(&mut self) -> Option<crate::error::BoxedError> {
        self.system.take_failure()
    }

    fn defers(&self) -> bool {
        self.system.defers()
    }

    fn add_conditions(&mut self, conditions: &mut Vec<Box<dyn AnyCondition>>) {
        for condition in conditions.drain(..) {
            self.access.extend_for_scheduling(condition.access());
            self.conditions.push(condition);
        }
    }

    fn conditions(&self) -> Vec<String> {
        self.conditions.iter().map(|c| c.name()).collect()
    }
}
