//! Typed storage views: one component type's storage found once, then read or
//! changed per entity without a type lookup per call. Loops that insert,
//! remove or read one type for many entities go through these.

use core::marker::PhantomData;

use crate::change::ComponentMut;
use crate::component::Component;
use crate::entity::{Entities, Entity};
use crate::error::Error;
use crate::storage::{SparseReader, SparseSet};

use super::structural::TypedStorage;
use super::{World, lookup_error};

impl World {
    /// A read-only view of the `T` storage, for loops that read many
    /// entities' `T`: the storage is found once, here, rather than once per
    /// read as [`World::get`] does.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let ids = world.spawn_batch((0..4).map(Health));
    /// let health = world.view::<Health>();
    /// let total: i32 = ids.iter().map(|&e| health.get(e).map_or(0, |h| h.0)).sum();
    /// assert_eq!(total, 6);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn view<T: Component>(&self) -> View<'_, T> {
        let entities = &self.data.entities;
        match self.data.storages.get::<T>() {
            Some(set) => View {
                entities,
                sparse: set.sparse().reader(),
                dense: set.entities(),
                values: set.values(),
            },
            None => View {
                entities,
                sparse: SparseReader::EMPTY,
                dense: &[],
                values: &[],
            },
        }
    }

    /// A view of the `T` storage that inserts, removes and writes `T` per
    /// entity with the storage found once, here (and registered if `T` is
    /// new), rather than once per call as [`World::insert`] and
    /// [`World::remove`] do. Everything else is as those methods: entities
    /// are checked, observers run and groups are kept packed.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Stunned(u32);
    ///
    /// let mut world = World::new();
    /// let ids = world.spawn_batch((0..3).map(|_| ()));
    /// let mut stunned = world.view_mut::<Stunned>();
    /// for &e in &ids {
    ///     stunned.insert(e, Stunned(2))?;
    /// }
    /// stunned.get_mut(ids[0])?.0 -= 1;
    /// assert_eq!(stunned.remove(ids[0])?.0, 1);
    /// assert_eq!(stunned.len(), 2);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn view_mut<T: Component>(&mut self) -> ViewMut<'_, T> {
        ViewMut {
            storage: TypedStorage::find(self),
            world: self,
            _values: PhantomData,
        }
    }
}

/// Reads one component type of a world, its storage found once
/// ([`World::view`]).
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Name(&'static str);
///
/// let mut world = World::new();
/// let e = world.spawn(Name("hero"));
/// let names = world.view::<Name>();
/// assert_eq!(names.get(e)?.0, "hero");
/// assert!(names.contains(e));
/// # Ok::<(), Error>(())
/// ```
pub struct View<'w, T: Component> {
    /// The allocator, for errors that say whether an entity is dead.
    entities: &'w Entities,
    /// The storage's parts held apart, so a loop of reads keeps their
    /// addresses in registers (see `SparseReader`); all empty while no `T`
    /// was ever stored.
    sparse: SparseReader<'w>,
    dense: &'w [Entity],
    values: &'w [T],
}

impl<'w, T: Component> View<'w, T> {
    /// `entity`'s `T`. The error says whether the entity is dead or lacks a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Armor(u8);
    ///
    /// let mut world = World::new();
    /// let bare = world.spawn(());
    /// assert_eq!(
    ///     world.view::<Armor>().get(bare).err().unwrap().to_string(),
    ///     format!("entity {bare} does not have component `Armor`"),
    /// );
    /// ```
    #[inline]
    pub fn get(&self, entity: Entity) -> Result<&'w T, Error> {
        match self
            .sparse
            .get(entity)
            .and_then(|dense| self.values.get(dense))
        {
            Some(value) => Ok(value),
            None => Err(lookup_error::<T>(self.entities, entity)),
        }
    }

    /// Whether `entity` is alive and has a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Tag;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Tag);
    /// world.despawn(e)?;
    /// assert!(!world.view::<Tag>().contains(e));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn contains(&self, entity: Entity) -> bool {
        self.sparse.get(entity).is_some()
    }

    /// How many entities have a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Tag;
    ///
    /// let mut world = World::new();
    /// world.spawn_batch((0..3).map(|_| Tag));
    /// assert_eq!(world.view::<Tag>().len(), 3);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.dense.len()
    }

    /// Whether no entity has a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Tag;
    ///
    /// assert!(World::new().view::<Tag>().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Inserts, removes, reads and writes one component type of a world, its
