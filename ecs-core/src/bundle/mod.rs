//! Bundles: the set of components given to `spawn` and `insert_bundle` in one go.

mod registry;

use core::ptr::NonNull;
use core::slice;

use crate::component::{Component, ComponentId, RequirementVisitor};
use crate::entity::Entity;
use crate::error::Error;
use crate::storage::{RunIds, SparseSet, Storages};

pub(crate) use registry::{BundleInfo, BundleRegistry};
pub(crate) use sealed::{ComponentWriter, RelationshipVisitor, RequirementRoots};

/// One component, or a tuple of 0 to 16 bundles, given to
/// [`World::spawn`](crate::World::spawn) or [`World::insert_bundle`](crate::World::insert_bundle).
///
/// Tuples nest, so `((A, B), C)` is a bundle too. If a type appears twice, the
/// later value wins and the earlier one is dropped. A bundle is written whole:
/// should the `Drop` of a value it replaces panic (the earlier of a repeated
/// type, or one the entity held), every other value of the bundle is still
/// written, and the panic carries on once the call is done. The trait is
/// implemented for you; it cannot be implemented outside this crate.
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
            each type in it needs `#[derive(Component)]` and must be `Send + Sync + 'static`"
)]
pub trait Bundle: sealed::WriteBundle + Send + Sync + 'static {}

pub(crate) mod sealed {
    use super::*;

    /// Where a bundle inserts the components of a live entity one at a time:
    /// the world's structural funnel, which keeps masks and hooks in step.
    pub trait ComponentWriter {
        /// Gives the live `entity` `value` in storage `id` (which is `T`'s) and
        /// drops the value it replaces. Should that `Drop` panic, the writer
        /// keeps the panic, so the rest of the bundle is still written; its
        /// owner raises it once the whole call is written.
        fn insert<T: Component>(&mut self, id: ComponentId, entity: Entity, value: T);
    }

    /// What walks the requirements of a bundle's types, from each type
    /// that has some.
    pub trait RequirementRoots: RequirementVisitor {
        /// Walks the requirements of `T`, a type of the bundle.
        fn root<T: Component>(&mut self);
    }

    /// What looks at a bundle's relationships (and relationship targets)
    /// before the bundle is written: the world's checks, which refuse a
    /// bundle that would break a relationship before anything changes.
    pub trait RelationshipVisitor {
        /// Looks at one component of the bundle whose type is a
        /// relationship or a relationship target.
        fn visit<T: Component>(&mut self, value: &T) -> Result<(), Error>;
    }

    /// How a bundle writes itself into storages. Hidden so that a bundle can only
    /// do what the world expects: insert components for a live entity.
    ///
    /// `ids` walks the component ids that [`register`](Self::register) listed,
    /// in the same order, so writing looks up no type.
    pub trait WriteBundle {
        /// Whether any component type of the bundle declares hooks
        /// (`Component::DECLARES_HOOKS`): a constant, so a spawn of types
        /// without hooks never looks for them.
        const DECLARES_HOOKS: bool;
        /// Whether any component type of the bundle is a relationship or a
        /// relationship target: a constant, so a spawn of other types
        /// checks nothing.
        const RELATIONSHIPS: bool;
        /// Shows `visitor` every component of the bundle whose type is a
        /// relationship or a relationship target, stopping at its first error.
        fn visit_relationships<V: RelationshipVisitor>(&self, visitor: &mut V)
        -> Result<(), Error>;
        /// Whether any component type of the bundle requires others: a
        /// constant, so a spawn of other types adds nothing.
        const REQUIRES: bool;
        /// Shows `visitor` every component type of the bundle that requires
        /// others, as a root of its requirements.
        fn visit_required_roots<V: RequirementRoots>(visitor: &mut V);
        /// Registers every component type, appending their ids in write order.
        fn register(storages: &mut Storages, ids: &mut Vec<ComponentId>);
        /// Makes room for `additional` more entities in every storage this bundle touches.
        fn reserve(
            storages: &mut Storages,
            ids: &mut slice::Iter<'_, ComponentId>,
            additional: usize,
        );
        /// Typed pointers to the storages of this bundle's components.
        type Columns: Copy;

