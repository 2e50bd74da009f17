//! Compile-fail pins for `Send` / `Sync`: non-`Send` and non-`Sync` types are
//! rejected as components wherever they could enter a world, and a world
//! cannot be read from another thread while it is mutably borrowed. The
//! static assertions and run-time tests are in `send_sync.rs`.
//!
//! The `.stderr` files are trybuild snapshots (`TRYBUILD=overwrite`
//! regenerates them; read every one: each must fail for the reason its
//! file's first comment gives). `scripts/memcheck.sh` and `scripts/asan.sh`
//! skip this binary, as every one that drives trybuild: its cases check
//! rustc's verdict, not our code.

#[test]
fn send_sync_compile_fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/send_sync/fail/*.rs");
}
