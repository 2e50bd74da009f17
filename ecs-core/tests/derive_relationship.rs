//! Compile tests for `#[relationship]` and `#[relationship_target]`:
//! accepted pairs, and pinned error messages for each misuse.
#[test]
fn derive_relationship() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/relationship/pass/*.rs");
    t.compile_fail("tests/ui/relationship/fail/*.rs");
}
