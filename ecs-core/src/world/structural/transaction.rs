//! [`Transaction`]: one structural change of a world, from the announcement
//! of what leaves to the commands of what heard of it.

use core::panic::AssertUnwindSafe;
use core::ptr::NonNull;
use std::panic::catch_unwind;

use crate::bundle::Bundle;
use crate::component::{Component, ComponentId};
use crate::entity::{Entity, EntityMap};
use crate::error::Error;
use crate::storage::SparseSet;

use super::super::World;
use super::super::observe::{DispatchOnUnwind, ObserverCommands};

/// One structural change of a world, described by the caller (spawn these,
/// insert this, remove that) and carried out here in one order:
///
/// 1. what leaves is announced while it is still in place (`OnRemove`
///    observers, then `on_replace` / `on_remove` / `on_despawn` hooks);
/// 2. the funnel changes the storages and masks, its subscribers (groups,
///    the records of hooks and observers) hearing of each change;
/// 3. the additions' hooks, then their observers, run;
/// 4. every command they recorded applies, one nesting level deeper.
///
/// With no hook, observer or group following structural change, steps 1, 3
/// and 4 are a load each and step 2 is the storage and the mask alone. A
/// caller that keeps a storage's address across calls ([`TypedStorage`](super::TypedStorage))
/// finds it again after step 4, whose commands may replace the world.
pub(in crate::world) struct Transaction<'w> {
    world: &'w mut World,
}

impl World {
    /// The door to every structural change of this world.
    #[inline]
    pub(in crate::world) fn transaction(&mut self) -> Transaction<'_> {
        Transaction { world: self }
    }
}

