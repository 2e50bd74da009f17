//! Anything a schedule accepts as a system, made into a one-shot system
//! the world runs on demand ([`World::run_system`]).

use std::borrow::Cow;
use std::panic::{self, AssertUnwindSafe};

use crate::error::{Error, SystemError};
use crate::util::PanicPayload;
use crate::world::{IntoOneShotSystem, OneShotSystem, World};

use super::conditional::Conditional;
use super::config::IntoSystem;
use super::erased::{AnySystem, RunOutcome, discard_past_panics, drop_unapplied};
use super::last_run::LastRun;

/// A system run on demand, with its change-detection horizon.
struct OneShot {
    name: Cow<'static, str>,
    system: Box<dyn AnySystem>,
    last_run: LastRun,
}

impl<M, S: IntoSystem<M>> IntoOneShotSystem<M> for S {
    fn into_one_shot(self) -> Box<dyn OneShotSystem> {
        let config = self.into_config();
        let mut system = config.system;
        if !config.conditions.is_empty() {
            let conditions = config.conditions.into_iter().map(|c| c.into_inner());
            system = Box::new(Conditional::new(system, conditions.collect()));
        }
        Box::new(OneShot {
            name: config.name,
            system,
            last_run: LastRun::new(config.sees_earlier_changes),
        })
    }
}

impl OneShot {
    /// Ends a run that panicked, before the panic goes on: drops what the
    /// system recorded, unapplied, and despawns the ids its spawns
    /// reserved, as a stage does after a panicking system. Nothing of the
    /// run waits for the next one.
    fn abandon(&mut self, world: &mut World, payload: PanicPayload) -> ! {
        if self.system.access().is_exclusive() {
            // An exclusive system records nothing of its own: the ids it
            // reserved through `world.commands()` belong to the world's
            // queue, which the next flush applies, as outside any system.
            world.settle_reserved();
        }
        drop_unapplied([&mut *self.system], world, &[]);
        panic::resume_unwind(payload)
    }
}

impl OneShotSystem for OneShot {
    fn name(&self) -> &str {
        &self.name
    }

    fn run(&mut self, world: &mut World) -> Result<(), Error> {
        if let Some(error) = self.system.access().clash_error(self.name.clone(), false) {
            return Err(error);
        }
        self.system.prepare(world);
        // Ids reserved through `world.commands()` belong to the world, not
        // to this system's spawns: every id reserved from here on is.
        world.settle_reserved();
        let ran = panic::catch_unwind(AssertUnwindSafe(|| {
            // Taken inside the guard: past the counter's limit taking it
            // panics, and that panic is this run's.
            let tick = world.advance_change_tick();
            let outcome = self.system.run_exclusive(world, self.last_run.ticks(tick));
            (tick, outcome)
        }));
        let (tick, outcome) = ran.unwrap_or_else(|payload| self.abandon(world, payload));
        let outcome = match outcome {
            Ok(RunOutcome::Ran) => {
                self.last_run.ran(tick);
                Ok(())
            }
            // It ran: its horizon moves, its commands apply, and the error
            // is the caller's.
            Ok(RunOutcome::Failed) => {
                self.last_run.ran(tick);
                let error = (self.system.take_failure()).expect("a failed run keeps its error");
                Err(Error::SystemFailed(SystemError::new(
                    self.name.to_string(),
                    None,
                    error,
                )))
            }
            Ok(RunOutcome::Skipped) => Ok(()),
            Err(error) => Err(Error::InSystem {
                system: self.name.to_string(),
                error: Box::new(error),
            }),
        };
        world.settle_reserved();
        let mut first_failure = None;
        let mut removals = Vec::new();
        let applied = panic::catch_unwind(AssertUnwindSafe(|| {
            self.system.apply(
                world,
                &mut |error| {
                    first_failure.get_or_insert(error);
                },
                &mut removals,
            );
        }));
        if let Err(payload) = applied {
            // A command panicked: its buffer dropped the commands after it
            // and despawned the ids of the spawns that did not apply. The
            // system's other buffers must not wait for its next run either.
            discard_past_panics(&mut *self.system);
            panic::resume_unwind(payload);
        }
        for name in removals {
            world.commands().remove_system(name);
        }
        outcome?;
        first_failure.map_or(Ok(()), Err)
    }
}
