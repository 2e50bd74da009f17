//! Rollback: a world's registered data saved in memory every frame, put back
//! exactly, and hashed the same on every machine, for peer-to-peer rollback
//! networking (GGPO-style, as the `ggrs` crate runs it).
//!
//! The capabilities `.rollback()`, `.rollback_hashed()` and
//! `.rollback_with_checksum(f)` of a registration name what
//! [`PersistRegistry::save`] copies into a [`WorldState`],
//! [`PersistRegistry::restore`] puts back and [`PersistRegistry::checksum`]
//! hashes. [`ChecksumHasher`] is the hasher values are fed to.

mod checksum;
mod column;
mod resource;
mod saved;
mod state;
mod table;

use core::hash::Hash;

pub use checksum::ChecksumHasher;
pub use state::WorldState;
pub(crate) use table::RollbackTable;

#[cfg(doc)]
use super::PersistRegistry;
use super::{ComponentRegistration, RelationshipRegistration, ResourceRegistration};
use crate::component::Component;
use crate::world::Relationship;

impl<T: Component + Clone> ComponentRegistration<'_, T> {
    /// [`save`](PersistRegistry::save) copies the type's storage and
    /// [`restore`](PersistRegistry::restore) puts it back; its values are
    /// left out of the checksum (which entities hold one is not).
    ///
    /// A `Copy` type is saved and restored as whole slices: the standard
    /// library clones a slice of `Copy` values as one copy of its bytes.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Copy)]
    /// struct Position(f32);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Position>("game::Position").rollback();
    /// let mut world = World::new();
    /// world.spawn_batch((0..3).map(|i| Position(i as f32)));
    /// assert_eq!(registry.save(&world).len(), 3);
    /// ```
    pub fn rollback(self) -> Self {
        self.registry.rollback.add_column::<T>(None);
        self
    }

    /// As [`rollback`](Self::rollback), and each value is fed to the
    /// checksum by `hash`: the way for a type holding floats, which feeds
    /// them by their bits ([`ChecksumHasher::write_f32`]).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Copy)]
    /// struct Position { x: f32, y: f32 }
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Position>("game::Position").rollback_with_checksum(|p, hasher| {
    ///     hasher.write_f32(p.x);
    ///     hasher.write_f32(p.y);
    /// });
    /// let mut world = World::new();
    /// let e = world.spawn(Position { x: 0.0, y: 0.0 });
    /// let before = registry.checksum(&world);
    /// world.get_mut::<Position>(e)?.y = -0.0;
    /// assert_ne!(registry.checksum(&world), before, "floats by bits");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn rollback_with_checksum(self, hash: fn(&T, &mut ChecksumHasher)) -> Self {
        self.registry.rollback.add_column::<T>(Some(hash));
        self
    }
}

impl<T: Component + Clone + Hash> ComponentRegistration<'_, T> {
    /// As [`rollback`](Self::rollback), and each value is fed to the
    /// checksum with its `Hash` impl through a [`ChecksumHasher`] (so
    /// integers hash the same on every machine).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Hash)]
    /// struct Score(u32);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register::<Score>("game::Score").rollback_hashed();
    /// let mut a = World::new();
    /// let mut b = World::new();
    /// a.spawn(Score(1));
    /// b.spawn(Score(1));
    /// assert_eq!(registry.checksum(&a), registry.checksum(&b));
    /// b.spawn(Score(2));
    /// assert_ne!(registry.checksum(&a), registry.checksum(&b));
    /// ```
    pub fn rollback_hashed(self) -> Self {
        self.registry
            .rollback
            .add_column::<T>(Some(|value, hasher| value.hash(hasher)));
        self
    }
}

impl<R: Clone + Send + Sync + 'static> ResourceRegistration<'_, R> {
    /// [`save`](PersistRegistry::save) copies the resource and
    /// [`restore`](PersistRegistry::restore) puts it back (or removes the
    /// world's, when it had none); the value is left out of the checksum
    /// (whether there is one is not).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Clone)]
    /// struct Seed(u64);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register_resource::<Seed>("game::Seed").rollback();
    /// let mut world = World::new();
    /// world.insert_resource(Seed(1));
    /// let saved = registry.save(&world);
    /// world.insert_resource(Seed(2));
    /// registry.restore(&mut world, &saved)?;
    /// assert_eq!(world.resource::<Seed>()?.0, 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn rollback(self) -> Self {
        self.registry.rollback.add_resource::<R>(None);
        self
    }

    /// As [`rollback`](Self::rollback), and the value is fed to the
    /// checksum by `hash`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Clone)]
    /// struct Gravity(f32);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry
    ///     .register_resource::<Gravity>("game::Gravity")
    ///     .rollback_with_checksum(|g, hasher| hasher.write_f32(g.0));
    /// let mut world = World::new();
    /// world.insert_resource(Gravity(9.8));
    /// let before = registry.checksum(&world);
    /// world.insert_resource(Gravity(1.6));
    /// assert_ne!(registry.checksum(&world), before);
    /// ```
    pub fn rollback_with_checksum(self, hash: fn(&R, &mut ChecksumHasher)) -> Self {
        self.registry.rollback.add_resource::<R>(Some(hash));
        self
    }
}

impl<R: Clone + Hash + Send + Sync + 'static> ResourceRegistration<'_, R> {
    /// As [`rollback`](Self::rollback), and the value is fed to the
    /// checksum with its `Hash` impl.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Clone, Hash)]
    /// struct FrameCount(u64);
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register_resource::<FrameCount>("game::FrameCount").rollback_hashed();
    /// let mut world = World::new();
    /// world.insert_resource(FrameCount(1));
    /// let one = registry.checksum(&world);
    /// world.insert_resource(FrameCount(2));
    /// assert_ne!(registry.checksum(&world), one);
    /// ```
    pub fn rollback_hashed(self) -> Self {
        self.registry
            .rollback
            .add_resource::<R>(Some(|value, hasher| value.hash(hasher)));
        self
    }
}

impl<R> RelationshipRegistration<'_, R>
where
    R: Relationship + Clone + Hash,
    R::Target: Clone + Hash,
{
    /// Saves and restores both sides together, both hashed with their
    /// `Hash` impls: a restore puts both back as they were saved, so they
    /// agree again.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut registry = PersistRegistry::new();
    /// registry.register_relationship::<ChildOf>("ecs::ChildOf", "ecs::Children").rollback();
    /// let mut world = World::new();
    /// let parent = world.spawn(());
    /// let saved = registry.save(&world);
    /// let child = world.spawn(ChildOf(parent));
    /// registry.restore(&mut world, &saved)?;
    /// assert!(!world.is_alive(child));
    /// assert!(!world.contains::<Children>(parent));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn rollback(self) -> Self {
        let table = &mut self.registry.rollback;
        table.add_column::<R>(Some(|value, hasher| value.hash(hasher)));
        table.add_column::<R::Target>(Some(|value, hasher| value.hash(hasher)));
        self
    }
}
