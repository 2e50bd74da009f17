// An unknown hook name is refused, and the message lists the hooks there are.
use ecs_core::prelude::*;

fn a(_: DeferredWorld, _: HookContext) {}

#[derive(Component)]
#[component(on_spawn = a)]
struct Enemy;

fn main() {}
