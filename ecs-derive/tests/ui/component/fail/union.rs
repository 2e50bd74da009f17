// A union cannot derive `Component`; the error points at the `union` keyword.
use ecs_core::prelude::*;

#[derive(Component)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
