//! Bundles: the set of components given to `spawn` and `insert_bundle` in one go.

use core::any::TypeId;
use core::hash::BuildHasherDefault;
use core::slice;
use std::collections::HashMap;

use crate::component::{Component, ComponentId};
use crate::entity::Entity;
use crate::placement::Placement;
use crate::storage::{Storages, TypeIdHasher};

/// One component, or a tuple of 0 to 16 bundles, given to
/// [`World::spawn`](crate::World::spawn) or [`World::insert_bundle`](crate::World::insert_bundle).
///
/// Tuples nest, so `((A, B), C)` is a bundle too. If a type appears twice, the
/// later value wins and the earlier one is dropped (should that `Drop` panic
/// inside `spawn`, the entity stays spawned with what was written so far, and
/// the panic carries on before its id is returned). The trait is implemented
/// for you; it cannot be implemented outside this crate.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct A(u8);
/// #[derive(Component)]
/// struct B(u8);
///
/// fn spawn_pair(world: &mut World, pair: impl Bundle) -> Entity {
///     world.spawn(pair)
/// }
///
/// let mut world = World::new();
/// let e = spawn_pair(&mut world, (A(1), B(2)));
/// let empty = world.spawn(());
/// assert!(world.contains::<A>(e) && world.contains::<B>(e));
/// assert_eq!(world.components_of(empty)?.count(), 0);
/// # Ok::<(), Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a bundle of components",
    label = "not a component or a tuple of components",
    note = "a bundle is one `#[derive(Component)]` type or a tuple of up to 16 bundles; \
            add `#[derive(Component)]` to each type you spawn"
)]
pub trait Bundle: sealed::WriteBundle + Send + Sync + 'static {}

pub(crate) mod sealed {
    use super::*;

    /// How a bundle writes itself into storages. Hidden so that a bundle can only
    /// do what the world expects: insert components for a live entity.
    ///
    /// `ids` walks the component ids that [`register`](Self::register) listed,
    /// in the same order, so writing looks up no type.
    pub trait WriteBundle {
        /// Registers every component type, appending their ids in write order.
        fn register(storages: &mut Storages, ids: &mut Vec<ComponentId>);
        /// Makes room for `additional` more entities in every storage this bundle touches.
        fn reserve(
            storages: &mut Storages,
            ids: &mut slice::Iter<'_, ComponentId>,
            additional: usize,
        );
        /// Inserts every component for the live `entity`, dropping values it replaces.
        ///
        /// Each new component is recorded (mask, groups) before any replaced
        /// value drops, so a panicking `Drop` leaves the world consistent.
        fn write(
            self,
            placement: &mut Placement<'_>,
            ids: &mut slice::Iter<'_, ComponentId>,
            entity: Entity,
        );
    }
}

impl<T: Component> Bundle for T {}

impl<T: Component> sealed::WriteBundle for T {
    fn register(storages: &mut Storages, ids: &mut Vec<ComponentId>) {
        ids.push(storages.register::<T>());
    }

    #[inline]
    fn reserve(storages: &mut Storages, ids: &mut slice::Iter<'_, ComponentId>, additional: usize) {
        storages.typed_mut::<T>(next_id(ids)).reserve(additional);
    }

    #[inline]
    fn write(
        self,
        placement: &mut Placement<'_>,
        ids: &mut slice::Iter<'_, ComponentId>,
        entity: Entity,
    ) {
        drop(placement.insert(next_id(ids), entity, self));
    }
}

#[inline]
fn next_id(ids: &mut slice::Iter<'_, ComponentId>) -> ComponentId {
    *ids.next()
        .expect("a bundle writes as many components as it registered")
}

/// The component ids of every bundle type a world has spawned, in write order.
#[derive(Default)]
pub(crate) struct BundleIds {
    ids: HashMap<TypeId, Box<[ComponentId]>, BuildHasherDefault<TypeIdHasher>>,
}

impl BundleIds {
    /// `B`'s component ids, registering its types on first sight.
    #[inline]
    pub(crate) fn of<B: Bundle>(&mut self, storages: &mut Storages) -> &[ComponentId] {
        self.ids.entry(TypeId::of::<B>()).or_insert_with(|| {
            let mut ids = Vec::new();
            B::register(storages, &mut ids);
            ids.into_boxed_slice()
        })
    }
}

macro_rules! tuple_bundle {
    ($($name:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<$($name: Bundle),*> Bundle for ($($name,)*) {}

        #[allow(
            unused_variables,
            non_snake_case,
            reason = "the empty tuple uses no argument, and bindings are named after type parameters"
        )]
        impl<$($name: Bundle),*> sealed::WriteBundle for ($($name,)*) {
            #[inline]
            fn register(storages: &mut Storages, ids: &mut Vec<ComponentId>) {
                $($name::register(storages, ids);)*
            }

            #[inline]
            fn reserve(
                storages: &mut Storages,
                ids: &mut slice::Iter<'_, ComponentId>,
                additional: usize,
            ) {
                $($name::reserve(storages, ids, additional);)*
            }

            #[inline]
            fn write(
                self,
                placement: &mut Placement<'_>,
                ids: &mut slice::Iter<'_, ComponentId>,
                entity: Entity,
            ) {
                let ($($name,)*) = self;
                $($name.write(placement, ids, entity);)*
            }
        }
    };
}

crate::macros::all_tuples!(tuple_bundle: B15, B14, B13, B12, B11, B10, B9, B8, B7, B6, B5, B4, B3, B2, B1, B0);
