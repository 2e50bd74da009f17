//! `World::merge`: a staging world moved into a running one, by example and against a model.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test merge -- <module>::`.

mod merge;
mod merge_model;
