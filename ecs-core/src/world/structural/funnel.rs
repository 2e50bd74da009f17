//! The funnel: every component added or removed and every entity spawned or
//! despawned changes the storages here, with the entity's component mask and
//! every [`StructuralHook`] kept in step. Only the transaction
//! (`transaction.rs`) opens it.

use core::panic::AssertUnwindSafe;
use core::ptr::NonNull;

use crate::bundle::{Bundle, BundleInfo, ComponentWriter};
use crate::change::ChangeClock;
use crate::component::{Component, ComponentId, ComponentMasks};
use crate::entity::{Entities, Entity, EntityMap};
use crate::storage::{SparseSet, Storages};
use crate::util::{DeferredPanic, PanicPayload};

use super::spawn_run::Source;
use super::subscribers::{Hooks, StructuralHook};
use super::{held_components, maybe_held};

/// The parts of a world a structural change touches, borrowed together.
pub(crate) struct Structural<'a> {
    pub(crate) storages: &'a mut Storages,
    pub(crate) entities: &'a mut Entities,
    pub(crate) masks: &'a mut ComponentMasks,
    /// Everything that follows structural change, told through one interface.
    pub(crate) hooks: Hooks<'a>,
    /// Where the ticks of tracked components added or replaced come from:
    /// taken only when one is stamped, so untracked changes never touch it.
    pub(crate) clock: &'a mut ChangeClock,
}

