//! The world's resources: one value per type, beside the entities.

use crate::error::Error;

use super::World;

impl World {
    /// Stores `resource` as this world's one value of type `R`, returning the
    /// value it replaces.
    ///
    /// A resource is any `Send + Sync + 'static` value: a clock, a score, a
    /// spatial grid; it needs no derive. Each value is dropped exactly once:
    /// when it is replaced and the returned value drops, when it is removed,
    /// or when the world drops. [`clear`](World::clear) despawns entities and
    /// keeps resources.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Time { dt: f32 }
    ///
    /// let mut world = World::new();
    /// assert!(world.insert_resource(Time { dt: 0.5 }).is_none());
    /// let old = world.insert_resource(Time { dt: 0.25 }).unwrap();
    /// assert_eq!(old.dt, 0.5);
    /// assert_eq!(world.resource::<Time>()?.dt, 0.25);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn insert_resource<R: Send + Sync + 'static>(&mut self, resource: R) -> Option<R> {
        let tick = self.data.clock.advance();
        self.data.resources.insert_at(resource, tick)
    }

    /// The world's `R`.
    ///
    /// Fails with [`Error::MissingResource`], naming the type, when there is none.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Default, Debug)]
    /// struct Score(u32);
    ///
    /// let mut world = World::new();
    /// assert_eq!(
    ///     world.resource::<Score>().unwrap_err().to_string(),
    ///     "the world has no resource `Score`: add it with `world.insert_resource(..)`"
    /// );
    /// world.insert_resource(Score::default());
    /// assert_eq!(world.resource::<Score>()?.0, 0);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn resource<R: Send + Sync + 'static>(&self) -> Result<&R, Error> {
        self.data
            .resources
            .get::<R>()
            .ok_or_else(Error::missing_resource::<R>)
    }

    /// The world's `R`, mutably; the resource counts as changed
    /// (`Res::is_changed`) for every system that runs after this call.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Score(u32);
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Score(1));
    /// world.resource_mut::<Score>()?.0 += 1;
    /// assert_eq!(world.resource::<Score>()?.0, 2);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn resource_mut<R: Send + Sync + 'static>(&mut self) -> Result<&mut R, Error> {
        if self.data.resources.contains::<R>() {
            let tick = self.data.clock.advance();
            if let Some(ticks) = self.data.resources.ticks::<R>() {
                ticks.mark_changed(tick);
            }
        }
        self.data
            .resources
            .get_mut::<R>()
            .ok_or_else(Error::missing_resource::<R>)
    }

    /// Takes the world's `R` out and returns it.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Debug)]
    /// struct Level(&'static str);
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Level("cave"));
    /// assert_eq!(world.remove_resource::<Level>()?.0, "cave");
    /// assert_eq!(
    ///     world.remove_resource::<Level>().unwrap_err(),
    ///     Error::MissingResource { resource: std::any::type_name::<Level>() }
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn remove_resource<R: Send + Sync + 'static>(&mut self) -> Result<R, Error> {
        self.data
            .resources
            .remove::<R>()
            .ok_or_else(Error::missing_resource::<R>)
    }

    /// Whether the world has an `R`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Paused;
    ///
    /// let mut world = World::new();
    /// assert!(!world.contains_resource::<Paused>());
    /// world.insert_resource(Paused);
    /// assert!(world.contains_resource::<Paused>());
    /// ```
    pub fn contains_resource<R: Send + Sync + 'static>(&self) -> bool {
        self.data.resources.contains::<R>()
    }

    /// The full type names of every resource the world holds, sorted: for
    /// debugging what a world was given.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Time(f32);
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Time(0.0));
    /// world.insert_resource(7u32);
    /// let names = world.resource_names();
    /// assert_eq!(names.len(), 2);
    /// assert!(names.iter().any(|n| n.ends_with("::Time")) && names.contains(&"u32"));
    /// ```
    pub fn resource_names(&self) -> Vec<&'static str> {
        self.data.resources.names()
    }
}
