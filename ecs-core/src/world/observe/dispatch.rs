//! Dispatching: running the hooks and observers of the events a structural
//! call made, and applying their commands before the call returns.
//!
//! Under panics: what a call changed stays changed and is announced.
//! Additions are dispatched even when the call panics after making them (a
//! panicking `Drop`, a batch's iterator): [`World::dispatching`] runs their
//! hooks and observers before the panic goes on, never during a later call.
//! A removal whose `Drop` panics still finishes, and its `OnRemove`
//! observers' and departure hooks' commands apply before the panic goes
//! on. A panicking observer or hook stops the dispatch of its call instead:
//! the hooks and observers after it do not run, a removal it ran before
//! does not happen, and every command the call's observers and hooks
//! recorded is abandoned (dropped, the ids its spawns reserved despawned,
//! so none is left alive and empty).

use core::panic::AssertUnwindSafe;
use std::panic::catch_unwind;
use std::sync::Arc;

use crate::component::ComponentId;
use crate::entity::Entity;
use crate::error::Error;
use crate::observer::{Fired, Follows, ObserverId, ObserverIndex, TriggerKind};
use crate::util::{DeferredPanic, PanicPayload, SyncCell};

use super::super::component_hooks::HookKind;
use super::super::structural::held_components;
use super::super::{CommandQueue, World};
use super::{MAX_OBSERVER_DEPTH, ObserverCommands, ObserverFire, Recorder};

/// Holds a world through a structural call, so that should the call unwind
/// before its dispatch, the additions it made are still dispatched (and
/// their observers' commands applied) before the panic goes on to the
/// caller. A panic of an observer then is dropped: raising it while the
/// call's own unwinds would abort the process, and the call's reaches the
/// caller anyway.
///
/// Dropped only while unwinding: the call's normal end forgets it, so the
/// normal path carries no drop flag and no call to `drop`.
pub(in crate::world) struct DispatchOnUnwind<'w>(pub(in crate::world) &'w mut World);

impl Drop for DispatchOnUnwind<'_> {
    #[cold]
    #[inline(never)]
    fn drop(&mut self) {
        let world = &mut *self.0;
        let _ = catch_unwind(AssertUnwindSafe(|| world.dispatch_fired()));
    }
}

impl World {
    /// Makes the structural change `call` and then dispatches what it
    /// recorded, also when `call` panics (before the panic resumes).
    /// Inlined: nothing but the call and the dispatch on the normal path.
    #[inline(always)]
    pub(in crate::world) fn dispatching<R>(&mut self, call: impl FnOnce(&mut World) -> R) -> R {
        let guard = DispatchOnUnwind(self);
        let result = call(&mut *guard.0);
        // The call returned: the dispatch below is the one it needs, so the
        // guard's unwinding one must not run (forgetting a borrow leaks
        // nothing).
        core::mem::forget(guard);
        self.dispatch_fired();
        result
    }

    /// Runs the hooks, then the observers, of the additions the last
    /// structural call recorded, then applies their commands. Costs two
    /// loads when nothing was recorded.
    #[inline]
    pub(in crate::world) fn dispatch_fired(&mut self) {
        if !self.observers.fired.is_empty() || !self.component_hooks.fired.is_empty() {
            self.dispatch_fired_now(ObserverCommands::default());
        }
    }

    /// Dispatches what the last structural call recorded, its hooks first,
    /// then applies `commands` (recorded earlier in the call) and the
    /// commands of what ran.
    #[inline(never)]
    pub(in crate::world) fn dispatch_fired_now(&mut self, mut commands: ObserverCommands) {
        let mut notified = self.run_recorded_hooks(&mut commands);
        let mut fired = core::mem::take(&mut self.observers.fired);
        if notified.is_ok() {
            for event in fired.drain(..) {
                // Observers never run for a component the entity no longer
                // holds.
                if self
                    .data
                    .storages
                    .erased_by_id(event.component)
                    .contains(event.entity)
                {
                    notified = self.notify(event, &mut commands);
                    if notified.is_err() {
                        break;
                    }
                }
            }
        }
        // The rest of a dispatch a panic stopped is dropped with it.
        fired.clear();
        // Keep the buffer's memory for the next call.
        if self.observers.fired.is_empty() {
            self.observers.fired = fired;
        }
        self.abandon_on_panic(notified, &mut commands);
        self.apply_observer_commands(commands);
    }

