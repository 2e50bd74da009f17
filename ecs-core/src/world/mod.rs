//! The world: entities, and one storage per component type. This file holds
//! the struct and the operations on entities; the other files of `world/` hold
//! every other `impl World`, one concept each.

// What each file owns (ARCHITECTURE.md keeps the summary): `World` and entity operations
// (`mod.rs`: each says what changes and hands it to the transaction), `catalog.rs`
// (`component_types`, `event_types`, `observers`: what kinds of things a world holds, read without
// their types), `layout.rs` (`optimize_layout`, `layout_stats`, `LayoutStats`: storages sorted by
// signature, and how much of each is in order; `layout_debt`, the signature changes since the last
// pass, counted by the masks and saved by rollback, and `maintain_layout`, the pass
// `Schedule::run` starts each frame with once the debt reaches half the live entities),
// `structural/` (the one door: `mod.rs`: `split`, which only this directory calls;
// `transaction.rs`: `Transaction`, the whole sequence of every structural change; `funnel.rs`:
// `Structural`, the only code that writes storage membership and masks; `spawn_run.rs`: a batch
// spawn's runs, values written past the end of each storage, committed under reused, then fresh
// ids; `subscribers.rs`: `StructuralHook`, `Hooks`, the funnel's subscribers; `layout.rs`:
// `sort_layout`, every storage sorted by its entities' component masks after its group's prefix,
// positions moved and membership untouched, so no hook is told; `restore.rs`: `restore_rollback`
// and `RestoreParts`, a rollback put back: the allocator restored, entities that were not alive
// stripped of every unregistered component, the registered storages rewritten with the masks in
// step (`RestoreParts::restore_column`) and the resources, no hook or observer told, groups packed
// again, as a restore is not a game event; `rules.rs`: the checked operations every caller uses,
// each a transaction method returning `Result`; `typed.rs`: `TypedStorage`, a storage found once
// for a loop of changes of one type, reached through `rules.rs`'s `_typed` operations, its
// unhooked path (`Structural::insert_unhooked` / `remove_unhooked`: the storage and the mask) a
// branch inside it while no group, observer or hook follows structural change, its storage found
// again after a change that ran commands, as one may replace the whole world, and on unwind),
// `component_hooks/` (`mod.rs`: `ComponentHooks`, `HookKind`, `HookContext`, `HookRegistry` (each
// type's hooks by component id, read from the type's `Component::declare_hooks` before its first
// arrival, and the arrivals recorded for them), `register_component_hooks`; `deferred.rs`:
// `DeferredWorld`; `run.rs`: running a hook with its own command queue, departures, the
// `on_replace` of an overwriting insert), `commands.rs` (`Commands`, `CommandQueue`,
// `world.commands()` / `flush()`, reservation lanes), `command_bytes.rs` (`CommandBytes`: a
// queue's commands written in place into one byte buffer, each a header (how to run or drop it,
// its size, the entity a spawn gives a bundle) and its value, so recording allocates nothing once
// the buffer has grown; taken out in order by a `Drain` that drops what a panic leaves),
// `query.rs` (`query`, `query_ref`, `query_state`, and the `QueryState` methods that take the
// world), `group.rs`, `stats.rs`, `entity_ref.rs`, `inspect.rs` (`inspect`, `inspect_all`: what
// entities hold, as text), `inspect_tree.rs` (`inspect_tree`, `TreeInspection`: a subtree, one
// indented line per entity), `merge.rs` (`merge`: another world's entities, components and absent
// resources moved in by `Transaction::merge`; the moving itself is the funnel's `absorb`),
// `resource.rs`, `typed_view.rs` (`View`, `ViewMut`: one component type's storage found once, for
// loops of `get` / `insert` / `remove`; `ViewMut` keeps a `TypedStorage`), `event.rs` (`send`,
// `events`, `update_events`), `change.rs` (`change_tick`, the hidden `set_change_tick`),
// `from_world.rs` (`FromWorld`, `init_resource`), `state.rs` (`init_state`, `insert_state`, and
// applying the switches `NextState` asked for, per state type in insertion order, through drivers
// kept as a resource), `one_shot/` (`register_system`, `run_system`, `run_system_with`,
// `run_system_once`, `unregister_system`, and their `Commands` twins: systems kept by id as a
// resource behind the `OneShotSystem<I, O>` trait, which `system/` implements; ids are typed
// by input and output and drawn from one counter for the process; `input.rs`: `SystemInput`,
// `In`, `InRef`, `InMut`; `output.rs`: `SystemOutput`, what a scheduled system may return),
// `entity_commands.rs` (`EntityCommands`: `commands.entity(e)` chains, `spawn_batch`,
// `init_resource` on `Commands`), `clone.rs` (`clone_entity`, `clone_entity_report`,
// `clone_entity_recursive`, `CloneReport`: copies made by the funnel's `clone_entity`, each
// storage copying its own value through `Component::clone_value`, which the derive detects like
// `as_debug`; a recursive clone copies the subtree listed when it starts and despawns its copies
// on an error or panic), `required.rs` (required components: the cycle check once per type, the
// requirements an entity lacks added through the transaction after the call's own change,
// `RequirementMarks`, a structural subscriber remembering which components arrived as requirements
// until they leave, and `HeldComponent`, what `components_of` yields), `relationship/` (`mod.rs`:
// `Relationship`, `RelationshipTarget`, the traits `#[relationship]` / `#[relationship_target]`
// implement; `check.rs`: what every insert and spawn of a relationship passes before anything
// changes: a live target, not the entity itself, no cycle, and no target list given by hand;
// `hooks.rs`: the hooks the derive gives both sides, which list a source on its target and take it
// off, make and drop lists by commands, and hand a leaving list's sources on: despawned deepest
// first when linked, else stripped of the relationship; `slots.rs`: `RelationshipSlots`, each
// source's place in its target's list, a hint checked on every read, so removal is O(1) and lists
// moved without hooks (rollback, `sort_by`) cost one search; `hierarchy.rs`: `ChildOf`,
// `Children`, `SpawnChildren` and `children!`; `traverse.rs`: `descendants` / `ancestors` of a
// world and `iter_descendants` / `iter_ancestors` of a query, each bounded by the relationship's
// holders, and `subtree`, the pre-order list `clone_entity_recursive` and `inspect_tree` walk, a
// loop an error; `acyclic.rs` (feature `serde`): `find_relationship_cycle`, one linear pass over a
// snapshot's relationship columns before any world adopts them), `persist.rs` (what persistence
// reads: the allocator, storages and resources; with feature `serde`, `from_loaded_parts`, which
// moves a loaded snapshot's storages in with `Transaction::adopt`, and `merge_loaded`), `observe/`
// (`mod.rs`: `observe`, `add_observer`, `unobserve`, observers on one entity (`EntityMut::observe`,
// `EntityCommands::observe`, forgotten when the transaction despawns their entity), the
// `IntoObserver` trait, the erased `ObserverRunner`, observer errors; `dispatch.rs`: announcing
// departures, dispatching arrivals to hooks and observers (everywhere, then the entity's own),
// applying their commands, the recursion limit; the transaction calls each step; `event.rs`:
// `Event`, `EntityEvent`, what an event's travel reads; `trigger.rs`: `trigger` on the world,
// commands and a deferred world, and an entity event's walk up its relationship; `on.rs`:
// `On<E>`; `input.rs`: `ObserverInput`, what an observer's first argument is made from)

