//! memory: the heap a world holds for 100,000 entities with Transform,
//! Position, Rotation and Velocity (100 bytes of components each), spawned with
//! each library's batch spawn. Not timed: the compare binary counts the bytes
//! with its counting allocator while a contender's `build` runs, and keeps the
//! world alive until it has read the count.

use std::any::Any;

use crate::components::{Position, Rotation, Transform, Velocity, four_components};

/// Entities in each world.
pub const ENTITIES: usize = 100_000;

/// The bytes of components one entity holds: the floor for any storage.
pub const PAYLOAD_BYTES: usize =
    size_of::<Transform>() + size_of::<Position>() + size_of::<Rotation>() + size_of::<Velocity>();

/// A world's heap bytes by structure: (structure, bytes).
pub type Structures = Vec<(&'static str, usize)>;

/// One library's memory figure: how to build its world.
#[derive(Clone, Copy)]
pub struct MemoryContender {
    /// The name in reports.
    pub name: &'static str,
    /// How the world was filled.
    pub path: &'static str,
    build: fn() -> Box<dyn Any>,
    /// Where the bytes go, structure by structure, for a library that says.
    structures: Option<fn() -> Structures>,
}

impl MemoryContender {
    /// Builds the world, checks it holds every entity, and hands it back to be
    /// measured, then dropped.
    pub fn build(&self) -> Box<dyn Any> {
        (self.build)()
    }

    /// The same world's heap bytes by structure (name, bytes), where the
    /// library reports them; empty otherwise.
    pub fn structures(&self) -> Structures {
        self.structures
            .map_or_else(Vec::new, |structures| structures())
    }
}

/// Every library's memory contender: `ideal` first, then `ours`, then the peers.
pub fn contenders() -> Vec<MemoryContender> {
    let list = vec![
        MemoryContender {
            name: "ideal",
            path: "4 Vecs of exact capacity",
            build: ideal,
            structures: None,
        },
        MemoryContender {
            name: "ours",
            path: "world.spawn_batch",
            build: ours,
            structures: Some(ours_by_structure),
        },
    ];
    #[cfg(feature = "peers")]
    let list = [list, peers::contenders()].concat();
    list
}

/// Four plain vectors, no ids.
fn ideal() -> Box<dyn Any> {
    let mut columns = (
        Vec::with_capacity(ENTITIES),
        Vec::with_capacity(ENTITIES),
        Vec::with_capacity(ENTITIES),
        Vec::with_capacity(ENTITIES),
    );
    for (t, p, r, v) in (0..ENTITIES).map(four_components) {
        columns.0.push(t);
        columns.1.push(p);
        columns.2.push(r);
        columns.3.push(v);
    }
    assert_eq!(columns.3.len(), ENTITIES);
    Box::new(columns)
}

/// Ours, through the batch spawn.
fn ours() -> Box<dyn Any> {
    let mut world = ecs_core::World::new();
    world.spawn_batch((0..ENTITIES).map(four_components));
    assert_eq!(world.len(), ENTITIES);
    Box::new(world)
}

/// Ours, the same world, by structure as `World::stats` reports it.
fn ours_by_structure() -> Structures {
    let world = ours();
    let world = world
        .downcast_ref::<ecs_core::World>()
        .expect("ours builds a World");
    let heap = world.stats().heap;
    vec![
        ("entity allocator slots", heap.entity_slots),
        ("component masks", heap.component_masks),
        ("sparse indexes", heap.sparse_indexes),
        ("dense entity ids", heap.dense_ids),
        ("component values", heap.component_data),
        ("change ticks", heap.change_ticks),
    ]
}

#[cfg(feature = "peers")]
mod peers;
