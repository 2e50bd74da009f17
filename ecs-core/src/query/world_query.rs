//! What every query parameter has in common, fetch or filter: the `WorldQuery`
//! trait, and its one impl for tuples.

use crate::access::Access;
use crate::view::{ViewMode, WorldView};

use super::column::Required;
#[cfg(doc)]
use super::{QueryData, QueryFilter};

/// The part of a query parameter that fetches and filters share: which
/// component types it touches, where the world keeps their storages, what it
/// captures from a borrowed world, and which storages every match must be in.
///
/// [`QueryData`] (what a query fetches) and [`QueryFilter`] (which entities
/// it keeps) both build on it, so a tuple, whether of fetches or of filters,
/// captures its elements' states in one place. Games name `QueryData` and
/// `QueryFilter`; this trait is what `#[derive(Query)]` implements beside them.
///
/// # Safety
///
/// An implementation promises that:
/// - [`access`](Self::access) registers every component type whose data the
///   parameter reads (as `Read`) or writes (as `Write`), the change ticks it
///   reads, and which types a match holds or lacks only where every match does;
/// - [`prepare`](Self::prepare) reports only storages of the viewed world,
///   and [`state_prepared`](Self::state_prepared) given them builds the state
///   [`state`](Self::state) would build from the same view;
/// - only an exclusive view builds a state that writes;
/// - [`for_each_required`](Self::for_each_required) reports only storages of
///   the world given to `state`, each holding every entity the parameter
///   keeps (a fetch: every entity its `locate` finds; a filter: every entity
///   that passes its presence conditions).
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::query::{QueryData, QueryFilter, WorldQuery};
///
/// #[derive(Component)]
/// struct Position(f32);
/// #[derive(Component)]
/// struct Frozen;
///
/// /// Code generic over either side of a query bounds on `WorldQuery`.
/// fn either_side<P: WorldQuery>() -> &'static str {
///     core::any::type_name::<P>()
/// }
/// fn fetch<Q: QueryData>() -> &'static str {
///     either_side::<Q>()
/// }
/// fn filter<F: QueryFilter>() -> &'static str {
///     either_side::<F>()
/// }
/// assert!(fetch::<(Entity, &Position)>().contains("Position"));
/// assert!(filter::<Without<Frozen>>().contains("Frozen"));
///
/// let mut world = World::new();
/// world.spawn(Position(1.0));
/// world.spawn((Position(2.0), Frozen));
/// let moving = world.query_filtered::<&Position, Without<Frozen>>().iter().count();
/// assert_eq!(moving, 1);
/// ```
pub unsafe trait WorldQuery {
    /// What the parameter captured from the world when its query was built:
    /// pointers into the storages it uses.
    type State<'w>: Copy;

    /// What a [`QueryState`](super::QueryState) keeps of the parameter
    /// between uses: where the world keeps each storage it looks at
    /// ([`StorageRoot`](super::StorageRoot), `None` for a type the world had
    /// not seen), a tuple of those for a parameter of several.
    type Prepared: Copy + Send + Sync + 'static;

    /// Registers every component type whose data the parameter reads or
    /// writes, the change ticks it reads, and the types every match holds
    /// (`require`) or lacks (`exclude`), so that schedulers can tell two
    /// queries apart.
    fn access(access: &mut Access);

    /// Finds the storages the parameter uses in the viewed world.
    fn prepare(view: WorldView<'_>) -> Self::Prepared;

    /// Captures the storages the parameter uses, found beforehand by
    /// [`prepare`](Self::prepare): no lookup by type. Only an exclusive view
    /// (mode [`Exclusive`](crate::query::Exclusive)) can build a state that
    /// writes.
    ///
    /// # Safety
    /// `prepared` was returned by `prepare` given a view of the world `view`
    /// borrows (the same world, not merely an equal one): the storages it
    /// names are that world's, which it keeps for as long as it lives.
    unsafe fn state_prepared<'w, M: ViewMode>(
        prepared: &Self::Prepared,
        view: WorldView<'w, M>,
    ) -> Self::State<'w>;

