//! Compile tests for `#[derive(Query)]` and for query aliasing caught at compile time.
#[test]
fn derive_query() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/query/pass/*.rs");
    t.compile_fail("tests/ui/query/fail/*.rs");
}
