// A field whose type is a bare type parameter: its borrow of the world cannot be named.
use ecs_core::prelude::*;
use ecs_core::system::SystemParam as Param;

#[derive(SystemParam)]
struct Wrapper<'w, P: Param> {
    inner: P,
    commands: Commands<'w>,
}

fn main() {}
