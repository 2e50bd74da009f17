// A tuple struct, including one owning heap data, derives `Component`.
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Name(String, u32);

fn main() {
    let mut world = World::new();
    let e = world.spawn(Name("orc".to_owned(), 7));
    assert_eq!(world.get::<Name>(e).unwrap(), &Name("orc".to_owned(), 7));
}
