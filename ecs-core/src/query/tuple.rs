//! `QueryData` for tuples: every element fetched, an entity matches if it matches them all.

use core::ops::Range;

use crate::entity::Entity;

use crate::access::Access;
use crate::view::{ViewMode, WorldView};

use super::column::Required;
use super::data::{QueryData, ReadOnlyQueryData};

macro_rules! tuple_data {
    ($(($name:ident, $location:ident)),*) => {
        #[allow(
            unused_variables,
            non_snake_case,
            clippy::unused_unit,
            reason = "the empty tuple uses no argument, and bindings are named after type parameters"
        )]
        // SAFETY: every element upholds the contract, and the tuple only forwards.
        #[diagnostic::do_not_recommend]
        unsafe impl<$($name: QueryData),*> QueryData for ($($name,)*) {
            type Item<'q> = ($($name::Item<'q>,)*);
            type ReadOnly = ($($name::ReadOnly,)*);
            type State<'w> = ($($name::State<'w>,)*);

            const LEAVES: usize = 0usize $(.saturating_add($name::LEAVES))*;
            const WRITES: bool = false $(|| $name::WRITES)*;

            fn access(access: &mut Access) {
                $($name::access(access);)*
            }

            type Prepared = ($($name::Prepared,)*);

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
                // SAFETY: forwarded under the caller's contract.
                ($(unsafe { $name::state_prepared($name, view) },)*)
            }

            fn readonly_state<'w>(
                state: &Self::State<'w>,
            ) -> <Self::ReadOnly as QueryData>::State<'w> {
                let ($($name,)*) = state;
                ($($name::readonly_state($name),)*)
            }

            #[inline]
            fn for_each_required<'w>(state: &Self::State<'w>, f: &mut impl FnMut(Required<'w>)) {
                let ($($name,)*) = state;
                $($name::for_each_required($name, f);)*
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
                // SAFETY: forwarded under the caller's contract; the access check
                // ruled out two elements reaching the same data mutably.
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
            unsafe fn fetch_aligned<'q>(
                state: &Self::State<'_>,
                entity: Entity,
                index: usize,
            ) -> Self::Item<'q> {
                let ($($name,)*) = state;
                // SAFETY: forwarded under the caller's contract: every element is aligned.
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
