//! Entity events under random operations: a forest of entities (`ChildOf`),
//! observers everywhere and on single entities, some absorbing hits, others
//! only listening, registered by the test or by an observer's commands,
//! despawns of observed entities (and their subtrees) and `unobserve`. Every
//! trigger runs exactly the observers a plain model of the walk predicts, in
//! its order (at each entity: everywhere, then the entity's own, each in
//! registration order), with the damage as the observers before left it,
//! stopping where an absorber took the whole hit.
//!
//! `ECS_MODEL_CASES` sets the number of generated cases (default 256).

use ecs_core::prelude::*;
use ecs_testkit::strategy::cases_from_env;
use proptest::collection::vec;
use proptest::prelude::*;

#[derive(EntityEvent)]
#[entity_event(propagate, auto_propagate)]
struct Hit {
    entity: Entity,
    damage: u16,
}

/// What the observers heard, in order: (observer number, entity, damage).
#[derive(Default)]
struct Heard(Vec<(usize, Entity, u16)>);

#[derive(Clone, Debug)]
enum Op {
    /// Spawns an entity under the `n`-th live one, or a root.
    Spawn(Option<usize>),
    /// Despawns the `n`-th live entity, with its subtree.
    Despawn(usize),
    /// Registers an observer on every entity, absorbing up to the value.
    ObserveAll(Option<u16>),
    /// Registers an observer on the `n`-th live entity.
    ObserveOne(usize, Option<u16>),
    /// Registers an observer that, when it first runs, registers (through
    /// its commands) a listener on the entity it heard the event at.
    ObserveThenAdd,
    /// Removes the `n`-th observer ever made, if it is still there.
    Unobserve(usize),
    /// Hits the `n`-th live entity.
    Trigger(usize, u16),
}

fn op() -> impl Strategy<Value = Op> {
    let at = 0usize..32;
    let absorb = proptest::option::of(1u16..20);
    prop_oneof![
        3 => proptest::option::of(at.clone()).prop_map(Op::Spawn),
        1 => at.clone().prop_map(Op::Despawn),
        1 => absorb.clone().prop_map(Op::ObserveAll),
        2 => (at.clone(), absorb).prop_map(|(i, a)| Op::ObserveOne(i, a)),
        1 => Just(Op::ObserveThenAdd),
        1 => at.clone().prop_map(Op::Unobserve),
        3 => (at, 0u16..60).prop_map(|(i, d)| Op::Trigger(i, d)),
    ]
}

/// One observer of the model: where it listens, what it absorbs, whether
/// it registers a listener when it first runs.
#[derive(Clone, Debug)]
struct ModelObserver {
    id: ObserverId,
    scope: Option<Entity>,
    absorb: Option<u16>,
    adds_listener: bool,
    alive: bool,
}

#[derive(Default)]
struct Model {
    /// Live entities with their parents, in spawn order.
    entities: Vec<(Entity, Option<Entity>)>,
    observers: Vec<ModelObserver>,
}

impl Model {
    fn pick(&self, n: usize) -> Option<Entity> {
        (!self.entities.is_empty()).then(|| self.entities[n % self.entities.len()].0)
    }

    fn parent(&self, e: Entity) -> Option<Entity> {
        self.entities
            .iter()
            .find(|(x, _)| *x == e)
            .and_then(|(_, p)| *p)
    }

    /// `e` and everything under it.
    fn subtree(&self, e: Entity) -> Vec<Entity> {
        let mut out = vec![e];
        let mut at = 0;
        while at < out.len() {
            let here = out[at];
            out.extend(
                self.entities
                    .iter()
                    .filter(|(_, p)| *p == Some(here))
                    .map(|(x, _)| *x),
            );
            at += 1;
        }
        out
    }

    fn alive(&self) -> usize {
        self.observers.iter().filter(|o| o.alive).count()
    }

    /// The walk of a hit on `target`: what each observer hears, and the
    /// listeners registered once it ends (by observers that add one).
    fn hit(&mut self, target: Entity, mut damage: u16) -> (Vec<(usize, Entity, u16)>, Vec<Entity>) {
        let mut heard = Vec::new();
        let mut added = Vec::new();
        let mut at = Some(target);
        while let Some(entity) = at {
            let mut goes_on = true;
            let global = (0..self.observers.len()).filter(|&i| self.observers[i].scope.is_none());
            let own =
                (0..self.observers.len()).filter(|&i| self.observers[i].scope == Some(entity));
            let order: Vec<usize> = global.chain(own).collect();
            for i in order {
                let observer = &mut self.observers[i];
                if !observer.alive {
                    continue;
                }
                heard.push((i, entity, damage));
                if let Some(absorb) = observer.absorb {
                    if damage <= absorb {
                        goes_on = false;
                    } else {
                        damage -= absorb;
                    }
                }
                if observer.adds_listener {
                    observer.adds_listener = false;
                    added.push(entity);
                }
            }
            at = if goes_on { self.parent(entity) } else { None };
        }
        (heard, added)
    }
}

