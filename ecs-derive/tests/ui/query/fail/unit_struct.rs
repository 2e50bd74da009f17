// A unit struct fetches nothing.
use ecs_core::prelude::*;

#[derive(Query)]
struct Nothing<'w>;

fn main() {}
