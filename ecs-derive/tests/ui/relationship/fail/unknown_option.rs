use ecs_core::prelude::*;

#[derive(Component)]
#[relationship(target = Followers, ordered)]
struct Follows(#[entity] Entity);

#[derive(Component)]
#[relationship_target(relationship = Follows, despawn_with)]
struct Followers(Vec<Entity>);

fn main() {}
