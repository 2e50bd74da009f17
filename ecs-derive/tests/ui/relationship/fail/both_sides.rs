use ecs_core::prelude::*;

#[derive(Component)]
#[relationship(target = Knows)]
#[relationship_target(relationship = Knows)]
struct Knows(Vec<Entity>);

fn main() {}
