//! Compile tests for `#[derive(Component)]`: accepted inputs and pinned error messages.
#[test]
fn derive_component() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/component/pass/*.rs");
    t.compile_fail("tests/ui/component/fail/*.rs");
}
