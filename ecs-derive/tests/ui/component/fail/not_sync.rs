// A component that is `Send` but not `Sync` is rejected at the derive.
use ecs_core::prelude::*;

#[derive(Component)]
struct Cell(std::cell::Cell<u8>);

fn main() {}