mod catalog;
mod change;
mod clone;
mod command_bytes;
mod commands;
mod component_hooks;
mod entity_commands;
mod entity_ref;
mod event;
mod from_world;
mod group;
mod inspect;
mod inspect_tree;
mod layout;
mod merge;
mod observe;
mod one_shot;
mod persist;
mod query;
mod relationship;
mod required;
mod resource;
mod state;
mod stats;
mod structural;
mod typed_view;

use core::fmt;

use crate::bundle::{Bundle, BundleRegistry};
use crate::change::{ComponentMut, RunTicks};
use crate::component::Component;
use crate::entity::{DeadEntity, Entities, Entity, Liveness};
use crate::error::Error;
use crate::event::EventRegistry;
use crate::query::KeptMatches;
use crate::util::DeferredPanic;
use crate::view::{Exclusive, WorldData, WorldView};

pub use catalog::{ComponentType, ObserverEntry};
pub use clone::CloneReport;
pub use commands::{CommandQueue, Commands};
pub(crate) use commands::{LaneLayout, ReservationLane};
pub use component_hooks::{
    ComponentHook, ComponentHooks, DeferredWorld, HookContext, HookKind, declared_hooks,
};
pub use entity_commands::EntityCommands;
pub use entity_ref::{EntityMut, EntityRef};
pub use from_world::FromWorld;
pub use inspect::{ComponentInspection, EntityInspection, WorldInspection};
pub use inspect_tree::TreeInspection;
pub use layout::{LayoutStats, StorageLayout};
pub use observe::{
    EntityEvent, Event, IntoObserver, MAX_OBSERVER_DEPTH, Observer, ObserverFire, ObserverInput,
    On, relationship_target,
};
pub(crate) use observe::{ObserverRunner, observer_name};
pub use one_shot::{
    In, InMut, InRef, IntoOneShotSystem, OneShotSystem, SystemId, SystemIn, SystemInput,
    SystemOutput,
};
pub use relationship::{
    ChildOf, Children, ListKey, Relationship, RelationshipTarget, SpawnChildren,
    relationship_on_insert, relationship_on_replace, target_on_insert, target_on_replace,
};
pub use required::HeldComponent;
pub use stats::{HeapBreakdown, WorldStats};
pub(crate) use structural::RestoreParts;
pub use typed_view::{View, ViewMut};