impl Structural<'_> {
    /// Gives the live `entity` `value` in storage `id` (which must be `T`'s),
    /// returning the value it replaces. A new component is recorded in the
    /// entity's mask and announced to the hooks before the caller drops anything.
    /// A tracked component is marked added and changed at a new tick, a
    /// replaced one changed.
    #[inline]
    pub(crate) fn insert<T: Component>(
        &mut self,
        id: ComponentId,
        entity: Entity,
        value: T,
    ) -> Option<T> {
        let set = self.storages.root::<T>(id);
        // SAFETY: `root` checked that `set` is the root of `id`'s storage, a
        // `SparseSet<T>`, in `self.storages`.
        unsafe { self.insert_into(id, set, entity, value) }
    }

    /// [`insert`](Self::insert), with `T`'s storage already found (by
    /// `Storages::register_root`), so no second type check is made.
    ///
    /// # Safety
    /// `set` is the root pointer of the storage registered as `id` in
    /// `self.storages` (a `SparseSet<T>`).
    #[inline(always)]
    pub(crate) unsafe fn insert_into<T: Component>(
        &mut self,
        id: ComponentId,
        set: NonNull<SparseSet<T>>,
        entity: Entity,
        value: T,
    ) -> Option<T> {
        debug_assert!(self.storages.root::<T>(id) == set);
        if T::DECLARES_HOOKS {
            self.sync_component_hooks();
        }
        // SAFETY: `set` is `T`'s live storage in `self.storages` (caller's
        // contract), and `masks` and `clock` are this funnel's, which `self`
        // borrows mutably: the `&mut` made inside ends before the hooks
        // reborrow the storages below.
        let replaced =
            unsafe { Self::insert_unhooked(self.masks, self.clock, id, set, entity, value) };
        if !self.hooks.is_idle() {
            if replaced.is_none() {
                self.hooks.after_add(id, entity, self.storages);
            } else {
                self.hooks.after_replace(id, entity);
            }
        }
        replaced
    }

    /// What an insert changes besides the hooks: the value (stamped for a
    /// tracked `T`) and, for a new component, the entity's mask bit. Every
    /// insert runs it ([`insert_into`](Self::insert_into) then tells the
    /// hooks); alone, it is the whole insert while no hook listens (no group,
    /// no observer of additions), given the only parts it touches, so a loop
    /// of inserts of one type (`ViewMut`) borrows nothing else per call.
    ///
    /// # Safety
    /// `set` is the root pointer of the storage registered as `id` (a
    /// `SparseSet<T>`) in the world whose `masks` and `clock` these are, the
    /// caller borrows that world mutably, and no reference into the storage
    /// is held across the call.
    #[inline(always)]
    pub(crate) unsafe fn insert_unhooked<T: Component>(
        masks: &mut ComponentMasks,
        clock: &mut ChangeClock,
        id: ComponentId,
        mut set: NonNull<SparseSet<T>>,
        entity: Entity,
        value: T,
    ) -> Option<T> {
        // An untracked storage ignores the tick: the branch compiles away.
        let tick = if T::TRACK_CHANGES { clock.advance() } else { 0 };
        // SAFETY: `set` is `T`'s live storage, and the caller's exclusive
        // borrow of its world, with no reference into it held, makes this
        // `&mut` the only reference to it for the call (caller's contract).
        let replaced = unsafe { set.as_mut() }.insert(entity, value, tick);
        if replaced.is_none() {
            masks.mark(entity.index(), id);
        }
        replaced
    }

    /// What a removal changes besides the hooks: the value taken out and the
    /// entity's mask bit cleared. [`remove_from`](Self::remove_from) runs it
    /// after telling the hooks; alone, it is the whole removal while no hook
    /// listens, as [`insert_unhooked`](Self::insert_unhooked) is for inserts.
    ///
    /// # Safety
    /// `set` is the root pointer of the storage registered as `id` (a
    /// `SparseSet<T>`) in the world whose `masks` these are, the caller
    /// borrows that world mutably, and no reference into the storage is held
    /// across the call.
    #[inline(always)]
    pub(crate) unsafe fn remove_unhooked<T: Component>(
        masks: &mut ComponentMasks,
        id: ComponentId,
        mut set: NonNull<SparseSet<T>>,
        entity: Entity,
    ) -> Option<T> {
        // SAFETY: `set` is `T`'s live storage, and the caller's exclusive
        // borrow of its world, with no reference into it held, makes this
        // `&mut` the only reference to it for the call (caller's contract).
        let removed = unsafe { set.as_mut() }.remove(entity);
        if removed.is_some() {
            masks.unmark(entity.index(), id);
        }
        removed
    }

    /// Gives the live `entity` every component of `bundle`, whose registered
    /// ids are `ids`; values it replaces are dropped.
    #[inline]
    pub(crate) fn insert_bundle<B: Bundle>(
        &mut self,
        ids: &[ComponentId],
        bundle: B,
        entity: Entity,
    ) {
        if B::DECLARES_HOOKS {
            self.sync_component_hooks();
        }
        let mut writer = BundleWriter::new(self);
        bundle.write(&mut writer, &mut ids.iter(), entity);
        writer.finish();
    }

    /// Reads the hooks of the component types registered since the last
    /// look: called before the first arrival of a type that declares hooks
    /// (a constant per type, so the call compiles away for the others).
    #[inline]
    fn sync_component_hooks(&mut self) {
        self.hooks.components.sync(self.storages);
    }

    /// Allocates an entity and gives it every component of `bundle`.
    ///
    /// A bundle of distinct types is appended to each storage; one that repeats
    /// a type takes the general path, where the later value replaces the earlier.
    #[inline]
    pub(crate) fn spawn<B: Bundle>(&mut self, info: &BundleInfo, bundle: B) -> Entity {
        if B::DECLARES_HOOKS {
            self.sync_component_hooks();
        }
        let entity = self.entities.alloc();
        if info.distinct {
            let columns = B::columns(self.storages, &mut info.ids.iter());
            let hooked = !self.hooks.is_idle();
            let tick = self.clock.advance();
            self.append_fresh(info, &columns, hooked, tick, bundle, entity);
        } else {
            let mut writer = BundleWriter::new(self);
            bundle.write(&mut writer, &mut info.ids.iter(), entity);
            writer.finish();
        }
        entity
    }

    /// Allocates an entity holding a copy of every component of the live
    /// `from` whose type can be copied, each added at one tick, the hooks
    /// told of each; the ids of the types that cannot be copied are appended
    /// to `not_cloned`, in id order. `(from, copy)` is appended to `copies`
    /// before any hook runs.
    pub(crate) fn clone_entity(
        &mut self,
        from: Entity,
        copies: &mut Vec<(Entity, Entity)>,
        not_cloned: &mut Vec<ComponentId>,
    ) {
        self.sync_component_hooks();
        let to = self.entities.alloc();
        copies.push((from, to));
        self.masks.cover(self.entities.slot_count());
        let tick = self.clock.advance();
        let held: Vec<ComponentId> = held_components(self.storages, self.masks, from).collect();
        for id in held {
            if self
                .storages
                .erased_by_id_mut(id)
                .clone_within(from, to, tick)
            {
                self.masks.mark(to.index(), id);
                if !self.hooks.is_idle() {
                    self.hooks.after_add(id, to, self.storages);
                }
            } else {
                not_cloned.push(id);
            }
        }
    }

    /// Spawns one entity per bundle of `bundles`, appending their ids to `spawned`;
    /// storages are resolved once for the whole batch.
    ///
    /// A bundle of distinct types with no hook listening is written in runs
    /// (see `spawn_run`): under the ids on the free list, then under fresh
    /// ids. Otherwise each entity is spawned in turn, and
    /// the hooks hear of each before the next.
    pub(crate) fn spawn_many<B: Bundle>(
        &mut self,
        info: &BundleInfo,
        mut bundles: impl Iterator<Item = B>,
        spawned: &mut Vec<Entity>,
    ) {
        if B::DECLARES_HOOKS {
            self.sync_component_hooks();
        }
        let additional = bundles.size_hint().0;
        // Settles reserved ids too: from here on the free list, then fresh
        // indices, are exactly what `alloc` hands out.
        self.entities.reserve(additional);
        self.masks.reserve(additional);
        B::reserve(self.storages, &mut info.ids.iter(), additional);
        if info.distinct {
            // Root pointers: a hook reborrowing a storage between two appends
            // leaves them valid (see `Storages`).
            let columns = B::columns(self.storages, &mut info.ids.iter());
            let hooked = !self.hooks.is_idle();
            // One tick for the whole batch: its components are added together.
            let tick = self.clock.advance();
            if !hooked {
                let ended = self.spawn_run(
                    Source::Reused,
                    info.mask,
                    &columns,
                    tick,
                    &mut bundles,
                    spawned,
                );
                if !ended {
                    self.spawn_run(
                        Source::Fresh,
                        info.mask,
                        &columns,
                        tick,
                        &mut bundles,
                        spawned,
                    );
                }
                return;
            }
            for bundle in bundles {
                let entity = self.entities.alloc();
                self.append_fresh(info, &columns, hooked, tick, bundle, entity);
                spawned.push(entity);
            }
        } else {
            // Every bundle is written, whatever a replaced value's `Drop` does.
            let mut writer = BundleWriter::new(self);
            for bundle in bundles {
                let entity = writer.funnel.entities.alloc();
                bundle.write(&mut writer, &mut info.ids.iter(), entity);
                spawned.push(entity);
            }
            writer.finish();
        }
    }

    /// Appends `bundle`'s components (of distinct types) for the fresh `entity`
    /// through `columns`, with no look for a value to replace, sets its mask bits
    /// at once, and, when a hook listens, announces each component.
    #[inline(always)]
    fn append_fresh<B: Bundle>(
        &mut self,
        info: &BundleInfo,
        columns: &B::Columns,
        hooked: bool,
        tick: u64,
        bundle: B,
        entity: Entity,
    ) {
        // Marked first: should an append panic (only a capacity overflow can),
        // the mask names at most components the entity lacks, which despawn
        // tolerates.
        self.masks.mark_all(entity.index(), info.mask);
        // SAFETY: the columns are root pointers of this world's storages, which
        // `self` borrows mutably; storages never move or drop while the world
        // lives, and no reference into them is held across this call. Both
        // callers run this only for a bundle of distinct types, and `entity`
        // was just allocated, so no storage holds it.
        unsafe { bundle.push_new(columns, entity, tick) };
        if hooked {
            for &id in info.ids.iter() {
                self.hooks.after_add(id, entity, self.storages);
            }
        }
    }

    /// Takes component `id` away from the live `entity`; `set` is its storage.
    ///
    /// # Safety
    /// `set` is the root pointer of the storage registered as `id` in
    /// `self.storages` (a `SparseSet<T>`), as `Storages::lookup` gives it.
    #[inline]
    pub(crate) unsafe fn remove_from<T: Component>(
        &mut self,
        id: ComponentId,
        set: NonNull<SparseSet<T>>,
        entity: Entity,
    ) -> Option<T> {
        debug_assert!(self.storages.root::<T>(id) == set);
        if !self.hooks.is_idle() {
            self.hooks.before_remove(id, entity, self.storages);
        }
        // SAFETY: `set` is `T`'s live storage in `self.storages` (caller's
        // contract), and `masks` is this funnel's, which `self` borrows
        // mutably; the hooks' reborrow has ended, so no reference into the
        // storage is held. (A group hook may have moved the entity inside the
        // storage, never the storage.)
        unsafe { Self::remove_unhooked(self.masks, id, set, entity) }
    }

    /// Removes the live `entity` from every storage it is in, then frees its slot.
    ///
    /// Only the storages its mask names are visited (and any beyond the mask's
    /// reach). A panicking `Drop` is carried past the remaining storages and
    /// resumed once the entity is fully despawned.
    pub(crate) fn despawn(&mut self, entity: Entity) {
        if !self.hooks.is_idle() {
            self.hooks.before_despawn(entity, self.storages);
        }
        let mut panics = DeferredPanic::default();
        let mut remove_from = |storages: &mut Storages, id: ComponentId| {
            panics.keep(storages.erased_by_id_mut(id).remove_and_drop(entity));
        };
        for id in maybe_held(self.masks, self.storages.len(), entity) {
            remove_from(self.storages, id);
        }
        self.masks.clear(entity.index());
        self.entities
            .free(entity)
            .expect("the entity was checked alive before despawning");
        panics.resume();
    }

    /// Despawns every entity. A panicking `Drop` is carried past the remaining
    /// storages and resumed once the world is empty.
    pub(crate) fn clear(&mut self) {
        self.hooks.before_clear(self.storages);
        let mut panics = DeferredPanic::default();
        for set in self.storages.erased_mut() {
            panics.run(|| set.clear());
        }
        self.masks.clear_all();
        self.entities.free_all();
        panics.resume();
    }

    /// Moves every live entity of another world (its allocator `entities`,
    /// its `storages`) here: each gets a fresh id, and every component moves
    /// with whole arrays per type (see `Storages::absorb`), as added at one
    /// tick. Masks are set and the hooks told of each arrival, after all of
    /// them are in place. Returns where each entity went; `storages` is left
    /// empty.
    ///
    /// All or nothing: the `#[entity]` fields of the incoming values are
    /// rewritten (user code, which may panic) to the ids the allocator will
    /// hand out before anything here changes.
    pub(crate) fn absorb(&mut self, entities: &Entities, storages: &mut Storages) -> EntityMap {
        self.entities.settle(|_| {});
        let mut map = EntityMap::with_slots(entities.slot_count());
        for (g, old) in entities.iter_alive().enumerate() {
            let g = u32::try_from(g).expect("a world holds fewer than 2^32 entities");
            map.insert(old, self.entities.peek_alloc(g));
        }
        storages.map_entities(&map);
        self.entities.reserve(entities.len());
        for old in entities.iter_alive() {
            let new = self.entities.alloc();
            debug_assert_eq!(map.get(old), Some(new), "the id peeked for {old:?}");
        }
        self.move_in(storages, Some(&map));
        map
    }

    /// Moves `storages`, whose entities are all alive here under the same
    /// ids (a world restored from a snapshot), into this world, as `absorb`
    /// does. `storages` is left empty.
    #[cfg(feature = "serde")]
    pub(crate) fn adopt(&mut self, storages: &mut Storages) {
        self.move_in(storages, None);
    }

    /// Moves every component of `storages` here, each for the entity `map`
    /// gives its owner (`None`: every entity keeps its id; alive here), as
    /// added at one tick; masks are set and the hooks told of each arrival
    /// once all are in place.
    fn move_in(&mut self, storages: &mut Storages, map: Option<&EntityMap>) {
        self.masks.cover(self.entities.slot_count());
        let tick = self.clock.advance();
        let mut arrivals = Vec::new();
        let masks = &mut *self.masks;
        // A type arriving here for the first time may declare hooks.
        let hooked = !self.hooks.is_idle() || storages.declare_hooks();
        self.storages.absorb(storages, map, tick, |id, arrived| {
            for entity in arrived {
                masks.mark(entity.index(), id);
            }
            if hooked {
                arrivals.push((id, arrived.to_vec()));
            }
        });
        self.sync_component_hooks();
        // Groups pack an entity once it holds every type they own: only now
        // is everything in place.
        for (id, arrived) in arrivals {
            for entity in arrived {
                self.hooks.after_add(id, entity, self.storages);
            }
        }
    }
}

