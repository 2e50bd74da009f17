//! Handles to one live entity that borrow their world.
//!
//! A handle can never outlive its world, and while an [`EntityMut`] exists
//! nothing but its own calls can change the world: the borrow checker
//! enforces what a weak reference checks at run time in other engines. Those
//! calls run observers, whose commands may despawn the entity or replace the
//! world, so an `EntityMut` checks before every use.

use super::{HeldComponent, World};
use crate::bundle::Bundle;
use crate::component::Component;
use crate::entity::Entity;
use crate::error::Error;
use crate::view::WorldId;

/// A read-only handle to a live entity, from [`World::entity`].
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Name(&'static str);
/// #[derive(Component)]
/// struct Boss;
///
/// let mut world = World::new();
/// let e = world.spawn((Name("dragon"), Boss));
/// let dragon = world.entity(e)?;
/// assert_eq!(dragon.id(), e);
/// assert!(dragon.contains::<Boss>());
/// assert_eq!(dragon.components().count(), 2);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct EntityRef<'w> {
    world: &'w World,
    entity: Entity,
}

impl<'w> EntityRef<'w> {
    pub(crate) fn new(world: &'w World, entity: Entity) -> Self {
        Self { world, entity }
    }

    /// The entity's id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// assert_eq!(world.entity(e)?.id(), e);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn id(&self) -> Entity {
        self.entity
    }

    /// The entity's `T`, or an error naming the missing component.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Level(u8);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Level(3));
    /// assert_eq!(world.entity(e)?.get::<Level>()?.0, 3);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn get<T: Component>(&self) -> Result<&'w T, Error> {
        self.world.get(self.entity)
    }

    /// Whether the entity has a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Boss;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// assert!(!world.entity(e)?.contains::<Boss>());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn contains<T: Component>(&self) -> bool {
        self.world.contains::<T>(self.entity)
    }

    /// The component types the entity holds.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Boss;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Boss);
    /// let names: Vec<_> = world.entity(e)?.components().map(|c| c.name()).collect();
    /// assert_eq!(names, ["Boss"]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn components(&self) -> impl Iterator<Item = HeldComponent<'w>> + 'w {
        self.world
            .components_of(self.entity)
            .expect("an EntityRef's entity is alive while its world is borrowed")
    }
}

/// A read-write handle to a live entity, from [`World::entity_mut`].
///
/// Nothing but the handle's own calls can change its world while it exists,
/// but those calls run observers, and an observer's commands may despawn the
/// entity (or replace the whole world). Every method therefore checks first:
/// once the entity is gone, or the world behind the handle is not the one it
/// came from, each answers with the error naming the entity
/// ([`Error::Despawned`], [`Error::NeverSpawned`] for another world) and
/// changes nothing.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Debug, PartialEq)]
/// struct Health(i32);
///
/// let mut world = World::new();
/// let e = world.spawn(Health(5));
/// let mut handle = world.entity_mut(e)?;
/// handle.get_mut::<Health>()?.0 -= 5;
/// if handle.get::<Health>()?.0 <= 0 {
///     handle.despawn()?;
/// }
/// assert!(!world.is_alive(e));
/// # Ok::<(), Error>(())
/// ```
pub struct EntityMut<'w> {
    world: &'w mut World,
    entity: Entity,
    /// The world the entity belongs to: an observer may have swapped
    /// another into `*world` since.
    home: WorldId,
}

impl<'w> EntityMut<'w> {
    pub(crate) fn new(world: &'w mut World, entity: Entity) -> Self {
        let home = world.data.id;
        Self {
            world,
            entity,
            home,
        }
    }

    /// The world behind the handle, while it is the entity's own.
    pub(in crate::world) fn home_world(&mut self) -> Result<&mut World, Error> {
        self.at_home()?;
        Ok(self.world)
    }

    /// `Ok` while the world behind the handle is the entity's own; whether
    /// the entity is still alive there is the world method's to check.
    fn at_home(&self) -> Result<(), Error> {
        if self.world.data.id == self.home {
            Ok(())
        } else {
            Err(Error::NeverSpawned {
                entity: self.entity,
            })
        }
    }

