// An enum with unit, tuple and struct variants derives `Component`.
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
enum Shape {
    Point,
    Circle(f32),
    Rect { w: f32, h: f32 },
}

fn main() {
    let mut world = World::new();
    let a = world.spawn(Shape::Point);
    let b = world.spawn(Shape::Circle(2.0));
    let c = world.spawn(Shape::Rect { w: 1.0, h: 3.0 });
    assert_eq!(world.get::<Shape>(a).unwrap(), &Shape::Point);
    assert_eq!(world.get::<Shape>(b).unwrap(), &Shape::Circle(2.0));
    assert_eq!(
        world.get::<Shape>(c).unwrap(),
        &Shape::Rect { w: 1.0, h: 3.0 }
    );
}
