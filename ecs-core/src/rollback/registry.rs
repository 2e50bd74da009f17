//! `RollbackRegistry`: which component and resource types a rollback saves,
//! restores and hashes.

use core::any::TypeId;
use core::hash::Hash;
use std::sync::{Arc, OnceLock};

use super::checksum::ChecksumHasher;
use super::column::{Column, HashValue, RollbackColumn};
use super::resource::{Resource, RollbackResource};
use super::state::{WorldState, combine};
use crate::component::Component;
use crate::entity::AllocatorCopy;
use crate::error::Error;
use crate::world::{Relationship, World};

/// The component and resource types a rollback saves and restores, and how
/// each enters the checksum.
///
/// [`save`](Self::save) copies the world's allocator (ids, versions, the free
/// list) and the storages of the registered types into a [`WorldState`];
/// [`restore`](Self::restore) puts them back exactly; [`checksum`](Self::checksum)
/// hashes them the same way on every machine.
///
/// What the checksum covers: the allocator (every slot's version and
/// liveness, the free list in order), which entities hold each registered
/// component type, whether each registered resource exists, and the values
/// of the types registered with a hash (`register_hashed`,
/// `register_with_checksum` and their resource forms). Values of types
/// registered with plain [`register`](Self::register) are saved and restored
/// but not hashed. Change ticks are not hashed (they count this machine's
/// work, re-simulation included). Dense order is not hashed either: two
/// worlds holding the same values in another order have the same checksum.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Clone, Copy, Debug, PartialEq)]
/// struct Position { x: f32, y: f32 }
/// #[derive(Component, Clone, Copy, Debug, PartialEq)]
/// struct Velocity { x: f32, y: f32 }
/// #[derive(Clone, Default)]
/// struct FrameCount(u64);
///
/// fn movement(mut q: Query<(&mut Position, &Velocity)>) {
///     for (p, v) in q.iter_mut() {
///         p.x += v.x;
///         p.y += v.y;
///     }
/// }
///
/// let mut world = World::new();
/// world.insert_resource(FrameCount(0));
/// let e = world.spawn((Position { x: 0.0, y: 0.0 }, Velocity { x: 1.0, y: 0.0 }));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, movement)?;
///
/// let mut rollback = RollbackRegistry::new();
/// rollback.register::<Position>().register::<Velocity>().register_resource::<FrameCount>();
///
/// let saved: WorldState = rollback.save(&world);
/// schedule.run(&mut world)?;
/// let spawned = world.spawn(Position { x: 9.0, y: 9.0 });
/// assert_eq!(world.get::<Position>(e)?.x, 1.0);
///
/// rollback.restore(&mut world, &saved)?;
/// assert_eq!(world.get::<Position>(e)?.x, 0.0);
/// assert!(!world.is_alive(spawned));
/// assert_eq!(rollback.checksum(&world), saved.checksum());
/// # Ok::<(), Error>(())
/// ```
#[derive(Default)]
pub struct RollbackRegistry {
    columns: Vec<Arc<dyn RollbackColumn>>,
    resources: Vec<Arc<dyn RollbackResource>>,
}

impl RollbackRegistry {
    /// A registry with no type.
    pub fn new() -> Self {
        Self::default()
    }

