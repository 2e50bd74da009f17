//! Anything a schedule accepts as a system, and any typed system (with
//! input, returning anything), made into a one-shot system the world runs on
//! demand ([`World::run_system`]).

use std::borrow::Cow;
use std::panic::{self, AssertUnwindSafe};

use crate::change::RunTicks;
use crate::error::{Error, SystemError};
use crate::util::PanicPayload;
use crate::world::{IntoOneShotSystem, OneShotSystem, SystemIn, SystemInput, World};

use super::System;
use super::access::SystemAccess;
use super::conditional::Conditional;
use super::config::{ConfiguredMarker, ExclusiveMarker, IntoSystem, SystemConfig, SystemMarker};
use super::erased::{AnySystem, RunOutcome, release_reserved};
use super::last_run::LastRun;
use super::param::SystemWorld;
use super::typed::{IntoTypedSystem, TypedMarker, TypedSystem};

/// What a one-shot system runs: a scheduled system's erased body, or a
/// typed system.
trait Body: Send {
    type In: SystemInput + 'static;
    type Out: 'static;

    fn access(&self) -> &SystemAccess;

    fn prepare(&mut self, world: &mut World);

    /// Runs the body once. Says whether the run counts (the system's
    /// horizon moves to it) beside what it came to.
    fn run_body(
        &mut self,
        name: &str,
        input: SystemIn<'_, Self::In>,
        world: &mut World,
        ticks: RunTicks,
    ) -> (bool, Result<Self::Out, Error>);

    fn apply(
        &mut self,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    );

    fn discard(&mut self);
}

/// The error of a system whose params could not be fetched.
fn could_not_run(name: &str, error: Error) -> Error {
    Error::InSystem {
        system: name.to_owned(),
        error: Box::new(error),
    }
}

impl Body for Box<dyn AnySystem> {
    type In = ();
    type Out = ();

    fn access(&self) -> &SystemAccess {
        AnySystem::access(&**self)
    }

    fn prepare(&mut self, world: &mut World) {
        AnySystem::prepare(&mut **self, world);
    }

    fn run_body(
        &mut self,
        name: &str,
        (): (),
        world: &mut World,
        ticks: RunTicks,
    ) -> (bool, Result<(), Error>) {
        match self.run_exclusive(world, ticks) {
            Ok(RunOutcome::Ran) => (true, Ok(())),
            // It ran: its horizon moves, its commands apply, and the error
            // is the caller's (its output type is erased: a configured
            // system's `Result` comes back as `Error::SystemFailed`).
            Ok(RunOutcome::Failed) => {
                let error = self.take_failure().expect("a failed run keeps its error");
                let failure = SystemError::new(name.to_owned(), None, error);
                (true, Err(Error::SystemFailed(failure)))
            }
            Ok(RunOutcome::Skipped) => (false, Ok(())),
            Err(error) => (false, Err(could_not_run(name, error))),
        }
    }

    fn apply(
        &mut self,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    ) {
        AnySystem::apply(&mut **self, world, failed, removals);
    }

    fn discard(&mut self) {
        AnySystem::discard(&mut **self);
    }
}

/// A typed system as a one-shot body.
struct Typed<S>(S);

impl<S: TypedSystem> Body for Typed<S> {
    type In = S::In;
    type Out = S::Out;

    fn access(&self) -> &SystemAccess {
        self.0.access()
    }

    fn prepare(&mut self, world: &mut World) {
        self.0.prepare(world);
    }

    fn run_body(
        &mut self,
        name: &str,
        input: SystemIn<'_, S::In>,
        world: &mut World,
        ticks: RunTicks,
    ) -> (bool, Result<S::Out, Error>) {
        // SAFETY: `&mut World` rules out every other user of the world, the
        // world made here serves this run alone, and `OneShot::run` checked
        // the system's access for a clash before calling.
        let ran = unsafe { self.0.run_with(input, SystemWorld::new(world, None, ticks)) };
        match ran {
            Ok(output) => (true, Ok(output)),
            // A param that skips its system leaves no output to hand back:
            // the caller learns of the skip as it is.
            Err(skip @ Error::SkipSystem { .. }) => (false, Err(skip)),
            Err(error) => (false, Err(could_not_run(name, error))),
        }
    }

    fn apply(
        &mut self,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    ) {
        self.0.apply(world, failed, removals);
    }

