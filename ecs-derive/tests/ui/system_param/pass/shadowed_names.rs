// User items named like what the generated impl uses do not confuse the derive.
#![allow(dead_code, non_upper_case_globals, non_camel_case_types)]

mod core {}
mod ecs_core {}
mod std {}
struct Item;
struct State;
struct Result;
struct Ok;
struct Err;
struct Vec;
struct String;
struct Error;
struct World;
struct SystemParam;
const init: u8 = 0;
const fetch: u8 = 0;
const apply: u8 = 0;
const discard: u8 = 0;

#[derive(::ecs_core::Component)]
struct Position(u8);
struct Time(u8);

#[derive(::ecs_core::SystemParam)]
struct Physics<'w> {
    positions: ::ecs_core::Query<'w, &'w mut Position>,
    time: ::ecs_core::system::Res<'w, Time>,
    commands: ::ecs_core::Commands<'w>,
}

fn physics(mut p: Physics) {
    for pos in p.positions.iter_mut() {
        pos.0 += p.time.0;
    }
    p.commands.spawn(Position(0));
}

fn main() {
    let mut world = ::ecs_core::World::new();
    world.insert_resource(Time(2));
    let e = world.spawn(Position(1));
    let mut schedule = ::ecs_core::Schedule::new();
    schedule.add_system(::ecs_core::Stage::Update, physics).unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(world.get::<Position>(e).unwrap().0, 3);
    assert_eq!(world.len(), 2);
}
