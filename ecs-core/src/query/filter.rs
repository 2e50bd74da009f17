//! Which entities a query keeps: `With<T>`, `Without<T>`, `Or<(..)>` and tuples of filters.

use core::marker::PhantomData;

use crate::access::Access;
use crate::component::Component;
use crate::entity::Entity;
use crate::error::Error;
use crate::view::{ViewMode, WorldView};

use super::chunk;
use super::column::{Presence, Required, StorageRoot};
use super::probe::Seat;
use super::world_query::{WorldQuery, optional_world_query};
#[cfg(doc)]
use super::{Added, Changed};

/// A condition on which components an entity holds, checked per entity.
///
/// Filters look only at which entities hold a type, and at change ticks,
/// never at its data, so a filter on `T` can sit beside a `&mut T` fetch.
/// Tuples of filters mean "all of", [`Or`] means "any of". [`Added<T>`] and
/// [`Changed<T>`] keep entities whose tracked `T` is new since a tick.
///
/// What a filter captures from the world, and the types it records as held
/// or lacked, come from [`WorldQuery`], which fetches share. The trait is
/// sealed: queries trust a filter's state to come from their own world and
/// to read no component data while mutable items are alive, which only the
/// filters of this crate can promise.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Health(i32);
/// #[derive(Component)]
/// struct Burning;
/// #[derive(Component)]
/// struct Boss;
///
/// let mut world = World::new();
/// let minion = world.spawn((Health(10), Burning));
/// let boss = world.spawn((Health(99), Burning, Boss));
/// world
///     .query_filtered::<&mut Health, (With<Burning>, Without<Boss>)>()
///     .iter_mut()
///     .for_each(|h| h.0 -= 1);
/// assert_eq!(world.get::<Health>(minion)?.0, 9);
/// assert_eq!(world.get::<Health>(boss)?.0, 99);
/// # Ok::<(), Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a query filter",
    label = "not a filter",
    note = "filters are `With<T>`, `Without<T>`, `Added<T>`, `Changed<T>`, `Or<(F1, F2, ..)>` \
            and tuples of filters"
)]
pub trait QueryFilter: WorldQuery + sealed::Sealed {
    /// Whether the filter keeps every entity, whatever it holds (`()` and
    /// tuples of such filters), so that it can be skipped altogether.
    const KEEPS_ALL: bool = false;

    /// Whether some part of the filter reads change ticks ([`Added`],
    /// [`Changed`]), so that it must wait until every presence condition of
    /// its query has passed. When false, [`matches_ticks`](Self::matches_ticks)
    /// passes every entity and queries skip it.
    const READS_TICKS: bool = false;

    /// Whether `entity` passes the filter's conditions on which components
    /// it holds: `With`, `Without`, and the type an `Added` or `Changed`
    /// looks at. Reads no change tick. `seat` says where the candidate was
    /// found: at a position of the dense entities a query walks, where a
    /// filter on that very storage answers without probing its sparse
    /// index, or named by id.
    ///
    /// This is the filter's one per-entity form of its presence conditions;
    /// [`presence_chunk`](Self::presence_chunk) is the one per-chunk form.
    fn matches_presence(state: &Self::State<'_>, entity: Entity, seat: Seat<'_>) -> bool;

    /// Whether `entity` passes the filter's conditions on change ticks,
    /// found at `seat` as for [`matches_presence`](Self::matches_presence).
    ///
    /// Asked only once `entity` passed every presence condition of its query
    /// (this filter's and the fetch's required components): those are what
    /// makes two queries disjoint ([`Access::is_disjoint`]), so a query never
    /// reads a tick of an entity that a disjoint query may be writing. The
    /// one per-entity form of the tick conditions;
    /// [`ticks_chunk`](Self::ticks_chunk) is the per-chunk form.
    #[inline(always)]
    fn matches_ticks(state: &Self::State<'_>, entity: Entity, seat: Seat<'_>) -> bool {
        let _ = (state, entity, seat);
        true
    }

    /// [`matches_presence`](Self::matches_presence) for the `len` positions
    /// from `start` of `driver` (`len` at most 64, all within `driver`), as
    /// bits: bit `i` is set when `driver[start + i]` passes. Asked where the
    /// fetch's required components are known present.
    #[inline(always)]
    fn presence_chunk(state: &Self::State<'_>, driver: &[Entity], start: usize, len: usize) -> u64 {
        chunk::bits_where(driver, start, len, |entity, index| {
            Self::matches_presence(state, entity, Seat::Driver(driver, index))
        })
    }

    /// [`matches_ticks`](Self::matches_ticks) for the positions of the chunk
    /// of `len` from `start` of `driver` whose bits are set in `candidates`,
    /// as bits (a subset of `candidates`). Every candidate has passed every
    /// presence condition of its query, as for `matches_ticks`; no tick of
    /// another position may be read.
    #[inline(always)]
    fn ticks_chunk(
        state: &Self::State<'_>,
        driver: &[Entity],
        start: usize,
        len: usize,
        candidates: u64,
    ) -> u64 {
        let _ = len;
        if !Self::READS_TICKS {
            return candidates;
        }
        chunk::bits_among(driver, start, candidates, |entity, index| {
            Self::matches_ticks(state, entity, Seat::Driver(driver, index))
        })
    }

