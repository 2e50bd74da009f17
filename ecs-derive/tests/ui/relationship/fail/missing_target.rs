use ecs_core::prelude::*;

#[derive(Component)]
#[relationship]
struct Follows(#[entity] Entity);

#[derive(Component)]
#[relationship_target(linked_spawn)]
struct Followers(Vec<Entity>);

fn main() {}
