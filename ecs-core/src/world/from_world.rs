//! Resources made from the world: `FromWorld` and `init_resource`.

use super::World;

/// A value that can be made from a world: every `Default` type, and any
/// type that needs other resources to be made. What
/// [`World::init_resource`] and
/// [`Commands::init_resource`](crate::Commands::init_resource) build.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::FromWorld;
///
/// struct Config { players: u32 }
/// struct Scores(Vec<u32>);
///
/// impl FromWorld for Scores {
///     fn from_world(world: &mut World) -> Self {
///         let players = world.resource::<Config>().map_or(1, |c| c.players);
///         Scores(vec![0; players as usize])
///     }
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Config { players: 3 });
/// world.init_resource::<Scores>();
/// assert_eq!(world.resource::<Scores>()?.0, [0, 0, 0]);
/// # Ok::<(), Error>(())
/// ```
pub trait FromWorld {
    /// Makes the value, reading (or changing) the world as it needs.
    fn from_world(world: &mut World) -> Self;
}

impl<T: Default> FromWorld for T {
    fn from_world(_: &mut World) -> Self {
        T::default()
    }
}

impl World {
    /// Makes the resource `R` from its `Default` (or [`FromWorld`]) and
    /// inserts it, unless the world has one already, which it keeps.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Default)]
    /// struct Score(u32);
    ///
    /// let mut world = World::new();
    /// world.init_resource::<Score>();
    /// world.resource_mut::<Score>()?.0 = 7;
    /// world.init_resource::<Score>(); // kept
    /// assert_eq!(world.resource::<Score>()?.0, 7);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn init_resource<R: FromWorld + Send + Sync + 'static>(&mut self) {
        if !self.contains_resource::<R>() {
            let value = R::from_world(self);
            // `from_world` may have inserted one itself: the first one stays.
            if !self.contains_resource::<R>() {
                self.insert_resource(value);
            }
        }
    }
}
