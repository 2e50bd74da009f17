//! Entity ids, and the allocator that hands them out.

mod allocator;
#[cfg(feature = "serde")]
mod bits_serde;
mod map;

use core::fmt;
use core::hash::{Hash, Hasher};
use core::num::NonZeroU32;

pub(crate) use allocator::{AliveIter, AllocatorState, DeadEntity, Entities, Liveness};
pub use map::{EntityMap, EntityMapIter, EntityMapper, MapEntities};

/// A handle to an entity: a 32-bit index and a 32-bit version.
///
/// The index names a slot in its [`World`](crate::World); the version tells
/// apart the successive entities that occupy that slot. Despawning an entity
/// bumps its slot's version, so an old handle never aliases the entity that
/// reuses the slot: every API reports it as despawned instead.
///
/// The version is never zero, so `Option<Entity>` is as small as `Entity`.
/// `Debug` prints `{index}v{version}`.
///
/// The 64 bits name a slot and a version, not a world: an id taken from one
/// world and used in another is reported as never spawned there, unless that
/// world happens to have a live entity with the same index and version, which
/// it then names. Keep ids with the world they came from; to move entities
/// between worlds, move their components and use the new ids.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut world = World::new();
/// let e = world.spawn(());
/// assert_eq!((e.index(), e.version()), (0, 1));
/// assert_eq!(format!("{e:?}"), "0v1");
/// assert_eq!(Entity::from_bits(e.to_bits()), Some(e));
/// assert_eq!(size_of::<Option<Entity>>(), 8);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(C, align(8))]
pub struct Entity {
    index: u32,
    version: NonZeroU32,
}

impl Entity {
    /// Builds a handle from its parts. Used by the allocator and by tests.
    #[inline]
    pub(crate) const fn new(index: u32, version: NonZeroU32) -> Self {
        Self { index, version }
    }

    /// The handle `n` slots further on with the same version: the `n`-th
    /// after `self` in a run of fresh ids, which all have the first version.
    #[inline]
    pub(crate) const fn shifted(self, n: u32) -> Self {
        Self {
            index: self.index + n,
            version: self.version,
        }
    }

    /// The slot this entity occupies in its world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let (a, b) = (world.spawn(()), world.spawn(()));
    /// assert_eq!((a.index(), b.index()), (0, 1));
    /// ```
    #[inline]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// How many times the slot has been reused before this entity, plus one.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let a = world.spawn(());
    /// world.despawn(a)?;
    /// let b = world.spawn(());
    /// assert_eq!((b.index(), b.version()), (0, 2));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub const fn version(self) -> u32 {
        self.version.get()
    }

    /// Packs the handle into 64 bits: the version in the high half, the index in the low half.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// assert_eq!(e.to_bits(), 1 << 32);
    /// ```
    #[inline]
    pub const fn to_bits(self) -> u64 {
        ((self.version.get() as u64) << 32) | self.index as u64
    }

    /// Unpacks a handle made by [`to_bits`](Self::to_bits).
    ///
    /// Returns `None` when the version half is zero, since no entity has version 0.
    /// Any other value is a well-formed handle; whether it names a live entity is
    /// for a world to say, and every world API answers that with an error, never UB.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Entity::from_bits(7), None);
    /// let e = Entity::from_bits((3 << 32) | 7).unwrap();
    /// assert_eq!(format!("{e:?}"), "7v3");
    /// ```
    #[inline]
    pub const fn from_bits(bits: u64) -> Option<Entity> {
        match NonZeroU32::new((bits >> 32) as u32) {
            Some(version) => Some(Entity {
                index: bits as u32,
                version,
            }),
            None => None,
        }
    }
}

impl Hash for Entity {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.to_bits());
    }
}

impl fmt::Debug for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.index, self.version)
    }
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: u32) -> NonZeroU32 {
        NonZeroU32::new(n).unwrap()
    }

    #[test]
    fn bits_round_trip() {
        let e = Entity::new(u32::MAX, v(u32::MAX));
        assert_eq!(Entity::from_bits(e.to_bits()), Some(e));
        assert_eq!(Entity::from_bits(u64::from(u32::MAX)), None);
    }

    #[test]
    fn ordering_is_by_index_then_version() {
        assert!(Entity::new(1, v(9)) < Entity::new(2, v(1)));
        assert!(Entity::new(1, v(1)) < Entity::new(1, v(2)));
    }
}
