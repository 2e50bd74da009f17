//! The frame a game runs: ordering, run conditions, states and the fixed clock.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test frame -- <module>::`.

mod fixed_time;
mod frame_snippet;
mod ordering;
mod run_conditions;
mod states;
mod sync_points;
