// A const-generic struct derives `Component`; `Grid<2>` and `Grid<3>` are distinct components.
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Grid<const N: usize>([u8; N]);

fn main() {
    let mut world = World::new();
    let e = world.spawn((Grid([1, 2]), Grid([3, 4, 5])));
    assert_eq!(world.get::<Grid<2>>(e).unwrap(), &Grid([1, 2]));
    assert_eq!(world.get::<Grid<3>>(e).unwrap(), &Grid([3, 4, 5]));
    assert!(!world.contains::<Grid<4>>(e));
}
