//! The parts of a frame around the executor: advancing the world's clock,
//! running `FixedUpdate` once per fixed step, and switching states with
//! their `OnExit` / `OnEnter` stages.

use std::time::Instant;

use crate::error::{BoxedError, Error};
use crate::time::Time;
use crate::world::World;

use super::executor::{self, Options};
use super::stage::{Stage, StateKey};
use super::{CommandError, StageSlot};

/// Starts the frame on the world's [`Time`], adding `Time::default()` when
/// `FixedUpdate` has systems and the world has no clock; returns how many
/// fixed steps the frame runs (0 without a clock).
pub(super) fn advance_time(world: &mut World, has_fixed_systems: bool, now: Instant) -> u32 {
    if has_fixed_systems && !world.contains_resource::<Time>() {
        world.insert_resource(Time::default());
    }
    match world.resource_mut::<Time>() {
        Ok(time) => time.begin_frame(now),
        Err(_) => 0,
    }
}

/// What running a frame's stages gathers.
pub(super) struct Frame {
    pub(super) options: Options,
    /// The first system that could not run, and why.
    pub(super) first_error: Option<Error>,
    /// The systems that returned an error, with it, in the order gathered.
    pub(super) failures: Vec<(String, BoxedError)>,
    /// Systems asked to be removed: (who asked, which).
    pub(super) removals: Vec<(String, String)>,
    pub(super) parallel_batches: u64,
}

impl Frame {
    /// Runs one stage, its commands applied at its end.
    pub(super) fn run_stage(
        &mut self,
        slot: &mut StageSlot,
        world: &mut World,
        errors: &mut Vec<CommandError>,
    ) {
        let plan = slot
            .plan
            .as_mut()
            .expect("planned at the start of the frame");
        let outcome = executor::run_stage(
            &mut slot.systems,
            plan,
            world,
            self.options,
            errors,
            &mut self.removals,
        );
        self.parallel_batches += outcome.parallel_batches;
        if self.first_error.is_none() {
            self.first_error = outcome.error;
        }
        self.failures.extend(outcome.failures);
    }

    /// Runs `FixedUpdate` `steps` times, each with the world's clock on its
    /// fixed step.
    pub(super) fn run_fixed_steps(
        &mut self,
        slot: &mut StageSlot,
        world: &mut World,
        steps: u32,
        errors: &mut Vec<CommandError>,
    ) {
        for _ in 0..steps {
            if let Ok(time) = world.resource_mut::<Time>() {
                time.begin_fixed_step();
            }
            self.run_stage(slot, world, errors);
        }
        if let Ok(time) = world.resource_mut::<Time>() {
            time.end_fixed_steps();
        }
    }

    /// Applies the state switches `NextState` asked for, each running the
    /// `OnExit` stage of the value left, then the `OnEnter` stage of the
    /// value entered.
    pub(super) fn switch_states(
        &mut self,
        state_stages: &mut [StageSlot],
        world: &mut World,
        errors: &mut Vec<CommandError>,
    ) {
        for transition in world.apply_state_transitions() {
            let key = |value| StateKey {
                state: transition.state,
                value,
                type_name: "",
            };
            let exit = transition.exited.map(|value| Stage::OnExit(key(value)));
            let enter = Stage::OnEnter(key(transition.entered));
            for stage in exit.into_iter().chain([enter]) {
                if let Some(slot) = state_stages.iter_mut().find(|s| same(&s.stage, &stage)) {
                    self.run_stage(slot, world, errors);
                }
            }
        }
    }
}

/// Whether two state stages are of one kind, type and value.
fn same(a: &Stage, b: &Stage) -> bool {
    match (a, b) {
        (Stage::OnEnter(x), Stage::OnEnter(y)) | (Stage::OnExit(x), Stage::OnExit(y)) => {
            x.state == y.state && x.value == y.value
        }
        _ => false,
    }
}
