// `#[query(crate = "...")]` works with a renamed dependency and a re-export.
extern crate ecs_core as my_ecs;

mod engine {
    pub use ecs_core as inner;
}

#[derive(my_ecs::Component)]
#[component(crate = "my_ecs")]
struct Position(u8);

#[derive(my_ecs::Query)]
#[query(crate = "my_ecs")]
struct Mover<'w> {
    entity: my_ecs::Entity,
    pos: &'w mut Position,
}

#[derive(my_ecs::Query)]
#[query(crate = "crate::engine::inner")]
struct Viewer<'w>(&'w Position);

fn main() {
    let mut world = my_ecs::World::new();
    let e = world.spawn(Position(1));
    for m in world.query::<Mover>().iter_mut() {
        m.pos.0 += 1;
        assert_eq!(m.entity, e);
    }
    let query = world.query::<Mover>();
    let twin: MoverReadOnly<'_> = query.get(e).unwrap();
    assert_eq!(twin.pos.0, 2);
    assert_eq!(world.query_ref::<Viewer>().get(e).unwrap().0.0, 2);
}
