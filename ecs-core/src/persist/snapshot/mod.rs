//! Snapshots (feature `serde`): a world's registered types written with any
//! serde format, and read back into a fresh world or a running one.
//!
//! Each column is written and read by code made for its component type: in
//! a binary format its values are one byte string in postcard's wire format
//! (see [`Snapshot`] for the layout), in a human-readable one a sequence
//! whose writes are recorded once per column and played into the format.
//!
//! Loading checks everything before any world changes: truncated, corrupted
//! or crafted input gives [`Error::Snapshot`], never a panic, and the world
//! loaded into is left exactly as it was. No buffer is sized by a length the
//! input states.

mod capped;
mod failure;
mod fields;
mod load;
mod packed;
mod save;
mod table;
mod tape;

use serde::Serialize;
use serde::de::{DeserializeOwned, Deserializer};

pub use save::Snapshot;
pub(crate) use table::SnapshotTable;

use super::{
    ComponentRegistration, PersistRegistry, RelationshipRegistration, ResourceRegistration,
};
use crate::component::Component;
use crate::entity::EntityMap;
use crate::error::Error;
use crate::world::{Relationship, World};

/// The layout version written first in every snapshot; a snapshot of
/// another version is refused rather than misread.
const FORMAT_VERSION: u32 = 1;

impl PersistRegistry {
    /// `world`'s components and resources of the types registered with
    /// `.snapshot()`, with its allocator state, ready to serialize with any
    /// serde format. Choose types with [`Snapshot::only`].
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Component, Serialize, Deserialize)]
    /// struct Health(i32);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Health>("game::Health").snapshot();
    /// let mut world = World::new();
    /// world.spawn(Health(10));
    /// let json = serde_json::to_string(&registry.snapshot(&world)).unwrap();
    /// assert!(json.contains(r#""name":"game::Health""#));
    /// ```
    pub fn snapshot<'w>(&'w self, world: &'w World) -> Snapshot<'w> {
        let (entities, storages, resources) = world.persisted_parts();
        Snapshot::new(&self.snapshots, entities, storages, resources)
    }

    /// A new world holding exactly what the snapshot holds, every entity
    /// under its saved id (version included), with the saved allocator
    /// state: it hands out the ids the saved world would have handed out next.
    ///
    /// Tracked components arrive as added and changed, and the `on_add` and
    /// `on_insert` hooks their types declare run for each, once the whole
    /// world is in place. Fails with [`Error::Snapshot`] on any malformed,
    /// truncated or self-contradicting input, saying what is wrong, and
    /// with [`Error::RelationshipCycle`] when a relationship's values make a
    /// loop (`a ChildOf b`, `b ChildOf a`), naming two entities of the loop
    /// (by their saved ids) and the relationship.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Component, Serialize, Deserialize, Debug, PartialEq)]
    /// struct Name(String);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Name>("game::Name").snapshot();
    /// let mut world = World::new();
    /// let gone = world.spawn(());
    /// let hero = world.spawn(Name("hero".into()));
    /// world.despawn(gone)?;
    /// let json = serde_json::to_string(&registry.snapshot(&world)).unwrap();
    ///
    /// let mut copy = registry.world_from_snapshot(&mut serde_json::Deserializer::from_str(&json))?;
    /// assert_eq!(copy.get::<Name>(hero)?.0, "hero");
    /// assert_eq!(copy.spawn(()), world.spawn(()), "the same next id");
    ///
    /// let err = registry.world_from_snapshot(&mut serde_json::Deserializer::from_str("{}"));
    /// assert!(matches!(err, Err(Error::Snapshot { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn world_from_snapshot<'de, D: Deserializer<'de>>(
        &self,
        deserializer: D,
    ) -> Result<World, Error> {
        let mut world = self.load_world(deserializer)?;
        world.dispatch_loaded();
        Ok(world)
    }

    /// Loads a snapshot into a running world, as [`World::merge`] moves a
    /// world in: every entity gets a fresh id in `world`, fields marked
    /// `#[entity]` are rewritten to the new ids, its hooks and observers
    /// hear of the arrivals (`on_add`, `on_insert`, `OnAdd`, `OnInsert`),
    /// and resources of types `world` already holds keep its value. Returns
    /// where each saved id went.
    ///
    /// All or nothing: the snapshot is read and checked in full first (a
    /// loop in a relationship is [`Error::RelationshipCycle`], naming the
    /// saved ids), so on an error `world` is exactly as it was; the merge
    /// that follows is all or nothing too, should a `MapEntities` panic.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Component, Serialize, Deserialize)]
    /// struct Follows(#[entity] Entity);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Follows>("game::Follows").snapshot();
    /// let mut level = World::new();
    /// let leader = level.spawn(());
    /// let follower = level.spawn(Follows(leader));
    /// let bytes = postcard::to_allocvec(&registry.snapshot(&level)).unwrap();
    ///
    /// let mut world = World::new();
    /// world.spawn_batch((0..5).map(|_| ()));
    /// let moved = registry.load_snapshot(&mut world, &mut postcard::Deserializer::from_bytes(&bytes))?;
    /// let follower = moved.get(follower).unwrap();
    /// assert_eq!(world.get::<Follows>(follower)?.0, moved.get(leader).unwrap());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn load_snapshot<'de, D: Deserializer<'de>>(
        &self,
        world: &mut World,
        deserializer: D,
    ) -> Result<EntityMap, Error> {
        let loaded = self.load_world(deserializer)?;
        Ok(world.merge_loaded(loaded))
    }

    /// A new world holding what the snapshot holds, its arrivals recorded
    /// for hooks but not dispatched yet.
    fn load_world<'de, D: Deserializer<'de>>(&self, deserializer: D) -> Result<World, Error> {
        let load::Loaded {
            entities,
            storages,
            resources,
        } = load::load(&self.snapshots, deserializer)?;
        World::from_loaded_parts(entities, storages, resources)
    }
}

