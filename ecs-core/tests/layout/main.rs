//! Storage layout: owning groups, layout passes and the layout the schedule keeps.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test layout -- <module>::`.

mod auto_layout;
mod groups;
mod layout;
