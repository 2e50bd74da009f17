//! `PersistRegistry`: each component and resource type registered once,
//! under one stable name, with what it can do.

use core::any::TypeId;
use core::fmt;
use core::marker::PhantomData;
use std::collections::HashMap;

use super::rollback::RollbackTable;
#[cfg(feature = "serde")]
use super::snapshot::SnapshotTable;
use crate::component::Component;
use crate::error::Error;
use crate::world::Relationship;

/// The component and resource types a game saves, restores, hashes and
/// writes, each registered once under a stable name with what it can do.
///
/// Register a type with [`register`](Self::register) (a component),
/// [`register_resource`](Self::register_resource) or
/// [`register_relationship`](Self::register_relationship) (both sides of a
/// relationship at once), then say what it takes part in on the
/// registration:
///
/// | capability | needs | what it does |
/// |---|---|---|
/// | `.rollback()` | `Clone` | [`save`](Self::save) copies it, [`restore`](Self::restore) puts it back |
/// | `.rollback_hashed()` | `Clone + Hash` | the same, and [`checksum`](Self::checksum) hashes each value |
/// | `.rollback_with_checksum(f)` | `Clone` | the same, each value hashed by `f` (floats by their bits) |
/// | `.snapshot()` | `Serialize + Deserialize`, feature `serde` | [`snapshot`](Self::snapshot) writes it, [`world_from_snapshot`](Self::world_from_snapshot) and [`load_snapshot`](Self::load_snapshot) read it |
///
/// One rule for duplicates: a name stands for one type, and a type is
/// registered once as a component (and once as a resource, if it is both);
/// registering either again is an error ([`try_register`](Self::try_register)
/// and its kin return it, [`register`](Self::register) and its kin panic with
/// it). The stable name is what a snapshot calls the type, so it survives a
/// recompile, a move to another module or a rename of the type: keep the
/// name.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Clone, Copy, Debug, PartialEq)]
/// struct Position { x: f32, y: f32 }
/// #[derive(Component, Clone, Copy, Debug, PartialEq)]
/// struct Velocity { x: f32, y: f32 }
/// #[derive(Clone, Default, Hash)]
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
/// let mut registry = PersistRegistry::new();
/// registry.register::<Position>("game::Position").rollback_with_checksum(|p, hasher| {
///     hasher.write_f32(p.x);
///     hasher.write_f32(p.y);
/// });
/// registry.register::<Velocity>("game::Velocity").rollback();
/// registry.register_resource::<FrameCount>("game::FrameCount").rollback_hashed();
///
/// let saved: WorldState = registry.save(&world);
/// schedule.run(&mut world)?;
/// let spawned = world.spawn(Position { x: 9.0, y: 9.0 });
/// assert_eq!(world.get::<Position>(e)?.x, 1.0);
///
/// registry.restore(&mut world, &saved)?;
/// assert_eq!(world.get::<Position>(e)?.x, 0.0);
/// assert!(!world.is_alive(spawned));
/// assert_eq!(registry.checksum(&world), saved.checksum());
/// # Ok::<(), Error>(())
/// ```
#[derive(Default)]
pub struct PersistRegistry {
    /// Per name, the full Rust type name it stands for.
    type_names: HashMap<&'static str, &'static str>,
    /// Per type and kind (`true` for a resource), its name.
    by_type: HashMap<(TypeId, bool), &'static str>,
    /// Every name, in registration order.
    names: Vec<&'static str>,
    pub(super) rollback: RollbackTable,
    #[cfg(feature = "serde")]
    pub(super) snapshots: SnapshotTable,
}

