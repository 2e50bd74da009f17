//! Several entities' items at once: `iter_many` (read-only, any ids) and
//! `get_many_mut` (mutable, distinct ids).

use crate::entity::Entity;
use crate::error::Error;

use super::data::QueryData;
use super::filter::QueryFilter;
use super::probe::{Seat, probe};
use super::{Query, ReadOnlyItem};

impl<'w, Q: QueryData, F: QueryFilter> Query<'w, Q, F> {
    /// The read-only items of `entities` that match, in the order given
    /// (an entity given twice yields twice); the others are passed over.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let a = world.spawn(Health(1));
    /// let none = world.spawn(());
    /// let b = world.spawn(Health(2));
    /// let query = world.query::<&Health>();
    /// let found: Vec<i32> = query.iter_many([b, none, a]).map(|h| h.0).collect();
    /// assert_eq!(found, [2, 1]);
    /// ```
    pub fn iter_many<I: IntoIterator<Item = Entity>>(
        &self,
        entities: I,
    ) -> impl Iterator<Item = ReadOnlyItem<'_, Q>> {
        entities
            .into_iter()
            .filter_map(|entity| self.get(entity).ok())
    }

    /// The full items (`&mut T` included) of `N` distinct entities at
    /// once, in the order given.
    ///
    /// # Errors
    /// [`Error::RepeatedEntity`] if an entity is given twice (two `&mut` to
    /// one value would alias), else the error [`get_mut`](Self::get_mut)
    /// gives for the first entity that does not match.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let a = world.spawn(Health(10));
    /// let b = world.spawn(Health(3));
    /// let mut query = world.query::<&mut Health>();
    /// let [attacker, target] = query.get_many_mut([a, b])?;
    /// target.0 -= attacker.0 / 2;
    /// assert_eq!(
    ///     query.get_many_mut([a, a]).err(),
    ///     Some(Error::RepeatedEntity { entity: a })
    /// );
    /// assert_eq!(world.get::<Health>(b)?.0, -2);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn get_many_mut<const N: usize>(
        &mut self,
        entities: [Entity; N],
    ) -> Result<[Q::Item<'_>; N], Error> {
        for (at, entity) in entities.iter().enumerate() {
            if entities[..at].contains(entity) {
                return Err(Error::RepeatedEntity { entity: *entity });
            }
        }
        let mut items: [Option<Q::Item<'_>>; N] = [const { None }; N];
        for (slot, &entity) in items.iter_mut().zip(&entities) {
            let item = if self.may_probe(entity) {
                // SAFETY: `may_probe` passed (as in `get_mut`): the query
                // requires a storage, which holds only live entities and
                // without which a probe fails, or `entity` is alive. The
                // states are this query's (access checked) over a world
                // borrowed for `'w`. The entities are distinct (checked
                // above) and an item reaches only its own entity's values
                // and ticks, so the `N` items never alias one another;
                // `&mut self` keeps every other item of this query dead
                // while they live. Exercised by `tests/systems/params.rs`
                // (`get_many_mut_*`).
                unsafe { probe::<Q, F>(&self.data, &self.filter, entity, Seat::Anywhere) }
            } else {
                None
            };
            match item {
                Some(item) => *slot = Some(item),
                None => return Err(self.mismatch(entity, Q::missing(&self.data, entity))),
            }
        }
        Ok(items.map(|item| item.expect("every slot was filled above")))
    }
}
