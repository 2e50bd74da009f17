//! Anything a schedule accepts as a system, made into a one-shot system
//! the world runs on demand ([`World::run_system`]).

use std::borrow::Cow;

use crate::error::Error;
use crate::world::{IntoOneShotSystem, OneShotSystem, World};

use super::conditional::Conditional;
use super::config::IntoSystem;
use super::erased::{AnySystem, RunOutcome};
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
        // to this system's spawns.
        world.settle_reserved();
        let tick = world.advance_change_tick();
        let outcome = self
            .system
            .run_exclusive(world, self.last_run.ticks(tick))
            .map_err(|error| Error::InSystem {
                system: self.name.to_string(),
                error: Box::new(error),
            });
        if let Ok(RunOutcome::Ran) = outcome {
            self.last_run.ran(tick);
        }
        world.settle_reserved();
        let mut first_failure = None;
        let mut removals = Vec::new();
        self.system.apply(
            world,
            &mut |error| {
                first_failure.get_or_insert(error);
            },
            &mut removals,
        );
        for name in removals {
            world.commands().remove_system(name);
        }
        outcome?;
        first_failure.map_or(Ok(()), Err)
    }
}
