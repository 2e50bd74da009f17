//! Merging a whole world into this one: the staging world a loader thread
//! builds, moved in at once.

use crate::entity::EntityMap;

use super::World;

impl World {
    /// Moves every entity, component and resource of `other` into this
    /// world and returns where each entity went.
    ///
    /// Build a level (or any batch of entities) in its own `World`, on any
    /// thread, then merge it into the running one in one call:
    ///
    /// - **Entities** get fresh ids here, in the order of their indices in
    ///   `other`; [`EntityMap::get`] turns an id of `other` into its new id.
    /// - **Components** move a whole array per type (an append, plus one
    ///   sparse slot per entity; no lookup per entity per component). Types
    ///   this world has never seen are registered. Values arrive as added and
    ///   changed at one new tick, so `Added` / `Changed` see them.
    /// - **Entity references** in fields marked `#[entity]` are rewritten to
    ///   the new ids. An id that names no live entity of `other` is left
    ///   unchanged: a staging world may hold ids of this world on purpose (the
    ///   player a level's camera follows), and those must survive. The
    ///   ambiguity to know: an id that is alive in `other` is taken as
    ///   `other`'s, even if it was copied from this world.
    /// - **Resources** of a type this world lacks move here; where this world
    ///   already has one, it keeps its own and `other`'s is dropped (a level
    ///   loader brings its level's data without resetting the game's score or
    ///   clock). Event stores are resources and follow the same rule.
    /// - **Observers** of this world fire `OnAdd` and `OnInsert` for every
    ///   merged component, after the whole merge is done, so each sees the
    ///   finished world; their commands apply before `merge` returns. This
    ///   world's groups take in the merged entities.
    /// - **All or nothing.** The `#[entity]` fields are rewritten before this
    ///   world changes at all: should a hand-written
    ///   [`MapEntities`](crate::MapEntities) panic, the panic reaches the
    ///   caller with this world exactly as it was (no id taken, nothing
    ///   moved, no observer run), and `other` is dropped, each value once.
    /// - What does not move: `other`'s observers, its groups and its
    ///   allocator state (free slots, versions). Commands recorded with
    ///   `other.commands()` and not yet flushed are applied to `other` first;
    ///   flush `other` yourself beforehand to see their errors.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Debug, PartialEq)]
    /// struct Door { #[entity] switch: Entity }
    /// #[derive(Component)]
    /// struct Switch;
    /// struct LevelName(&'static str);
    ///
    /// // A loader builds the level on its own thread, in its own world.
    /// let loader = std::thread::spawn(|| {
    ///     let mut level = World::new();
    ///     let switch = level.spawn(Switch);
    ///     let door = level.spawn(Door { switch });
    ///     level.insert_resource(LevelName("cellar"));
    ///     (level, door, switch)
    /// });
    ///
    /// let mut world = World::new();
    /// let player = world.spawn(());
    /// let (level, door, switch) = loader.join().unwrap();
    /// let moved = world.merge(level);
    ///
    /// let (door, switch) = (moved.get(door).unwrap(), moved.get(switch).unwrap());
    /// assert_eq!(world.get::<Door>(door)?, &Door { switch });
    /// assert!(world.contains::<Switch>(switch) && world.is_alive(player));
    /// assert_eq!(world.resource::<LevelName>().unwrap().0, "cellar");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn merge(&mut self, other: World) -> EntityMap {
        self.transaction().merge(other)
    }
}
