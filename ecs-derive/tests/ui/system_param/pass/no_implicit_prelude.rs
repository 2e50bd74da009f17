// Generated code names every item by absolute path, so it compiles without the prelude.
#![no_implicit_prelude]

#[derive(::ecs_core::Component)]
struct Position(f32);
struct Time(f32);

#[derive(::ecs_core::SystemParam)]
struct Inner<'w> {
    time: ::ecs_core::system::Res<'w, Time>,
    commands: ::ecs_core::Commands<'w>,
}

#[derive(::ecs_core::SystemParam)]
struct Outer<'w>(
    ::ecs_core::Query<'w, &'w mut Position>,
    Inner<'w>,
    ::std::option::Option<::ecs_core::system::ResMut<'w, ::std::string::String>>,
);

fn step(mut outer: Outer) {
    for p in outer.0.iter_mut() {
        p.0 += outer.1.time.0;
    }
    outer.1.commands.spawn(Position(0.0));
}

fn main() {
    let mut world = ::ecs_core::World::new();
    world.insert_resource(Time(1.0));
    world.spawn(Position(1.0));
    let mut schedule = ::ecs_core::Schedule::new();
    ::std::result::Result::unwrap(schedule.add_system(::ecs_core::Stage::Update, step));
    ::std::result::Result::unwrap(schedule.run(&mut world));
    ::std::assert_eq!(world.len(), 2);
}
