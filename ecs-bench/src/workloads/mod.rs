//! The workloads, one module each. Each module holds one small implementation
//! per library behind [`Bench`](crate::harness::Bench): `ideal` (plain `Vec`s,
//! the hardware's limit), `ours`, and with the `peers` feature hecs, bevy_ecs,
//! shipyard, sparsey, specs and legion.
//!
//! Each module `name.rs` holds the workload, `ideal` and `ours`; `name/peers.rs`
//! holds the other libraries. A new workload is a new
//! module with a `workload()` function, listed in [`all`].
//!
//! [`schedule`], [`empty_systems`], [`schedule_many`] and [`commands`] run
//! through each library's scheduler and command buffer; heavy_compute has an
//! `ours_schedule` row, its system run by a `Schedule`.
//! [`memory`] is the exception: a figure, not a time.

pub mod add_remove;
pub mod big_iter;
pub mod change_detection;
pub mod commands;
pub mod despawn_churn;
pub mod empty_systems;
pub mod frag_iter;
pub mod heavy_compute;
pub mod hierarchy;
pub mod memory;
pub mod merge;
pub mod observers;
pub mod random_get;
pub mod rollback;
pub mod schedule;
pub mod schedule_many;
pub mod serialize;
pub mod simple_insert;
pub mod simple_iter;

use crate::harness::Workload;

/// Every timed workload, in report order.
pub fn all() -> Vec<Workload> {
    vec![
        simple_insert::one_by_one(),
        simple_insert::batch(),
        simple_iter::workload(),
        frag_iter::workload(),
        heavy_compute::workload(),
        add_remove::workload(),
        random_get::workload(),
        despawn_churn::workload(),
        big_iter::workload(),
        schedule::workload(),
        empty_systems::workload(),
        schedule_many::workload(),
        commands::workload(),
        observers::global(),
        observers::chain(),
        change_detection::workload(),
        merge::workload(),
        rollback::workload(),
        hierarchy::despawn_child(),
        hierarchy::spawn_children(),
        hierarchy::propagate(),
        serialize::text(),
        serialize::binary(),
    ]
}
