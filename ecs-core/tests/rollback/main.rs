//! `PersistRegistry`: save, restore and checksum, by example and against a model.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test rollback -- <module>::`.

mod rollback;
mod rollback_model;