    /// Announces that component `id` is about to leave the live `entity`:
    /// when the entity holds it, its `OnRemove` observers, then its
    /// `on_replace` and `on_remove` hooks, run while it is still there.
    /// Returns their commands, for the caller to apply once the removal is
    /// made; should one of them panic, the commands are abandoned and the
    /// panic resumes, so the caller removes nothing.
    #[inline(never)]
    pub(in crate::world) fn announce_removal(
        &mut self,
        id: ComponentId,
        entity: Entity,
    ) -> ObserverCommands {
        let mut commands = ObserverCommands::default();
        if self.data.storages.erased_by_id(id).contains(entity) {
            let announced = self.announce_leaving(id, entity, &mut commands);
            self.abandon_on_panic(announced, &mut commands);
        }
        commands
    }

    /// Runs what hears of component `id` leaving the live `entity`, which
    /// holds it: its `OnRemove` observers, then its `on_replace` and
    /// `on_remove` hooks.
    fn announce_leaving(
        &mut self,
        id: ComponentId,
        entity: Entity,
        commands: &mut ObserverCommands,
    ) -> Result<(), PanicPayload> {
        if self
            .observers
            .registry
            .index
            .follows(TriggerKind::Remove, id)
        {
            let event = Fired {
                kind: TriggerKind::Remove,
                component: id,
                entity,
            };
            self.notify(event, commands)?;
        }
        self.run_departure_hooks(
            entity,
            &[id],
            &[HookKind::Replace, HookKind::Remove],
            commands,
        )
    }

    /// Announces that the live `entity` is about to be despawned: the
    /// `OnRemove` observers of every component it holds (in component id
    /// order), then its `on_replace`, `on_remove` and `on_despawn` hooks.
    /// Returns their commands, for the caller to apply once the despawn is
    /// made; should one of them panic, the commands are abandoned and the
    /// panic resumes, so the caller despawns nothing.
    #[inline(never)]
    pub(in crate::world) fn announce_despawn(&mut self, entity: Entity) -> ObserverCommands {
        let mut commands = ObserverCommands::default();
        let announced = self.announce_despawn_now(entity, &mut commands);
        self.abandon_on_panic(announced, &mut commands);
        commands
    }

    #[inline(never)]
    fn announce_despawn_now(
        &mut self,
        entity: Entity,
        commands: &mut ObserverCommands,
    ) -> Result<(), PanicPayload> {
        let held: Vec<ComponentId> =
            held_components(&self.data.storages, &self.data.masks, entity).collect();
        for &component in &held {
            if self
                .observers
                .registry
                .index
                .follows(TriggerKind::Remove, component)
            {
                let event = Fired {
                    kind: TriggerKind::Remove,
                    component,
                    entity,
                };
                self.notify(event, commands)?;
            }
        }
        self.run_departure_hooks(
            entity,
            &held,
            &[HookKind::Replace, HookKind::Remove, HookKind::Despawn],
            commands,
        )
    }

    /// Runs the `OnRemove` observers, then the departure hooks, of every
    /// component of every live entity, entity by entity, before the world
    /// is cleared; should one panic, the clear is abandoned: their commands are dropped and the
    /// panic resumes.
    pub(in crate::world) fn announce_clear(&mut self) -> ObserverCommands {
        let mut commands = ObserverCommands::default();
        if self.follow_departures() {
            let alive: Vec<Entity> = self.data.entities.iter_alive().collect();
            let announced = alive
                .into_iter()
                .try_for_each(|entity| self.announce_despawn_now(entity, &mut commands));
            self.abandon_on_panic(announced, &mut commands);
        }
        commands
    }

    /// Whether anything (an `OnRemove` observer, a departure hook) must
    /// hear of components leaving, so a removal cannot take the funnel's
    /// path alone.
    #[inline]
    pub(in crate::world) fn follow_departures(&self) -> bool {
        self.observers.follow_removals() || self.component_hooks.follow_departures()
    }

    /// Whether an observer or a hook hears of component `id` being taken
    /// away: others' observers and hooks leave its removals alone.
    #[inline]
    pub(in crate::world) fn follow_removals_of(&self, id: ComponentId) -> bool {
        self.observers.follow_removals_of(id) || self.component_hooks.follow_removals_of(id)
    }

    /// After an observer's or a hook's panic (`notified`), abandons `commands` (dropped,
    /// their spawns' ids despawned) and resumes the panic; does nothing when
    /// all went well.
    pub(in crate::world) fn abandon_on_panic(
        &mut self,
        announced: Result<(), PanicPayload>,
        commands: &mut ObserverCommands,
    ) {
        if let Err(payload) = announced {
            let mut panics = DeferredPanic::default();
            panics.keep(Err(payload));
            for (_, mut queue) in commands.0.drain(..) {
                panics.run(|| queue.abandon(self));
            }
            panics.resume();
        }
    }

