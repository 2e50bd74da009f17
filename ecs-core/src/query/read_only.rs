//! Read-only queries used by value: items that borrow the world, not the query.

use crate::entity::Entity;
use crate::error::Error;

use super::data::ReadOnlyQueryData;
use super::filter::QueryFilter;
use super::iter::QueryIter;
use super::probe::{Seat, probe};
use super::{Query, single_of};

/// A read-only query, used by value: [`iter`](Self::iter), [`get`](Self::get)
/// and [`single`](Self::single) hand out items that borrow the world for the
/// query's whole lifetime `'w`, not the `Query` value itself.
///
/// A [`Query`] whose fetch only reads ([`ReadOnlyQueryData`]) is `Copy`, and this
/// trait, in the prelude, takes it by value. Method syntax tries by-value methods
/// before it borrows, so on such a query `query.single()` calls
/// [`ReadOnlyQuery::single`] rather than the inherent
/// [`Query::single`], whose items borrow the query. That is what lets a query be
/// built and read in one expression:
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Debug, PartialEq)]
/// struct Position(f32);
/// #[derive(Component)]
/// struct Player;
///
/// let mut world = World::new();
/// world.spawn(Position(0.0));
/// let p1 = world.spawn((Position(3.0), Player));
/// let (e, pos) = world.query::<(Entity, &Position)>().with::<Player>().single()?;
/// assert_eq!((e, pos), (p1, &Position(3.0)));
/// # Ok::<(), Error>(())
/// ```
///
/// Why this is sound: a read-only fetch never writes, so any number of copies of
/// the query, and all their items, may be alive at once; the world stays borrowed
/// (shared by [`query_ref`](crate::World::query_ref), exclusively by
/// [`query`](crate::World::query)) for `'w`, so nothing changes it while the
/// items live. A query that writes is neither `Copy` nor a `ReadOnlyQuery`: its
/// `single`, `get` and `iter` still borrow the query, so their items cannot outlive
/// a later [`iter_mut`](Query::iter_mut) or [`get_mut`](Query::get_mut):
///
/// ```compile_fail
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Health(i32);
///
/// let mut world = World::new();
/// world.spawn(Health(1));
/// let mut query = world.query::<&mut Health>();
/// let seen: &Health = query.single()?; // borrows `query`, not the world
/// for h in query.iter_mut() {         // error: `query` is still borrowed by `seen`
///     h.0 += 1;                       // ... which would alias `seen`
/// }
/// assert_eq!(seen.0, 1);
/// # Ok::<(), Error>(())
/// ```
///
/// The trait is sealed: only [`Query`] implements it.
pub trait ReadOnlyQuery: Copy + sealed::Sealed {
    /// What one matching entity yields, borrowed from the world for the query's lifetime.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::query::ReadOnlyQuery;
    ///
    /// #[derive(Component)]
    /// struct Score(u32);
    ///
    /// fn best<'w>(scores: impl ReadOnlyQuery<Item = &'w Score>) -> u32 {
    ///     scores.iter().map(|s| s.0).max().unwrap_or(0)
    /// }
    ///
    /// let mut world = World::new();
    /// world.spawn(Score(2));
    /// world.spawn(Score(7));
    /// assert_eq!(best(world.query::<&Score>()), 7);
    /// ```
    type Item;

    /// The iterator [`iter`](Self::iter) returns: [`QueryIter`], yielding [`Item`](Self::Item)s.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::query::{QueryIter, ReadOnlyQuery};
    ///
    /// #[derive(Component)]
    /// struct Score(u32);
    ///
    /// let mut world = World::new();
    /// world.spawn(Score(1));
    /// let scores: QueryIter<'_, '_, &Score, ()> = world.query::<&Score>().iter();
    /// assert_eq!(scores.count(), 1);
    /// ```
    type Iter: Iterator<Item = Self::Item>;

    /// Iterates the matching entities; the items borrow the world, so they may
    /// outlive the query value.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Debug, PartialEq)]
    /// struct Name(&'static str);
    ///
    /// let mut world = World::new();
    /// world.spawn(Name("a"));
    /// world.spawn(Name("b"));
    /// let mut names: Vec<&Name> = world.query::<&Name>().iter().collect();
    /// names.sort_by_key(|n| n.0);
    /// assert_eq!(names, [&Name("a"), &Name("b")]);
    /// ```
    fn iter(self) -> Self::Iter;

    /// The item of `entity`, borrowed from the world, or an error naming the
    /// entity and what it lacks (or holds, for `Without`), as [`Query::get`] says.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Target(Entity);
    ///
    /// let mut world = World::new();
    /// let goal = world.spawn(Position(10.0));
    /// let hunter = world.spawn((Position(0.0), Target(goal)));
    /// let target = world.query::<&Target>().get(hunter)?.0;
    /// assert_eq!(world.query::<&Position>().get(target)?.0, 10.0);
    /// assert!(world.query::<&Target>().get(goal).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    fn get(self, entity: Entity) -> Result<Self::Item, Error>;

    /// The item of the one entity that matches, borrowed from the world; an
    /// error if none or several do.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Debug, PartialEq)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Player;
    ///
    /// let mut world = World::new();
    /// let p1 = world.spawn((Position(1.0), Player));
    /// let (e, pos) = world.query::<(Entity, &Position)>().with::<Player>().single()?;
    /// assert_eq!((e, pos), (p1, &Position(1.0)));
    ///
    /// world.spawn((Position(2.0), Player));
    /// let err = world.query::<&Position>().with::<Player>().single().unwrap_err();
    /// assert!(matches!(err, Error::MultipleMatches { .. }));
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// The item keeps the world borrowed, so the world cannot change while it lives:
    ///
    /// ```compile_fail
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Position(f32);
    ///
    /// let mut world = World::new();
    /// world.spawn(Position(1.0));
    /// let pos = world.query::<&Position>().single()?;
    /// world.spawn(Position(2.0)); // error: `world` is still borrowed by `pos`
    /// assert_eq!(pos.0, 1.0);
    /// # Ok::<(), Error>(())
    /// ```
    fn single(self) -> Result<Self::Item, Error>;
}

mod sealed {
    /// Implemented by [`Query`](super::Query) only.
    pub trait Sealed {}
}

impl<Q: ReadOnlyQueryData, F: QueryFilter> sealed::Sealed for Query<'_, Q, F> {}

impl<'w, Q: ReadOnlyQueryData, F: QueryFilter> ReadOnlyQuery for Query<'w, Q, F> {
    type Item = Q::Item<'w>;
    type Iter = QueryIter<'w, 'w, Q, F>;

    #[inline]
    fn iter(self) -> QueryIter<'w, 'w, Q, F> {
        self.into_iter()
    }

    #[inline]
    fn get(self, entity: Entity) -> Result<Q::Item<'w>, Error> {
        if self.may_probe(entity) {
            // SAFETY: `may_probe` passed: the query requires a storage, which
            // holds only live entities and without which a probe fails, or
            // `entity` is alive. The state borrows the world for `'w`, and `Q`
            // never writes, so its items may overlap each other and those of
            // every copy of this query for all of `'w`.
            let item = unsafe { probe::<Q, F>(&self.data, &self.filter, entity, Seat::Anywhere) };
            if let Some(item) = item {
                return Ok(item);
            }
        }
        Err(self.mismatch(entity, Q::missing(&self.data, entity)))
    }

    #[inline]
    fn single(self) -> Result<Q::Item<'w>, Error> {
        single_of::<Q, _>(self.into_iter())
    }
}
