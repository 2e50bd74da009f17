//! Running hooks: each with a [`DeferredWorld`] of its own and a command
//! queue that applies with the call's observers' commands, panics caught
//! and handed back as observers' are (`observe/dispatch.rs` decides what a
//! panic abandons).

use core::panic::AssertUnwindSafe;
use std::panic::catch_unwind;

use crate::component::ComponentId;
use crate::entity::Entity;
use crate::error::Error;
use crate::util::PanicPayload;

use super::super::observe::{ObserverCommands, Recorder};
use super::super::{CommandQueue, MAX_OBSERVER_DEPTH, World};
use super::{DeferredWorld, HookContext, HookKind};

/// One hook to run: which, of which component, for which entity.
#[derive(Clone, Copy, Debug)]
pub(in crate::world) struct HookCall {
    pub(in crate::world) hook: HookKind,
    pub(in crate::world) component: ComponentId,
    pub(in crate::world) entity: Entity,
}

impl World {
    /// Runs the hook `call` names, if its component has one, collecting
    /// its commands into `commands`. A panicking hook's commands are kept
    /// there for the caller to abandon, and its panic is handed back.
    /// Past [`MAX_OBSERVER_DEPTH`] nested levels the hook does not run and
    /// [`Error::HookRecursion`] is recorded.
    pub(in crate::world) fn run_hook(
        &mut self,
        call: HookCall,
        commands: &mut ObserverCommands,
    ) -> Result<(), PanicPayload> {
        let Some(hook) = self.component_hooks.get(call.hook, call.component) else {
            return Ok(());
        };
        let component = self.component_hooks.name(call.component);
        if self.observers.depth >= MAX_OBSERVER_DEPTH {
            let error = Error::HookRecursion {
                component: component.to_string(),
                hook: call.hook.name(),
                entity: call.entity,
                depth: self.observers.depth,
            };
            self.observers.errors.push(error);
            return Ok(());
        }
        let context = HookContext {
            entity: call.entity,
            component_id: call.component,
            hook: call.hook,
        };
        let mut queue = CommandQueue::default();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            hook(DeferredWorld::new(self, &mut queue), context);
        }));
        let recorder = Recorder::Hook {
            component,
            hook: call.hook,
        };
        if outcome.is_err() || !queue.is_empty() {
            commands.push(recorder, queue);
        }
        outcome
    }

    /// Runs the arrival hooks the last structural call recorded, in the
    /// order the arrivals happened, skipping a component its entity no
    /// longer holds. Stops at the first panic and hands it back.
    pub(in crate::world) fn run_recorded_hooks(
        &mut self,
        commands: &mut ObserverCommands,
    ) -> Result<(), PanicPayload> {
        let mut fired = core::mem::take(&mut self.component_hooks.fired);
        let mut ran = Ok(());
        for call in fired.drain(..) {
            if self
                .data
                .storages
                .erased_by_id(call.component)
                .contains(call.entity)
            {
                ran = self.run_hook(call, commands);
                if ran.is_err() {
                    break;
                }
            }
        }
        // The rest of a run a panic stopped is dropped with it; the buffer
        // keeps its memory for the next call.
        fired.clear();
        if self.component_hooks.fired.is_empty() {
            self.component_hooks.fired = fired;
        }
        ran
    }

    /// Runs, for the live `entity`, the departure hooks of each kind of
    /// `kinds` in turn, each for every component of `components` (which
    /// `entity` holds), while every value is still in place.
    pub(in crate::world) fn run_departure_hooks(
        &mut self,
        entity: Entity,
        components: &[ComponentId],
        kinds: &[HookKind],
        commands: &mut ObserverCommands,
    ) -> Result<(), PanicPayload> {
        if !self.component_hooks.follow_departures() {
            return Ok(());
        }
        for &hook in kinds {
            for &component in components {
                let call = HookCall {
                    hook,
                    component,
                    entity,
                };
                self.run_hook(call, commands)?;
            }
        }
        Ok(())
    }

    /// Runs the `on_replace` hooks of the components of `ids` that the live
    /// `entity` holds (each once, however often `ids` names it), before an
    /// insert overwrites them. Returns their commands, for the caller to
    /// apply once the insert is made; should a hook panic, the commands are
    /// abandoned and the panic resumes, so nothing is inserted.
    pub(in crate::world) fn announce_replacement(
        &mut self,
        ids: &[ComponentId],
        entity: Entity,
    ) -> ObserverCommands {
        let mut commands = ObserverCommands::default();
        let mut announced = Ok(());
        for (n, &component) in ids.iter().enumerate() {
            let held = self.data.storages.erased_by_id(component).contains(entity);
            if held && !ids[..n].contains(&component) {
                let call = HookCall {
                    hook: HookKind::Replace,
                    component,
                    entity,
                };
                announced = self.run_hook(call, &mut commands);
                if announced.is_err() {
                    break;
                }
            }
        }
        self.abandon_on_panic(announced, &mut commands);
        commands
    }
}