    fn discard(&mut self) {
        self.0.discard();
    }
}

/// A system run on demand, with its change-detection horizon.
struct OneShot<B> {
    name: Cow<'static, str>,
    body: B,
    last_run: LastRun,
}

impl<M: 'static, S: IntoTypedSystem<M>> IntoOneShotSystem<(TypedMarker, M)> for S {
    type In = <S::System as TypedSystem>::In;
    type Out = <S::System as TypedSystem>::Out;

    fn into_one_shot(self) -> Box<dyn OneShotSystem<Self::In, Self::Out>> {
        let system = self.into_typed();
        Box::new(OneShot {
            name: system.name(),
            body: Typed(system),
            last_run: LastRun::new(true),
        })
    }
}

impl IntoOneShotSystem<ConfiguredMarker> for SystemConfig {
    type In = ();
    type Out = ();

    fn into_one_shot(self) -> Box<dyn OneShotSystem> {
        let mut system = self.system;
        if !self.conditions.is_empty() {
            let conditions = self.conditions.into_iter().map(|c| c.into_inner());
            system = Box::new(Conditional::new(system, conditions.collect()));
        }
        Box::new(OneShot {
            name: self.name,
            body: system,
            last_run: LastRun::new(self.sees_earlier_changes),
        })
    }
}

impl<F: FnMut(&mut World) + Send + 'static> IntoOneShotSystem<ExclusiveMarker> for F {
    type In = ();
    type Out = ();

    fn into_one_shot(self) -> Box<dyn OneShotSystem> {
        self.into_config().into_one_shot()
    }
}

impl<S: System> IntoOneShotSystem<SystemMarker> for S {
    type In = ();
    type Out = ();

    fn into_one_shot(self) -> Box<dyn OneShotSystem> {
        self.into_config().into_one_shot()
    }
}

impl<B: Body> OneShot<B> {
    /// Ends a run that panicked, before the panic goes on: drops what the
    /// system recorded, unapplied, and despawns the ids its spawns
    /// reserved, as a stage does after a panicking system. Nothing of the
    /// run waits for the next one.
    fn abandon(&mut self, world: &mut World, payload: PanicPayload) -> ! {
        if self.body.access().is_exclusive() {
            // An exclusive system records nothing of its own: the ids it
            // reserved through `world.commands()` belong to the world's
            // queue, which the next flush applies, as outside any system.
            world.settle_reserved();
        }
        self.discard_past_panics();
        release_reserved(world, &[]);
        panic::resume_unwind(payload)
    }

    /// Drops what the system recorded, unapplied, past a `Drop` that
    /// panics: the panic being handled is the one that goes on.
    fn discard_past_panics(&mut self) {
        let _ = panic::catch_unwind(AssertUnwindSafe(|| self.body.discard()));
    }
}

impl<B: Body> OneShotSystem<B::In, B::Out> for OneShot<B> {
    fn name(&self) -> &str {
        &self.name
    }

    fn run(&mut self, input: SystemIn<'_, B::In>, world: &mut World) -> Result<B::Out, Error> {
        if let Some(error) = self.body.access().clash_error(self.name.clone(), false) {
            return Err(error);
        }
        self.body.prepare(world);
        // Ids reserved through `world.commands()` belong to the world, not
        // to this system's spawns: every id reserved from here on is.
        world.settle_reserved();
        let ran = panic::catch_unwind(AssertUnwindSafe(|| {
            // Taken inside the guard: past the counter's limit taking it
            // panics, and that panic is this run's.
            let tick = world.advance_change_tick();
            let ticks = self.last_run.ticks(tick);
            (tick, self.body.run_body(&self.name, input, world, ticks))
        }));
        let (tick, (counts, outcome)) = ran.unwrap_or_else(|payload| self.abandon(world, payload));
        if counts {
            self.last_run.ran(tick);
        }
        world.settle_reserved();
        let mut first_failure = None;
        let mut removals = Vec::new();
        let applied = panic::catch_unwind(AssertUnwindSafe(|| {
            self.body.apply(
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
            self.discard_past_panics();
            panic::resume_unwind(payload);
        }
        for name in removals {
            world.commands().remove_system(name);
        }
        let output = outcome?;
        first_failure.map_or(Ok(output), Err)
    }
}
