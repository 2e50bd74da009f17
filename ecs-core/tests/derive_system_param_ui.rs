//! Compile tests for `#[derive(SystemParam)]`: accepted inputs and pinned
//! error messages (`TRYBUILD=overwrite` regenerates the `.stderr` files).
//!
//! A file of its own: `scripts/memcheck.sh` and `scripts/asan.sh` skip every
//! test binary that drives trybuild, so a test that runs our code belongs
//! elsewhere (`derive_system_param.rs`).
#[test]
fn derive_system_param_ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/system_param/pass/*.rs");
    t.compile_fail("tests/ui/system_param/fail/*.rs");
}
