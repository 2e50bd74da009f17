//! `World::group`: declaring an owning group.

use crate::bundle::Bundle;
use crate::error::Error;

use super::World;

impl World {
    /// Declares an owning group: the entities holding every type in `G` (a tuple of
    /// component types) are kept packed at the front of each of those types'
    /// storages, in the same order.
    ///
    /// A query that requires those types then reads them as plain zipped
    /// arrays, with no per-entity lookup and no alignment check, and
    /// [`Query::slices`](crate::Query::slices) hands out the arrays themselves.
    /// The price is paid on structural changes: adding or removing a grouped
    /// type swaps the entity into or out of the packed part of each storage.
    ///
    /// Declaring the same group again does nothing. A component type can belong
    /// to one group only: declaring a group that shares a type with another is
    /// [`Error::GroupConflict`], naming both groups. Fewer than two distinct
    /// types is [`Error::GroupTooSmall`].
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Copy)]
    /// struct Position(f32);
    /// #[derive(Component, Clone, Copy)]
    /// struct Velocity(f32);
    /// #[derive(Component)]
    /// struct Health(u32);
    ///
    /// let mut world = World::new();
    /// world.group::<(Position, Velocity)>()?;
    /// world.spawn_batch((0..100).map(|i| (Position(i as f32), Velocity(1.0))));
    /// world.spawn(Position(-1.0)); // outside the group: no velocity
    ///
    /// let mut movers = world.query::<(&mut Position, &Velocity)>();
    /// let (positions, velocities) = movers.slices()?;
    /// for (p, v) in positions.iter_mut().zip(velocities) {
    ///     p.0 += v.0;
    /// }
    /// assert_eq!(positions.len(), 100);
    ///
    /// let err = world.group::<(Velocity, Health)>().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "cannot declare the group `(Velocity, Health)`: `Velocity` is already owned by \
    ///      the group `(Position, Velocity)`, and a component type can belong to one group only"
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn group<G: Bundle>(&mut self) -> Result<(), Error> {
        self.transaction().declare_group::<G>()
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    #[derive(Component, Debug, PartialEq)]
    struct A(u32);
    #[derive(Component, Debug, PartialEq)]
    struct B(u32);
    #[derive(Component, Debug, PartialEq)]
    struct C(u32);

    /// Declaring a group packs the entities that already hold every owned type.
    #[test]
    fn declaring_packs_existing_members() {
        let mut world = World::new();
        let mut members = Vec::new();
        for i in 0..50 {
            match i % 3 {
                0 => members.push(world.spawn((A(i), B(i)))),
                1 => drop(world.spawn(A(i))),
                _ => drop(world.spawn(B(i))),
            }
        }
        world.group::<(A, B)>().unwrap();
        world.assert_invariants();
        let view = world.data_view();
        let span = view
            .group_span(view.storages().id_of::<A>().unwrap())
            .unwrap();
        assert_eq!(span.len, members.len());
    }

    /// Every structural change keeps the prefix packed and aligned.
    #[test]
    fn structural_changes_keep_the_invariants() {
        let mut world = World::new();
        world.group::<(A, B)>().unwrap();
        let ids: Vec<_> = (0..60).map(|i| world.spawn((A(i), B(i), C(i)))).collect();
        world.assert_invariants();
        for (n, &e) in ids.iter().enumerate() {
            match n % 5 {
                0 => drop(world.remove::<A>(e).unwrap()),
                1 => drop(world.remove::<C>(e).unwrap()),
                2 => world.despawn(e).unwrap(),
                3 => drop(world.remove::<B>(e).unwrap()),
                _ => {}
            }
            world.assert_invariants();
        }
        let alive: Vec<_> = ids.iter().copied().filter(|&e| world.is_alive(e)).collect();
        for e in alive {
            world.insert(e, A(1)).unwrap();
            world.insert(e, B(1)).unwrap();
            world.assert_invariants();
        }
        world.clear();
        world.assert_invariants();
        world.spawn((A(0), B(0)));
        world.assert_invariants();
    }
}
