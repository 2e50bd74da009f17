//! The snippet of "Systems that talk and react" as written: events between
//! systems, observers on structural change, and exact change detection, in
//! one world and one schedule.

use ecs_core::prelude::*;

#[derive(Component)]
struct Enemy;
#[derive(Component)]
struct Burning;
#[derive(Default)]
struct Log(Vec<Entity>);
/// What `report` saw in one frame: the changed entities with their health,
/// and the added ones.
type Report = (Vec<(Entity, i32)>, Vec<Entity>);
/// What `report` saw, frame by frame.
#[derive(Default)]
struct Reports(Vec<Report>);

struct Hit {
    target: Entity,
    damage: i32,
} // an event: any Send + Sync + 'static value

fn shooter(mut hits: EventWriter<Hit>, targets: Query<Entity, With<Enemy>>) {
    for t in targets.iter() {
        hits.send(Hit {
            target: t,
            damage: 1,
        });
    }
}
fn damage(mut hits: EventReader<Hit>, mut health: Query<&mut Health>) {
    for hit in hits.read() {
        if let Ok(mut h) = health.get_mut(hit.target) {
            h.0 -= hit.damage;
        }
    }
}

#[derive(Component)]
#[component(track_changes)] // opt in: Added/Changed work for this type
struct Health(i32);

fn report(changed: Query<(Entity, &Health), Changed<Health>>, added: Query<Entity, Added<Health>>) {
    for (e, h) in changed.iter() {
        println!("{e:?} now has {} hp", h.0);
    }
    let _ = added;
}

/// `report` with what it prints kept, so the test can read it.
fn report_kept(
    changed: Query<(Entity, &Health), Changed<Health>>,
    added: Query<Entity, Added<Health>>,
    mut reports: ResMut<Reports>,
) {
    let mut changed: Vec<(Entity, i32)> = changed.iter().map(|(e, h)| (e, h.0)).collect();
    let mut added: Vec<Entity> = added.iter().collect();
    changed.sort();
    added.sort();
    reports.0.push((changed, added));
}

#[test]
fn the_snippet_behaves_as_written() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Log::default());
    world.insert_resource(Reports::default());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, shooter)?;
    schedule.add_system(Stage::Update, damage)?;
    schedule.add_system(Stage::PostUpdate, report)?;
    schedule.add_system(Stage::PostUpdate, report_kept)?;

    let id = world.observe(|trigger: OnAdd<Health>, mut commands: Commands| {
        commands.insert(trigger.entity(), Burning);
    });
    world.observe(|trigger: OnRemove<Health>, mut log: ResMut<Log>| log.0.push(trigger.entity()));

    let e = world.spawn(Health(10));
    let enemy = world.spawn((Enemy, Health(3)));
    assert!(world.contains::<Burning>(e) && world.contains::<Burning>(enemy));

    world.send(Hit {
        target: e,
        damage: 5,
    });
    schedule.run(&mut world)?;
    assert_eq!(world.get::<Health>(e)?.0, 5);
    assert_eq!(world.get::<Health>(enemy)?.0, 2);

    // A frame with no event for `e`: only the enemy's health changes.
    schedule.run(&mut world)?;
    assert_eq!(world.get::<Health>(enemy)?.0, 1);

    world.unobserve(id)?;
    let late = world.spawn(Health(7));
    assert!(!world.contains::<Burning>(late));
    world.despawn(enemy)?;
    schedule.run(&mut world)?;

    assert_eq!(world.resource::<Log>()?.0, [enemy]);
    let reports = &world.resource::<Reports>()?.0;
    assert_eq!(reports.len(), 3);
    // First run: everything spawned before it counts as added, and changed.
    assert_eq!(reports[0], (vec![(e, 5), (enemy, 2)], vec![e, enemy]));
    assert_eq!(reports[1], (vec![(enemy, 1)], vec![]));
    assert_eq!(reports[2], (vec![(late, 7)], vec![late]));
    assert!(world.take_observer_errors().is_empty());
    assert!(schedule.command_errors().is_empty());
    Ok(())
}

#[test]
fn an_observer_sees_changes_since_its_own_last_run() -> Result<(), Error> {
    #[derive(Default)]
    struct Seen(Vec<Vec<Entity>>);
    let mut world = World::new();
    world.insert_resource(Seen::default());
    let a = world.spawn(Health(1));
    world.observe(
        |_: OnAdd<Enemy>, changed: Query<Entity, Changed<Health>>, mut seen: ResMut<Seen>| {
            let mut list: Vec<Entity> = changed.iter().collect();
            list.sort();
            seen.0.push(list);
        },
    );
    world.spawn(Enemy); // first run: sees `a` from before it
    world.get_mut::<Health>(a)?.0 += 1;
    let b = world.spawn(Health(2));
    world.spawn(Enemy); // sees the write to `a` and the new `b`
    world.spawn(Enemy); // nothing new
    assert_eq!(world.resource::<Seen>()?.0, [vec![a], vec![a, b], vec![]]);
    Ok(())
}
