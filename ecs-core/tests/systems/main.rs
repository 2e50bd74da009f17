//! Systems: function and exclusive systems, fallible systems, piped systems and input, params, derived params, one-shot systems and commands, with the paths small enough for miri.
//!
//! One test binary per concept; each file here is a module, run alone with
//! `cargo test --workspace --test systems -- <module>::`.

mod command_ids;
mod commands_miri;
mod derive_system_param;
mod entity_commands;
mod fallible;
mod one_shot;
mod params;
mod piping;
mod systems;
mod systems_miri;
