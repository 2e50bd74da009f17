// `Changed<T>` on a type without `#[component(track_changes)]` names the attribute to add.
use ecs_core::prelude::*;

#[derive(Component)]
struct Health(i32);

fn report(changed: Query<(Entity, &Health), Changed<Health>>) {
    for (e, h) in changed.iter() {
        println!("{e:?} now has {} hp", h.0);
    }
}

fn main() {
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, report).unwrap();
}
