//! Custom events a game triggers: `#[derive(Event)]`, `world.trigger`,
//! `commands.trigger` and `DeferredWorld::trigger`, observed as `On<E>`.
//! Observers run at once, in registration order, each seeing the event as
//! the ones before left it; their commands apply before `trigger` returns;
//! a panic drops them; nesting is bounded.

use std::panic::{AssertUnwindSafe, catch_unwind};

use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Position(f32, f32);

#[derive(Component)]
struct Debris;

#[derive(Event, Debug, Clone, PartialEq)]
struct Explosion {
    x: f32,
    y: f32,
    radius: f32,
}

#[derive(Event)]
struct Hit {
    damage: u32,
}

#[derive(Default)]
struct Log(Vec<String>);

fn log(world: &World) -> Vec<String> {
    world.resource::<Log>().unwrap().0.clone()
}

fn world_with_log() -> World {
    let mut world = World::new();
    world.init_resource::<Log>();
    world
}

#[test]
fn observers_run_in_registration_order_and_see_each_other_s_changes() {
    let mut world = world_with_log();
    world.observe(|mut hit: On<Hit>, mut log: ResMut<Log>| {
        log.0.push(format!("armour sees {}", hit.damage));
        hit.damage = hit.damage.saturating_sub(3);
    });
    world.observe(|hit: On<Hit>, mut log: ResMut<Log>| {
        log.0.push(format!("health takes {}", hit.event().damage));
    });
    world.trigger(Hit { damage: 10 });
    world.trigger(Hit { damage: 2 });
    assert_eq!(
        log(&world),
        [
            "armour sees 10",
            "health takes 7",
            "armour sees 2",
            "health takes 0"
        ]
    );
}

#[test]
fn an_event_nobody_observes_does_nothing_and_other_types_are_not_heard() {
    let mut world = world_with_log();
    world.trigger(Hit { damage: 1 });
    world.observe(|_: On<Explosion>, mut log: ResMut<Log>| log.0.push("boom".into()));
    world.trigger(Hit { damage: 1 });
    assert!(log(&world).is_empty());
    assert!(world.take_observer_errors().is_empty());
}

/// The observers' commands apply before `trigger` returns, and an observer
/// with queries sees the world as it is.
#[test]
fn commands_of_observers_apply_before_trigger_returns() {
    let mut world = World::new();
    world.observe(
        |ev: On<Explosion>, q: Query<(Entity, &Position)>, mut commands: Commands| {
            for (e, p) in q.iter() {
                if (p.0 - ev.x).hypot(p.1 - ev.y) < ev.radius {
                    commands.despawn(e);
                    commands.spawn(Debris);
                }
            }
        },
    );
    let near = world.spawn(Position(1.0, 1.0));
    let far = world.spawn(Position(8.0, 0.0));
    world.trigger(Explosion {
        x: 0.0,
        y: 0.0,
        radius: 5.0,
    });
    assert!(!world.is_alive(near));
    assert!(world.is_alive(far));
    assert_eq!(world.query::<&Debris>().iter().count(), 1);
}

#[test]
fn commands_trigger_from_a_system_and_hooks_trigger_from_a_deferred_world() -> Result<(), Error> {
    #[derive(Component)]
    #[component(on_add = arm)]
    struct Bomb;

    fn arm(mut world: DeferredWorld, ctx: HookContext) {
        world.trigger(Hit {
            damage: ctx.entity.index(),
        });
    }
    fn referee(mut commands: Commands) {
        commands.trigger(Hit { damage: 99 });
    }
    fn after_referee(log: Res<Log>, mut seen: ResMut<Seen>) {
        seen.0 = log.0.len();
    }
    #[derive(Default)]
    struct Seen(usize);

    let mut world = world_with_log();
    world.init_resource::<Seen>();
    world.observe(|hit: On<Hit>, mut log: ResMut<Log>| log.0.push(format!("hit {}", hit.damage)));
    let bomb = world.spawn(Bomb);
    assert_eq!(log(&world), [format!("hit {}", bomb.index())]);

    let mut schedule = Schedule::new();
    schedule.add_systems(Stage::Update, (referee, after_referee).chain())?;
    schedule.run(&mut world)?;
    assert_eq!(log(&world)[1], "hit 99");
    assert_eq!(
        world.resource::<Seen>()?.0,
        2,
        "the trigger applied at the sync point before the next system"
    );
    Ok(())
}

