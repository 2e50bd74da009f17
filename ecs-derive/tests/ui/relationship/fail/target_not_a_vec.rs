use ecs_core::prelude::*;

#[derive(Component)]
#[relationship(target = Followers)]
struct Follows(#[entity] Entity);

#[derive(Component)]
#[relationship_target(relationship = Follows)]
struct Followers([Entity; 4]);

fn main() {}
