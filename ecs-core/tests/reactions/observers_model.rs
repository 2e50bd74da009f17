//! Observers and component hooks under random operations: every path that
//! changes structure fires exactly the events a plain model of "which entity
//! holds which type" predicts, in the documented order (a call's arrival
//! hooks, then its observers; departures' observers, then their hooks);
//! `OnAdd` / `OnInsert` observers and `on_add` / `on_insert` hooks find the
//! component in place, and departures find it still there, with the value
//! last written (`on_replace` the one an insert overwrites).
//!
//! `ECS_MODEL_CASES` sets the number of generated cases (default 256).

use std::collections::BTreeMap;

use ecs_core::prelude::*;
use ecs_testkit::strategy::cases_from_env;
use proptest::collection::vec;
use proptest::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[component(
    on_add = log_hook::<A>,
    on_insert = log_hook::<A>,
    on_replace = log_hook::<A>,
    on_remove = log_hook::<A>,
    on_despawn = log_hook::<A>
)]
struct A(u32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[component(
    on_add = log_hook::<B>,
    on_insert = log_hook::<B>,
    on_replace = log_hook::<B>,
    on_remove = log_hook::<B>,
    on_despawn = log_hook::<B>
)]
struct B(u32);

/// Logs a hook's run with the value it reads.
fn log_hook<T: Valued>(mut world: DeferredWorld, ctx: HookContext) {
    let value = world.get::<T>(ctx.entity).unwrap().value();
    let seen = &mut world.resource_mut::<Seen>().unwrap().0;
    seen.push((ctx.hook.name(), T::TYPE, ctx.entity, value));
}

/// The events observers and hooks saw, in order: (kind, type, entity, value
/// read); observers' kinds are `add`, `insert`, `remove`, hooks' their names.
#[derive(Default, Debug)]
struct Seen(Vec<(&'static str, char, Entity, u32)>);

#[derive(Clone, Debug)]
enum Op {
    Spawn(Option<u32>, Option<u32>),
    SpawnBatch(Vec<u32>),
    InsertA(usize, u32),
    InsertB(usize, u32),
    InsertBoth(usize, u32),
    RemoveA(usize),
    RemoveB(usize),
    Despawn(usize),
    CommandsInsertA(usize, u32),
    CommandsDespawn(usize),
    HandleRemoveB(usize),
    Clear,
}

fn op() -> impl Strategy<Value = Op> {
    let v = 0u32..1000;
    let at = 0usize..64;
    prop_oneof![
        (
            proptest::option::of(v.clone()),
            proptest::option::of(v.clone())
        )
            .prop_map(|(a, b)| Op::Spawn(a, b)),
        vec(v.clone(), 0..5).prop_map(Op::SpawnBatch),
        (at.clone(), v.clone()).prop_map(|(i, x)| Op::InsertA(i, x)),
        (at.clone(), v.clone()).prop_map(|(i, x)| Op::InsertB(i, x)),
        (at.clone(), v.clone()).prop_map(|(i, x)| Op::InsertBoth(i, x)),
        at.clone().prop_map(Op::RemoveA),
        at.clone().prop_map(Op::RemoveB),
        at.clone().prop_map(Op::Despawn),
        (at.clone(), v).prop_map(|(i, x)| Op::CommandsInsertA(i, x)),
        at.clone().prop_map(Op::CommandsDespawn),
        at.prop_map(Op::HandleRemoveB),
        Just(Op::Clear),
    ]
}

type Event = (&'static str, char, Entity, u32);

/// Which entity holds which values, by the model.
#[derive(Default)]
struct Model {
    held: BTreeMap<Entity, (Option<u32>, Option<u32>)>,
    /// Every entity ever spawned, to pick stale ones too.
    ever: Vec<Entity>,
    expected: Vec<Event>,
    /// The current call's arrival hooks, which run before its observers.
    hooks: Vec<Event>,
    /// The current call's arrival observers.
    observers: Vec<Event>,
}

impl Model {
    fn pick(&self, i: usize) -> Option<Entity> {
        (!self.ever.is_empty()).then(|| self.ever[i % self.ever.len()])
    }

    fn insert(&mut self, e: Entity, ty: char, value: u32) {
        let Some(slot) = self.held.get_mut(&e) else {
            return;
        };
        let field = if ty == 'A' { &mut slot.0 } else { &mut slot.1 };
        if field.is_none() {
            self.hooks.push(("on_add", ty, e, value));
            self.observers.push(("add", ty, e, value));
        }
        self.hooks.push(("on_insert", ty, e, value));
        self.observers.push(("insert", ty, e, value));
        *field = Some(value);
    }

    /// Before an insert of `ty` on `e`: the value it overwrites leaves.
    fn replace(&mut self, e: Entity, ty: char) {
        if let Some(&(a, b)) = self.held.get(&e)
            && let Some(old) = if ty == 'A' { a } else { b }
        {
            self.expected.push(("on_replace", ty, e, old));
        }
    }

    /// The end of a call: its arrivals' hooks, then their observers.
    fn end_call(&mut self) {
        self.expected.append(&mut self.hooks);
        self.expected.append(&mut self.observers);
    }

    fn remove(&mut self, e: Entity, ty: char) {
        let Some(slot) = self.held.get_mut(&e) else {
            return;
        };
        let field = if ty == 'A' { &mut slot.0 } else { &mut slot.1 };
        if let Some(value) = field.take() {
            self.expected.push(("remove", ty, e, value));
            self.expected.push(("on_replace", ty, e, value));
            self.expected.push(("on_remove", ty, e, value));
        }
    }

    fn despawn(&mut self, e: Entity) {
        if let Some((a, b)) = self.held.remove(&e) {
            // Component ids in the order the world first saw the types: A,
            // then B. Observers first, then each hook kind in turn.
            let held: Vec<(char, u32)> = [('A', a), ('B', b)]
                .into_iter()
                .filter_map(|(ty, v)| Some((ty, v?)))
                .collect();
            for kind in ["remove", "on_replace", "on_remove", "on_despawn"] {
                for &(ty, v) in &held {
                    self.expected.push((kind, ty, e, v));
                }
            }
        }
    }

    fn spawned(&mut self, e: Entity, a: Option<u32>, b: Option<u32>) {
        self.held.insert(e, (None, None));
        self.ever.push(e);
        if let Some(v) = a {
            self.insert(e, 'A', v);
        }
        if let Some(v) = b {
            self.insert(e, 'B', v);
        }
        self.end_call();
    }
}

/// The value a test component holds, and the letter that names its type.
trait Valued: Component {
    const TYPE: char;
    fn value(&self) -> u32;
}

impl Valued for A {
    const TYPE: char = 'A';
    fn value(&self) -> u32 {
        self.0
    }
}

impl Valued for B {
    const TYPE: char = 'B';
    fn value(&self) -> u32 {
        self.0
    }
}

/// Observers logging every event on `T` with the value they read.
fn watch<T: Valued>(world: &mut World, ty: char) {
    fn log<T: Valued>(s: &mut Seen, kind: &'static str, ty: char, e: Entity, q: &Query<&T>) {
        s.0.push((kind, ty, e, q.get(e).unwrap().value()));
    }
    world.observe(move |t: OnAdd<T>, q: Query<&T>, mut s: ResMut<Seen>| {
        log(&mut s, "add", ty, t.entity(), &q);
    });
    world.observe(move |t: OnInsert<T>, q: Query<&T>, mut s: ResMut<Seen>| {
        log(&mut s, "insert", ty, t.entity(), &q);
    });
    world.observe(move |t: OnRemove<T>, q: Query<&T>, mut s: ResMut<Seen>| {
        log(&mut s, "remove", ty, t.entity(), &q);
    });
}

fn observed_world() -> World {
    let mut world = World::new();
    world.insert_resource(Seen::default());
    // Register A before B, so their component ids are in that order.
    world.spawn((A(0), B(0)));
    world.clear();
    world.resource_mut::<Seen>().unwrap().0.clear();
    watch::<A>(&mut world, 'A');
    watch::<B>(&mut world, 'B');
    world
}

fn run(ops: &[Op]) {
    let mut world = observed_world();
    let mut model = Model::default();
    for (step, op) in ops.iter().enumerate() {
        match *op {
            Op::Spawn(a, b) => {
                let e = match (a, b) {
                    (Some(a), Some(b)) => world.spawn((A(a), B(b))),
                    (Some(a), None) => world.spawn(A(a)),
                    (None, Some(b)) => world.spawn(B(b)),
                    (None, None) => world.spawn(()),
                };
                model.spawned(e, a, b);
            }
            Op::SpawnBatch(ref values) => {
                let ids = world.spawn_batch(values.iter().map(|&v| (B(v), A(v + 1))));
                // A batch's events come after the whole batch, entity by
                // entity, in the bundle's order.
                for (&e, &v) in ids.iter().zip(values) {
                    model.held.insert(e, (None, None));
                    model.ever.push(e);
                    model.insert(e, 'B', v);
                    model.insert(e, 'A', v + 1);
                }
                model.end_call();
            }
            Op::InsertA(i, v) | Op::InsertB(i, v) | Op::InsertBoth(i, v) => {
                let Some(e) = model.pick(i) else { continue };
                let result = match *op {
                    Op::InsertA(..) => world.insert(e, A(v)).map(drop),
                    Op::InsertB(..) => world.insert(e, B(v)).map(drop),
                    _ => world.insert_bundle(e, (A(v), B(v))),
                };
                assert_eq!(result.is_ok(), model.held.contains_key(&e), "step {step}");
                if !matches!(op, Op::InsertB(..)) {
                    model.replace(e, 'A');
                }
                if !matches!(op, Op::InsertA(..)) {
                    model.replace(e, 'B');
                }
                if !matches!(op, Op::InsertB(..)) {
                    model.insert(e, 'A', v);
                }
                if !matches!(op, Op::InsertA(..)) {
                    model.insert(e, 'B', v);
                }
                model.end_call();
            }
            Op::RemoveA(i) | Op::RemoveB(i) | Op::HandleRemoveB(i) => {
                let Some(e) = model.pick(i) else { continue };
                let ok = match *op {
                    Op::RemoveA(_) => world.remove::<A>(e).is_ok(),
                    Op::RemoveB(_) => world.remove::<B>(e).is_ok(),
                    _ => world
                        .entity_mut(e)
                        .is_ok_and(|mut handle| handle.remove::<B>().is_ok()),
                };
                let ty = if matches!(op, Op::RemoveA(_)) {
                    'A'
                } else {
                    'B'
                };
                let held = model.held.get(&e).is_some_and(|h| {
                    if ty == 'A' {
                        h.0.is_some()
                    } else {
                        h.1.is_some()
                    }
                });
                assert_eq!(ok, held, "step {step}");
                model.remove(e, ty);
            }
            Op::Despawn(i) => {
                let Some(e) = model.pick(i) else { continue };
                assert_eq!(world.despawn(e).is_ok(), model.held.contains_key(&e));
                model.despawn(e);
            }
            Op::CommandsInsertA(i, v) => {
                let Some(e) = model.pick(i) else { continue };
                world.commands().insert(e, A(v));
                assert_eq!(world.flush().is_empty(), model.held.contains_key(&e));
                model.replace(e, 'A');
                model.insert(e, 'A', v);
                model.end_call();
            }
            Op::CommandsDespawn(i) => {
                let Some(e) = model.pick(i) else { continue };
                world.commands().despawn(e);
                assert_eq!(world.flush().is_empty(), model.held.contains_key(&e));
                model.despawn(e);
            }
            Op::Clear => {
                world.clear();
                // Entity by entity in the allocator's order (by index here,
                // as the model's map is ordered by index, then version).
                let mut alive: Vec<Entity> = model.held.keys().copied().collect();
                alive.sort_by_key(|e| e.index());
                for e in alive {
                    model.despawn(e);
                }
            }
        }
        assert_eq!(
            world.resource::<Seen>().unwrap().0,
            model.expected,
            "after step {step}: {op:?}"
        );
        assert!(world.take_observer_errors().is_empty());
    }
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 256))]

    /// Any sequence of up to 60 operations fires exactly the model's events, in order.
    #[test]
    fn observers_and_hooks_see_exactly_the_models_events(ops in vec(op(), 0..60)) {
        run(&ops);
    }
}
