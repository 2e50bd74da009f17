//! Saving a world as a snapshot and loading one back (feature `serde`); the
//! format and the registry live in `snapshot/`.

use serde::Deserializer;

use crate::entity::EntityMap;
use crate::error::Error;
use crate::snapshot::{Loaded, Snapshot, SnapshotRegistry, load};

use super::World;
use super::relationship::find_relationship_cycle;

impl World {
    /// This world's components and resources of the types `registry`
    /// names, with its allocator state, ready to serialize with any serde
    /// format. Choose types with [`Snapshot::only`].
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::snapshot::SnapshotRegistry;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Component, Serialize, Deserialize)]
    /// struct Health(i32);
    ///
    /// let mut registry = SnapshotRegistry::new();
    /// registry.register::<Health>("game::Health");
    /// let mut world = World::new();
    /// world.spawn(Health(10));
    /// let json = serde_json::to_string(&world.snapshot(&registry)).unwrap();
    /// assert!(json.contains(r#""name":"game::Health""#));
    /// ```
    pub fn snapshot<'w>(&'w self, registry: &'w SnapshotRegistry) -> Snapshot<'w> {
        let data = &self.data;
        Snapshot::new(registry, &data.entities, &data.storages, &data.resources)
    }

    /// A new world holding exactly what the snapshot holds, every entity
    /// under its saved id (version included), with the saved allocator
    /// state: it hands out the ids the saved world would have handed out next.
    ///
    /// Tracked components arrive as added and changed, and the `on_add` and
    /// `on_insert` hooks their types declare run for each, once the whole
    /// world is in place. Fails with
    /// [`Error::Snapshot`] on any malformed, truncated or self-contradicting
    /// input, saying what is wrong, and with [`Error::RelationshipCycle`]
    /// when a relationship's values make a loop (`a ChildOf b`, `b ChildOf
    /// a`), naming two entities of the loop (by their saved ids) and the
    /// relationship.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::snapshot::SnapshotRegistry;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Component, Serialize, Deserialize, Debug, PartialEq)]
    /// struct Name(String);
    ///
    /// let mut registry = SnapshotRegistry::new();
    /// registry.register::<Name>("game::Name");
    /// let mut world = World::new();
    /// let gone = world.spawn(());
    /// let hero = world.spawn(Name("hero".into()));
    /// world.despawn(gone)?;
    /// let json = serde_json::to_string(&world.snapshot(&registry)).unwrap();
    ///
    /// let mut copy = World::from_snapshot(&registry, &mut serde_json::Deserializer::from_str(&json))?;
    /// assert_eq!(copy.get::<Name>(hero)?.0, "hero");
    /// assert_eq!(copy.spawn(()), world.spawn(()), "the same next id");
    ///
    /// let err = World::from_snapshot(&registry, &mut serde_json::Deserializer::from_str("{}"));
    /// assert!(matches!(err, Err(Error::Snapshot { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_snapshot<'de, D: Deserializer<'de>>(
        registry: &SnapshotRegistry,
        deserializer: D,
    ) -> Result<World, Error> {
        let mut world = Self::load(registry, deserializer)?;
        world.dispatch_fired();
        Ok(world)
    }

    /// A new world holding what the snapshot holds, its arrivals recorded
    /// for hooks but not dispatched yet.
    fn load<'de, D: Deserializer<'de>>(
        registry: &SnapshotRegistry,
        deserializer: D,
    ) -> Result<World, Error> {
        let Loaded {
            entities,
            mut storages,
            resources,
        } = load(registry, deserializer)?;
        // Loops cannot be made by inserts, which check each one; columns
        // arrive whole, so they are checked whole, before any hook runs.
        find_relationship_cycle(&storages)?;
        let mut world = World::new();
        world.data.entities = entities;
        world.data.resources = resources;
        world.transaction().adopt(&mut storages);
        Ok(world)
    }

    /// Loads a snapshot into this running world, as [`merge`](World::merge)
    /// moves a world in: every entity gets a fresh id here, fields marked
    /// `#[entity]` are rewritten to the new ids, this world's hooks and
    /// observers hear of the arrivals (`on_add`, `on_insert`, `OnAdd`,
    /// `OnInsert`), and resources of types this world already holds keep
    /// this world's value. Returns where each saved id went.
    ///
    /// All or nothing: the snapshot is read and checked in full first (a
    /// loop in a relationship is [`Error::RelationshipCycle`], naming the
    /// saved ids), so on an error this world is exactly as it was; the merge that follows
    /// is all or nothing too, should a `MapEntities` panic.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::snapshot::SnapshotRegistry;
    /// use serde::{Deserialize, Serialize};
    ///
    /// #[derive(Component, Serialize, Deserialize)]
    /// struct Follows(#[entity] Entity);
    ///
    /// let mut registry = SnapshotRegistry::new();
    /// registry.register::<Follows>("game::Follows");
    /// let mut level = World::new();
    /// let leader = level.spawn(());
    /// let follower = level.spawn(Follows(leader));
    /// let bytes = postcard::to_allocvec(&level.snapshot(&registry)).unwrap();
    ///
    /// let mut world = World::new();
    /// world.spawn_batch((0..5).map(|_| ()));
    /// let moved = world.load_snapshot(&registry, &mut postcard::Deserializer::from_bytes(&bytes))?;
    /// let follower = moved.get(follower).unwrap();
    /// assert_eq!(world.get::<Follows>(follower)?.0, moved.get(leader).unwrap());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn load_snapshot<'de, D: Deserializer<'de>>(
        &mut self,
        registry: &SnapshotRegistry,
        deserializer: D,
    ) -> Result<EntityMap, Error> {
        let mut staging = World::load(registry, deserializer)?;
        // Hooks hear of the entities where they land, in this world; run
        // in the staging world too, their commands would make twice what
        // they make.
        staging.component_hooks.fired.clear();
        Ok(self.merge(staging))
    }
}
