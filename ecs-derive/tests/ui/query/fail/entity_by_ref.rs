// `&'w Entity` is not a fetch: `Entity` is fetched by value.
use ecs_core::prelude::*;

#[derive(Query)]
struct Ids<'w> {
    id: &'w Entity,
}

fn main() {}