    /// Saves and restores component type `T`; its values are left out of
    /// the checksum (which entities hold one is not). A type registered
    /// again keeps its place and takes the newer checksum choice.
    ///
    /// A `Copy` type is saved and restored as whole slices: the standard
    /// library clones a slice of `Copy` values as one copy of its bytes.
    ///
    /// # Panics
    /// When `T` is one side of a relationship ([`Error::RollbackOneSide`]):
    /// both sides register together, with
    /// [`register_relationship`](Self::register_relationship).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone)]
    /// struct Name(String);
    ///
    /// let mut rollback = RollbackRegistry::new();
    /// rollback.register::<Name>();
    /// let mut world = World::new();
    /// let e = world.spawn(Name("before".into()));
    /// let saved = rollback.save(&world);
    /// world.get_mut::<Name>(e)?.0 = "after".into();
    /// rollback.restore(&mut world, &saved)?;
    /// assert_eq!(world.get::<Name>(e)?.0, "before");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn register<T: Component + Clone>(&mut self) -> &mut Self {
        refuse_one_side::<T>();
        self.add_column::<T>(None)
    }

    /// Saves and restores the relationship `R` and its target lists
    /// together, both hashed with their `Hash` impls: a restore puts both
    /// sides back as they were saved, so they agree again. This is the only
    /// way to register either side: [`register`](Self::register) and its
    /// kin refuse one side alone, which a restore would put back against
    /// the other side's present (a later spawn reusing an id would become a
    /// parent by accident).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut rollback = RollbackRegistry::new();
    /// rollback.register_relationship::<ChildOf>();
    /// let mut world = World::new();
    /// let parent = world.spawn(());
    /// let child = world.spawn(ChildOf(parent));
    /// let saved = rollback.save(&world);
    /// world.despawn(child)?;
    /// rollback.restore(&mut world, &saved)?;
    /// assert_eq!(world.get::<Children>(parent)?.as_slice(), &[child]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn register_relationship<R>(&mut self) -> &mut Self
    where
        R: Relationship + Clone + Hash,
        R::Target: Clone + Hash,
    {
        self.add_hashed::<R>().add_hashed::<R::Target>()
    }

    /// Saves and restores `T`, and hashes each value with its `Hash` impl
    /// through a [`ChecksumHasher`] (so integers hash the same on every machine).
    ///
    /// # Panics
    /// When `T` is one side of a relationship ([`Error::RollbackOneSide`]):
    /// both sides register together, with
    /// [`register_relationship`](Self::register_relationship).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Hash)]
    /// struct Health(i32);
    ///
    /// let mut rollback = RollbackRegistry::new();
    /// rollback.register_hashed::<Health>();
    /// let mut world = World::new();
    /// let e = world.spawn(Health(10));
    /// let before = rollback.checksum(&world);
    /// world.get_mut::<Health>(e)?.0 = 9;
    /// assert_ne!(rollback.checksum(&world), before);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn register_hashed<T: Component + Clone + Hash>(&mut self) -> &mut Self {
        refuse_one_side::<T>();
        self.add_hashed::<T>()
    }

    /// [`register_hashed`](Self::register_hashed), for either side of a
    /// relationship too.
    fn add_hashed<T: Component + Clone + Hash>(&mut self) -> &mut Self {
        self.add_column::<T>(Some(|value, hasher| value.hash(hasher)))
    }

    /// Saves and restores `T`, and hashes each value with `hash`: the way for
    /// a type holding floats, which feeds them by their bits
    /// ([`ChecksumHasher::write_f32`]).
    ///
    /// # Panics
    /// When `T` is one side of a relationship ([`Error::RollbackOneSide`]):
    /// both sides register together, with
    /// [`register_relationship`](Self::register_relationship).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::rollback::ChecksumHasher;
    ///
    /// #[derive(Component, Clone, Copy)]
    /// struct Position { x: f32, y: f32 }
    ///
    /// let mut rollback = RollbackRegistry::new();
    /// rollback.register_with_checksum::<Position>(|p, hasher| {
    ///     hasher.write_f32(p.x);
    ///     hasher.write_f32(p.y);
    /// });
    /// let mut world = World::new();
    /// let e = world.spawn(Position { x: 0.0, y: 0.0 });
    /// let before = rollback.checksum(&world);
    /// world.get_mut::<Position>(e)?.y = -0.0;
    /// assert_ne!(rollback.checksum(&world), before, "floats by bits");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn register_with_checksum<T: Component + Clone>(
        &mut self,
        hash: fn(&T, &mut ChecksumHasher),
    ) -> &mut Self {
        refuse_one_side::<T>();
        self.add_column::<T>(Some(hash))
    }

    fn add_column<T: Component + Clone>(&mut self, hash: Option<HashValue<T>>) -> &mut Self {
        let column: Arc<dyn RollbackColumn> = Arc::new(Column::<T> { hash });
        match self
            .columns
            .iter()
            .position(|known| known.type_id() == TypeId::of::<T>())
        {
            Some(at) => self.columns[at] = column,
            None => self.columns.push(column),
        }
        self
    }

    /// Saves and restores resource type `R`: restored, the world holds the
    /// saved value, or no `R` when it had none. The value is left out of the
    /// checksum (whether there is one is not).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Clone)]
    /// struct FrameCount(u64);
    ///
    /// let mut rollback = RollbackRegistry::new();
    /// rollback.register_resource::<FrameCount>();
    /// let mut world = World::new();
    /// let saved = rollback.save(&world);
    /// world.insert_resource(FrameCount(1));
    /// rollback.restore(&mut world, &saved)?;
    /// assert!(!world.contains_resource::<FrameCount>());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn register_resource<R: Clone + Send + Sync + 'static>(&mut self) -> &mut Self {
        self.add_resource::<R>(None)
    }

    /// Saves and restores `R`, and hashes it with its `Hash` impl.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Clone, Hash)]
    /// struct FrameCount(u64);
    ///
    /// let mut rollback = RollbackRegistry::new();
    /// rollback.register_resource_hashed::<FrameCount>();
    /// let mut world = World::new();
    /// world.insert_resource(FrameCount(1));
    /// let one = rollback.checksum(&world);
    /// world.insert_resource(FrameCount(2));
    /// assert_ne!(rollback.checksum(&world), one);
    /// ```
    pub fn register_resource_hashed<R: Clone + Hash + Send + Sync + 'static>(
        &mut self,
    ) -> &mut Self {
        self.add_resource::<R>(Some(|value, hasher| value.hash(hasher)))
    }

    /// Saves and restores `R`, and hashes it with `hash`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Clone)]
    /// struct Gravity(f32);
    ///
    /// let mut rollback = RollbackRegistry::new();
    /// rollback.register_resource_with_checksum::<Gravity>(|g, hasher| hasher.write_f32(g.0));
    /// let mut world = World::new();
    /// world.insert_resource(Gravity(9.8));
    /// let before = rollback.checksum(&world);
    /// world.insert_resource(Gravity(1.6));
    /// assert_ne!(rollback.checksum(&world), before);
    /// ```
    pub fn register_resource_with_checksum<R: Clone + Send + Sync + 'static>(
        &mut self,
        hash: fn(&R, &mut ChecksumHasher),
    ) -> &mut Self {
        self.add_resource::<R>(Some(hash))
    }

    fn add_resource<R: Clone + Send + Sync + 'static>(
        &mut self,
        hash: Option<fn(&R, &mut ChecksumHasher)>,
    ) -> &mut Self {
        let resource: Arc<dyn RollbackResource> = Arc::new(Resource::<R> { hash });
        match self
            .resources
            .iter()
            .position(|known| known.type_id() == TypeId::of::<R>())
        {
            Some(at) => self.resources[at] = resource,
            None => self.resources.push(resource),
        }
        self
    }

    /// The world's allocator and its registered components and resources,
    /// copied. Ids reserved by commands not yet applied are not saved: they
    /// are not alive.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Copy)]
    /// struct Position(f32);
    ///
    /// let mut rollback = RollbackRegistry::new();
    /// rollback.register::<Position>();
    /// let mut world = World::new();
    /// world.spawn_batch((0..3).map(|i| Position(i as f32)));
    /// assert_eq!(rollback.save(&world).len(), 3);
    /// ```
    pub fn save(&self, world: &World) -> WorldState {
        let mut state = WorldState {
            allocator: AllocatorCopy::default(),
            layout_debt: 0,
            columns: Vec::new(),
            resources: Vec::new(),
            checksum: OnceLock::new(),
        };
        self.save_into(world, &mut state);
        state
    }

    /// [`save`](Self::save), over an earlier state: its buffers are reused,
    /// so a game that keeps a ring of states allocates nothing per frame once
    /// they have grown.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Copy)]
    /// struct Position(f32);
    ///
    /// let mut rollback = RollbackRegistry::new();
    /// rollback.register::<Position>();
    /// let mut world = World::new();
    /// let mut state = rollback.save(&world);
    /// world.spawn(Position(1.0));
    /// rollback.save_into(&world, &mut state);
    /// assert_eq!(state.len(), 1);
    /// assert_eq!(state.checksum(), rollback.checksum(&world));
    /// ```
    pub fn save_into(&self, world: &World, state: &mut WorldState) {
        let (entities, storages, resources) = world.rollback_source();
        state.checksum = OnceLock::new();
        entities.copy_into(&mut state.allocator);
        state.layout_debt = world.layout_debt();
        let same_columns = state.columns.len() == self.columns.len()
            && state
                .columns
                .iter()
                .zip(&self.columns)
                .all(|((saved, _), column)| saved.type_id() == column.type_id());
        if !same_columns {
            state.columns = self
                .columns
                .iter()
                .map(|column| (Arc::clone(column), column.empty()))
                .collect();
        }
        for ((column, saved), registered) in state.columns.iter_mut().zip(&self.columns) {
            // The registry's entry: the checksum choice it holds now.
            *column = Arc::clone(registered);
            column.save(storages, &mut **saved);
        }
        let same_resources = state.resources.len() == self.resources.len()
            && state
                .resources
                .iter()
                .zip(&self.resources)
                .all(|((saved, _), resource)| saved.type_id() == resource.type_id());
        if same_resources {
            for ((resource, saved), registered) in state.resources.iter_mut().zip(&self.resources) {
                *resource = Arc::clone(registered);
                resource.save_into(resources, &mut **saved);
            }
        } else {
            state.resources = self
                .resources
                .iter()
                .map(|resource| (Arc::clone(resource), resource.save(resources)))
                .collect();
        }
    }

    /// Puts the world back exactly as `saved` holds it: the same live
    /// entities under the same ids and versions (those spawned since are
    /// despawned, those despawned since come back), the same free list (the
    /// next spawns get the same ids), and the registered components and
    /// resources with their saved values and change ticks.
    ///
    /// Components of types this registry does not name stay on the entities
    /// that were alive at the save and still are; every other entity loses
    /// them. Observers and hooks do not run: a restore is not a game event.
    /// Groups are packed again, and the layout debt is put back, so
    /// [`World::maintain_layout`] re-sorts at the frames it did before. The world's change counter keeps counting
    /// forward, so systems see the restored values as changed when their
    /// saved ticks say so, never as newer than their last run.
    ///
    /// Fails, changing nothing, when `saved` was made by a registry with
    /// other types (the error names the first that differs).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Copy, Debug, PartialEq)]
    /// struct Position(f32);
    ///
    /// let mut rollback = RollbackRegistry::new();
    /// rollback.register::<Position>();
    /// let mut world = World::new();
    /// let kept = world.spawn(Position(1.0));
    /// let gone = world.spawn(Position(2.0));
    /// world.despawn(gone)?;
    /// let saved = rollback.save(&world);
    ///
    /// let new = world.spawn(Position(3.0));
    /// world.despawn(kept)?;
    /// rollback.restore(&mut world, &saved)?;
    /// assert_eq!(world.get::<Position>(kept)?, &Position(1.0), "back, same id");
    /// assert!(!world.is_alive(new));
    /// assert_eq!(world.spawn(()), new, "the free list as it was: the same next id");
    ///
    /// let mut other = RollbackRegistry::new();
    /// other.register_resource::<u32>();
    /// let err = other.restore(&mut world, &saved).unwrap_err();
    /// assert!(err.to_string().contains("Position"));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn restore(&self, world: &mut World, saved: &WorldState) -> Result<(), Error> {
        self.check_fits(saved)?;
        let columns = &self.columns;
        let is_registered = |type_id: TypeId| columns.iter().any(|c| c.type_id() == type_id);
        world.restore_rollback(&saved.allocator, is_registered, |mut parts| {
            for (column, (_, copy)) in self.columns.iter().zip(&saved.columns) {
                column.restore(&mut parts, &**copy);
            }
            for (resource, (_, copy)) in self.resources.iter().zip(&saved.resources) {
                resource.restore(parts.resources, &**copy);
            }
        });
        // The restore's own writes are not the game's: the debt is the saved
        // one, so `maintain_layout` sorts at the frames it sorted at before.
        world.set_layout_debt(saved.layout_debt);
        Ok(())
    }

    /// Whether `saved` holds exactly this registry's types, in its order.
    fn check_fits(&self, saved: &WorldState) -> Result<(), Error> {
        let saved_columns = saved
            .columns
            .iter()
            .map(|(c, _)| (c.type_id(), c.type_name()));
        let columns = self.columns.iter().map(|c| (c.type_id(), c.type_name()));
        first_difference(saved_columns, columns, "component")?;
        let saved_resources = saved
            .resources
            .iter()
            .map(|(r, _)| (r.type_id(), r.type_name()));
        let resources = self.resources.iter().map(|r| (r.type_id(), r.type_name()));
        first_difference(saved_resources, resources, "resource")
    }

    /// The checksum of the world's registered data and allocator, equal on
    /// every machine and thread count for equal worlds, and equal to
    /// [`WorldState::checksum`] of a state saved from an equal world. What
    /// it covers is listed on the [type](Self).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Hash)]
    /// struct Score(u32);
    ///
    /// let mut rollback = RollbackRegistry::new();
    /// rollback.register_hashed::<Score>();
    /// let mut a = World::new();
    /// let mut b = World::new();
    /// a.spawn(Score(1));
    /// b.spawn(Score(1));
    /// assert_eq!(rollback.checksum(&a), rollback.checksum(&b));
    /// b.spawn(Score(2));
    /// assert_ne!(rollback.checksum(&a), rollback.checksum(&b));
    /// ```
    pub fn checksum(&self, world: &World) -> u64 {
        let (entities, storages, resources) = world.rollback_source();
        combine(
            |hasher| entities.hash_state(hasher),
            self.columns
                .iter()
                .map(|column| column.checksum_live(storages)),
            |hasher| {
                for resource in &self.resources {
                    resource.hash_live(resources, hasher);
                }
            },
        )
    }
}

