//! Observers misused are compile errors that say what an observer is: a
//! closure whose first argument is not a trigger, a trigger on a type that
//! is not a component. The `.stderr` files under `tests/ui/observer/fail/`
//! are trybuild snapshots (`TRYBUILD=overwrite` regenerates them).

#[test]
fn misuse_is_a_compile_error_that_says_what_an_observer_is() {
    trybuild::TestCases::new().compile_fail("tests/ui/observer/fail/*.rs");
}
