use ecs_core::prelude::*;

#[derive(Component)]
#[relationship(target = Followers)]
struct Follows(#[entity] Entity, u32);

#[derive(Component)]
#[relationship_target(relationship = Follows)]
struct Followers(Vec<Entity>);

fn main() {}