/// An observer may trigger another event, or its own: the nesting stops at
/// `MAX_OBSERVER_DEPTH` with an error naming the event.
#[test]
fn nested_triggers_run_and_endless_ones_are_cut_short() {
    #[derive(Event)]
    struct Echo(u32);

    let mut world = world_with_log();
    world.observe(|ev: On<Explosion>, mut commands: Commands| {
        commands.trigger(Hit {
            damage: ev.radius as u32,
        });
    });
    world.observe(|hit: On<Hit>, mut log: ResMut<Log>| log.0.push(format!("hit {}", hit.damage)));
    world.trigger(Explosion {
        x: 0.0,
        y: 0.0,
        radius: 3.0,
    });
    assert_eq!(log(&world), ["hit 3"]);

    world.observe(|echo: On<Echo>, mut commands: Commands| {
        commands.trigger(Echo(echo.0 + 1));
    });
    world.trigger(Echo(0));
    let errors = world.take_observer_errors();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0],
        Error::EventRecursion {
            event: "Echo".into(),
            depth: ecs_core::MAX_OBSERVER_DEPTH,
        }
    );
    assert!(
        errors[0]
            .to_string()
            .starts_with("the observers of the event `Echo` did not run")
    );
}

#[test]
fn unobserve_and_add_observer_and_errors_name_the_observer() {
    fn refuse(hit: On<Hit>) -> Result<(), String> {
        Err(format!("{} damage refused", hit.damage))
    }
    let mut world = world_with_log();
    let id = world
        .add_observer(|hit: On<Hit>, mut log: ResMut<Log>| log.0.push(format!("{}", hit.damage)));
    world.observe(refuse);
    world.trigger(Hit { damage: 4 });
    world.unobserve(id).unwrap();
    world.trigger(Hit { damage: 5 });
    assert_eq!(log(&world), ["4"]);
    let errors: Vec<String> = world
        .take_observer_errors()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errors,
        [
            "observer `refuse` failed: 4 damage refused",
            "observer `refuse` failed: 5 damage refused"
        ]
    );
}

/// A panicking observer: the observers after it do not run, the commands
/// this trigger's observers recorded are dropped (no spawn is left alive),
/// and the panic reaches the caller; the world is usable afterwards.
#[test]
fn a_panicking_observer_drops_the_trigger_s_commands_and_stops_the_rest() {
    let mut world = world_with_log();
    world.observe(|_: On<Hit>, mut commands: Commands| {
        commands.spawn(Debris);
    });
    world.observe(|hit: On<Hit>| {
        if hit.damage > 100 {
            panic!("overkill");
        }
    });
    world.observe(|_: On<Hit>, mut log: ResMut<Log>| log.0.push("after".into()));
    let caught = catch_unwind(AssertUnwindSafe(|| world.trigger(Hit { damage: 1000 })));
    assert!(caught.is_err());
    world.flush();
    assert_eq!(
        world.query::<&Debris>().iter().count(),
        0,
        "the spawn was dropped"
    );
    assert_eq!(world.len(), 0, "and its reserved id released");
    assert!(log(&world).is_empty(), "the third observer never ran");

    world.trigger(Hit { damage: 1 });
    assert_eq!(world.query::<&Debris>().iter().count(), 1);
    assert_eq!(log(&world), ["after"]);
}

/// bevy's `observers.rs`, its global half: an explosion event despawns the
/// mines in its radius through an observer's commands, and a second
/// observer of the same event counts the explosions.
#[test]
fn bevy_observers_scenario_global_explosions() {
    #[derive(Default)]
    struct Explosions(u32);

    let mut world = world_with_log();
    world.init_resource::<Explosions>();
    world.observe(|_: On<Explosion>, mut n: ResMut<Explosions>| n.0 += 1);
    world.observe(
        |ev: On<Explosion>,
         mines: Query<(Entity, &Position)>,
         mut commands: Commands,
         mut log: ResMut<Log>| {
            for (mine, p) in mines.iter() {
                if (p.0 - ev.x).hypot(p.1 - ev.y) < ev.radius {
                    log.0.push(format!("mine {mine} hit"));
                    commands.despawn(mine);
                }
            }
        },
    );
    let mines: Vec<Entity> = [(0.0, 0.0), (3.0, 0.0), (10.0, 10.0)]
        .into_iter()
        .map(|(x, y)| world.spawn(Position(x, y)))
        .collect();
    world.trigger(Explosion {
        x: 1.0,
        y: 0.0,
        radius: 2.5,
    });
    assert_eq!(
        log(&world),
        [
            format!("mine {} hit", mines[0]),
            format!("mine {} hit", mines[1])
        ]
    );
    assert_eq!(world.len(), 1);
    world.trigger(Explosion {
        x: 0.0,
        y: 0.0,
        radius: 1.0,
    });
    assert_eq!(world.resource::<Explosions>().unwrap().0, 2);
    assert_eq!(world.len(), 1, "nothing left in range");
}