    /// `Ok` if `entity` passes [`matches_presence`](Self::matches_presence),
    /// otherwise the error that says why not.
    fn check_presence(state: &Self::State<'_>, entity: Entity) -> Result<(), Error>;

    /// `Ok` if `entity` passes [`matches_ticks`](Self::matches_ticks),
    /// otherwise the error that says why not; asked under the same condition.
    fn check_ticks(state: &Self::State<'_>, entity: Entity) -> Result<(), Error> {
        let _ = (state, entity);
        Ok(())
    }
}

pub(crate) mod sealed {
    /// Implemented by this crate's filters only.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a query filter: filters are sealed",
        label = "not one of the crate's filters",
        note = "build the condition from `With<T>`, `Without<T>`, `Added<T>`, `Changed<T>`, \
                `Or<(..)>` and tuples of them"
    )]
    pub trait Sealed {}
}

impl<T> sealed::Sealed for With<T> {}
impl<T> sealed::Sealed for Without<T> {}

/// Keeps entities that hold a `T`, without fetching it. Tags work here.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Enemy;
///
/// let mut world = World::new();
/// world.spawn(Enemy);
/// world.spawn(());
/// assert_eq!(world.query_filtered::<Entity, With<Enemy>>().iter().count(), 1);
/// ```
pub struct With<T>(PhantomData<fn() -> T>);

/// Keeps entities that do not hold a `T`.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Frozen;
///
/// let mut world = World::new();
/// world.spawn(Frozen);
/// world.spawn(());
/// assert_eq!(world.query_filtered::<Entity, Without<Frozen>>().iter().count(), 1);
/// ```
pub struct Without<T>(PhantomData<fn() -> T>);

/// Keeps entities that pass at least one of the filters in the tuple.
///
/// ```
/// # use ecs_core::prelude::*;
/// #[derive(Component)]
/// struct Enemy;
/// #[derive(Component)]
/// struct Player;
///
/// let mut world = World::new();
/// world.spawn(Enemy);
/// world.spawn(Player);
/// world.spawn(());
/// let either = world.query_filtered::<Entity, Or<(With<Enemy>, With<Player>)>>().iter().count();
/// assert_eq!(either, 2);
/// ```
pub struct Or<T>(PhantomData<fn() -> T>);

optional_world_query! {
    /// Any one of the filters may pass, so `Or` promises nothing about which
    /// types a match holds; the change ticks its filters read are still reads.
    impl<F> for Or<F>
}

/// `WorldQuery` and `QueryFilter` for a condition on whether an entity holds
/// `T`: the same code for `With` (`holds: true`) and `Without` (`holds:
/// false`), each branch on the constant compiled away.
macro_rules! presence_filter {
    ($filter:ident, holds: $holds:literal) => {
        // SAFETY: reads no component data; registers `T` as held by every
        // match (`With`) or lacked by every match (`Without`), which is what
        // `matches_presence` keeps; the one storage reported, for `With`
        // only, is `T`'s, which holds every entity that has a `T`.
        unsafe impl<T: Component> WorldQuery for $filter<T> {
            type State<'w> = Presence<'w, T>;
            type Prepared = Option<StorageRoot<T>>;

            fn access(access: &mut Access) {
                if $holds {
                    access.require::<T>();
                } else {
                    access.exclude::<T>();
                }
            }

            #[inline]
            fn prepare(view: WorldView<'_>) -> Self::Prepared {
                StorageRoot::find(view)
            }

            #[inline]
            unsafe fn state_prepared<'w, M: ViewMode>(
                prepared: &Self::Prepared,
                _: WorldView<'w, M>,
            ) -> Presence<'w, T> {
                // SAFETY: found in the world borrowed for `'w` (the caller's contract).
                unsafe { Presence::found(*prepared) }
            }

            #[inline]
            fn for_each_required<'w>(state: &Presence<'w, T>, f: &mut impl FnMut(Required<'w>)) {
                if $holds {
                    f(state.required());
                }
            }
        }

        impl<T: Component> QueryFilter for $filter<T> {
            #[inline(always)]
            fn matches_presence(state: &Presence<'_, T>, entity: Entity, _: Seat<'_>) -> bool {
                state.contains(entity) == $holds
            }

            fn check_presence(state: &Presence<'_, T>, entity: Entity) -> Result<(), Error> {
                if Self::matches_presence(state, entity, Seat::Anywhere) {
                    Ok(())
                } else if $holds {
                    Err(Error::missing::<T>(entity))
                } else {
                    Err(Error::ExcludedComponent {
                        entity,
                        component: core::any::type_name::<T>(),
                    })
                }
            }
        }
    };
}

presence_filter!(With, holds: true);
presence_filter!(Without, holds: false);

