//! Reacting to change: events, observers, component hooks and required components.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test reactions -- <module>::`.

mod custom_events;
mod entity_events;
mod entity_events_model;
mod events;
mod hooks;
mod observers;
mod observers_model;
mod required_components;
mod talk_and_react;
