//! Compile-fail pins for change detection: `Added<T>` and `Changed<T>` on a
//! type that does not track changes say which attribute to add, and the
//! option itself takes no value. `TRYBUILD=overwrite` regenerates the
//! `.stderr` snapshots; read every one before committing it.
//!
//! `scripts/memcheck.sh` and `scripts/asan.sh` skip this binary, as every one
//! that drives trybuild: its cases check rustc's verdict, not our code.

#[test]
fn change_filters_need_tracked_types() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/change/fail/*.rs");
}
