//! `QueryData` for tuples: every element fetched, an entity matches if it matches them all
//! (their `WorldQuery` is in `world_query.rs`, shared with tuples of filters).

use core::ops::Range;

use crate::entity::Entity;

use super::data::{QueryData, ReadOnlyQueryData};
use super::world_query::WorldQuery;

macro_rules! tuple_data {
    ($(($name:ident, $location:ident)),*) => {
        #[allow(
            unused_variables,
            non_snake_case,
            clippy::unused_unit,
            reason = "the empty tuple uses no argument, and bindings are named after type parameters"
        )]
        // SAFETY: the tuple's `WorldQuery` (`world_query.rs`) registers every
        // element's access; `LEAVES` and `WRITES` sum and join the elements'
        // (so a query checks the tuple whenever two of its columns could
        // conflict), and every method forwards to the elements, each given
        // its own part of the state and location; each element upholds the
        // contract for its part.
        #[diagnostic::do_not_recommend]
        unsafe impl<$($name: QueryData),*> QueryData for ($($name,)*) {
            type Item<'q> = ($($name::Item<'q>,)*);
            type ReadOnly = ($($name::ReadOnly,)*);

            const LEAVES: usize = 0usize $(.saturating_add($name::LEAVES))*;
            const WRITES: bool = false $(|| $name::WRITES)*;

            fn readonly_state<'w>(
                state: &Self::State<'w>,
            ) -> <Self::ReadOnly as WorldQuery>::State<'w> {
                let ($($name,)*) = state;
                ($($name::readonly_state($name),)*)
            }

            type Location = ($($name::Location,)*);

            #[inline(always)]
            fn locate(state: &Self::State<'_>, entity: Entity) -> Option<Self::Location> {
                let ($($name,)*) = state;
                Some(($($name::locate($name, entity)?,)*))
            }

            #[inline(always)]
            unsafe fn fetch_located<'q>(
                state: &Self::State<'_>,
                entity: Entity,
                location: Self::Location,
            ) -> Self::Item<'q> {
                let ($($name,)*) = state;
                let ($($location,)*) = location;
                // SAFETY: each element's location is what its own `locate`
                // returned for `entity` inside the tuple's `locate`. The
                // caller's guarantees (entity alive, world borrowed for `'q`,
                // no other writing item of it live) hold for every element,
                // and the query's access check, which covered every element's
                // registrations, rules out two elements reaching one type
                // where either writes, so their items do not alias.
                ($(unsafe { $name::fetch_located($name, entity, $location) },)*)
            }

            #[inline(always)]
            fn aligned(state: &Self::State<'_>, driver: &[Entity], range: Range<usize>) -> bool {
                let ($($name,)*) = state;
                true $(&& $name::aligned($name, driver, range.clone()))*
            }

            #[inline(always)]
            fn realign(state: &mut Self::State<'_>, driver: &[Entity], at: usize) {
                let ($($name,)*) = state;
                $($name::realign($name, driver, at);)*
            }

            #[inline(always)]
            fn record_shifts(state: &Self::State<'_>, out: &mut impl FnMut(usize)) {
                let ($($name,)*) = state;
                $($name::record_shifts($name, out);)*
            }

            #[inline(always)]
            fn replay_shifts(
                state: &mut Self::State<'_>,
                saved: &mut &[usize],
                driver: &[Entity],
                at: usize,
            ) {
                let ($($name,)*) = state;
                $($name::replay_shifts($name, saved, driver, at);)*
            }

            #[inline(always)]
            unsafe fn fetch_aligned<'q>(
                state: &Self::State<'_>,
                entity: Entity,
                index: usize,
            ) -> Self::Item<'q> {
                let ($($name,)*) = state;
                // SAFETY: the tuple's `aligned` holds only where every
                // element's does, under the shifts `realign` gave each, so
                // the caller's alignment guarantee holds per element; the
                // rest (entity alive, world borrowed for `'q`, no other
                // writing item of it live) holds for each, and the query's
                // access check keeps the elements' items from aliasing.
                ($(unsafe { $name::fetch_aligned($name, entity, index) },)*)
            }

            fn missing(state: &Self::State<'_>, entity: Entity) -> Option<&'static str> {
                let ($($name,)*) = state;
                None $(.or_else(|| $name::missing($name, entity)))*
            }
        }

        // SAFETY: a tuple of read-only fetches writes nothing.
        #[diagnostic::do_not_recommend]
        unsafe impl<$($name: ReadOnlyQueryData),*> ReadOnlyQueryData for ($($name,)*) {}
    };
}

crate::util::macros::all_tuple_pairs!(
    tuple_data: (Q15, L15), (Q14, L14), (Q13, L13), (Q12, L12), (Q11, L11), (Q10, L10), (Q9, L9),
    (Q8, L8), (Q7, L7), (Q6, L6), (Q5, L5), (Q4, L4), (Q3, L3), (Q2, L2), (Q1, L1), (Q0, L0)
);
