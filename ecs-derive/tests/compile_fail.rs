//! Compile tests of ecs-core's derives and of its API, every one behind this one trybuild driver
//! so the cases build together in one nested cargo run. They live in ecs-derive, which has
//! ecs-core as a dev-dependency, because trybuild builds the tested crate's dev-dependencies again
//! for its cases, and ecs-core's (proptest, serde_json, the test kit) are many.
//!
//! Each folder under `tests/ui/` holds a concept's cases: `pass/` must compile, `fail/` must fail
//! with the pinned `.stderr` message.
//!
//! - `component`, `query`, `relationship`, `states`, `system_param`: the derives' accepted inputs
//!   and their error messages (query aliasing caught at compile time among them).
//! - `change`: `Added<T>` and `Changed<T>` on a type that does not track changes say which
//!   attribute to add, and the option itself takes no value.
//! - `system`: a system that returns a value other than `()` or `Result<(), E>` is an error that
//!   says what a system may return.
//! - `observer`: a closure whose first argument is not a trigger, or a trigger on a type that is
//!   not a component, is an error that says what an observer is.
//! - `send_sync`: non-`Send` and non-`Sync` types are rejected as components wherever they could
//!   enter a world, and a world cannot be read from another thread while it is mutably borrowed
//!   (the static assertions and run-time checks are in ecs-core's `tests/world/send_sync.rs`).
//!
//! `TRYBUILD=overwrite` regenerates the `.stderr` snapshots; read every one before committing it:
//! each must fail for the reason its file's first comment gives.
//!
//! `scripts/memcheck.sh` and `scripts/asan.sh` skip this binary, as every one that drives
//! trybuild (its cases check rustc's verdict, not our code), so it holds this one test only.

#[test]
fn compile_tests() {
    let t = trybuild::TestCases::new();
    for concept in [
        "component",
        "query",
        "relationship",
        "states",
        "system_param",
    ] {
        t.pass(format!("tests/ui/{concept}/pass/*.rs"));
    }
    for concept in [
        "component",
        "query",
        "relationship",
        "states",
        "system_param",
        "system",
        "change",
        "observer",
        "send_sync",
    ] {
        t.compile_fail(format!("tests/ui/{concept}/fail/*.rs"));
    }
}