impl PersistRegistry {
    /// A registry with no type.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// assert_eq!(PersistRegistry::new().names().count(), 0);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers component type `T` under `name`; say what it takes part in
    /// on the registration returned.
    ///
    /// # Panics
    /// When `name` is taken, `T` is already registered as a component, or
    /// `T` is one side of a relationship (register both sides with
    /// [`register_relationship`](Self::register_relationship));
    /// [`try_register`](Self::try_register) returns the error instead.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone)]
    /// struct Name(String);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Name>("game::Name").rollback();
    /// let mut world = World::new();
    /// let e = world.spawn(Name("before".into()));
    /// let saved = registry.save(&world);
    /// world.get_mut::<Name>(e)?.0 = "after".into();
    /// registry.restore(&mut world, &saved)?;
    /// assert_eq!(world.get::<Name>(e)?.0, "before");
    /// # Ok::<(), Error>(())
    /// ```
    #[must_use = "a registration does nothing until given a capability, such as `.rollback()`"]
    #[track_caller]
    pub fn register<T: Component>(&mut self, name: &'static str) -> ComponentRegistration<'_, T> {
        match self.try_register::<T>(name) {
            Ok(registration) => registration,
            Err(error) => panic!("{error}"),
        }
    }

    /// Registers component type `T` under `name`, or says why not:
    /// [`Error::PersistNameTaken`], [`Error::PersistTypeRegistered`],
    /// [`Error::PersistOneSide`].
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone)]
    /// struct Health(i32);
    /// #[derive(Component, Clone)]
    /// struct Armor(i32);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.try_register::<Health>("game::Health")?.rollback();
    /// assert!(matches!(
    ///     registry.try_register::<Armor>("game::Health"),
    ///     Err(Error::PersistNameTaken { name: "game::Health", .. })
    /// ));
    /// assert!(matches!(
    ///     registry.try_register::<Health>("game::Life"),
    ///     Err(Error::PersistTypeRegistered { name: "game::Health", .. })
    /// ));
    /// assert!(matches!(
    ///     registry.try_register::<ChildOf>("game::ChildOf"),
    ///     Err(Error::PersistOneSide { .. })
    /// ));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn try_register<T: Component>(
        &mut self,
        name: &'static str,
    ) -> Result<ComponentRegistration<'_, T>, Error> {
        refuse_one_side::<T>()?;
        self.claim::<T>(name, false)?;
        Ok(ComponentRegistration {
            registry: self,
            name,
            marker: PhantomData,
        })
    }

    /// Registers resource type `R` under `name`; say what it takes part in
    /// on the registration returned.
    ///
    /// # Panics
    /// When `name` is taken or `R` is already registered as a resource;
    /// [`try_register_resource`](Self::try_register_resource) returns the
    /// error instead.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Clone)]
    /// struct FrameCount(u64);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register_resource::<FrameCount>("game::FrameCount").rollback();
    /// let mut world = World::new();
    /// let saved = registry.save(&world);
    /// world.insert_resource(FrameCount(1));
    /// registry.restore(&mut world, &saved)?;
    /// assert!(!world.contains_resource::<FrameCount>());
    /// # Ok::<(), Error>(())
    /// ```
    #[must_use = "a registration does nothing until given a capability, such as `.rollback()`"]
    #[track_caller]
    pub fn register_resource<R: Send + Sync + 'static>(
        &mut self,
        name: &'static str,
    ) -> ResourceRegistration<'_, R> {
        match self.try_register_resource::<R>(name) {
            Ok(registration) => registration,
            Err(error) => panic!("{error}"),
        }
    }

    /// Registers resource type `R` under `name`, or says why not.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Clone)]
    /// struct Score(u32);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.try_register_resource::<Score>("game::Score")?.rollback();
    /// assert!(matches!(
    ///     registry.try_register_resource::<Score>("game::Points"),
    ///     Err(Error::PersistTypeRegistered { name: "game::Score", .. })
    /// ));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn try_register_resource<R: Send + Sync + 'static>(
        &mut self,
        name: &'static str,
    ) -> Result<ResourceRegistration<'_, R>, Error> {
        self.claim::<R>(name, true)?;
        Ok(ResourceRegistration {
            registry: self,
            name,
            marker: PhantomData,
        })
    }

    /// Registers both sides of the relationship `R`: `R` under `name` and
    /// its target list under `target_name`. Whatever the registration is
    /// given applies to both, so a restore or a load puts both sides back
    /// together and they agree again. This is the only way to register
    /// either side.
    ///
    /// # Panics
    /// When either name is taken or either side is already registered;
    /// [`try_register_relationship`](Self::try_register_relationship)
    /// returns the error instead.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register_relationship::<ChildOf>("ecs::ChildOf", "ecs::Children").rollback();
    /// let mut world = World::new();
    /// let parent = world.spawn(());
    /// let child = world.spawn(ChildOf(parent));
    /// let saved = registry.save(&world);
    /// world.despawn(child)?;
    /// registry.restore(&mut world, &saved)?;
    /// assert_eq!(world.get::<Children>(parent)?.as_slice(), &[child]);
    /// # Ok::<(), Error>(())
    /// ```
    #[must_use = "a registration does nothing until given a capability, such as `.rollback()`"]
    #[track_caller]
    pub fn register_relationship<R: Relationship>(
        &mut self,
        name: &'static str,
        target_name: &'static str,
    ) -> RelationshipRegistration<'_, R> {
        match self.try_register_relationship::<R>(name, target_name) {
            Ok(registration) => registration,
            Err(error) => panic!("{error}"),
        }
    }

    /// Registers both sides of the relationship `R`, or says why not,
    /// registering neither.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut registry = PersistRegistry::new();
    /// let taken = registry.try_register_relationship::<ChildOf>("ecs::Link", "ecs::Link");
    /// assert!(matches!(taken, Err(Error::PersistNameTaken { name: "ecs::Link", .. })));
    /// assert_eq!(registry.names().count(), 0, "neither side stays registered");
    /// ```
    pub fn try_register_relationship<R: Relationship>(
        &mut self,
        name: &'static str,
        target_name: &'static str,
    ) -> Result<RelationshipRegistration<'_, R>, Error> {
        self.claim::<R>(name, false)?;
        if let Err(error) = self.claim::<R::Target>(target_name, false) {
            self.unclaim::<R>(name, false);
            return Err(error);
        }
        Ok(RelationshipRegistration {
            registry: self,
            names: (name, target_name),
            marker: PhantomData,
        })
    }

    /// Every registered name, in registration order.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register_resource::<u64>("game::Seed").rollback();
    /// registry.register_relationship::<ChildOf>("ecs::ChildOf", "ecs::Children").rollback();
    /// assert!(registry.names().eq(["game::Seed", "ecs::ChildOf", "ecs::Children"]));
    /// ```
    pub fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.names.iter().copied()
    }

    /// Checks that `name` is free and `T` unregistered as this kind, then
    /// records both.
    fn claim<T: 'static>(&mut self, name: &'static str, resource: bool) -> Result<(), Error> {
        if let Some(registered) = self.type_names.get(name) {
            return Err(Error::PersistNameTaken { name, registered });
        }
        let key = (TypeId::of::<T>(), resource);
        if let Some(&name) = self.by_type.get(&key) {
            return Err(Error::PersistTypeRegistered {
                type_name: core::any::type_name::<T>(),
                name,
            });
        }
        self.by_type.insert(key, name);
        self.type_names.insert(name, core::any::type_name::<T>());
        self.names.push(name);
        Ok(())
    }

    /// Takes back a claim made just now.
    fn unclaim<T: 'static>(&mut self, name: &'static str, resource: bool) {
        self.by_type.remove(&(TypeId::of::<T>(), resource));
        self.type_names.remove(name);
        self.names.retain(|&known| known != name);
    }
}

