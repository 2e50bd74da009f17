//! The world's entry points to queries: `query`, `query_filtered`, `query_ref`.

use crate::query::{Query, QueryData, QueryFilter, ReadOnlyQueryData};

use super::World;

impl World {
    /// A query over every entity that holds what `Q` fetches.
    ///
    /// Borrows the world exclusively, so `Q` may write (`&mut T`).
    ///
    /// # Panics
    /// If `Q` asks for `&mut T` together with any other access to `T`.
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
    /// world.spawn((Position(0.0), Velocity(1.0)));
    /// for (p, v) in world.query::<(&mut Position, &Velocity)>().iter_mut() {
    ///     p.0 += v.0;
    /// }
    /// ```
    pub fn query<Q: QueryData>(&mut self) -> Query<'_, Q> {
        Query::new(self.data_view_mut())
    }

    /// A query over every entity that holds what `Q` fetches and passes `F`.
    ///
    /// # Panics
    /// If `Q` asks for `&mut T` together with any other access to `T`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    /// #[derive(Component)]
    /// struct Burning;
    ///
    /// let mut world = World::new();
    /// world.spawn((Health(3), Burning));
    /// world.spawn(Health(3));
    /// world.query_filtered::<&mut Health, With<Burning>>().for_each(|h| h.0 -= 1);
    /// let total: i32 = world.query::<&Health>().iter().map(|h| h.0).sum();
    /// assert_eq!(total, 5);
    /// ```
    pub fn query_filtered<Q: QueryData, F: QueryFilter>(&mut self) -> Query<'_, Q, F> {
        Query::new(self.data_view_mut())
    }

    /// A read-only query through a shared borrow, so several can be used at
    /// once, or beside [`World::get`].
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
    /// world.spawn((Position(0.0), Target(goal)));
    /// let positions = world.query_ref::<&Position>();
    /// for (p, t) in world.query_ref::<(&Position, &Target)>().iter() {
    ///     let distance = positions.get(t.0)?.0 - p.0;
    ///     assert_eq!(distance, 10.0);
    /// }
    /// # Ok::<(), Error>(())
    /// ```
    pub fn query_ref<Q: ReadOnlyQueryData>(&self) -> Query<'_, Q> {
        Query::new(self.data_view())
    }
}