use component_hooks::HookRegistry;
use observe::Observers;
use relationship::RelationshipSlots;
use required::RequirementMarks;
use structural::held_components;

/// A container of entities and their components.
///
/// Each component type lives in its own sparse set; spawning, inserting and
/// removing are O(1) and never move another entity's data. Worlds are
/// independent values: create as many as you like, on any thread (`World` is
/// `Send + Sync`), and nothing is global.
///
/// Every method that takes an [`Entity`] checks it: a despawned handle, one
/// this world never handed out, or one made up from bits gives an
/// [`Error`], never another entity's data and never a panic.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Debug, PartialEq)]
/// struct Position { x: f32, y: f32 }
/// #[derive(Component)]
/// struct Frozen;
///
/// let mut world = World::new();
/// let e = world.spawn(Position { x: 0.0, y: 0.0 });
/// world.insert(e, Frozen)?;
/// world.get_mut::<Position>(e)?.x = 2.0;
/// assert_eq!(world.get::<Position>(e)?, &Position { x: 2.0, y: 0.0 });
/// world.remove::<Frozen>(e)?;
/// world.despawn(e)?;
/// assert!(!world.is_alive(e));
/// assert_eq!(world.get::<Position>(e).unwrap_err().to_string(), "entity 0v1 was despawned");
/// # Ok::<(), Error>(())
/// ```
#[derive(Default)]
pub struct World {
    /// What views reach; its structure changes only through the transaction
    /// of `structural/`.
    data: WorldData,
    bundles: BundleRegistry,
    /// What [`World::commands`] records, until [`World::flush`].
    commands: CommandQueue,
    /// How to end a frame of each event store the world made.
    events: EventRegistry,
    /// What runs when components arrive and leave.
    observers: Observers,
    /// The hooks of each component type, and the arrivals that have one.
    component_hooks: HookRegistry,
    /// Where each relationship source sits in its target's list.
    relationship_slots: RelationshipSlots,
    /// Which components arrived as requirements of others.
    requirement_marks: RequirementMarks,
    /// The masks' change count when the layout was last sorted: what the
    /// layout debt counts from.
    layout_sorted_at: u64,
    /// What the queries of [`World::query`] found, per query type.
    kept_matches: KeptMatches,
}

impl World {
    /// An empty world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let world = World::new();
    /// assert!(world.is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Creates an entity holding the components of `bundle`: one component, a
    /// tuple of up to 16, or `()` for an empty entity.
    ///
    /// The first entity of a world is `0v1`; despawned slots are reused with a
    /// higher version.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn((Health(10), Enemy));
    /// assert_eq!(world.get::<Health>(e)?.0, 10);
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// # Panics
    /// When `bundle` holds a relationship whose target is not alive, or a
    /// relationship's target list ([`Children`], ...), which the world keeps
    /// itself: the message is the error [`insert_bundle`](Self::insert_bundle)
    /// would return, and nothing is spawned.
    #[inline]
    pub fn spawn<B: Bundle>(&mut self, bundle: B) -> Entity {
        match self.transaction().try_spawn(bundle) {
            Ok(entity) => entity,
            Err(error) => panic!("cannot spawn: {error}"),
        }
    }