impl fmt::Debug for PersistRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PersistRegistry")
            .field("names", &self.names)
            .finish_non_exhaustive()
    }
}

/// `Err(Error::PersistOneSide)` when `T` is one side of a relationship:
/// only [`PersistRegistry::register_relationship`] takes those, both sides
/// at once.
fn refuse_one_side<T: Component>() -> Result<(), Error> {
    if !(T::IS_RELATIONSHIP || T::IS_RELATIONSHIP_TARGET) {
        return Ok(());
    }
    let relationship = if T::IS_RELATIONSHIP {
        core::any::type_name::<T>()
    } else {
        T::RELATIONSHIP_PARTNER
    };
    Err(Error::PersistOneSide {
        component: core::any::type_name::<T>(),
        relationship,
    })
}

/// A component type just registered in a [`PersistRegistry`]: say what it
/// takes part in. Each capability given again replaces the earlier choice
/// (a type saved for rollback keeps its place among the saved types).
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Clone, Hash)]
/// struct Health(i32);
///
/// let mut registry = PersistRegistry::new();
/// registry.register::<Health>("game::Health").rollback_hashed();
/// let mut world = World::new();
/// let e = world.spawn(Health(10));
/// let before = registry.checksum(&world);
/// world.get_mut::<Health>(e)?.0 = 9;
/// assert_ne!(registry.checksum(&world), before);
/// # Ok::<(), Error>(())
/// ```
pub struct ComponentRegistration<'r, T> {
    pub(super) registry: &'r mut PersistRegistry,
    pub(super) name: &'static str,
    marker: PhantomData<fn() -> T>,
}

/// A resource type just registered in a [`PersistRegistry`]: say what it
/// takes part in, as for a [`ComponentRegistration`].
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Clone)]
/// struct Gravity(f32);
///
/// let mut registry = PersistRegistry::new();
/// registry
///     .register_resource::<Gravity>("game::Gravity")
///     .rollback_with_checksum(|g, hasher| hasher.write_f32(g.0));
/// let mut world = World::new();
/// world.insert_resource(Gravity(9.8));
/// let before = registry.checksum(&world);
/// world.insert_resource(Gravity(1.6));
/// assert_ne!(registry.checksum(&world), before);
/// ```
pub struct ResourceRegistration<'r, R> {
    pub(super) registry: &'r mut PersistRegistry,
    pub(super) name: &'static str,
    marker: PhantomData<fn() -> R>,
}

/// Both sides of a relationship just registered in a [`PersistRegistry`]:
/// each capability applies to both.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut registry = PersistRegistry::new();
/// registry.register_relationship::<ChildOf>("ecs::ChildOf", "ecs::Children").rollback();
/// ```
pub struct RelationshipRegistration<'r, R> {
    pub(super) registry: &'r mut PersistRegistry,
    pub(super) names: (&'static str, &'static str),
    marker: PhantomData<fn() -> R>,
}

impl<T> fmt::Debug for ComponentRegistration<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ComponentRegistration")
            .field("name", &self.name)
            .field("type", &core::any::type_name::<T>())
            .finish()
    }
}

impl<R> fmt::Debug for ResourceRegistration<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceRegistration")
            .field("name", &self.name)
            .field("type", &core::any::type_name::<R>())
            .finish()
    }
}

impl<R> fmt::Debug for RelationshipRegistration<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RelationshipRegistration")
            .field("names", &self.names)
            .field("relationship", &core::any::type_name::<R>())
            .finish()
    }
}
