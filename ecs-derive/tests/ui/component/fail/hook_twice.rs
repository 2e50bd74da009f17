// A type has one hook of each kind: a second `on_add` is refused.
use ecs_core::prelude::*;

fn a(_: DeferredWorld, _: HookContext) {}
fn b(_: DeferredWorld, _: HookContext) {}

#[derive(Component)]
#[component(on_add = a)]
#[component(on_add = b)]
struct Enemy;

fn main() {}
