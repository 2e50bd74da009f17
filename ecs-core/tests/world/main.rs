//! Entities, components, resources and views: the world's own operations, against a reference model and the fuzzer, and the layers' import rule.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test world -- <module>::`.

mod model;
mod fuzz_ops;
mod typed_view;
mod many_component_types;
mod spawn_runs;
mod provenance;
mod send_sync;
mod resources;
mod resource_changes;
mod catalog;
mod inspect;
mod seeds;
mod layers;
