// A unit struct derives `Component` and works as a zero-sized tag.
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Frozen;

fn main() {
    let mut world = World::new();
    let tagged = world.spawn(Frozen);
    let plain = world.spawn(());
    assert!(world.contains::<Frozen>(tagged));
    assert!(!world.contains::<Frozen>(plain));
    assert_eq!(world.get::<Frozen>(tagged).unwrap(), &Frozen);
}
