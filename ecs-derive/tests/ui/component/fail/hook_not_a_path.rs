// A hook is the path of a function: a string or an expression is refused
// at the value, with what to write instead.
use ecs_core::prelude::*;

fn count_up(_: DeferredWorld, _: HookContext) {}

#[derive(Component)]
#[component(on_add = "count_up", on_remove = |_, _| {})]
struct Enemy;

fn main() {
    let _ = count_up;
}
