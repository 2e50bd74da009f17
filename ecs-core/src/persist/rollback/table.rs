//! The rollback half of the registry: which component and resource types a
//! rollback saves, restores and hashes, and those operations.

use core::any::TypeId;
use std::sync::{Arc, OnceLock};

use super::checksum::ChecksumHasher;
use super::column::{HashValue, RollbackColumn, TypedColumn};
use super::resource::{RollbackResource, TypedResource};
use super::state::{WorldState, combine};
use crate::component::Component;
use crate::entity::AllocatorState;
use crate::error::Error;
use crate::persist::PersistRegistry;
use crate::world::World;

/// The types a registry saves, restores and hashes, in registration order:
/// the rollback half of a [`PersistRegistry`].
#[derive(Default)]
pub(crate) struct RollbackTable {
    columns: Vec<Arc<dyn RollbackColumn>>,
    resources: Vec<Arc<dyn RollbackResource>>,
}

impl RollbackTable {
    /// Saves and restores component type `T`, hashing values with `hash`;
    /// a type given again keeps its place and takes the newer hash.
    pub(crate) fn add_column<T: Component + Clone>(&mut self, hash: Option<HashValue<T>>) {
        let column: Arc<dyn RollbackColumn> = Arc::new(TypedColumn::<T> { hash });
        match self
            .columns
            .iter()
            .position(|known| known.type_id() == TypeId::of::<T>())
        {
            Some(at) => self.columns[at] = column,
            None => self.columns.push(column),
        }
    }

    /// Saves and restores resource type `R`, likewise.
    pub(crate) fn add_resource<R: Clone + Send + Sync + 'static>(
        &mut self,
        hash: Option<fn(&R, &mut ChecksumHasher)>,
    ) {
        let resource: Arc<dyn RollbackResource> = Arc::new(TypedResource::<R> { hash });
        match self
            .resources
            .iter()
            .position(|known| known.type_id() == TypeId::of::<R>())
        {
            Some(at) => self.resources[at] = resource,
            None => self.resources.push(resource),
        }
    }
}

impl PersistRegistry {
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
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Position>("game::Position").rollback();
    /// let mut world = World::new();
    /// world.spawn_batch((0..3).map(|i| Position(i as f32)));
    /// assert_eq!(registry.save(&world).len(), 3);
    /// ```
    pub fn save(&self, world: &World) -> WorldState {
        let mut state = WorldState {
            allocator: AllocatorState::default(),
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
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Position>("game::Position").rollback();
    /// let mut world = World::new();
    /// let mut state = registry.save(&world);
    /// world.spawn(Position(1.0));
    /// registry.save_into(&world, &mut state);
    /// assert_eq!(state.len(), 1);
    /// assert_eq!(state.checksum(), registry.checksum(&world));
    /// ```
    pub fn save_into(&self, world: &World, state: &mut WorldState) {
        let (entities, storages, resources) = world.persisted_parts();
        state.checksum = OnceLock::new();
        entities.copy_into(&mut state.allocator);
        state.layout_debt = world.layout_debt();
        let same_columns = state.columns.len() == self.rollback.columns.len()
            && state
                .columns
                .iter()
                .zip(&self.rollback.columns)
                .all(|((saved, _), column)| saved.type_id() == column.type_id());
        if !same_columns {
            state.columns = self
                .rollback
                .columns
                .iter()
                .map(|column| (Arc::clone(column), column.empty()))
                .collect();
        }
        for ((column, saved), registered) in state.columns.iter_mut().zip(&self.rollback.columns) {
            // The registry's entry: the checksum choice it holds now.
            *column = Arc::clone(registered);
            column.save(storages, &mut **saved);
        }
        let same_resources = state.resources.len() == self.rollback.resources.len()
            && state
                .resources
                .iter()
                .zip(&self.rollback.resources)
                .all(|((saved, _), resource)| saved.type_id() == resource.type_id());
        if same_resources {
            for ((resource, saved), registered) in
                state.resources.iter_mut().zip(&self.rollback.resources)
            {
                *resource = Arc::clone(registered);
                resource.save_into(resources, &mut **saved);
            }
        } else {
            state.resources = self
                .rollback
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
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Position>("game::Position").rollback();
    /// let mut world = World::new();
    /// let kept = world.spawn(Position(1.0));
    /// let gone = world.spawn(Position(2.0));
    /// world.despawn(gone)?;
    /// let saved = registry.save(&world);
    ///
    /// let new = world.spawn(Position(3.0));
    /// world.despawn(kept)?;
    /// registry.restore(&mut world, &saved)?;
    /// assert_eq!(world.get::<Position>(kept)?, &Position(1.0), "back, same id");
    /// assert!(!world.is_alive(new));
    /// assert_eq!(world.spawn(()), new, "the free list as it was: the same next id");
    ///
    /// let mut other = PersistRegistry::new();
    /// other.register_resource::<u32>("game::u32").rollback();
    /// let err = other.restore(&mut world, &saved).unwrap_err();
    /// assert!(err.to_string().contains("Position"));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn restore(&self, world: &mut World, saved: &WorldState) -> Result<(), Error> {
        self.check_fits(saved)?;
        let columns = &self.rollback.columns;
        let is_registered = |type_id: TypeId| columns.iter().any(|c| c.type_id() == type_id);
        world.restore_rollback(&saved.allocator, is_registered, |mut parts| {
            for (column, (_, copy)) in self.rollback.columns.iter().zip(&saved.columns) {
                column.restore(&mut parts, &**copy);
            }
            for (resource, (_, copy)) in self.rollback.resources.iter().zip(&saved.resources) {
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
        let columns = self
            .rollback
            .columns
            .iter()
            .map(|c| (c.type_id(), c.type_name()));
        first_difference(saved_columns, columns, "component")?;
        let saved_resources = saved
            .resources
            .iter()
            .map(|(r, _)| (r.type_id(), r.type_name()));
        let resources = self
            .rollback
            .resources
            .iter()
            .map(|r| (r.type_id(), r.type_name()));
        first_difference(saved_resources, resources, "resource")
    }

    /// The checksum of the world's registered data and allocator, equal on
    /// every machine and thread count for equal worlds, and equal to
    /// [`WorldState::checksum`] of a state saved from an equal world.
    ///
    /// What it covers: the allocator (every slot's version and liveness,
    /// the free list in order), which entities hold each type registered
    /// for rollback, whether each such resource exists, and the values of
    /// the types registered with a hash (`.rollback_hashed()`,
    /// `.rollback_with_checksum(f)`). Values of types registered with plain
    /// `.rollback()` are saved and restored but not hashed. Change ticks are
    /// not hashed (they count this machine's work, re-simulation included).
    /// Dense order is not hashed either: two worlds holding the same values
    /// in another order have the same checksum.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Hash)]
    /// struct Score(u32);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Score>("game::Score").rollback_hashed();
    /// let mut a = World::new();
    /// let mut b = World::new();
    /// a.spawn(Score(1));
    /// b.spawn(Score(1));
    /// assert_eq!(registry.checksum(&a), registry.checksum(&b));
    /// b.spawn(Score(2));
    /// assert_ne!(registry.checksum(&a), registry.checksum(&b));
    /// ```
    pub fn checksum(&self, world: &World) -> u64 {
        let (entities, storages, resources) = world.persisted_parts();
        combine(
            |hasher| entities.hash_state(hasher),
            self.rollback
                .columns
                .iter()
                .map(|column| column.checksum_live(storages)),
            |hasher| {
                for resource in &self.rollback.resources {
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
