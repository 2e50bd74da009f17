//! The workloads, one module each. Each module holds one small implementation
//! per library behind [`Bench`](crate::harness::Bench): `ideal` (plain `Vec`s,
//! the hardware's limit), `ours`, and with the `peers` feature hecs, bevy_ecs,
//! shipyard, sparsey, specs and legion.
//!
//! Each module `name.rs` holds the workload, `ideal` and `ours`; `name/peers.rs`
//! holds the other libraries. A new workload (schedule, serialize_text, ..) is a
//! new module with a `workload()` function, listed in [`all`].
//! [`memory`] is the exception: a figure, not a time.

pub mod add_remove;
pub mod big_iter;
pub mod despawn_churn;
pub mod frag_iter;
pub mod heavy_compute;
pub mod memory;
pub mod random_get;
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
    ]
}
