//! The world's entry points to queries: `query`, `query_filtered`, `query_ref`,
//! and prepared ones: `query_state`, `query_state_filtered`, and the
//! methods of [`QueryState`] that take the world.

use crate::query::{
    KeptMatches, Query, QueryData, QueryFilter, QueryIter, QueryState, Reach, ReadOnlyQueryData,
};
use crate::view::WorldView;

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
        self.query_filtered::<Q, ()>()
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
        let view = WorldView::exclusive(&mut self.data);
        // SAFETY: the table is this world's own, and `view` borrows this
        // world's data, as every call on the table does.
        unsafe { self.kept_matches.query(view) }
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
        // SAFETY: the table is this world's own, and the view borrows this
        // world's data, as every call on the table does.
        unsafe { self.kept_matches.query(self.data_view()) }
    }

    /// A query over every entity that holds what `Q` fetches, prepared to
    /// be used every frame: see [`QueryState`]. Where a one-off
    /// [`query`](Self::query) looks up each type it names every time it is
    /// built, a state does so once.
    ///
    /// # Panics
    /// If `Q` asks for `&mut T` together with any other access to `T`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let mut regen = world.query_state::<&mut Health>();
    /// let e = world.spawn(Health(1));
    /// regen.query_mut(&mut world).for_each(|h| h.0 += 1);
    /// regen.query_mut(&mut world).for_each(|h| h.0 += 1);
    /// assert_eq!(world.get::<Health>(e)?.0, 3);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn query_state<Q: QueryData>(&self) -> QueryState<Q> {
        QueryState::new(self.data_view())
    }

    /// A query over every entity that holds what `Q` fetches and passes `F`,
    /// prepared to be used every frame: see [`QueryState`].
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
    /// let mut burn = world.query_state_filtered::<&mut Health, With<Burning>>();
    /// let hot = world.spawn((Health(3), Burning));
    /// let cold = world.spawn(Health(3));
    /// burn.query_mut(&mut world).for_each(|h| h.0 -= 1);
    /// assert_eq!((world.get::<Health>(hot)?.0, world.get::<Health>(cold)?.0), (2, 3));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn query_state_filtered<Q: QueryData, F: QueryFilter>(&self) -> QueryState<Q, F> {
        QueryState::new(self.data_view())
    }
}

impl World {
    /// The matches this world keeps per query type, for queries built
    /// elsewhere (a system's) to narrow into.
    pub(crate) fn kept_matches(&self) -> &KeptMatches {
        &self.kept_matches
    }
}

impl<Q: QueryData, F: QueryFilter> QueryState<Q, F> {
    /// The query over `world`, which may write (`&mut T`), built from the
    /// kept storages: what [`World::query_filtered`] builds, without looking
    /// any type up.
    ///
    /// # Panics
    /// If `world` is not the world this state was made from.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Score(u32);
    ///
    /// let mut world = World::new();
    /// let mut scores = world.query_state::<&mut Score>();
    /// let e = world.spawn(Score(1));
    /// scores.query_mut(&mut world).get_mut(e)?.0 += 1;
    /// assert_eq!(world.get::<Score>(e)?.0, 2);
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// A state given a world it was not made from panics:
    ///
    /// ```should_panic
    /// # use ecs_core::prelude::*;
    /// # #[derive(Component)]
    /// # struct Score(u32);
    /// let mut first = World::new();
    /// let mut second = World::new();
    /// let mut scores = first.query_state::<&mut Score>();
    /// scores.query_mut(&mut second); // panics: `second` is another world
    /// ```
    #[inline]
    #[track_caller]
    pub fn query_mut<'w>(&'w mut self, world: &'w mut World) -> Query<'w, Q, F> {
        let World {
            data, kept_matches, ..
        } = world;
        // SAFETY: the table is the world's whose data the view borrows.
        unsafe { self.query_in(WorldView::exclusive(data), Reach::Exclusive(kept_matches)) }
    }

    /// Iterates the matches in `world` with their full items, `&mut T`
    /// included: [`query_mut`](Self::query_mut) consumed into its iterator.
    ///
    /// # Panics
    /// If `world` is not the world this state was made from.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let mut health = world.query_state::<(Entity, &mut Health)>();
    /// let e = world.spawn(Health(3));
    /// for (entity, h) in health.iter_mut(&mut world) {
    ///     assert_eq!(entity, e);
    ///     h.0 *= 2;
    /// }
    /// assert_eq!(world.get::<Health>(e)?.0, 6);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    #[track_caller]
    pub fn iter_mut<'w>(&'w mut self, world: &'w mut World) -> QueryIter<'w, 'w, Q, F> {
        self.query_mut(world).into_iter()
    }
}

impl<Q: ReadOnlyQueryData, F: QueryFilter> QueryState<Q, F> {
    /// The read-only query over `world`, through a shared borrow, built from
    /// the kept storages: what [`World::query_ref`] builds, without looking
    /// any type up. Takes the state mutably to record types `world`
    /// registered since it was made and to keep the matches it finds; the
    /// query borrows the state while it lives.
    ///
    /// # Panics
    /// If `world` is not the world this state was made from.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Position(f32);
    ///
    /// let mut world = World::new();
    /// let mut positions = world.query_state::<&Position>();
    /// let e = world.spawn(Position(4.0));
    /// assert_eq!(positions.query(&world).get(e)?.0, 4.0);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    #[track_caller]
    pub fn query<'w>(&'w mut self, world: &'w World) -> Query<'w, Q, F> {
        // SAFETY: the table is the world's whose data the view borrows.
        unsafe { self.query_in(world.data_view(), Reach::Locked(&world.kept_matches)) }
    }

    /// Iterates the matches in `world`, through a shared borrow:
    /// [`query`](Self::query) consumed into its iterator.
    ///
    /// # Panics
    /// If `world` is not the world this state was made from.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Score(u32);
    ///
    /// let mut world = World::new();
    /// let mut scores = world.query_state::<&Score>();
    /// world.spawn_batch((1..=3).map(Score));
    /// let total: u32 = scores.iter(&world).map(|s| s.0).sum();
    /// assert_eq!(total, 6);
    /// ```
    #[inline]
    #[track_caller]
    pub fn iter<'w>(&'w mut self, world: &'w World) -> QueryIter<'w, 'w, Q, F> {
        self.query(world).into_iter()
    }
}