impl<T: Component + Serialize + DeserializeOwned> ComponentRegistration<'_, T> {
    /// [`snapshot`](PersistRegistry::snapshot) writes the type's column
    /// under the registered name, and loads read it back.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Component, Serialize, Deserialize)]
    /// struct Health(i32);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Health>("game::Health").snapshot();
    /// let mut world = World::new();
    /// let e = world.spawn(Health(7));
    /// let bytes = postcard::to_allocvec(&registry.snapshot(&world)).unwrap();
    /// let copy = registry.world_from_snapshot(&mut postcard::Deserializer::from_bytes(&bytes))?;
    /// assert_eq!(copy.get::<Health>(e)?.0, 7);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn snapshot(self) -> Self {
        self.registry.snapshots.put_component::<T>(self.name);
        self
    }
}

impl<R: Send + Sync + Serialize + DeserializeOwned + 'static> ResourceRegistration<'_, R> {
    /// [`snapshot`](PersistRegistry::snapshot) writes the resource under
    /// the registered name, and loads read it back.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Serialize, Deserialize)]
    /// struct Score(u32);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register_resource::<Score>("game::Score").snapshot();
    /// let mut world = World::new();
    /// world.insert_resource(Score(12));
    /// let json = serde_json::to_string(&registry.snapshot(&world)).unwrap();
    /// let copy = registry.world_from_snapshot(&mut serde_json::Deserializer::from_str(&json))?;
    /// assert_eq!(copy.resource::<Score>()?.0, 12);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn snapshot(self) -> Self {
        self.registry.snapshots.put_resource::<R>(self.name);
        self
    }
}

impl<R> RelationshipRegistration<'_, R>
where
    R: Relationship + Serialize + DeserializeOwned,
    R::Target: Serialize + DeserializeOwned,
{
    /// Snapshots write both sides under their registered names, and loads
    /// read both back.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register_relationship::<ChildOf>("ecs::ChildOf", "ecs::Children").snapshot();
    /// let mut world = World::new();
    /// let parent = world.spawn(());
    /// let child = world.spawn(ChildOf(parent));
    /// let json = serde_json::to_string(&registry.snapshot(&world)).unwrap();
    /// let copy = registry.world_from_snapshot(&mut serde_json::Deserializer::from_str(&json))?;
    /// assert_eq!(copy.get::<Children>(parent)?.as_slice(), &[child]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn snapshot(self) -> Self {
        let (name, target_name) = self.names;
        self.registry.snapshots.put_component::<R>(name);
        self.registry
            .snapshots
            .put_component::<R::Target>(target_name);
        self
    }
}
