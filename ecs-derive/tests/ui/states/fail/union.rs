// A union cannot be a state: states are compared and hashed by value.
use ecs_core::prelude::*;

#[derive(States, Clone, Copy)]
union Mode {
    fast: u8,
    slow: u16,
}

fn main() {}