        /// Resolves the storage of every component once, for many appends: the
        /// storages' root pointers, which hooks reborrowing a storage between
        /// two appends leave valid.
        fn columns(storages: &Storages, ids: &mut slice::Iter<'_, ComponentId>) -> Self::Columns;

        /// Appends every component for the freshly allocated `entity`, which no
        /// storage holds, as added at `tick`; the caller records the components
        /// in the entity's mask and its groups.
        ///
        /// # Safety
        /// `columns` came from [`columns`](Self::columns) on the storages of the
        /// world that allocated `entity`, that world is borrowed mutably by the
        /// caller for the whole call with no reference into its storages held,
        /// the bundle's component types are distinct (`BundleInfo::distinct`),
        /// and no storage holds `entity`.
        unsafe fn push_new(self, columns: &Self::Columns, entity: Entity, tick: u64);

        /// How many bundles a run of fresh entities can still write (with
        /// [`write_fresh`](Self::write_fresh)) and commit without any storage
        /// growing: the least room of any of the bundle's storages.
        ///
        /// # Safety
        /// `columns` came from [`columns`](Self::columns) on the storages of a
        /// world the caller borrows mutably for the whole call, with no
        /// reference into those storages held.
        unsafe fn fresh_room(columns: &Self::Columns) -> usize;

        /// Makes room for at least `additional` more bundles of a fresh run in
        /// every storage of the bundle.
        ///
        /// # Safety
        /// `columns` came from [`columns`](Self::columns) on the storages of a
        /// world the caller borrows mutably for the whole call, with no
        /// reference into those storages held, and no run's values are
        /// waiting past the tails to be committed (growing would lose them).
        unsafe fn reserve_fresh(columns: &Self::Columns, additional: usize);

        /// Pointers one past the last value of every storage, where a fresh
        /// run writes.
        type Tails: Copy;

        /// Where the fresh run's values go, valid until the storages next
        /// grow or commit.
        ///
        /// # Safety
        /// `columns` came from [`columns`](Self::columns) on the storages of a
        /// world the caller borrows mutably for the whole call, with no
        /// reference into those storages held.
        unsafe fn fresh_tails(columns: &Self::Columns) -> Self::Tails;

        /// Writes every component `offset` places past `tails`, owned by no
        /// one until [`commit_run`](Self::commit_run) takes it.
        ///
        /// # Safety
        /// `tails` came from [`fresh_tails`](Self::fresh_tails), nothing grew
        /// or committed since, `offset` is below the room the storages had
        /// then, and no value is written twice at one place (so the bundle's
        /// component types are distinct: one call writes each storage once).
        unsafe fn write_fresh(self, tails: &Self::Tails, offset: usize);

        /// Commits the bundles written past the tails as the components of
        /// `ids`, one bundle per id in order, added at `tick`; the caller
        /// makes the ids alive and records them in the masks.
        ///
        /// # Safety
        /// `columns` came from [`columns`](Self::columns) on the storages of a
        /// world the caller borrows mutably for the whole call, with no
        /// reference into those storages held; the bundle's component types
        /// are distinct; `ids.len()` is within [`fresh_room`](Self::fresh_room),
        /// offsets `0..ids.len()` past the tails were written since the
        /// storages last grew or committed, and no storage holds any of the ids.
        unsafe fn commit_run(columns: &Self::Columns, ids: RunIds<'_>, tick: u64);
        /// Inserts every component for the live `entity`, dropping values it
        /// replaces (see [`ComponentWriter::insert`]).
        ///
        /// Each new component is recorded (mask, groups) before any replaced
        /// value drops, so a panicking `Drop` leaves the world consistent.
        fn write(
            self,
            writer: &mut impl ComponentWriter,
            ids: &mut slice::Iter<'_, ComponentId>,
            entity: Entity,
        );
    }
}

impl<T: Component> Bundle for T {}

impl<T: Component> sealed::WriteBundle for T {
    const DECLARES_HOOKS: bool = T::DECLARES_HOOKS;
    const RELATIONSHIPS: bool = T::IS_RELATIONSHIP || T::IS_RELATIONSHIP_TARGET;
    const REQUIRES: bool = T::REQUIRES;

    #[inline]
    fn visit_required_roots<V: RequirementRoots>(visitor: &mut V) {
        if T::REQUIRES {
            visitor.root::<T>();
        }
    }

