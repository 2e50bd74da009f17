//! Counts and memory figures a world reports about itself.

use super::World;

/// A snapshot of what a [`World`](crate::World) holds and how much memory it uses.
///
/// Useful to watch for leaks in long sessions (free slots and pages should level
/// off, not grow) and to size a game's budgets.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Position(f32, f32);
///
/// let mut world = World::new();
/// let ids = world.spawn_batch((0..100).map(|i| Position(i as f32, 0.0)));
/// world.despawn(ids[0])?;
/// let stats = world.stats();
/// assert_eq!(stats.live_entities, 99);
/// assert_eq!(stats.entity_slots, 100);
/// assert_eq!(stats.free_slots, 1);
/// assert_eq!(stats.components, 99);
/// assert!(stats.heap_bytes >= 99 * size_of::<Position>());
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WorldStats {
    /// Entities alive now.
    pub live_entities: usize,
    /// Entity slots ever handed out: live, free or retired.
    pub entity_slots: usize,
    /// Despawned slots waiting to be reused.
    pub free_slots: usize,
    /// Slots whose version ran out; never reused.
    pub retired_slots: usize,
    /// Component types the world has seen.
    pub component_types: usize,
    /// Component values stored, over all types.
    pub components: usize,
    /// Sparse index pages made, over all types: one per type per 4096 entity
    /// indices that ever held that type. A page is full (32 KiB) or, while few
    /// of its indices hold the type, loose (about 600 bytes and 10 per entity).
    pub sparse_pages: usize,
    /// Bytes the world holds on the heap for entities and components (capacity,
    /// not just length), not counting memory the components themselves own:
    /// the sum of [`heap`](Self::heap).
    pub heap_bytes: usize,
    /// The same bytes, structure by structure.
    pub heap: HeapBreakdown,
}

/// Where a world's heap bytes go, structure by structure (capacity, not
/// length), for sizing budgets and for seeing what a sparse set costs beyond
/// the values themselves.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Position(f32, f32);
///
/// let mut world = World::new();
/// world.spawn_batch((0..1_000).map(|i| Position(i as f32, 0.0)));
/// let heap = world.stats().heap;
/// assert!(heap.component_data >= 1_000 * size_of::<Position>());
/// assert!(heap.dense_ids >= 1_000 * size_of::<Entity>());
/// assert_eq!(heap.total(), world.stats().heap_bytes);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct HeapBreakdown {
    /// The entity allocator: one slot per index ever handed out, and the free list.
    pub entity_slots: usize,
    /// The per-entity component masks (which storages an entity is in).
    pub component_masks: usize,
    /// Every storage's paged sparse index (entity index -> dense position).
    pub sparse_indexes: usize,
    /// Every storage's dense entity ids, beside its values.
    pub dense_ids: usize,
    /// The component values themselves.
    pub component_data: usize,
    /// The added and changed ticks of types that track changes.
    pub change_ticks: usize,
}

impl HeapBreakdown {
    /// Every structure's bytes together.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let heap = World::new().stats().heap;
    /// assert_eq!(heap.total(), 0);
    /// ```
    pub fn total(&self) -> usize {
        self.entity_slots
            + self.component_masks
            + self.sparse_indexes
            + self.dense_ids
            + self.component_data
            + self.change_ticks
    }
}

impl World {
    /// Counts and memory figures: live entities, free and retired slots,
    /// stored components, index pages, heap bytes.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Tag;
    ///
    /// let mut world = World::new();
    /// world.spawn(Tag);
    /// let stats = world.stats();
    /// assert_eq!((stats.live_entities, stats.component_types, stats.components), (1, 1, 1));
    /// ```
    pub fn stats(&self) -> WorldStats {
        let data = &self.data;
        let mut stats = WorldStats {
            live_entities: data.entities.len(),
            entity_slots: data.entities.slot_count(),
            free_slots: data.entities.free_count(),
            retired_slots: 0,
            component_types: 0,
            components: 0,
            sparse_pages: 0,
            heap_bytes: 0,
            heap: HeapBreakdown {
                entity_slots: data.entities.heap_bytes(),
                component_masks: data.masks.heap_bytes(),
                ..HeapBreakdown::default()
            },
        };
        stats.retired_slots = stats.entity_slots - stats.live_entities - stats.free_slots;
        for (_, set) in data.storages.erased() {
            stats.component_types += 1;
            stats.components += set.len();
            stats.sparse_pages += set.page_count();
            let heap = set.heap_bytes();
            stats.heap.sparse_indexes += heap.sparse;
            stats.heap.dense_ids += heap.ids;
            stats.heap.component_data += heap.data;
            stats.heap.change_ticks += heap.ticks;
        }
        stats.heap_bytes = stats.heap.total();
        stats
    }
}
