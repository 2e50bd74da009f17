//! big_iter: `position += velocity` over 1,000,000 entities holding only
//! Position and Velocity: simple_iter's code at a size that leaves the caches.

use super::simple_iter;
use crate::harness::Workload;

/// Entities in big_iter's world.
pub const ENTITIES: usize = 1_000_000;

/// The big_iter workload.
pub fn workload() -> Workload {
    Workload {
        name: "big_iter",
        summary: "position += velocity over 1,000,000 entities with Position and Velocity",
        items: None,
        contenders: simple_iter::contenders::<ENTITIES, false>,
    }
}