/// `Ok` when both lists name the same types in the same order, else an
/// error naming the first type that differs.
fn first_difference(
    saved: impl ExactSizeIterator<Item = (TypeId, &'static str)>,
    registered: impl ExactSizeIterator<Item = (TypeId, &'static str)>,
    kind: &str,
) -> Result<(), Error> {
    let (saved_len, registered_len) = (saved.len(), registered.len());
    let mut saved = saved.fuse();
    let mut registered = registered.fuse();
    loop {
        let reason = match (saved.next(), registered.next()) {
            (None, None) => return Ok(()),
            (Some(a), Some(b)) if a.0 == b.0 => continue,
            (Some(a), Some(b)) => format!(
                "it holds the {kind} type `{}` where the registry has `{}`",
                a.1, b.1
            ),
            (Some(a), None) => format!(
                "it holds the {kind} type `{}`, which the registry lacks \
                 ({saved_len} saved {kind} types, {registered_len} registered)",
                a.1
            ),
            (None, Some(b)) => format!(
                "it lacks the {kind} type `{}`, registered after it was saved \
                 ({saved_len} saved {kind} types, {registered_len} registered)",
                b.1
            ),
        };
        return Err(Error::Rollback { reason });
    }
}

/// Panics with [`Error::RollbackOneSide`] when `T` is one side of a
/// relationship: only [`RollbackRegistry::register_relationship`] takes
/// those, both sides at once.
fn refuse_one_side<T: Component>() {
    if T::IS_RELATIONSHIP || T::IS_RELATIONSHIP_TARGET {
        let relationship = if T::IS_RELATIONSHIP {
            core::any::type_name::<T>()
        } else {
            T::RELATIONSHIP_PARTNER
        };
        panic!(
            "{}",
            Error::RollbackOneSide {
                component: core::any::type_name::<T>(),
                relationship,
            }
        );
    }
}