    /// [`spawn`](Self::spawn), returning the error instead of panicking when
    /// `bundle` would break a relationship (a dead target, a target list
    /// given by hand) or its types' requirements form a cycle; nothing is
    /// spawned then.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let gone = world.spawn(());
    /// world.despawn(gone)?;
    /// assert!(world.try_spawn(ChildOf(gone)).is_err()); // the parent is dead
    /// assert_eq!(world.len(), 0);
    /// let parent = world.spawn(());
    /// let child = world.try_spawn(ChildOf(parent))?;
    /// assert_eq!(world.get::<ChildOf>(child)?.0, parent);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn try_spawn<B: Bundle>(&mut self, bundle: B) -> Result<Entity, Error> {
        self.transaction().try_spawn(bundle)
    }

    /// Spawns one entity per bundle of `bundles`, reserving room once from the
    /// iterator's size hint, and returns their ids in order.
    ///
    /// Despawned slots are reused first; the rest of the batch gets a contiguous
    /// range of new indices, and its components land side by side in every
    /// storage, so queries over them run as zipped arrays.
    ///
    /// If the iterator panics, the entities spawned before the panic stay spawned.
    ///
    /// # Panics
    /// As [`spawn`](Self::spawn), when a bundle would break a relationship;
    /// the bundles are all checked first, so then nothing is spawned.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    ///
    /// let mut world = World::new();
    /// let ids = world.spawn_batch((0..100).map(|i| Position(i as f32)));
    /// assert_eq!(ids.len(), 100);
    /// assert_eq!(world.get::<Position>(ids[7])?.0, 7.0);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn spawn_batch<B, I>(&mut self, bundles: I) -> Vec<Entity>
    where
        B: Bundle,
        I: IntoIterator<Item = B>,
    {
        match self.try_spawn_batch(bundles) {
            Ok(spawned) => spawned,
            Err(error) => panic!("cannot spawn: {error}"),
        }
    }

    /// [`spawn_batch`](Self::spawn_batch), returning the error instead of
    /// panicking when a bundle would break a relationship or the types'
    /// requirements form a cycle. Every bundle is checked before the first
    /// is spawned, so a refused batch spawns nothing.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let parent = world.spawn(());
    /// let gone = world.spawn(());
    /// world.despawn(gone)?;
    /// assert!(world.try_spawn_batch([ChildOf(parent), ChildOf(gone)]).is_err());
    /// assert_eq!(world.len(), 1, "nothing of the refused batch was spawned");
    /// let children = world.try_spawn_batch([ChildOf(parent), ChildOf(parent)])?;
    /// assert_eq!(world.get::<Children>(parent)?.len(), children.len());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn try_spawn_batch<B, I>(&mut self, bundles: I) -> Result<Vec<Entity>, Error>
    where
        B: Bundle,
        I: IntoIterator<Item = B>,
    {
        let mut spawned = Vec::new();
        self.transaction()
            .try_spawn_batch(bundles.into_iter(), &mut spawned)?;
        Ok(spawned)
    }

    /// Gives `entity` the component `component`, returning the value it
    /// replaces, if any.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug, PartialEq)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// assert_eq!(world.insert(e, Health(3))?, None);
    /// assert_eq!(world.insert(e, Health(5))?, Some(Health(3)));
    /// world.despawn(e)?;
    /// assert!(world.insert(e, Health(1)).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn insert<T: Component>(
        &mut self,
        entity: Entity,
        component: T,
    ) -> Result<Option<T>, Error> {
        self.transaction().try_insert(entity, component)
    }

    /// Gives `entity` every component of `bundle`; values it replaces are dropped.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct A;
    /// #[derive(Component)]
    /// struct B;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// world.insert_bundle(e, (A, B))?;
    /// assert!(world.contains::<A>(e) && world.contains::<B>(e));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn insert_bundle<B: Bundle>(&mut self, entity: Entity, bundle: B) -> Result<(), Error> {
        self.transaction().try_insert_bundle(entity, bundle)
    }

    /// Takes `T` away from `entity` and returns it.
    ///
    /// Fails when `entity` is not alive or does not have a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug, PartialEq)]
    /// struct Shield(u32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Shield(4));
    /// assert_eq!(world.remove::<Shield>(e)?, Shield(4));
    /// assert_eq!(
    ///     world.remove::<Shield>(e).unwrap_err().to_string(),
    ///     "entity 0v1 does not have component `Shield`"
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn remove<T: Component>(&mut self, entity: Entity) -> Result<T, Error> {
        self.transaction().try_remove(entity)
    }

    /// Whether `entity` is alive and has a `T`. False for dead or unknown entities.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Frozen;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Frozen);
    /// assert!(world.contains::<Frozen>(e));
    /// world.despawn(e)?;
    /// assert!(!world.contains::<Frozen>(e));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn contains<T: Component>(&self, entity: Entity) -> bool {
        // A storage only maps live entities, with their current version.
        self.data
            .storages
            .get::<T>()
            .is_some_and(|set| set.contains(entity))
    }

    /// A shared reference to `entity`'s `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Name(&'static str);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Name("hero"));
    /// assert_eq!(world.get::<Name>(e)?.0, "hero");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn get<T: Component>(&self, entity: Entity) -> Result<&T, Error> {
        match self
            .data
            .storages
            .get::<T>()
            .and_then(|set| set.get(entity))
        {
            Some(value) => Ok(value),
            None => Err(lookup_error::<T>(&self.data.entities, entity)),
        }
    }

    /// A mutable reference to `entity`'s `T`: `&mut T`, or for a type that
    /// tracks changes (`#[component(track_changes)]`) a
    /// [`Mut<T>`](crate::change::Mut), which marks the value changed when it
    /// is written through, not when it is handed out.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(10));
    /// world.get_mut::<Health>(e)?.0 -= 3;
    /// assert_eq!(world.get::<Health>(e)?.0, 7);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn get_mut<T: Component>(&mut self, entity: Entity) -> Result<T::Mut<'_>, Error> {
        // Only a tracked type's writes are stamped: the others skip the counter.
        let tick = if T::TRACK_CHANGES {
            self.data.clock.advance()
        } else {
            0
        };
        match self
            .data
            .storages
            .get_mut::<T>()
            .and_then(|set| set.get_mut(entity))
        {
            Some((value, changed)) => Ok(T::Mut::from_parts(value, changed, tick)),
            None => Err(lookup_error::<T>(&self.data.entities, entity)),
        }
    }

    /// Despawns `entity`: removes it from every storage and frees its slot.
    ///
    /// Its handle, and every copy of it, is stale from now on.
    /// If a component's `Drop` panics, the entity is still fully despawned
    /// and the other components are still dropped before the panic resumes.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(1));
    /// world.despawn(e)?;
    /// assert!(!world.is_alive(e));
    /// assert_eq!(world.despawn(e).unwrap_err(), Error::Despawned { entity: e });
    /// # Ok::<(), Error>(())
    /// ```
    pub fn despawn(&mut self, entity: Entity) -> Result<(), Error> {
        self.data.entities.check(entity)?;
        self.transaction().despawn(entity);
        Ok(())
    }

    /// Whether `entity` is alive in this world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// assert!(world.is_alive(e));
    /// assert!(!World::new().is_alive(Entity::from_bits(1 << 32 | 9).unwrap()));
    /// ```
    #[inline]
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.data.entities.is_alive(entity)
    }

    /// Number of live entities.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// world.spawn(());
    /// world.spawn(());
    /// assert_eq!(world.len(), 2);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.data.entities.len()
    }

    /// Whether the world has no live entity.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert!(World::new().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Despawns every entity. Every handle handed out so far becomes stale;
    /// the storages keep their memory for reuse. The `OnRemove` observers of
    /// every component run first; what their commands spawn applies after
    /// the clear and stays, as after [`despawn`](Self::despawn).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Tag;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Tag);
    /// world.clear();
    /// assert!(world.is_empty() && !world.is_alive(e));
    /// assert_eq!(world.spawn(()).version(), 2);
    /// ```
    pub fn clear(&mut self) {
        self.transaction().clear();
    }

    /// A read-only handle to a live entity.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Name(&'static str);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Name("hero"));
    /// let hero = world.entity(e)?;
    /// assert_eq!(hero.get::<Name>()?.0, "hero");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn entity(&self, entity: Entity) -> Result<EntityRef<'_>, Error> {
        self.data.entities.check(entity)?;
        Ok(EntityRef::new(self, entity))
    }

    /// A read-write handle to a live entity.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// let mut handle = world.entity_mut(e)?;
    /// handle.insert(Health(3))?;
    /// handle.get_mut::<Health>()?.0 += 1;
    /// handle.despawn()?;
    /// assert!(!world.is_alive(e));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn entity_mut(&mut self, entity: Entity) -> Result<EntityMut<'_>, Error> {
        self.data.entities.check(entity)?;
        Ok(EntityMut::new(self, entity))
    }

    /// The component types `entity` holds, in the order the world first saw them.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32, f32);
    /// #[derive(Component)]
    /// struct Frozen;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn((Position(1.0, 2.0), Frozen));
    /// let held: Vec<_> = world.components_of(e)?.map(|c| (c.name(), c.size())).collect();
    /// assert_eq!(held, [("Position", 8), ("Frozen", 0)]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn components_of(
        &self,
        entity: Entity,
    ) -> Result<impl Iterator<Item = HeldComponent<'_>> + '_, Error> {
        self.data.entities.check(entity)?;
        let storages = &self.data.storages;
        let marks = &self.requirement_marks;
        Ok(held_components(storages, &self.data.masks, entity)
            .map(move |id| HeldComponent::new(storages.info(id), marks.is_marked(entity, id))))
    }

    /// A read-only view of this world, for queries.
    #[inline]
    pub(crate) fn data_view(&self) -> WorldView<'_> {
        WorldView::shared(&self.data)
    }

    /// A view that may write, from a shared borrow, for systems running at
    /// once; `ticks` are the running system's.
    ///
    /// # Safety
    /// The caller holds the world exclusively for `'_` (it was given
    /// `&mut World` and shares it only with the systems it runs), and no two
    /// users of views made this way reach the same component type or resource
    /// at once where one of them writes.
    #[inline]
    pub(crate) unsafe fn view_for_systems(&self, ticks: RunTicks) -> WorldView<'_, Exclusive> {
        // SAFETY: the caller holds this world exclusively and keeps users of
        // conflicting data apart (this function's contract), which is
        // `exclusive_unchecked`'s contract for `self.data`.
        unsafe { WorldView::exclusive_unchecked(&self.data, ticks) }
    }

    #[cfg(test)]
    pub(crate) fn entities_mut(&mut self) -> &mut Entities {
        &mut self.data.entities
    }

    /// Checks the invariants that tie storages to the allocator.
    #[cfg(test)]
    pub(crate) fn assert_invariants(&self) {
        let WorldData {
            entities,
            masks,
            storages,
            groups,
            ..
        } = &self.data;
        groups.assert_invariants(storages);
        let mut masked_members = 0;
        for (id, set) in storages.erased() {
            let bit = crate::component::mask_bit(id);
            if bit != 0 {
                masked_members += set.entities().len();
                for &entity in set.entities() {
                    let mask = masks.get(entity.index());
                    assert!(mask & bit != 0, "{entity:?} unmarked for {id:?}");
                }
            }
        }
        let marked: usize = entities
            .iter_alive()
            .map(|e| masks.get(e.index()).count_ones() as usize)
            .sum();
        assert_eq!(
            marked, masked_members,
            "masks name components no storage holds"
        );
        for (id, set) in storages.erased() {
            set.assert_invariants();
            for &entity in set.entities() {
                assert!(
                    self.is_alive(entity),
                    "storage of {} holds dead entity {entity:?}",
                    storages.info(id).name()
                );
            }
        }
    }
}

