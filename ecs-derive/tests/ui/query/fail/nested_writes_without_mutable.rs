// A nested query that writes, in a struct not marked `#[query(mutable)]`: the error is at the field.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);
#[derive(Component)]
struct Name(&'static str);

#[derive(Query)]
struct Step<'w> {
    pos: &'w mut Position,
}

#[derive(Query)]
struct Outer<'w> {
    name: &'w Name,
    step: Step<'w>,
}

fn main() {}
