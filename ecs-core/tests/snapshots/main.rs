//! Snapshots (feature `serde`): round trips, loads into running worlds, rollback from a snapshot and hostile input.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test snapshots -- <module>::`.

mod snapshot_common;
mod snapshot_hostile;
mod snapshot_load_running;
mod snapshot_rollback;
mod snapshot_round_trip;
