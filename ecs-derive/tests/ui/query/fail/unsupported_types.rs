// Arrays and function pointers are not fetches: each such field gets its own error, valid fields none.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Query)]
struct Odd<'w> {
    bytes: [u8; 4],
    callback: fn(),
    ok: &'w Position,
}

fn main() {}
