use ecs_core::prelude::*;

fn greet(_: DeferredWorld, _: HookContext) {}

#[derive(Component)]
#[relationship(target = Followers)]
#[component(on_insert = greet, on_remove = greet)]
struct Follows(#[entity] Entity);

#[derive(Component)]
#[relationship_target(relationship = Follows)]
#[component(on_replace = greet)]
struct Followers(Vec<Entity>);

fn main() {}
