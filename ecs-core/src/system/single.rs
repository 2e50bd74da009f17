//! `Single<D, F>`: the one entity a query matches, or the system skips.

use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};

use crate::error::Error;
use crate::query::{Query, QueryData, QueryFilter};
use crate::world::{CommandQueue, World};

use super::access::SystemAccess;
use super::param::{SystemParam, SystemWorld};

/// A system param holding the item of the one entity that `D` and `F`
/// match: the player, the camera. When none or several match, the system
/// does not run that frame (no error): the schedule counts it in
/// [`SystemStats::skipped`](crate::schedule::SystemStats::skipped). An
/// observer with a `Single` that does not match skips its run the same way.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::Single;
///
/// #[derive(Component)]
/// struct Player { hp: i32 }
///
/// fn regen(mut player: Single<&mut Player>) {
///     player.hp += 1;
/// }
///
/// let mut world = World::new();
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, regen)?;
/// schedule.run(&mut world)?; // no player: skipped
/// let p = world.spawn(Player { hp: 1 });
/// schedule.run(&mut world)?;
/// assert_eq!(world.get::<Player>(p)?.hp, 2);
/// world.spawn(Player { hp: 5 });
/// schedule.run(&mut world)?; // two players: skipped
/// assert_eq!(world.get::<Player>(p)?.hp, 2);
/// assert_eq!((schedule.stats()[0].runs, schedule.stats()[0].skipped), (1, 2));
/// # Ok::<(), Error>(())
/// ```
pub struct Single<'w, D: QueryData, F: QueryFilter = ()> {
    item: D::Item<'w>,
    _filter: PhantomData<F>,
}

impl<'w, D: QueryData, F: QueryFilter> Single<'w, D, F> {
    /// The item, borrowed for the whole run.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::system::Single;
    ///
    /// #[derive(Component)]
    /// struct Camera(f32);
    /// fn zoom(camera: Single<&Camera>) -> f32 {
    ///     camera.into_inner().0
    /// }
    /// # let _ = zoom;
    /// ```
    pub fn into_inner(self) -> D::Item<'w> {
        self.item
    }
}

impl<'w, D: QueryData, F: QueryFilter> Deref for Single<'w, D, F> {
    type Target = D::Item<'w>;

    fn deref(&self) -> &D::Item<'w> {
        &self.item
    }
}

impl<'w, D: QueryData, F: QueryFilter> DerefMut for Single<'w, D, F> {
    fn deref_mut(&mut self) -> &mut D::Item<'w> {
        &mut self.item
    }
}

// SAFETY: registers what `Query<D, F>` registers and reaches the world only
// through that query.
unsafe impl<D: QueryData, F: QueryFilter> SystemParam for Single<'_, D, F> {
    const DEFERS: bool = false;

    type State = <Query<'static, D, F> as SystemParam>::State;
    type Item<'w> = Single<'w, D, F>;

    fn init(access: &mut SystemAccess) -> Self::State {
        <Query<'_, D, F> as SystemParam>::init(access)
    }

    fn prepare(state: &mut Self::State, world: &mut World) {
        <Query<'_, D, F> as SystemParam>::prepare(state, world);
    }

    unsafe fn fetch<'w>(
        state: &'w mut Self::State,
        world: SystemWorld<'w>,
    ) -> Result<Single<'w, D, F>, Error> {
        // SAFETY: the caller's contract is the query's: `Single` registered
        // exactly its access.
        let query = unsafe { <Query<'_, D, F> as SystemParam>::fetch(state, world)? };
        match query.into_single() {
            Ok(item) => Ok(Single {
                item,
                _filter: PhantomData,
            }),
            Err(reason) => Err(Error::SkipSystem {
                reason: Box::new(reason),
            }),
        }
    }

    fn defer(state: &mut Self::State, queue: &mut CommandQueue) {
        <Query<'_, D, F> as SystemParam>::defer(state, queue);
    }
}
