//! The arrays of a group, handed out whole for loops that want slices (SIMD).

use core::any::type_name;

use crate::component::{Component, ComponentId};
use crate::entity::Entity;
use crate::error::Error;

use super::Query;
use super::column::{Column, Required};
use super::data::QueryData;
use super::filter::QueryFilter;
use super::mut_column::MutColumn;

/// A fetch whose items can be handed out as whole slices: `&T` as `&[T]`,
/// `&mut T` as `&mut [T]`, `Entity` as `&[Entity]`, and tuples of these.
///
/// A `&mut [T]` of a type that tracks changes marks every value in it
/// changed when it is handed out: a plain slice cannot tell which it writes.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Position(f32);
/// #[derive(Component)]
/// struct Velocity(f32);
///
/// let mut world = World::new();
/// world.group::<(Position, Velocity)>()?;
/// world.spawn((Position(1.0), Velocity(2.0)));
/// let mut query = world.query::<(&mut Position, &Velocity)>();
/// let (positions, velocities): (&mut [Position], &[Velocity]) = query.slices()?;
/// positions[0].0 += velocities[0].0;
/// assert_eq!(positions[0].0, 3.0);
/// # Ok::<(), Error>(())
/// ```
///
/// # Safety
/// `slices` returns exactly the values `fetch_aligned` would return for
/// positions `0..entities.len()`, under the same aliasing rules.
pub unsafe trait SliceQueryData: QueryData {
    /// The slices, borrowed for `'q`.
    type Slices<'q>;

    /// The first `entities.len()` values of every column, where `entities` is the
    /// prefix of a group that owns every column.
    ///
    /// # Safety
    /// Every column of `state` is owned by the group whose packed prefix is
    /// `entities`, the world stays borrowed as the state requires during `'q`,
    /// nothing else of the query is live during `'q`, and the state belongs to
    /// a query whose access check passed.
    unsafe fn slices<'q>(state: &Self::State<'_>, entities: &'q [Entity]) -> Self::Slices<'q>;
}

// SAFETY: the first `len` values of an aligned column are what `fetch_aligned` reads.
unsafe impl<T: Component> SliceQueryData for &T {
    type Slices<'q> = &'q [T];

    unsafe fn slices<'q>(state: &Column<'_, T>, entities: &'q [Entity]) -> &'q [T] {
        // SAFETY: the group owns this column, so its prefix is within it; the
        // world stays borrowed during `'q` (the caller's contract), and the
        // query's checked access leaves no `&mut T` beside this read.
        unsafe { state.slice(entities.len()) }
    }
}

// SAFETY: the first `len` values of an aligned, exclusive column are the
// values `fetch_aligned` hands out mutably for positions `0..len`, under the
// same rule (nothing else references them while they live). A tracked type's
// values are all marked changed, since the slice may write any.
unsafe impl<T: Component> SliceQueryData for &mut T {
    type Slices<'q> = &'q mut [T];

    unsafe fn slices<'q>(state: &MutColumn<'_, T>, entities: &'q [Entity]) -> &'q mut [T] {
        // SAFETY: the group owns this column, so its prefix is within it; the
        // column is exclusive, and the world stays borrowed with nothing else
        // of the query live during `'q` (the caller's contract), so no other
        // reference to those values or their ticks exists.
        unsafe { state.slice_mut(entities.len()) }
    }
}

// SAFETY: an entity's item is the entity itself.
unsafe impl SliceQueryData for Entity {
    type Slices<'q> = &'q [Entity];

    unsafe fn slices<'q>(_: &(), entities: &'q [Entity]) -> &'q [Entity] {
        entities
    }
}

macro_rules! tuple_slices {
    ($($name:ident),*) => {
        #[allow(
            non_snake_case,
            clippy::unused_unit,
            unused_variables,
            reason = "bindings are named after type parameters; the empty tuple uses nothing"
        )]
        // SAFETY: every element hands out, for the same prefix `entities`,
        // the values its own `fetch_aligned` would; the tuple's
        // `fetch_aligned` is the elements' side by side.
        unsafe impl<$($name: SliceQueryData),*> SliceQueryData for ($($name,)*) {
            type Slices<'q> = ($($name::Slices<'q>,)*);

            unsafe fn slices<'q>(
                state: &Self::State<'_>,
                entities: &'q [Entity],
            ) -> Self::Slices<'q> {
                let ($($name,)*) = state;
                // SAFETY: every element's columns are owned by the group
                // whose prefix is `entities`, the world stays borrowed and
                // nothing else of the query is live during `'q` (the caller's
                // contract); the query's access check keeps the elements'
                // columns apart where one writes, so their slices do not alias.
                ($(unsafe { $name::slices($name, entities) },)*)
            }
        }
    };
}

crate::util::macros::all_tuples!(tuple_slices: S15, S14, S13, S12, S11, S10, S9, S8, S7, S6, S5, S4, S3, S2, S1, S0);

impl<Q: SliceQueryData, F: QueryFilter> Query<'_, Q, F> {
    /// The whole arrays of the group that serves this query, for loops that
    /// want slices (and the vectorisation they allow).
    ///
    /// Available when the query fetches only `&T`, `&mut T` and `Entity`, has
    /// no filter, and its components are exactly those of one group (see
    /// [`World::group`](crate::World::group)); the slices then hold every match,
    /// row `i` of each slice belonging to the same entity. Otherwise the error
    /// is [`Error::NotGrouped`].
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    ///
    /// let mut world = World::new();
    /// world.group::<(Position, Velocity)>()?;
    /// let e = world.spawn((Position(1.0), Velocity(0.5)));
    /// let mut query = world.query::<(Entity, &mut Position, &Velocity)>();
    /// let (entities, positions, velocities) = query.slices()?;
    /// for (p, v) in positions.iter_mut().zip(velocities) {
    ///     p.0 += v.0;
    /// }
    /// assert_eq!((entities, positions[0].0), (&[e][..], 1.5));
    /// assert!(world.query::<&Position>().slices().is_err(), "not the whole group");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn slices(&mut self) -> Result<Q::Slices<'_>, Error> {
        let not_grouped = Error::NotGrouped {
            query: type_name::<Q>(),
        };
        if !F::KEEPS_ALL {
            return Err(not_grouped);
        }
        let mut components: Vec<Option<ComponentId>> = Vec::new();
        let mut spans = Vec::new();
        let mut prefix: Option<&[Entity]> = None;
        let view = self.view();
        Q::for_each_required(self.data_ref(), &mut |required: Required<'_>| {
            if !components.contains(&required.component) {
                components.push(required.component);
            }
            let group = required.component.and_then(|id| view.group_span(id));
            spans.push(group);
            if let Some(span) = group {
                prefix = Some(&required.entities[..span.len]);
            }
        });
        let Some(Some(first)) = spans.first().copied() else {
            return Err(not_grouped);
        };
        let one_group = spans
            .iter()
            .all(|span| span.is_some_and(|span| span.group == first.group));
        if !one_group || components.len() != first.owned {
            return Err(not_grouped);
        }
        let entities = prefix.expect("a grouped column gave its prefix");
        // SAFETY: every column is owned by this group, whose prefix `entities` is;
        // `&mut self` keeps the rest of the query dead while the slices live,
        // the query borrows the world for longer, and `Q`'s access was checked
        // when the query was built.
        Ok(unsafe { Q::slices(self.data_ref(), entities) })
    }
}
