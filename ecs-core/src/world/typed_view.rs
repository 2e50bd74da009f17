//! Typed storage views: one component type's storage found once, then read or
//! changed per entity without a type lookup per call. Loops that insert,
//! remove or read one type for many entities go through these.

use core::marker::PhantomData;
use core::ptr::NonNull;

use crate::change::ComponentMut;
use crate::component::{Component, ComponentId};
use crate::entity::{Entities, Entity};
use crate::error::Error;
use crate::storage::{SparseReader, SparseSet};

use super::structural::Structural;
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
        let (id, set) = self.data.storages.register_root::<T>();
        if T::DECLARES_HOOKS {
            self.component_hooks.sync(&self.data.storages);
        }
        let unhooked = self.structure_unhooked();
        ViewMut {
            world: self,
            id,
            set,
            unhooked,
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
    id: ComponentId,
    /// The root pointer of `T`'s storage in `world` (`Storages::register_root`):
    /// storages never move or drop while their world lives, and every access
    /// below makes a reference from it only for the length of one call.
    set: NonNull<SparseSet<T>>,
    /// No group, observer or component hook follows structural change in `world`
    /// ([`World::structure_unhooked`]): inserts and removals take the funnel's
    /// unhooked path. Nothing can add a group or an observer while the view
    /// borrows the world but observers' commands, after which the view looks
    /// again ([`find_storage_again`](Self::find_storage_again)), also when
    /// they panic ([`RefindOnDrop`]).
    unhooked: bool,
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
        self.world.data.entities.check(entity)?;
        if self.unhooked {
            let data = &mut self.world.data;
            // SAFETY: `set` is the root of storage `id` in this world, a
            // `SparseSet<T>` (`register_root` gave both, and storages stay
            // put); the view borrows the world mutably and holds no reference
            // into the storage; `masks` and `clock` are that world's.
            return Ok(unsafe {
                Structural::insert_unhooked(
                    &mut data.masks,
                    &mut data.clock,
                    self.id,
                    self.set,
                    entity,
                    value,
                )
            });
        }
        if self.world.component_hooks.follow_departures() {
            let view = RefindOnDrop(self);
            // SAFETY: `set` is the root of storage `id` in this world, a
            // `SparseSet<T>` (`register_root` gave both, and storages stay put).
            return Ok(unsafe {
                view.0
                    .world
                    .insert_replacing(view.0.id, view.0.set, entity, value)
            });
        }
        // SAFETY: `set` is the root of storage `id` in this world, a
        // `SparseSet<T>` (`register_root` gave both, and storages stay put).
        let replaced = unsafe {
            self.world
                .split()
                .1
                .insert_into(self.id, self.set, entity, value)
        };
        if !self.world.observers.fired.is_empty() {
            let view = RefindOnDrop(self);
            view.0.world.dispatch_fired();
        }
        Ok(replaced)
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
        self.world.data.entities.check(entity)?;
        let removed = if self.unhooked {
            // SAFETY: `set` is the root of storage `id` in this world, a
            // `SparseSet<T>` (`register_root` gave both, and storages stay
            // put); the view borrows the world mutably and holds no reference
            // into the storage; `masks` is that world's.
            unsafe {
                Structural::remove_unhooked(&mut self.world.data.masks, self.id, self.set, entity)
            }
        } else if self.world.follow_departures() {
            let view = RefindOnDrop(self);
            view.0.world.remove_observed(view.0.id, entity)
        } else {
            // SAFETY: `set` is the root of storage `id` in this world, a
            // `SparseSet<T>`: `register_root` gave both, storages stay put,
            // and after observers ran the view found them again.
            unsafe { self.world.split().1.remove_from(self.id, self.set, entity) }
        };
        removed.ok_or_else(|| Error::missing::<T>(entity))
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
        match unsafe { self.set.as_mut() }.get_mut(entity) {
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

    /// Finds `T`'s storage again after observers ran: their commands get
    /// `&mut World`, and one that replaces the whole world (`*world =
    /// World::new()`) drops the storage this view pointed at.
    #[cold]
    fn find_storage_again(&mut self) {
        (self.id, self.set) = self.world.data.storages.register_root::<T>();
        if T::DECLARES_HOOKS {
            self.world.component_hooks.sync(&self.world.data.storages);
        }
        self.unhooked = self.world.structure_unhooked();
    }

    /// The storage, shared for as long as `&self` is.
    #[inline]
    fn storage(&self) -> &SparseSet<T> {
        // SAFETY: `set` is `T`'s live storage in the world this view borrows
        // exclusively; nothing writes it while `&self` is held.
        unsafe { self.set.as_ref() }
    }
}

/// Holds a view while observers run on its world, and finds the view's
/// storage again when dropped, on return or while a panic from an observer or
/// its commands unwinds: a command may have replaced the whole world, and a
/// view caught past the panic must not keep the old world's storage pointer.
struct RefindOnDrop<'v, 'w, T: Component>(&'v mut ViewMut<'w, T>);

impl<T: Component> Drop for RefindOnDrop<'_, '_, T> {
    fn drop(&mut self) {
        self.0.find_storage_again();
    }
}
