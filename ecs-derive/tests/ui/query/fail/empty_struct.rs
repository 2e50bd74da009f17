// A struct with `{}` fetches nothing.
use ecs_core::prelude::*;

#[derive(Query)]
struct Nothing<'w> {}

fn main() {}