    #[inline]
    fn visit_relationships<V: RelationshipVisitor>(&self, visitor: &mut V) -> Result<(), Error> {
        if Self::RELATIONSHIPS {
            visitor.visit(self)
        } else {
            Ok(())
        }
    }

    fn register(storages: &mut Storages, ids: &mut Vec<ComponentId>) {
        ids.push(storages.register::<T>());
    }

    #[inline]
    fn reserve(storages: &mut Storages, ids: &mut slice::Iter<'_, ComponentId>, additional: usize) {
        storages.typed_mut::<T>(next_id(ids)).reserve(additional);
    }

    type Columns = NonNull<SparseSet<T>>;

    #[inline]
    fn columns(storages: &Storages, ids: &mut slice::Iter<'_, ComponentId>) -> Self::Columns {
        storages.root::<T>(next_id(ids))
    }

    #[inline]
    unsafe fn push_new(self, columns: &Self::Columns, entity: Entity, tick: u64) {
        // SAFETY: the pointer is `T`'s live storage (resolved by `columns`, and a
        // world never frees a storage while it lives); the caller's exclusive
        // borrow of the world makes this transient `&mut` the only reference.
        unsafe { (*columns.as_ptr()).push_new(entity, self, tick) }
    }

    #[inline]
    unsafe fn fresh_room(columns: &Self::Columns) -> usize {
        // SAFETY: the pointer is `T`'s live storage (resolved by `columns`, and
        // a world never frees a storage while it lives); the caller borrows
        // the world mutably and holds no reference into it, so no one writes
        // it during this shared read.
        unsafe { columns.as_ref() }.fresh_room()
    }

    unsafe fn reserve_fresh(columns: &Self::Columns, additional: usize) {
        // SAFETY: the pointer is `T`'s live storage (resolved by `columns`, and
        // a world never frees a storage while it lives); the caller's
        // exclusive borrow of the world, with no reference into it held, makes
        // this transient `&mut` the only reference. With nothing written past
        // the end (caller's contract), growing loses no value.
        unsafe { (*columns.as_ptr()).reserve_fresh(additional) }
    }

    type Tails = *mut T;

    #[inline]
    unsafe fn fresh_tails(columns: &Self::Columns) -> Self::Tails {
        // SAFETY: `columns` is the root of `T`'s live storage (resolved by
        // `columns`, never freed while its world lives), and the caller's
        // exclusive borrow of the world, with no reference into it held, keeps
        // every other reference to it away during the call: `fresh_tail`'s
        // contract.
        unsafe { SparseSet::fresh_tail(*columns) }
    }

    #[inline(always)]
    unsafe fn write_fresh(self, tails: &Self::Tails, offset: usize) {
        // SAFETY: `offset` is within the spare capacity past the tail, which
        // nothing reallocated since (caller's contract), and no value lives there.
        unsafe { tails.add(offset).write(self) }
    }

    #[inline]
    unsafe fn commit_run(columns: &Self::Columns, ids: RunIds<'_>, tick: u64) {
        // SAFETY: the pointer is `T`'s live storage (resolved by `columns`,
        // and a world never frees a storage while it lives), and the caller's
        // exclusive borrow of the world makes this transient `&mut` the only
        // reference; the values past the tail are written and no storage
        // holds the ids, as `commit_run` requires (caller's contract).
        unsafe { (*columns.as_ptr()).commit_run(ids, tick) }
    }

    #[inline]
    fn write(
        self,
        writer: &mut impl ComponentWriter,
        ids: &mut slice::Iter<'_, ComponentId>,
        entity: Entity,
    ) {
        writer.insert(next_id(ids), entity, self);
    }
}

#[inline]
fn next_id(ids: &mut slice::Iter<'_, ComponentId>) -> ComponentId {
    *ids.next()
        .expect("a bundle writes as many components as it registered")
}

macro_rules! tuple_bundle {
    ($(($name:ident, $column:ident)),*) => {
        #[diagnostic::do_not_recommend]
        impl<$($name: Bundle),*> Bundle for ($($name,)*) {}

        #[allow(
            unused_variables,
            non_snake_case,
            unused_unsafe,
            clippy::unused_unit,
            reason = "the empty tuple uses no argument, and bindings are named after type parameters"
        )]
        impl<$($name: Bundle),*> sealed::WriteBundle for ($($name,)*) {
            const DECLARES_HOOKS: bool = false $(|| $name::DECLARES_HOOKS)*;
            const RELATIONSHIPS: bool = false $(|| $name::RELATIONSHIPS)*;
            const REQUIRES: bool = false $(|| $name::REQUIRES)*;

