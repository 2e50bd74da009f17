//! Iteration over the entities a query matches.

use core::iter::FusedIterator;
use core::marker::PhantomData;
use core::slice;

use crate::entity::{AliveIter, Entity};

use super::data::QueryData;
use super::filter::QueryFilter;

/// Where the candidate entities come from.
#[derive(Clone)]
pub(crate) enum Candidates<'w> {
    /// The dense entities of the smallest storage every match must be in.
    Dense(slice::Iter<'w, Entity>),
    /// Every live entity, when the query requires no component.
    Alive(AliveIter<'w>),
}

impl Iterator for Candidates<'_> {
    type Item = Entity;

    #[inline]
    fn next(&mut self) -> Option<Entity> {
        match self {
            Candidates::Dense(entities) => entities.next().copied(),
            Candidates::Alive(alive) => alive.next(),
        }
    }
}

/// The items of a query, one per matching entity, borrowed for `'q`.
///
/// Made by [`Query::iter`](super::Query::iter) and
/// [`Query::iter_mut`](super::Query::iter_mut). Candidates come from the smallest
/// storage the query requires; the other storages are probed through their sparse
/// index. `for_each`, `fold` and everything built on them (`count`, `sum`, ...)
/// run as one tight loop per candidate source.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Score(u32);
///
/// let mut world = World::new();
/// world.spawn_batch((1..=4).map(Score));
/// let total: u32 = world.query::<&Score>().iter().map(|s| s.0).sum();
/// assert_eq!(total, 10);
/// ```
pub struct QueryIter<'q, 'w, Q: QueryData, F: QueryFilter> {
    candidates: Candidates<'w>,
    data: Q::State<'w>,
    filter: F::State<'w>,
    _items: PhantomData<&'q ()>,
}

impl<'w, Q: QueryData, F: QueryFilter> QueryIter<'_, 'w, Q, F> {
    /// # Safety
    /// `candidates` yields only live, distinct entities of the world `data` and
    /// `filter` were built from, and that world stays borrowed as the states
    /// require for as long as the iterator's items live.
    pub(crate) unsafe fn new(
        candidates: Candidates<'w>,
        data: Q::State<'w>,
        filter: F::State<'w>,
    ) -> Self {
        Self {
            candidates,
            data,
            filter,
            _items: PhantomData,
        }
    }
}

impl<'q, Q: QueryData, F: QueryFilter> Iterator for QueryIter<'q, '_, Q, F> {
    type Item = Q::Item<'q>;

    #[inline]
    fn next(&mut self) -> Option<Q::Item<'q>> {
        loop {
            let entity = self.candidates.next()?;
            if !F::matches(&self.filter, entity) {
                continue;
            }
            // SAFETY: the constructor's contract: live, distinct candidates, so
            // each entity's item is handed out once.
            if let Some(item) = unsafe { Q::fetch(&self.data, entity) } {
                return Some(item);
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let upper = match &self.candidates {
            Candidates::Dense(entities) => entities.len(),
            Candidates::Alive(alive) => alive.size_hint().1.unwrap_or(usize::MAX),
        };
        (0, Some(upper))
    }

    #[inline]
    fn fold<B, G>(self, init: B, mut g: G) -> B
    where
        G: FnMut(B, Q::Item<'q>) -> B,
    {
        let (data, filter) = (self.data, self.filter);
        let mut step = move |acc: B, entity: Entity| {
            if !F::matches(&filter, entity) {
                return acc;
            }
            // SAFETY: as in `next`.
            match unsafe { Q::fetch(&data, entity) } {
                Some(item) => g(acc, item),
                None => acc,
            }
        };
        match self.candidates {
            Candidates::Dense(entities) => entities.fold(init, |acc, &entity| step(acc, entity)),
            Candidates::Alive(alive) => alive.fold(init, step),
        }
    }
}

impl<Q: QueryData, F: QueryFilter> FusedIterator for QueryIter<'_, '_, Q, F> {}
