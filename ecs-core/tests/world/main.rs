//! Entities, components, resources and views: the world's own operations, against a reference model and the fuzzer, and the layers' import rule.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test world -- <module>::`.

mod catalog;
mod fuzz_ops;
mod inspect;
mod layers;
mod many_component_types;
mod model;
mod provenance;
mod resource_changes;
mod resources;
mod seeds;
mod send_sync;
mod spawn_runs;
mod typed_view;
