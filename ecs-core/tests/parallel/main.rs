//! Parallel work on rayon: `par_for_each` and the parallel executor (feature `parallel`).
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test parallel -- <module>::`.

mod par;
mod schedule_parallel;
