//! Reliability: panics in every closure and drop, injected faults at every step of structural changes, and exactly-once drops.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test reliability -- <module>::`.

mod drops;
mod fault_injection;
mod panic_safety;