            #[inline]
            fn visit_required_roots<__V: RequirementRoots>(visitor: &mut __V) {
                $($name::visit_required_roots(visitor);)*
            }

            #[inline]
            fn visit_relationships<__V: RelationshipVisitor>(
                &self,
                visitor: &mut __V,
            ) -> Result<(), Error> {
                let ($($name,)*) = self;
                $($name.visit_relationships(visitor)?;)*
                Ok(())
            }

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

            type Columns = ($($name::Columns,)*);

            #[inline]
            fn columns(
                storages: &Storages,
                ids: &mut slice::Iter<'_, ComponentId>,
            ) -> Self::Columns {
                ($($name::columns(storages, ids),)*)
            }

            #[inline]
            unsafe fn push_new(self, columns: &Self::Columns, entity: Entity, tick: u64) {
                let ($($name,)*) = self;
                let ($($column,)*) = columns;
                // SAFETY: each member's columns came from its own `columns`,
                // inside the tuple's, on the storages of the world that
                // allocated `entity`, borrowed mutably with no reference held;
                // the tuple's types are distinct, so no two members share a
                // storage, and no storage holds `entity` before its member
                // appends it (the caller's contract).
                unsafe { $($name.push_new($column, entity, tick);)* }
            }

            #[inline]
            unsafe fn fresh_room(columns: &Self::Columns) -> usize {
                let ($($column,)*) = columns;
                let room = usize::MAX;
                // SAFETY: each member's columns came from its own `columns`,
                // inside the tuple's, on the storages of a world the caller
                // borrows mutably with no reference into them held.
                $(let room = room.min(unsafe { $name::fresh_room($column) });)*
                room
            }

            unsafe fn reserve_fresh(columns: &Self::Columns, additional: usize) {
                let ($($column,)*) = columns;
                // SAFETY: each member's columns came from its own `columns`,
                // inside the tuple's, on the storages of a world the caller
                // borrows mutably with no reference into them held, and no
                // run's values wait past any tail (the caller's contract).
                unsafe { $($name::reserve_fresh($column, additional);)* }
            }

            type Tails = ($($name::Tails,)*);

            #[inline]
            unsafe fn fresh_tails(columns: &Self::Columns) -> Self::Tails {
                let ($($column,)*) = columns;
                // SAFETY: each member's columns came from its own `columns`,
                // inside the tuple's, on the storages of a world the caller
                // borrows mutably with no reference into them held.
                unsafe { ($($name::fresh_tails($column),)*) }
            }

            #[inline(always)]
            unsafe fn write_fresh(self, tails: &Self::Tails, offset: usize) {
                let ($($name,)*) = self;
                let ($($column,)*) = tails;
                // SAFETY: each member's tails are its part of the tuple's,
                // taken by its own `fresh_tails`, with nothing grown or
                // committed since and `offset` below the room then (the
                // caller's contract); the tuple's types are distinct, so each
                // member writes its own storages, each place once.
                unsafe { $($name.write_fresh($column, offset);)* }
            }

            #[inline]
            unsafe fn commit_run(columns: &Self::Columns, ids: RunIds<'_>, tick: u64) {
                let ($($column,)*) = columns;
                // SAFETY: each column is one member's storages, and the
                // tuple's types are distinct, so no two members share a
                // storage: the caller's contract for the tuple (storages
                // borrowed exclusively, every member's values written past its
                // tails, the ids in none of them) is each member's contract.
                unsafe { $($name::commit_run($column, ids, tick);)* }
            }

            #[inline]
            fn write(
                self,
                writer: &mut impl ComponentWriter,
                ids: &mut slice::Iter<'_, ComponentId>,
                entity: Entity,
            ) {
                let ($($name,)*) = self;
                $($name.write(writer, ids, entity);)*
            }
        }
    };
}

crate::util::macros::all_tuple_pairs!(tuple_bundle: (B15, c15), (B14, c14), (B13, c13), (B12, c12), (B11, c11), (B10, c10), (B9, c9), (B8, c8), (B7, c7), (B6, c6), (B5, c5), (B4, c4), (B3, c3), (B2, c2), (B1, c1), (B0, c0));
