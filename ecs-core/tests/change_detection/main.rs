//! Change detection: which writes count, on every path, in chunks, through groups, near the tick counter's wrap, against a model.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test change_detection -- <module>::`.

mod change_detection;
mod change_detection_chunks;
mod change_detection_drops;
mod change_detection_groups;
mod change_detection_model;
mod change_detection_wrap;
