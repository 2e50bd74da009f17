//! Relationships: `ChildOf` / `Children` and custom pairs, against a model, through every path that moves entities, and cloned.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test relationships -- <module>::`.

mod clone_entity;
mod relationships;
mod relationships_model;
mod relationships_travel;