impl<'w> Transaction<'w> {
    /// The world this transaction changes, for the rules (`rules.rs`) that
    /// check before a change.
    #[inline]
    pub(super) fn into_world(self) -> &'w mut World {
        self.world
    }

    /// Allocates an entity holding `bundle` and the components its types
    /// require, all of them in place before any hook or observer hears of
    /// one.
    #[inline]
    pub(in crate::world) fn spawn<B: Bundle>(self, bundle: B) -> Entity {
        self.world.dispatching(|world| {
            let entity = {
                let (bundles, mut structural) = world.split();
                let info = bundles.of::<B>(structural.storages);
                structural.spawn(info, bundle)
            };
            world.add_required::<B>(entity);
            entity
        })
    }

    /// Spawns one entity per bundle of `bundles`, appending their ids to
    /// `spawned`.
    #[inline]
    pub(in crate::world) fn spawn_batch<B: Bundle>(
        self,
        bundles: impl Iterator<Item = B>,
        spawned: &mut Vec<Entity>,
    ) {
        let first = spawned.len();
        self.world.dispatching(|world| {
            {
                let (infos, mut structural) = world.split();
                let info = infos.of::<B>(structural.storages);
                structural.spawn_many(info, bundles, spawned);
            }
            world.add_required_each::<B>(&spawned[first..]);
        });
    }

    /// Spawns a copy of the live `from`: every component whose type can be
    /// copied, the hooks and observers of each told; the ids of the others
    /// are appended to `not_cloned`. `(from, copy)` is appended to `copies`
    /// as soon as the copy exists, so a caller learns of it even when a hook
    /// or observer of its arrival panics.
    pub(in crate::world) fn clone_entity(
        self,
        from: Entity,
        copies: &mut Vec<(Entity, Entity)>,
        not_cloned: &mut Vec<ComponentId>,
    ) {
        self.world
            .dispatching(|world| world.split().1.clone_entity(from, copies, not_cloned));
    }

    /// Gives the live `entity` `value`, returning the value it replaces.
    #[inline]
    pub(in crate::world) fn insert<T: Component>(self, entity: Entity, value: T) -> Option<T> {
        let (id, set) = self.world.data.storages.register_root::<T>();
        // SAFETY: `register_root` gave `set` as the root of `id`'s storage
        // in this world's storages.
        unsafe { self.insert_into(id, set, entity, value) }
    }

    /// [`insert`](Self::insert), with `T`'s storage found already.
    ///
    /// # Safety
    /// `set` is the root pointer of the storage registered as `id` in this
    /// world's storages (a `SparseSet<T>`).
    #[inline(always)]
    pub(in crate::world) unsafe fn insert_into<T: Component>(
        self,
        id: ComponentId,
        set: NonNull<SparseSet<T>>,
        entity: Entity,
        value: T,
    ) -> Option<T> {
        let world = self.world;
        if T::DECLARES_HOOKS {
            world.component_hooks.sync(&world.data.storages);
        }
        if world.component_hooks.follow_departures() {
            // SAFETY: `set` is the root of `id`'s storage, a `SparseSet<T>`,
            // in this world's storages (the caller's contract), which is
            // all `insert_replacing` asks.
            return unsafe { Transaction { world }.insert_replacing(id, set, entity, value) };
        }
        // `dispatching`, written out: as a closure, the insert was compiled
        // as a call of its own, and `World::insert` ran a fifth more
        // instructions (add_remove, callgrind).
        let guard = DispatchOnUnwind(&mut *world);
        // SAFETY: `set` is the root of `id`'s storage in this world's
        // storages, which the funnel borrows (the caller's contract).
        let replaced = unsafe { guard.0.split().1.insert_into(id, set, entity, value) };
        guard.0.add_required::<T>(entity);
        // The insert returned: the dispatch below is the one it needs, so
        // the guard's unwinding one must not run (forgetting a borrow leaks
        // nothing).
        core::mem::forget(guard);
        world.dispatch_fired();
        replaced
    }

    /// [`insert_into`](Self::insert_into) where departure hooks may run:
    /// when this type has an `on_replace` hook, the hook of a value the
    /// insert overwrites runs first, while that value is in place, and its
    /// commands apply after the insert's own hooks' and observers'.
    ///
    /// # Safety
    /// As [`insert_into`](Self::insert_into).
    #[inline(never)]
    unsafe fn insert_replacing<T: Component>(
        self,
        id: ComponentId,
        set: NonNull<SparseSet<T>>,
        entity: Entity,
        value: T,
    ) -> Option<T> {
        let world = self.world;
        // Other types' hooks leave this insert with nothing to announce.
        let commands = if world.component_hooks.follow_replacements_of(id) {
            world.announce_replacement(&[id], entity)
        } else {
            ObserverCommands::default()
        };
        let mut replaced = None;
        let done = catch_unwind(AssertUnwindSafe(|| {
            replaced = world.dispatching(|world| {
                // SAFETY: `set` is the root of `id`'s storage here (caller's
                // contract); the hooks that ran since change no structure
                // and cannot replace the world (they never hold `&mut
                // World`), and storages never move while their world lives.
                let replaced = unsafe { world.split().1.insert_into(id, set, entity, value) };
                world.add_required::<T>(entity);
                replaced
            });
        }));
        world.apply_after(done, commands);
        replaced
    }

    /// Gives the live `entity`, which holds no `T`, the required `value`,
    /// its arrival recorded for hooks and observers but not dispatched: the
    /// spawn or insert that required it dispatches once, when the entity is
    /// whole, so the hooks and observers of each of its types see the
    /// others in place (as bevy's bundle inserter does).
    pub(in crate::world) fn insert_required<T: Component>(self, entity: Entity, value: T) {
        let world = self.world;
        if T::DECLARES_HOOKS {
            world.component_hooks.sync(&world.data.storages);
        }
        let (id, set) = world.data.storages.register_root::<T>();
        // SAFETY: `register_root` gave `set` as the root of `id`'s storage
        // in this world's storages, which the funnel borrows.
        let replaced = unsafe { world.split().1.insert_into(id, set, entity, value) };
        debug_assert!(replaced.is_none(), "a requirement fills only a gap");
    }

    /// Gives the live `entity` every component of `bundle`, then those its
    /// types require that it lacks; values it replaces are dropped.
    #[inline]
    pub(in crate::world) fn insert_bundle<B: Bundle>(self, entity: Entity, bundle: B) {
        let world = self.world;
        if B::DECLARES_HOOKS {
            world.bundles.of::<B>(&mut world.data.storages);
            world.component_hooks.sync(&world.data.storages);
        }
        if world.component_hooks.follow_departures() {
            let ids = &world.bundles.of::<B>(&mut world.data.storages).ids;
            let hooks = &world.component_hooks;
            if ids.iter().any(|&id| hooks.follow_replacements_of(id)) {
                Transaction { world }.insert_bundle_replacing(entity, bundle);
                return;
            }
        }
        world.dispatching(|world| {
            {
                let (bundles, mut structural) = world.split();
                let ids = &bundles.of::<B>(structural.storages).ids;
                structural.insert_bundle(ids, bundle, entity);
            }
            world.add_required::<B>(entity);
        });
    }

    /// [`insert_bundle`](Self::insert_bundle) where departure hooks may
    /// run: the `on_replace` hooks of the values it overwrites run first, as
    /// in [`insert_replacing`](Self::insert_replacing).
    #[inline(never)]
    fn insert_bundle_replacing<B: Bundle>(self, entity: Entity, bundle: B) {
        let world = self.world;
        let ids = world.bundles.of::<B>(&mut world.data.storages).ids.to_vec();
        let commands = world.announce_replacement(&ids, entity);
        let done = catch_unwind(AssertUnwindSafe(|| {
            world.dispatching(|world| {
                {
                    let (bundles, mut structural) = world.split();
                    let ids = &bundles.of::<B>(structural.storages).ids;
                    structural.insert_bundle(ids, bundle, entity);
                }
                world.add_required::<B>(entity);
            });
        }));
        world.apply_after(done, commands);
    }

    /// Takes `T` away from the live `entity`; `None` when it has none.
    #[inline]
    pub(in crate::world) fn remove<T: Component>(self, entity: Entity) -> Option<T> {
        let (id, set) = self.world.data.storages.lookup::<T>()?;
        // SAFETY: `lookup` gave `set` as the root of `id`'s storage in this
        // world's storages.
        unsafe { self.remove_from(id, set, entity) }
    }

    /// [`remove`](Self::remove), with `T`'s storage found already.
    ///
    /// # Safety
    /// `set` is the root pointer of the storage registered as `id` in this
    /// world's storages (a `SparseSet<T>`).
    #[inline(always)]
    pub(in crate::world) unsafe fn remove_from<T: Component>(
        self,
        id: ComponentId,
        set: NonNull<SparseSet<T>>,
        entity: Entity,
    ) -> Option<T> {
        let world = self.world;
        if world.follow_departures() {
            // SAFETY: `set` is the root of `id`'s storage, a `SparseSet<T>`,
            // in this world's storages (the caller's contract), which is
            // all `remove_announced` asks.
            return unsafe { Transaction { world }.remove_announced(id, set, entity) };
        }
        // SAFETY: `set` is the root of `id`'s storage in this world's
        // storages, which the funnel borrows (the caller's contract).
        unsafe { world.split().1.remove_from(id, set, entity) }
    }

    /// [`remove_from`](Self::remove_from) where something hears of
    /// departures: announced first, its commands applied after, when an
    /// observer or a hook follows this type's removals.
    ///
    /// # Safety
    /// As [`remove_from`](Self::remove_from).
    #[inline(never)]
    unsafe fn remove_announced<T: Component>(
        self,
        id: ComponentId,
        set: NonNull<SparseSet<T>>,
        entity: Entity,
    ) -> Option<T> {
        let world = self.world;
        // Other types' observers and hooks leave this removal with nothing
        // to announce.
        let commands = if world.follow_removals_of(id) {
            world.announce_removal(id, entity)
        } else {
            ObserverCommands::default()
        };
        // SAFETY: `set` is the root of `id`'s storage here (caller's
        // contract); the observers and hooks that ran since changed no
        // structure and cannot replace the world (their commands have not
        // applied), and storages never move while their world lives.
        let removed = unsafe { world.split().1.remove_from(id, set, entity) };
        world.apply_observer_commands(commands);
        removed
    }

    /// Despawns the live `entity`. A panicking `Drop` resumes once the
    /// entity is gone and its announcement's commands applied.
    pub(in crate::world) fn despawn(self, entity: Entity) {
        let world = self.world;
        if !world.follow_departures() {
            world.split().1.despawn(entity);
            world.forget_observers_of(entity);
            return;
        }
        let commands = world.announce_despawn(entity);
        let despawned = catch_unwind(AssertUnwindSafe(|| world.split().1.despawn(entity)));
        // Its own observers heard of its departure; none outlives it.
        world.forget_observers_of(entity);
        world.apply_after(despawned, commands);
    }

    /// Despawns every entity; ids reserved so far go with them, those the
    /// announcement's commands reserve stay.
    pub(in crate::world) fn clear(self) {
        let world = self.world;
        world.settle_reserved();
        if !world.follow_departures() {
            world.split().1.clear();
            world.forget_scoped_observers();
            return;
        }
        let commands = world.announce_clear();
        let cleared = catch_unwind(AssertUnwindSafe(|| world.split().1.clear()));
        world.forget_scoped_observers();
        world.apply_after(cleared, commands);
    }

    /// Makes the ids reserved by `Commands::spawn` alive, with no
    /// components yet; `made` gets each with its reservation number. The
    /// numbers in `unused` (ascending), which nobody was given, spend no
    /// slot and no version (see `Entities::settle_except`).
    #[inline]
    pub(in crate::world) fn settle_reserved_except(
        self,
        unused: &[u32],
        made: impl FnMut(u32, Entity),
    ) {
        self.world.data.entities.settle_except(unused, made);
    }

    /// Moves every entity of `other` here under fresh ids, with its absent
    /// resources and their event stores; returns where each entity went.
    pub(in crate::world) fn merge(self, mut other: World) -> EntityMap {
        drop(other.flush());
        other.data.entities.settle(|_| {});
        self.world.dispatching(|world| {
            let (_, mut structural) = world.split();
            let map = structural.absorb(&other.data.entities, &mut other.data.storages);
            let adopted = world.data.resources.adopt_absent(&mut other.data.resources);
            world.events.adopt(&other.events, &adopted);
            map
        })
    }

    /// Moves `storages`, whose entities are all alive here under the same
    /// ids (a world restored from a snapshot), in. Their arrivals are
    /// recorded for the world's hooks and observers, and left for the
    /// caller to dispatch or drop.
    #[cfg(feature = "serde")]
    pub(in crate::world) fn adopt(self, storages: &mut crate::storage::Storages) {
        self.world.split().1.adopt(storages);
    }

    /// Declares an owning group of `G`'s component types, packing the
    /// entities that hold them all.
    pub(in crate::world) fn declare_group<G: Bundle>(self) -> Result<(), Error> {
        let (bundles, structural) = self.world.split();
        let ids = &bundles.of::<G>(structural.storages).ids;
        structural
            .hooks
            .groups
            .declare(core::any::type_name::<G>(), ids, structural.storages)
    }
}