    /// Captures the storages the parameter uses, looking each up by type.
    /// Only an exclusive view can build a state that writes.
    #[inline]
    fn state<'w, M: ViewMode>(view: WorldView<'w, M>) -> Self::State<'w> {
        // SAFETY: prepared just now, from this very view.
        unsafe { Self::state_prepared(&Self::prepare(view.as_shared()), view) }
    }

    /// Calls `f` with every storage a matching entity must be in.
    fn for_each_required<'w>(state: &Self::State<'w>, f: &mut impl FnMut(Required<'w>));
}

macro_rules! tuple_world_query {
    ($($name:ident),*) => {
        #[allow(
            unused_variables,
            non_snake_case,
            clippy::unused_unit,
            reason = "the empty tuple uses no argument, and bindings are named after type parameters"
        )]
        // SAFETY: `access` registers every element's access, `prepare`,
        // `state_prepared` and `for_each_required` forward to the elements,
        // each given its own part; each element upholds the contract for its
        // part, and a match of the tuple is a match of every element.
        #[diagnostic::do_not_recommend]
        unsafe impl<$($name: WorldQuery),*> WorldQuery for ($($name,)*) {
            type State<'w> = ($($name::State<'w>,)*);
            type Prepared = ($($name::Prepared,)*);

            fn access(access: &mut Access) {
                $($name::access(access);)*
            }

            #[inline]
            fn prepare(view: WorldView<'_>) -> Self::Prepared {
                ($($name::prepare(view),)*)
            }

            #[inline]
            unsafe fn state_prepared<'w, M: ViewMode>(
                prepared: &Self::Prepared,
                view: WorldView<'w, M>,
            ) -> Self::State<'w> {
                let ($($name,)*) = prepared;
                // SAFETY: each element's part of `prepared` came from its own
                // `prepare`, inside the tuple's, on a view of the world `view`
                // borrows (the caller's contract), as its `state_prepared`
                // requires.
                ($(unsafe { $name::state_prepared($name, view) },)*)
            }

            #[inline]
            fn for_each_required<'w>(state: &Self::State<'w>, f: &mut impl FnMut(Required<'w>)) {
                let ($($name,)*) = state;
                $($name::for_each_required($name, f);)*
            }
        }
    };
}

crate::util::macros::all_tuples!(tuple_world_query: P15, P14, P13, P12, P11, P10, P9, P8, P7, P6, P5, P4, P3, P2, P1, P0);

/// The [`WorldQuery`] of a parameter that wraps `P` but keeps entities `P`
/// would not (`Option<Q>`, `Or<(..)>`): `P`'s storages and state, its access
/// recorded as optional (it reads what `P` reads, but promises nothing about
/// which types a match holds), and no storage required.
macro_rules! optional_world_query {
    ($(#[$attr:meta])* impl<$param:ident> for $wrapper:ty) => {
        $(#[$attr])*
        // SAFETY: `P`'s access is registered (as optional: a match need not
        // hold what `P` requires), its storages and state are `P`'s, built by
        // `P`, and nothing is required, which every entity satisfies.
        unsafe impl<$param: $crate::query::WorldQuery> $crate::query::WorldQuery for $wrapper {
            type State<'w> = $param::State<'w>;
            type Prepared = $param::Prepared;

            fn access(access: &mut $crate::access::Access) {
                let mut inner = $crate::access::Access::new();
                $param::access(&mut inner);
                access.add_optional(&inner);
            }

            #[inline]
            fn prepare(view: $crate::view::WorldView<'_>) -> Self::Prepared {
                $param::prepare(view)
            }

            #[inline]
            unsafe fn state_prepared<'w, M: $crate::view::ViewMode>(
                prepared: &Self::Prepared,
                view: $crate::view::WorldView<'w, M>,
            ) -> Self::State<'w> {
                // SAFETY: the wrapper prepares exactly as `P`, so `prepared`
                // came from `P::prepare` on a view of the world `view`
                // borrows (the caller's contract), as `P::state_prepared`
                // requires.
                unsafe { $param::state_prepared(prepared, view) }
            }

            #[inline]
            fn for_each_required<'w>(
                _: &Self::State<'w>,
                _: &mut impl FnMut($crate::query::Required<'w>),
            ) {
            }
        }
    };
}

pub(super) use optional_world_query;
