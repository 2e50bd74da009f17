// A derived param struct as a field of another, beside a tuple of params.
use ecs_core::prelude::*;

#[derive(Component)]
struct Health(i32);
struct Poison(i32);
#[derive(Default)]
struct Deaths(u32);

#[derive(SystemParam)]
struct Damage<'w> {
    health: Query<'w, &'w mut Health>,
    poison: Res<'w, Poison>,
}

#[derive(SystemParam)]
struct Combat<'w> {
    damage: Damage<'w>,
    tally: (ResMut<'w, Deaths>, Local<'w, u32>),
}

fn combat(mut c: Combat) {
    let (deaths, runs) = &mut c.tally;
    **runs += 1;
    for h in c.damage.health.iter_mut() {
        h.0 -= c.damage.poison.0;
        if h.0 <= 0 {
            deaths.0 += 1;
        }
    }
}

fn main() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Poison(3));
    world.insert_resource(Deaths::default());
    let e = world.spawn(Health(5));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, combat)?;
    schedule.run(&mut world)?;
    schedule.run(&mut world)?;
    assert_eq!(world.get::<Health>(e)?.0, -1);
    assert_eq!(world.resource::<Deaths>()?.0, 1);
    Ok(())
}
