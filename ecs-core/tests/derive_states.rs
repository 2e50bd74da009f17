//! Compile tests for `#[derive(States)]`: accepted inputs and pinned error messages.
#[test]
fn derive_states() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/states/pass/*.rs");
    t.compile_fail("tests/ui/states/fail/*.rs");
}
