//! The world's layout: storages sorted by their entities' signatures, so a
//! query over several types reads their common entities as long zipped
//! runs, and a stat saying how much of each storage is in that order.

use crate::component::ComponentId;
use crate::entity::Entity;
use crate::tuning::MIN_LAYOUT_DEBT;

use super::World;

/// How one storage's dense order stands, from [`World::layout_stats`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StorageLayout {
    /// The component type's short name.
    pub component: String,
    /// How many entities hold it.
    pub len: usize,
    /// How many of them sit in a group's packed prefix, which keeps its own
    /// order and is never sorted.
    pub grouped: usize,
    /// How many after the group's prefix (all of them, without a group) are
    /// in signature order from its start: `len - grouped` once sorted.
    pub in_order: usize,
}

/// How each storage's dense order stands, from [`World::layout_stats`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LayoutStats {
    /// One entry per component type the world has seen, in registration order.
    pub storages: Vec<StorageLayout>,
}

impl LayoutStats {
    /// Whether every storage is wholly in signature order.
    pub fn is_optimized(&self) -> bool {
        self.storages
            .iter()
            .all(|storage| storage.grouped + storage.in_order == storage.len)
    }
}

impl World {
    /// Sorts every storage's entities by their signature (which component
    /// types each holds, then its index), so that the entities holding the
    /// same types sit together, in the same order, in every storage. Queries
    /// over several types then read their matches as a few long runs of
    /// zipped arrays instead of looking each candidate up; a query prepared
    /// in a [`QueryState`](crate::query::QueryState) or a system finds its runs
    /// once and walks them every frame the world keeps its structure.
    ///
    /// Call it where the structure has settled: after loading a level, or
    /// between waves. Spawning, inserting and removing stay O(1) and leave
    /// the order to decay: an appended entity sits at the end until the
    /// next call, a removal moves the last entity into the hole. A storage
    /// already in order costs one pass to check. A group's packed prefix
    /// stays as the group keeps it; only what follows is sorted.
    ///
    /// Returns how many storages it re-sorted. Only positions change: no
    /// hook or observer runs, and change ticks move with their values.
    /// Iteration order is unspecified, and this is one thing that changes it.
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
    /// for i in 0..100 {
    ///     let e = world.spawn(Position(0.0));
    ///     if i % 3 == 0 {
    ///         world.insert(e, Velocity(1.0))?;
    ///     }
    /// }
    /// assert!(!world.layout_stats().is_optimized());
    /// world.optimize_layout();
    /// assert!(world.layout_stats().is_optimized());
    ///
    /// // The 34 movers now sit together at the same shift in both storages.
    /// let mut movers = world.query_state::<(&mut Position, &Velocity)>();
    /// movers.query_mut(&mut world).for_each(|(p, v)| p.0 += v.0);
    /// assert_eq!(movers.match_stats().runs, 1);
    /// assert_eq!(movers.match_stats().matched, 34);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn optimize_layout(&mut self) -> usize {
        self.layout_sorted_at = self.data.masks.changes();
        self.sort_layout()
    }

    /// How many signatures changed since the layout was last sorted: each
    /// component added to or removed from an entity, each spawn and each
    /// despawn counts one. What [`maintain_layout`](Self::maintain_layout)
    /// weighs against the number of live entities.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(u32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(3));
    /// world.remove::<Health>(e)?;
    /// assert_eq!(world.layout_debt(), 2);
    /// world.optimize_layout();
    /// assert_eq!(world.layout_debt(), 0);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn layout_debt(&self) -> u64 {
        self.data
            .masks
            .changes()
            .wrapping_sub(self.layout_sorted_at)
    }

    /// Sorts the layout, as [`optimize_layout`](Self::optimize_layout) does,
    /// when the [`layout_debt`](Self::layout_debt) has reached half the
    /// number of live entities (and at least [`MIN_LAYOUT_DEBT`](crate::tuning::MIN_LAYOUT_DEBT)); returns
    /// whether it did.
    ///
    /// [`Schedule::run`](crate::schedule::Schedule::run) calls it at the
    /// start of every frame (unless
    /// [`set_auto_layout(false)`](crate::schedule::Schedule::set_auto_layout)),
    /// so a game's queries keep finding their matches as long runs while
    /// entities come and go. A game that runs its queries by hand calls it
    /// once per frame. The pass is linear in the entries of the storages it
    /// checks plus `k log k` in the `k` entities out of place, and it comes
    /// at most once per that many structural changes, so its cost spread
    /// over them is a small constant per change.
    ///
    /// Deterministic: whether a pass runs depends only on the world (its
    /// changes and live entities), and a rollback restore puts the debt back
    /// as it was saved, so a re-simulated frame sorts where the original did.
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
    /// for i in 0..2_000 {
    ///     let e = world.spawn(Position(0.0));
    ///     if i % 2 == 0 {
    ///         world.insert(e, Velocity(1.0))?;
    ///     }
    /// }
    /// assert!(world.maintain_layout(), "3,000 changes over 2,000 entities");
    /// assert!(world.layout_stats().is_optimized());
    /// assert!(!world.maintain_layout(), "nothing changed since");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn maintain_layout(&mut self) -> bool {
        let due = (self.len() as u64 / 2).max(MIN_LAYOUT_DEBT);
        if self.layout_debt() < due {
            return false;
        }
        self.optimize_layout();
        true
    }

    /// Makes the layout debt `debt`, as a rollback restore puts it back.
    pub(crate) fn set_layout_debt(&mut self, debt: u64) {
        self.layout_sorted_at = self.data.masks.changes().wrapping_sub(debt);
    }

    /// How much of each storage is in the signature order
    /// [`optimize_layout`](Self::optimize_layout) sorts it into. Reads every
    /// storage once.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(u32);
    ///
    /// let mut world = World::new();
    /// world.spawn_batch((0..10).map(Health));
    /// let stats = world.layout_stats();
    /// assert_eq!(stats.storages[0].component, "Health");
    /// assert_eq!((stats.storages[0].len, stats.storages[0].in_order), (10, 10));
    /// ```
    pub fn layout_stats(&self) -> LayoutStats {
        let data = &self.data;
        let key = |entity: Entity| data.masks.get(entity.index());
        let storages = (0..data.storages.len() as u32)
            .map(ComponentId)
            .map(|id| {
                let storage = data.storages.erased_by_id(id);
                let grouped = data.groups.span(id).map_or(0, |span| span.len);
                StorageLayout {
                    component: data.storages.info(id).name().to_owned(),
                    len: storage.len(),
                    grouped,
                    in_order: storage.in_order_from(grouped, &key),
                }
            })
            .collect();
        LayoutStats { storages }
    }
}
