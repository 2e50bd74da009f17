// User items named `Item`, `State`, `Option`, `Some`, `None`, `core`, `ecs_core`, `Entity`, `str`, `bool`, `usize` and a const `state` do not confuse the derive.
#![allow(dead_code, non_upper_case_globals, non_camel_case_types)]

mod core {}
mod ecs_core {}
struct Item;
struct State;
struct Option;
struct Some;
struct None;
struct str;
struct bool;
struct usize;
const state: u8 = 0;
const fetch: u8 = 0;
mod other {
    pub struct Entity;
}

#[derive(::ecs_core::Component)]
struct Position(u8);
#[derive(::ecs_core::Component)]
struct Velocity(u8);

#[derive(::ecs_core::Query)]
struct Mover<'w> {
    entity: ::ecs_core::Entity,
    pos: &'w mut Position,
    vel: ::std::option::Option<&'w Velocity>,
}

#[derive(::ecs_core::Query)]
struct Viewer<'w> {
    pos: &'w Position,
    id: ::ecs_core::Entity,
}

fn main() {
    let mut world = ::ecs_core::World::new();
    let e = world.spawn((Position(1), Velocity(2)));
    for m in world.query::<Mover>().iter_mut() {
        m.pos.0 += m.vel.unwrap().0;
        assert_eq!(m.entity, e);
    }
    let query = world.query::<Mover>();
    let twin: MoverReadOnly<'_> = query.get(e).unwrap();
    assert_eq!(twin.pos.0, 3);
    let viewers = world.query_ref::<Viewer>();
    let viewer = viewers.get(e).unwrap();
    assert_eq!((viewer.pos.0, viewer.id), (3, e));
    let _ = (Item, State, Option, Some, None, state, fetch, other::Entity, str, bool, usize);
}