/// The error for a failed lookup of `T` on `entity`: dead, unknown, or missing `T`.
///
/// The allocator is read here, inline, and only the verdict (a value) goes
/// to the out-of-line constructor: a call that received a pointer into the
/// world could, for all the optimizer knows, write to it, and a loop of
/// `get`s whose error path held such a call would reload the storage's
/// address on every read instead of keeping it in registers.
#[inline]
fn lookup_error<T: Component>(entities: &Entities, entity: Entity) -> Error {
    lookup_error_of::<T>(entity, entities.liveness(entity))
}

#[cold]
#[inline(never)]
fn lookup_error_of<T: Component>(entity: Entity, liveness: Liveness) -> Error {
    match liveness {
        Liveness::Alive => Error::missing::<T>(entity),
        dead => DeadEntity {
            entity,
            despawned: dead == Liveness::Despawned,
        }
        .into(),
    }
}

impl Drop for World {
    /// Drops every value the world owns (components, then resources, pending
    /// commands and observers with their state) even past panicking `Drop`s,
    /// then resumes the first panic once: left to the fields' own drop glue,
    /// a second panicking value would be dropped while the first unwinds,
    /// which aborts the process.
    fn drop(&mut self) {
        let mut panics = DeferredPanic::default();
        let storages = core::mem::take(&mut self.data.storages);
        panics.run(|| drop(storages));
        let resources = core::mem::take(&mut self.data.resources);
        panics.run(|| drop(resources));
        let commands = core::mem::take(&mut self.commands);
        panics.run(|| drop(commands));
        let observers = core::mem::take(&mut self.observers);
        panics.run(|| drop(observers));
        panics.resume();
    }
}

impl fmt::Debug for World {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("World")
            .field("entities", &self.len())
            .field("component_types", &self.data.storages.len())
            .field("observers", &self.observer_count())
            .finish()
    }
}

#[cfg(test)]
mod tests;
