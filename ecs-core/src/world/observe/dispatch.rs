//! Dispatching: running the observers of the events a structural call made,
//! and applying their commands before the call returns.

use core::panic::AssertUnwindSafe;
use std::panic::{catch_unwind, resume_unwind};
use std::sync::Arc;

use crate::component::{Component, ComponentId};
use crate::entity::Entity;
use crate::error::Error;
use crate::observer::{Fired, TriggerKind};
use crate::util::SyncCell;

use super::super::{CommandQueue, World, structural::Structural};
use super::{MAX_OBSERVER_DEPTH, ObserverCommands};

impl World {
    /// Runs the observers of the additions the last structural call
    /// recorded, then applies their commands. Costs one load when nothing
    /// was recorded.
    #[inline]
    pub(in crate::world) fn dispatch_fired(&mut self) {
        if !self.observers.fired.is_empty() {
            self.dispatch_fired_now();
        }
    }

    #[inline(never)]
    fn dispatch_fired_now(&mut self) {
        let mut fired = core::mem::take(&mut self.observers.fired);
        let mut commands = ObserverCommands::default();
        for event in fired.drain(..) {
            // Only events of a call that panicked before its dispatch can
            // name a component gone since; their observers never run.
            if self
                .data
                .storages
                .erased_by_id(event.component)
                .contains(event.entity)
            {
                self.notify(event, &mut commands);
            }
        }
        // Keep the buffer's memory for the next call.
        if self.observers.fired.is_empty() {
            self.observers.fired = fired;
        }
        self.apply_observer_commands(commands);
    }

    /// Takes component `id` (which must be `T`'s) away from the live
    /// `entity` with its `OnRemove` observers run first, while it is still
    /// there, and their commands applied after.
    #[inline(never)]
    pub(in crate::world) fn remove_observed<T: Component>(
        &mut self,
        id: ComponentId,
        entity: Entity,
    ) -> Option<T> {
        let mut commands = ObserverCommands::default();
        if self
            .observers
            .registry
            .index
            .follows(TriggerKind::Remove, id)
            && self.data.storages.erased_by_id(id).contains(entity)
        {
            let event = Fired {
                kind: TriggerKind::Remove,
                component: id,
                entity,
            };
            self.notify(event, &mut commands);
        }
        let removed = self.split().1.remove(id, entity);
        self.apply_observer_commands(commands);
        removed
    }

    /// Despawns the live `entity` with the `OnRemove` observers of every
    /// component it holds run first (in component id order), and their
    /// commands applied after.
    #[inline(never)]
    pub(in crate::world) fn despawn_observed(&mut self, entity: Entity) {
        let mut commands = ObserverCommands::default();
        self.announce_despawn_now(entity, &mut commands);
        self.split().1.despawn(entity);
        self.apply_observer_commands(commands);
    }

    #[inline(never)]
    fn announce_despawn_now(&mut self, entity: Entity, commands: &mut ObserverCommands) {
        let index = &self.observers.registry.index;
        let observed: Vec<ComponentId> =
            Structural::held(&self.data.storages, &self.data.masks, entity)
                .filter(|&id| index.follows(TriggerKind::Remove, id))
                .collect();
        for component in observed {
            let event = Fired {
                kind: TriggerKind::Remove,
                component,
                entity,
            };
            self.notify(event, commands);
        }
    }

    /// Runs the `OnRemove` observers of every component of every live
    /// entity, entity by entity, before the world is cleared.
    pub(in crate::world) fn announce_clear(&mut self) -> ObserverCommands {
        let mut commands = ObserverCommands::default();
        if self.observers.follow_removals() {
            let alive: Vec<Entity> = self.data.entities.iter_alive().collect();
            for entity in alive {
                self.announce_despawn_now(entity, &mut commands);
            }
        }
        commands
    }

    /// Runs every observer of `event`, in registration order, collecting
    /// their commands into `commands`.
    fn notify(&mut self, event: Fired, commands: &mut ObserverCommands) {
        if self.observers.depth >= MAX_OBSERVER_DEPTH {
            self.observers.errors.push(Error::ObserverRecursion {
                trigger: format!(
                    "{}<{}>",
                    event.kind,
                    self.data.storages.info(event.component).name()
                ),
                entity: event.entity,
                depth: self.observers.depth,
            });
            return;
        }
        // Observers cannot register or remove observers while they run
        // (that takes `&mut World`, which only their commands get), so the
        // list does not change during the loop.
        let mut next = 0;
        while let Some(&id) = self
            .observers
            .registry
            .index
            .observers(event.kind, event.component)
            .get(next)
        {
            next += 1;
            let Some(stored) = self.observers.registry.take(id) else {
                continue;
            };
            let (name, mut runner) = stored.into_inner();
            let mut queue = CommandQueue::default();
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                runner.run(self, event.entity, &mut queue)
            }));
            self.observers
                .registry
                .put_back(id, SyncCell::new((Arc::clone(&name), runner)));
            match outcome {
                Ok(Ok(())) => {}
                Ok(Err(error)) => self.observers.failed(&name, error),
                Err(panic) => resume_unwind(panic),
            }
            if !queue.is_empty() {
                commands.0.push((name, queue));
            }
        }
    }

    /// Applies the commands observers recorded during one call, observer
    /// by observer, one level deeper; a failed command is recorded as
    /// [`Error::InObserver`].
    #[inline]
    pub(in crate::world) fn apply_observer_commands(&mut self, commands: ObserverCommands) {
        if !commands.0.is_empty() {
            self.apply_observer_commands_now(commands);
        }
    }

    #[inline(never)]
    fn apply_observer_commands_now(&mut self, commands: ObserverCommands) {
        // Restored rather than decremented: a command may replace the whole
        // world (`*world = World::new()`), whose counter starts at zero.
        let depth = self.observers.depth;
        self.observers.depth = depth + 1;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            for (name, mut queue) in commands.0 {
                let mut failed = Vec::new();
                queue.apply(self, |error| failed.push(error));
                self.commands.add_removals(queue.take_removals());
                for error in failed {
                    self.observers.failed(&name, error);
                }
            }
        }));
        self.observers.depth = depth;
        if let Err(panic) = outcome {
            resume_unwind(panic);
        }
    }
}
