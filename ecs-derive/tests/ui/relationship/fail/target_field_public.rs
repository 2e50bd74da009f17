use ecs_core::prelude::*;

#[derive(Component)]
#[relationship(target = Followers)]
struct Follows(#[entity] Entity);

#[derive(Component)]
#[relationship_target(relationship = Follows)]
pub struct Followers(pub Vec<Entity>);

fn main() {}