/// The funnel as bundles see it: each value inserted through
/// [`Structural::insert`], each value it replaces dropped at once, the first
/// panic of those `Drop`s kept until [`finish`](Self::finish), so a bundle
/// (or a batch of them) is written whole even when one panics.
struct BundleWriter<'f, 'a> {
    funnel: &'f mut Structural<'a>,
    panics: DeferredPanic,
}

impl<'f, 'a> BundleWriter<'f, 'a> {
    #[inline]
    fn new(funnel: &'f mut Structural<'a>) -> Self {
        Self {
            funnel,
            panics: DeferredPanic::default(),
        }
    }

    /// Raises the first panic of a replaced value's `Drop`, if any.
    /// Inlined: with none kept, one test.
    #[inline]
    fn finish(self) {
        self.panics.resume();
    }
}

impl ComponentWriter for BundleWriter<'_, '_> {
    #[inline]
    fn insert<T: Component>(&mut self, id: ComponentId, entity: Entity, value: T) {
        if let Some(replaced) = self.funnel.insert(id, entity, value)
            && core::mem::needs_drop::<T>()
        {
            self.panics.keep(drop_caught(replaced));
        }
    }
}

/// Drops `value`, catching a panic of its `Drop`. Out of line, and returning
/// the panic rather than keeping it: a writer's kept panic is then never
/// borrowed by a call, so it stays out of memory on the path with no
/// replaced value.
#[inline(never)]
fn drop_caught<T>(value: T) -> Result<(), PanicPayload> {
    std::panic::catch_unwind(AssertUnwindSafe(|| drop(value)))
}