macro_rules! tuple_filter {
    ($($name:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<$($name: QueryFilter),*> sealed::Sealed for ($($name,)*) {}
        #[diagnostic::do_not_recommend]
        impl<$($name: QueryFilter),*> sealed::Sealed for Or<($($name,)*)> {}

        #[allow(
            unused_variables,
            non_snake_case,
            clippy::unused_unit,
            reason = "the empty tuple uses no argument, and bindings are named after type parameters"
        )]
        impl<$($name: QueryFilter),*> QueryFilter for ($($name,)*) {
            const KEEPS_ALL: bool = true $(&& $name::KEEPS_ALL)*;

            const READS_TICKS: bool = false $(|| $name::READS_TICKS)*;

            #[inline(always)]
            fn matches_presence(state: &Self::State<'_>, entity: Entity, seat: Seat<'_>) -> bool {
                let ($($name,)*) = state;
                true $(&& $name::matches_presence($name, entity, seat))*
            }

            #[inline(always)]
            fn matches_ticks(state: &Self::State<'_>, entity: Entity, seat: Seat<'_>) -> bool {
                let ($($name,)*) = state;
                true $(&& $name::matches_ticks($name, entity, seat))*
            }

            #[inline(always)]
            fn presence_chunk(
                state: &Self::State<'_>,
                driver: &[Entity],
                start: usize,
                len: usize,
            ) -> u64 {
                let ($($name,)*) = state;
                chunk::full(len) $(& $name::presence_chunk($name, driver, start, len))*
            }

            /// Each filter is given every candidate: all passed the query's
            /// presence conditions, so each may read their ticks, and a
            /// change filter keeps its whole-chunk comparison.
            #[inline(always)]
            fn ticks_chunk(
                state: &Self::State<'_>,
                driver: &[Entity],
                start: usize,
                len: usize,
                candidates: u64,
            ) -> u64 {
                let ($($name,)*) = state;
                candidates $(& $name::ticks_chunk($name, driver, start, len, candidates))*
            }

            fn check_presence(state: &Self::State<'_>, entity: Entity) -> Result<(), Error> {
                let ($($name,)*) = state;
                $($name::check_presence($name, entity)?;)*
                Ok(())
            }

            fn check_ticks(state: &Self::State<'_>, entity: Entity) -> Result<(), Error> {
                let ($($name,)*) = state;
                $($name::check_ticks($name, entity)?;)*
                Ok(())
            }
        }

        #[allow(
            unused_variables,
            non_snake_case,
            clippy::unused_unit,
            reason = "the empty tuple uses no argument, and bindings are named after type parameters"
        )]
        impl<$($name: QueryFilter),*> QueryFilter for Or<($($name,)*)> {
            const READS_TICKS: bool = false $(|| $name::READS_TICKS)*;

            /// An `Or` that reads no tick decides with the presence
            /// conditions; one that does decides wholly with the ticks, once
            /// the query's presence conditions (which an `Or` adds nothing
            /// to) have passed.
            #[inline(always)]
            fn matches_presence(state: &Self::State<'_>, entity: Entity, seat: Seat<'_>) -> bool {
                Self::READS_TICKS || Self::any(state, entity, seat)
            }

            #[inline(always)]
            fn matches_ticks(state: &Self::State<'_>, entity: Entity, seat: Seat<'_>) -> bool {
                !Self::READS_TICKS || Self::any(state, entity, seat)
            }

            fn check_presence(state: &Self::State<'_>, entity: Entity) -> Result<(), Error> {
                if Self::matches_presence(state, entity, Seat::Anywhere) {
                    Ok(())
                } else {
                    Err(Self::filtered_out(entity))
                }
            }

            fn check_ticks(state: &Self::State<'_>, entity: Entity) -> Result<(), Error> {
                if Self::matches_ticks(state, entity, Seat::Anywhere) {
                    Ok(())
                } else {
                    Err(Self::filtered_out(entity))
                }
            }
        }

        #[allow(
            unused_variables,
            non_snake_case,
            reason = "the empty tuple uses no argument, and bindings are named after type parameters"
        )]
        impl<$($name: QueryFilter),*> Or<($($name,)*)> {
            /// Whether `entity`, found at `seat`, passes any one of the
            /// filters, each deciding its presence before its ticks.
            #[inline(always)]
            fn any(state: &<Self as WorldQuery>::State<'_>, entity: Entity, seat: Seat<'_>) -> bool {
                let ($($name,)*) = state;
                false $(|| ($name::matches_presence($name, entity, seat)
                    && $name::matches_ticks($name, entity, seat)))*
            }

            #[cold]
            fn filtered_out(entity: Entity) -> Error {
                Error::FilteredOut {
                    entity,
                    filter: core::any::type_name::<Self>(),
                }
            }
        }
    };
}

crate::util::macros::all_tuples!(tuple_filter: F15, F14, F13, F12, F11, F10, F9, F8, F7, F6, F5, F4, F3, F2, F1, F0);
