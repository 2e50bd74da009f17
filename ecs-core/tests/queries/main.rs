//! Queries: every fetch and filter, prepared and kept query state, against a brute-force model, and the aliasing paths small enough for miri.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test queries -- <module>::`.

mod disjoint_access_miri;
mod kept_matches;
mod query_kinds;
mod query_model;
mod query_one_expression;
mod query_snippet;
mod query_state;
mod spellings;