    /// Applies `commands` after a removal that finished, whether or not it
    /// panicked on the way (`done`), then resumes its panic, if any.
    pub(in crate::world) fn apply_after(
        &mut self,
        done: Result<(), PanicPayload>,
        commands: ObserverCommands,
    ) {
        let mut panics = DeferredPanic::default();
        panics.keep(done);
        panics.run(|| self.apply_observer_commands(commands));
        panics.resume();
    }

    /// Runs every observer of `event`, in registration order, collecting
    /// the commands of each run into `commands`. A panicking run's commands
    /// are abandoned, the observers after it do not run, and its panic is
    /// handed back.
    fn notify(
        &mut self,
        event: Fired,
        commands: &mut ObserverCommands,
    ) -> Result<(), PanicPayload> {
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
            return Ok(());
        }
        let mut fire = ObserverFire::structural(event.entity);
        self.run_observers(
            |index, at| {
                index
                    .observers(event.kind, event.component)
                    .get(at)
                    .copied()
            },
            &mut fire,
            commands,
        )?;
        if self.observers.registry.index.any_scoped() {
            let follows = Follows::Component(event.kind, event.component);
            self.run_observers(
                |index, at| index.scoped_at(event.entity, follows, at),
                &mut fire,
                commands,
            )?;
        }
        Ok(())
    }

    /// Runs the observers `observer_at` lists (the one at 0, at 1, ...,
    /// looked up again before each run), in that order, for `fire`,
    /// collecting the commands of each run into `commands`. A panicking
    /// run's commands are kept in `commands` for the caller to abandon, the
    /// observers after it do not run, and its panic is handed back.
    pub(in crate::world) fn run_observers(
        &mut self,
        observer_at: impl Fn(&ObserverIndex, usize) -> Option<ObserverId>,
        fire: &mut ObserverFire<'_>,
        commands: &mut ObserverCommands,
    ) -> Result<(), PanicPayload> {
        // Observers cannot register or remove observers while they run
        // (that takes `&mut World`, which only their commands get), so the
        // list does not change during the loop.
        // Most lists are empty: no queue is made for them.
        if observer_at(&self.observers.registry.index, 0).is_none() {
            return Ok(());
        }
        let mut next = 0;
        // One queue for the loop, handed on whenever a run filled it.
        let mut queue = CommandQueue::default();
        while let Some(id) = observer_at(&self.observers.registry.index, next) {
            next += 1;
            let Some(stored) = self.observers.registry.take(id) else {
                continue;
            };
            let (name, mut runner) = stored.into_inner();
            let outcome = catch_unwind(AssertUnwindSafe(|| runner.run(self, fire, &mut queue)));
            if matches!(outcome, Ok(Ok(()))) && queue.is_empty() {
                // The usual run: nothing to report, so the name goes back
                // without a count change.
                self.observers
                    .registry
                    .put_back(id, SyncCell::new((name, runner)));
                continue;
            }
            self.observers
                .registry
                .put_back(id, SyncCell::new((Arc::clone(&name), runner)));
            match outcome {
                Ok(Ok(())) => {}
                Ok(Err(error)) => self
                    .observers
                    .failed(&Recorder::Observer(Arc::clone(&name)), error),
                Err(payload) => {
                    commands.push(Recorder::Observer(name), queue);
                    return Err(payload);
                }
            }
            if !queue.is_empty() {
                commands.push(Recorder::Observer(name), core::mem::take(&mut queue));
            }
        }
        Ok(())
    }

    /// Applies the commands observers recorded during one call, observer
    /// by observer, one level deeper; a failed command is recorded as
    /// [`Error::InObserver`]. Should a command panic, the queues not applied
    /// yet are abandoned before the panic resumes.
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
        let mut queues = commands.0.into_iter();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            for (recorder, mut queue) in queues.by_ref() {
                let mut failed = Vec::new();
                queue.apply(self, |error| failed.push(error));
                self.commands.add_removals(queue.take_removals());
                for error in failed {
                    self.observers.failed(&recorder, error);
                }
            }
        }));
        self.observers.depth = depth;
        if let Err(payload) = outcome {
            let mut panics = DeferredPanic::default();
            panics.keep(Err(payload));
            for (_, mut queue) in queues {
                panics.run(|| queue.abandon(self));
            }
            panics.resume();
        }
    }
}