/// storage found once ([`World::view_mut`]). It borrows the world
/// exclusively; observers that the changes trigger run inside each call, as
/// with [`World::insert`].
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Burning(f32);
///
/// let mut world = World::new();
/// let e = world.spawn(());
/// let mut burning = world.view_mut::<Burning>();
/// assert!(burning.insert(e, Burning(1.0))?.is_none());
/// assert!(burning.contains(e));
/// burning.remove(e)?;
/// assert!(burning.is_empty());
/// # Ok::<(), Error>(())
/// ```
pub struct ViewMut<'w, T: Component> {
    world: &'w mut World,
    /// `T`'s storage in `world`, found once: every access below makes a
    /// reference from its root pointer only for the length of one call, and
    /// its inserts and removals find it again when they ran commands.
    storage: TypedStorage<T>,
    /// The view hands out `T`s and references to them, like a `&mut Vec<T>`.
    _values: PhantomData<&'w mut T>,
}

impl<T: Component> ViewMut<'_, T> {
    /// Gives `entity` `value`, returning the `T` it replaces, as
    /// [`World::insert`] does.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug, PartialEq)]
    /// struct Speed(f32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Speed(1.0));
    /// assert_eq!(world.view_mut::<Speed>().insert(e, Speed(2.0))?, Some(Speed(1.0)));
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn insert(&mut self, entity: Entity, value: T) -> Result<Option<T>, Error> {
        self.world
            .transaction()
            .try_insert_typed(&mut self.storage, entity, value)
    }

    /// Takes `entity`'s `T` away and returns it, as [`World::remove`] does.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Shield;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// let mut shields = world.view_mut::<Shield>();
    /// assert!(shields.remove(e).is_err());
    /// shields.insert(e, Shield)?;
    /// assert!(shields.remove(e).is_ok());
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn remove(&mut self, entity: Entity) -> Result<T, Error> {
        self.world
            .transaction()
            .try_remove_typed(&mut self.storage, entity)
    }

    /// `entity`'s `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Level(u8);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Level(3));
    /// assert_eq!(world.view_mut::<Level>().get(e)?.0, 3);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn get(&self, entity: Entity) -> Result<&T, Error> {
        match self.storage().get(entity) {
            Some(value) => Ok(value),
            None => Err(lookup_error::<T>(&self.world.data.entities, entity)),
        }
    }

    /// `entity`'s `T` to write: `&mut T`, or for a type that tracks changes a
    /// [`Mut<T>`](crate::change::Mut), as [`World::get_mut`] gives.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Level(u8);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Level(3));
    /// world.view_mut::<Level>().get_mut(e)?.0 += 1;
    /// assert_eq!(world.get::<Level>(e)?.0, 4);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn get_mut(&mut self, entity: Entity) -> Result<T::Mut<'_>, Error> {
        // Only a tracked type's writes are stamped: the others skip the counter.
        let tick = if T::TRACK_CHANGES {
            self.world.data.clock.advance()
        } else {
            0
        };
        // SAFETY: `set` is `T`'s live storage in the world this view borrows
        // exclusively; the `&mut` lives as long as the `&mut self` borrow.
        match unsafe { self.storage.set().as_mut() }.get_mut(entity) {
            Some((value, changed)) => Ok(T::Mut::from_parts(value, changed, tick)),
            None => Err(lookup_error::<T>(&self.world.data.entities, entity)),
        }
    }

    /// Whether `entity` is alive and has a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Tag;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Tag);
    /// assert!(world.view_mut::<Tag>().contains(e));
    /// ```
    #[inline]
    pub fn contains(&self, entity: Entity) -> bool {
        self.storage().contains(entity)
    }

    /// How many entities have a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Tag;
    ///
    /// let mut world = World::new();
    /// world.spawn_batch((0..3).map(|_| Tag));
    /// assert_eq!(world.view_mut::<Tag>().len(), 3);
    /// ```
    #[inline]
    pub fn len(&self) -> usize {
        self.storage().entities().len()
    }

    /// Whether no entity has a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Tag;
    ///
    /// assert!(World::new().view_mut::<Tag>().is_empty());
    /// ```
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The storage, shared for as long as `&self` is.
    #[inline]
    fn storage(&self) -> &SparseSet<T> {
        // SAFETY: `set` is `T`'s live storage in the world this view borrows
        // exclusively; nothing writes it while `&self` is held.
        unsafe { self.storage.set().as_ref() }
    }
}