/// The observer numbered `n`: records what it hears, absorbs.
fn register(world: &mut World, scope: Option<Entity>, n: usize, absorb: Option<u16>) -> ObserverId {
    let observer = move |mut hit: On<Hit>, mut heard: ResMut<Heard>| {
        heard.0.push((n, hit.entity(), hit.damage));
        if let Some(absorb) = absorb {
            if hit.damage <= absorb {
                hit.propagate(false);
            } else {
                hit.damage -= absorb;
            }
        }
    };
    match scope {
        None => world.observe(observer),
        Some(entity) => world.entity_mut(entity).unwrap().observe(observer),
    }
}

/// The listener an `ObserveThenAdd` observer registers: numbered by the
/// world as the next observer, which the model numbers the same way.
#[derive(Default)]
struct NextNumber(usize);

fn run(ops: Vec<Op>) -> Result<(), TestCaseError> {
    let mut world = World::new();
    world.init_resource::<Heard>();
    world.init_resource::<NextNumber>();
    let mut model = Model::default();
    for op in ops {
        match op {
            Op::Spawn(parent) => {
                let parent = parent.and_then(|n| model.pick(n));
                let e = match parent {
                    Some(p) => world.spawn(ChildOf(p)),
                    None => world.spawn(()),
                };
                model.entities.push((e, parent));
            }
            Op::Despawn(n) => {
                if let Some(e) = model.pick(n) {
                    world.despawn(e).unwrap();
                    let gone = model.subtree(e);
                    model.entities.retain(|(x, _)| !gone.contains(x));
                    for o in &mut model.observers {
                        if o.scope.is_some_and(|s| gone.contains(&s)) {
                            o.alive = false;
                        }
                    }
                }
            }
            Op::ObserveAll(absorb) => {
                let n = model.observers.len();
                let id = register(&mut world, None, n, absorb);
                model.observers.push(ModelObserver {
                    id,
                    scope: None,
                    absorb,
                    adds_listener: false,
                    alive: true,
                });
            }
            Op::ObserveOne(at, absorb) => {
                if let Some(e) = model.pick(at) {
                    let n = model.observers.len();
                    let id = register(&mut world, Some(e), n, absorb);
                    model.observers.push(ModelObserver {
                        id,
                        scope: Some(e),
                        absorb,
                        adds_listener: false,
                        alive: true,
                    });
                }
            }
            Op::ObserveThenAdd => {
                let n = model.observers.len();
                let mut done = false;
                let id = world.observe(
                    move |hit: On<Hit>, mut heard: ResMut<Heard>, mut commands: Commands| {
                        heard.0.push((n, hit.entity(), hit.damage));
                        if !done {
                            done = true;
                            let at = hit.entity();
                            commands.add(move |world: &mut World| {
                                let next = &mut world.resource_mut::<NextNumber>().unwrap().0;
                                let number = *next;
                                *next += 1;
                                let id = register(world, Some(at), number, None);
                                world.resource_mut::<Ids>().unwrap().0.push(id);
                            });
                        }
                    },
                );
                model.observers.push(ModelObserver {
                    id,
                    scope: None,
                    absorb: None,
                    adds_listener: true,
                    alive: true,
                });
            }
            Op::Unobserve(k) => {
                if let Some(o) = model.observers.get_mut(k) {
                    let removed = world.unobserve(o.id).is_ok();
                    prop_assert_eq!(removed, o.alive, "observer {} removed iff alive", k);
                    o.alive = false;
                }
            }
            Op::Trigger(at, damage) => {
                let Some(e) = model.pick(at) else { continue };
                world.resource_mut::<Heard>().unwrap().0.clear();
                world.resource_mut::<NextNumber>().unwrap().0 = model.observers.len();
                world.insert_resource(Ids::default());
                let (expected, added) = model.hit(e, damage);
                world.trigger(Hit { entity: e, damage });
                prop_assert_eq!(&world.resource::<Heard>().unwrap().0, &expected);
                let ids = world.remove_resource::<Ids>().unwrap().0;
                prop_assert_eq!(ids.len(), added.len());
                for (id, at) in ids.into_iter().zip(added) {
                    model.observers.push(ModelObserver {
                        id,
                        scope: Some(at),
                        absorb: None,
                        adds_listener: false,
                        alive: true,
                    });
                }
            }
        }
        prop_assert_eq!(world.observer_count(), model.alive());
        prop_assert!(world.take_observer_errors().is_empty());
    }
    Ok(())
}

/// The ids of the listeners registered during one trigger, in order.
#[derive(Default)]
struct Ids(Vec<ObserverId>);

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 256))]

    /// Any sequence of up to 60 operations hears exactly the model's walk.
    #[test]
    fn entity_events_walk_as_the_model_predicts(ops in vec(op(), 0..60)) {
        run(ops)?;
    }
}