    /// The entity's id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// assert_eq!(world.entity_mut(e)?.id(), e);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn id(&self) -> Entity {
        self.entity
    }

    /// The entity's `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Level(u8);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Level(2));
    /// assert_eq!(world.entity_mut(e)?.get::<Level>()?.0, 2);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn get<T: Component>(&self) -> Result<&T, Error> {
        self.at_home()?;
        self.world.get(self.entity)
    }

    /// The entity's `T`, mutably: `&mut T`, or for a type that tracks changes
    /// a [`Mut<T>`](crate::change::Mut) that marks it changed when written
    /// (see [`World::get_mut`]).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Level(u8);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Level(2));
    /// world.entity_mut(e)?.get_mut::<Level>()?.0 += 1;
    /// assert_eq!(world.get::<Level>(e)?.0, 3);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn get_mut<T: Component>(&mut self) -> Result<T::Mut<'_>, Error> {
        self.at_home()?;
        self.world.get_mut::<T>(self.entity)
    }

    /// Whether the entity has a `T`; false once it is gone.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Boss;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Boss);
    /// assert!(world.entity_mut(e)?.contains::<Boss>());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn contains<T: Component>(&self) -> bool {
        self.at_home().is_ok() && self.world.contains::<T>(self.entity)
    }

    /// Gives the entity `component`, returning the value it replaces.
    ///
    /// Fails, changing nothing, once an observer has despawned the entity
    /// or replaced the world (see [`EntityMut`]).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug, PartialEq)]
    /// struct Level(u8);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// let mut handle = world.entity_mut(e)?;
    /// assert_eq!(handle.insert(Level(1))?, None);
    /// assert_eq!(handle.insert(Level(2))?, Some(Level(1)));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn insert<T: Component>(&mut self, component: T) -> Result<Option<T>, Error> {
        self.at_home()?;
        self.world.insert(self.entity, component)
    }

    /// Gives the entity every component of `bundle`.
    ///
    /// Fails, changing nothing, once an observer has despawned the entity
    /// or replaced the world (see [`EntityMut`]).
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
    /// world.entity_mut(e)?.insert_bundle((A, B))?;
    /// assert!(world.contains::<B>(e));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn insert_bundle<B: Bundle>(&mut self, bundle: B) -> Result<(), Error> {
        self.at_home()?;
        self.world.insert_bundle(self.entity, bundle)
    }

    /// Takes `T` away from the entity, or fails if it has none (or is gone).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug, PartialEq)]
    /// struct Level(u8);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Level(4));
    /// let mut handle = world.entity_mut(e)?;
    /// assert_eq!(handle.remove::<Level>()?, Level(4));
    /// assert!(handle.remove::<Level>().is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn remove<T: Component>(&mut self) -> Result<T, Error> {
        self.at_home()?;
        self.world.remove(self.entity)
    }

    /// The component types the entity holds, or the error naming it once
    /// it is gone.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct A;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(A);
    /// assert_eq!(world.entity_mut(e)?.components()?.count(), 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn components(&self) -> Result<impl Iterator<Item = HeldComponent<'_>> + '_, Error> {
        self.at_home()?;
        self.world.components_of(self.entity)
    }

    /// Despawns the entity, consuming the handle; fails, changing nothing,
    /// once an observer has despawned it or replaced the world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// world.entity_mut(e)?.despawn()?;
    /// assert!(world.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn despawn(self) -> Result<(), Error> {
        self.at_home()?;
        self.world.despawn(self.entity)
    }

    /// A read-only handle to the same entity, or the error naming it once
    /// it is gone.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// let handle = world.entity_mut(e)?;
    /// assert_eq!(handle.as_ref()?.id(), e);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn as_ref(&self) -> Result<EntityRef<'_>, Error> {
        self.at_home()?;
        self.world.entity(self.entity)
    }
}
