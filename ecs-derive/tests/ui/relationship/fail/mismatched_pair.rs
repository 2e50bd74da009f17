use ecs_core::prelude::*;

#[derive(Component)]
#[relationship(target = Followers)]
struct Follows(#[entity] Entity);

#[derive(Component)]
#[relationship(target = Followers)]
struct Likes(#[entity] Entity);

#[derive(Component)]
#[relationship_target(relationship = Likes)]
struct Followers(Vec<Entity>);

fn main() {}
