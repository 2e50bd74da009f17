//! Events aimed at one entity: `#[derive(EntityEvent)]`, observers on one
//! entity (`entity_mut(e).observe`, `commands.entity(e).observe`), which run
//! after the observers of every entity and go when their entity does; and
//! propagation up `ChildOf` or another relationship, stopped or sent on by
//! the observers, the event changed on its way.

use std::panic::{AssertUnwindSafe, catch_unwind};

use ecs_core::prelude::*;

#[derive(Component)]
struct Health(u16);

#[derive(Component)]
struct Armor(u16);

#[derive(EntityEvent)]
#[entity_event(propagate, auto_propagate)]
struct Attack {
    entity: Entity,
    damage: u16,
}

#[derive(EntityEvent)]
struct Poke {
    entity: Entity,
}

#[derive(EntityEvent)]
#[entity_event(propagate)]
struct Whisper(#[event_target] Entity, &'static str);

#[derive(Default)]
struct Log(Vec<String>);

fn world_with_log() -> World {
    let mut world = World::new();
    world.init_resource::<Log>();
    world
}

fn log(world: &World) -> Vec<String> {
    world.resource::<Log>().unwrap().0.clone()
}

/// Observers of every entity run first, then the entity's own, each group
/// in registration order; another entity's observers do not hear it.
#[test]
fn entity_observers_run_after_the_global_ones_in_registration_order() -> Result<(), Error> {
    let mut world = world_with_log();
    let a = world.spawn(());
    let b = world.spawn(());
    world
        .entity_mut(a)?
        .observe(|_: On<Poke>, mut log: ResMut<Log>| log.0.push("a first".into()));
    world.observe(|ev: On<Poke>, mut log: ResMut<Log>| {
        log.0.push(format!("global {}", ev.entity()))
    });
    world
        .entity_mut(a)?
        .observe(|_: On<Poke>, mut log: ResMut<Log>| log.0.push("a second".into()));
    world
        .entity_mut(b)?
        .observe(|_: On<Poke>, mut log: ResMut<Log>| log.0.push("b".into()));
    world.trigger(Poke { entity: a });
    assert_eq!(
        log(&world),
        [format!("global {a}"), "a first".into(), "a second".into()]
    );
    Ok(())
}

/// An entity's observers go with it, and `unobserve` removes one before.
#[test]
fn observers_on_an_entity_go_when_it_is_despawned_or_unobserved() -> Result<(), Error> {
    let mut world = world_with_log();
    let a = world.spawn(());
    let b = world.spawn(());
    let first = world
        .entity_mut(a)?
        .observe(|_: On<Poke>, mut log: ResMut<Log>| log.0.push("first".into()));
    world
        .entity_mut(a)?
        .observe(|_: On<Poke>, mut log: ResMut<Log>| log.0.push("second".into()));
    world
        .entity_mut(b)?
        .observe(|_: On<Poke>, mut log: ResMut<Log>| log.0.push("b".into()));
    assert_eq!(world.observer_count(), 3);
    world.unobserve(first)?;
    world.trigger(Poke { entity: a });
    assert_eq!(log(&world), ["second"]);
    world.despawn(a)?;
    assert_eq!(world.observer_count(), 1);
    world.clear();
    assert_eq!(
        world.observer_count(),
        0,
        "clear takes every entity's observers"
    );
    let dead = world.entity_mut(b).map(drop).unwrap_err();
    assert!(matches!(dead, Error::Despawned { .. }));
    Ok(())
}

/// An observer registered through commands, on an entity the same commands
/// spawn; on an entity dead by then, a failed command.
#[test]
fn commands_register_observers_on_entities() -> Result<(), Error> {
    let mut world = world_with_log();
    let mut commands = world.commands();
    let e = commands.spawn(());
    commands
        .entity(e)
        .observe(|ev: On<Poke>, mut log: ResMut<Log>| log.0.push(format!("{}", ev.entity())));
    assert_eq!(world.flush(), []);
    world.trigger(Poke { entity: e });
    assert_eq!(log(&world), [format!("{e}")]);

    let gone = world.spawn(());
    world.despawn(gone)?;
    world.commands().entity(gone).observe(|_: On<Poke>| {});
    assert_eq!(world.flush(), [Error::Despawned { entity: gone }]);
    Ok(())
}

/// Lifecycle triggers on one entity: only that entity's `Health` arriving
/// or leaving is heard.
#[test]
fn structural_triggers_can_be_observed_on_one_entity() -> Result<(), Error> {
    let mut world = world_with_log();
    let hero = world.spawn(());
    let other = world.spawn(());
    world
        .entity_mut(hero)?
        .observe(|t: OnAdd<Health>, mut log: ResMut<Log>| {
            log.0.push(format!("add {}", t.entity()))
        });
    world
        .entity_mut(hero)?
        .observe(|_: OnRemove<Health>, mut log: ResMut<Log>| log.0.push("remove".into()));
    world.insert(other, Health(1))?;
    world.insert(hero, Health(1))?;
    world.remove::<Health>(other)?;
    world.despawn(hero)?;
    assert_eq!(log(&world), [format!("add {hero}"), "remove".into()]);
    assert_eq!(world.observer_count(), 0);
    Ok(())
}

/// Without `auto_propagate` the event travels only when an observer asks;
/// `original_entity` stays where it started; the walk ends at the root.
#[test]
fn propagation_on_request_and_the_original_entity() -> Result<(), Error> {
    let mut world = world_with_log();
    let root = world.spawn(());
    let mid = world.spawn(ChildOf(root));
    let leaf = world.spawn(ChildOf(mid));
    world.observe(|mut ev: On<Whisper>, mut log: ResMut<Log>| {
        log.0.push(format!(
            "{} at {} from {}",
            ev.1,
            ev.entity(),
            ev.original_entity()
        ));
        if ev.1 == "pass it on" {
            ev.propagate(true);
        }
    });
    world.trigger(Whisper(leaf, "stay"));
    assert_eq!(log(&world), [format!("stay at {leaf} from {leaf}")]);
    world.resource_mut::<Log>()?.0.clear();
    world.trigger(Whisper(leaf, "pass it on"));
    assert_eq!(
        log(&world),
        [
            format!("pass it on at {leaf} from {leaf}"),
            format!("pass it on at {mid} from {leaf}"),
            format!("pass it on at {root} from {leaf}"),
        ]
    );
    Ok(())
}

#[derive(Component)]
#[relationship(target = TargetedBy)]
struct Targeting(#[entity] Entity);

#[derive(Component)]
#[relationship_target(relationship = Targeting)]
struct TargetedBy(Vec<Entity>);

#[derive(EntityEvent)]
#[entity_event(propagate = Targeting, auto_propagate)]
struct Alarm {
    entity: Entity,
    hops: u32,
}

/// An event may travel along any relationship; the event's own target
/// field follows it, and it may change on its way.
#[test]
fn propagation_along_another_relationship() -> Result<(), Error> {
    let mut world = world_with_log();
    let tower = world.spawn(());
    let scout = world.spawn(Targeting(tower));
    let spy = world.spawn(Targeting(scout));
    world.observe(|mut ev: On<Alarm>, mut log: ResMut<Log>| {
        ev.hops += 1;
        log.0.push(format!("{} {}", ev.entity, ev.hops));
    });
    world.trigger(Alarm {
        entity: spy,
        hops: 0,
    });
    assert_eq!(
        log(&world),
        [
            format!("{spy} 1"),
            format!("{scout} 2"),
            format!("{tower} 3")
        ]
    );
    Ok(())
}

/// A panicking observer mid-walk: the walk stops, the commands of every
/// observer of this trigger are dropped, and the panic reaches the caller.
#[test]
fn a_panic_mid_propagation_stops_the_walk_and_drops_its_commands() -> Result<(), Error> {
    #[derive(Component)]
    struct Scorch;
    let mut world = world_with_log();
    let root = world.spawn(());
    let mid = world.spawn(ChildOf(root));
    let leaf = world.spawn(ChildOf(mid));
    world.observe(
        |ev: On<Attack>, mut commands: Commands, mut log: ResMut<Log>| {
            commands.entity(ev.entity()).insert(Scorch);
            log.0.push(format!("{}", ev.entity()));
        },
    );
    world
        .entity_mut(mid)?
        .observe(|_: On<Attack>| panic!("the middle breaks"));
    let caught = catch_unwind(AssertUnwindSafe(|| {
        world.trigger(Attack {
            entity: leaf,
            damage: 1,
        })
    }));
    assert!(caught.is_err());
    assert_eq!(
        log(&world),
        [format!("{leaf}"), format!("{mid}")],
        "the root never heard"
    );
    assert_eq!(
        world.query::<&Scorch>().iter().count(),
        0,
        "every command was dropped"
    );
    Ok(())
}

/// bevy's `observer_propagation.rs`: a goblin wears armour pieces (its
/// children); attacks aimed at a piece lose the piece's armour on their way
/// to the goblin, and a piece that absorbs the whole hit stops it.
#[test]
fn bevy_observer_propagation_scenario_goblin_and_armour() -> Result<(), Error> {
    fn block_attack(mut ev: On<Attack>, armor: Query<&Armor>, mut log: ResMut<Log>) {
        let armor = armor.get(ev.entity()).unwrap();
        let damage = ev.damage.saturating_sub(armor.0);
        if damage > 0 {
            log.0.push(format!("{} damage passed through", damage));
            ev.damage = damage;
        } else {
            log.0.push(format!("{} damage blocked", ev.damage));
            ev.propagate(false);
        }
    }
    fn take_damage(ev: On<Attack>, mut hp: Query<&mut Health>, mut log: ResMut<Log>) {
        let hp = hp.get_mut(ev.entity()).unwrap();
        hp.0 = hp.0.saturating_sub(ev.damage);
        log.0.push(format!("goblin hp {}", hp.0));
    }

    let mut world = world_with_log();
    let goblin = world.spawn(Health(50));
    world.entity_mut(goblin)?.observe(take_damage);
    let helmet = world.spawn((Armor(5), ChildOf(goblin)));
    let socks = world.spawn((Armor(10), ChildOf(goblin)));
    let shirt = world.spawn((Armor(15), ChildOf(goblin)));
    for piece in [helmet, socks, shirt] {
        world.entity_mut(piece)?.observe(block_attack);
    }
    for (piece, damage) in [(helmet, 12), (socks, 9), (shirt, 40)] {
        world.trigger(Attack {
            entity: piece,
            damage,
        });
    }
    assert_eq!(
        log(&world),
        [
            "7 damage passed through",
            "goblin hp 43",
            "9 damage blocked",
            "25 damage passed through",
            "goblin hp 18",
        ]
    );
    Ok(())
}

#[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
enum GameState {
    #[default]
    Playing,
    Paused,
}

/// Run conditions on observers, as on systems: every one asked before each
/// run; a condition that writes is refused when the observer is registered.
#[test]
fn observers_take_run_conditions() -> Result<(), Error> {
    fn on_attack(ev: On<Attack>, mut log: ResMut<Log>) {
        log.0.push(format!("attack {}", ev.damage));
    }
    let mut world = world_with_log();
    world.init_state::<GameState>();
    let mut schedule = Schedule::new();
    schedule.run(&mut world)?; // enters the first state
    let knight = world.spawn(());
    world.observe(on_attack.run_if(in_state(GameState::Playing)));
    world.trigger(Attack {
        entity: knight,
        damage: 1,
    });
    world
        .resource_mut::<NextState<GameState>>()?
        .set(GameState::Paused);
    schedule.run(&mut world)?;
    world.trigger(Attack {
        entity: knight,
        damage: 2,
    });
    assert_eq!(log(&world), ["attack 1"]);

    let writes = |_: ResMut<Log>| true;
    let refused = world.try_observe(on_attack.run_if(writes)).unwrap_err();
    assert!(
        matches!(&refused, Error::WritingCondition { system, .. } if system == "on_attack"),
        "{refused}"
    );
    Ok(())
}

#[derive(Component)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(Event)]
struct Explosion {
    x: f32,
    y: f32,
    radius: f32,
}

/// A game's global and entity events together, written as a game writes
/// them: an explosion despawns what it reaches; a small attack is absorbed
/// by the shield, and one triggered from a system loses the shield's armour
/// on its way to the knight; an observer guarded by a state runs only in
/// that state.
#[test]
fn a_game_s_events_and_observers_run_together() -> Result<(), Error> {
    fn take_damage(ev: On<Attack>, mut q: Query<&mut Health>) {
        if let Ok(health) = q.get_mut(ev.entity()) {
            health.0 = health.0.saturating_sub(ev.damage);
        }
    }
    fn on_attack(_: On<Attack>, mut log: ResMut<Log>) {
        log.0.push("attack while playing".into());
    }
    #[derive(Default)]
    struct Target(Option<Entity>);
    fn strike(mut commands: Commands, target: Res<Target>) {
        if let Some(shield) = target.0 {
            commands.trigger(Attack {
                entity: shield,
                damage: 25,
            });
        }
    }

    let mut world = world_with_log();
    world.init_resource::<Target>();
    world.init_state::<GameState>();
    world.observe(
        |ev: On<Explosion>, mut commands: Commands, q: Query<(Entity, &Position)>| {
            for (e, p) in q.iter() {
                if (p.x - ev.x).hypot(p.y - ev.y) < ev.radius {
                    commands.entity(e).despawn();
                }
            }
        },
    );
    let knight = world.spawn(Health(50));
    let shield = world.spawn((Armor(10), ChildOf(knight)));
    world
        .entity_mut(shield)?
        .observe(|mut ev: On<Attack>, armor: Query<&Armor>| {
            let a = armor.get(ev.entity()).unwrap();
            if ev.damage <= a.0 {
                ev.propagate(false);
            } else {
                ev.damage -= a.0;
            }
        });
    world.entity_mut(knight)?.observe(take_damage);
    world.add_observer(on_attack.run_if(in_state(GameState::Playing)));
    let crate_near = world.spawn(Position { x: 1.0, y: 1.0 });
    let crate_far = world.spawn(Position { x: 9.0, y: 9.0 });

    world.trigger(Explosion {
        x: 0.0,
        y: 0.0,
        radius: 5.0,
    });
    assert!(!world.is_alive(crate_near) && world.is_alive(crate_far));

    world.trigger(Attack {
        entity: shield,
        damage: 8,
    });
    assert_eq!(world.get::<Health>(knight)?.0, 50, "absorbed by the shield");
    world.resource_mut::<Log>()?.0.clear();

    world.resource_mut::<Target>()?.0 = Some(shield);
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, strike)?;
    schedule.run(&mut world)?;
    assert_eq!(world.get::<Health>(knight)?.0, 35);
    assert_eq!(
        log(&world),
        ["attack while playing", "attack while playing"],
        "at the shield, then the knight"
    );
    world
        .resource_mut::<NextState<GameState>>()?
        .set(GameState::Paused);
    schedule.run(&mut world)?;
    assert_eq!(world.get::<Health>(knight)?.0, 20);
    assert_eq!(
        log(&world).len(),
        2,
        "paused: the guarded observer is quiet"
    );
    Ok(())
}
