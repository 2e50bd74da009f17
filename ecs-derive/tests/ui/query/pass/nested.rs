// Derived queries nest: a read-only one in a read-only outer, a writing one in a `#[query(mutable)]` outer.
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Position(f32);
#[derive(Component)]
struct Velocity(f32);
#[derive(Component, Debug, PartialEq)]
struct Name(&'static str);

#[derive(Query)]
struct Kinematics<'w> {
    pos: &'w Position,
    vel: &'w Velocity,
}

#[derive(Query)]
struct Labelled<'w> {
    name: &'w Name,
    kin: Kinematics<'w>,
    maybe: Option<Kinematics<'w>>,
}

#[derive(Query)]
struct Step<'w> {
    pos: &'w mut Position,
    vel: &'w Velocity,
}

#[derive(Query)]
#[query(mutable)]
struct NamedStep<'w> {
    name: &'w Name,
    step: Step<'w>,
}

fn main() {
    let mut world = World::new();
    let a = world.spawn((Position(0.0), Velocity(1.0), Name("a")));
    world.spawn((Position(0.0), Velocity(1.0)));
    world.spawn((Position(0.0), Name("c")));

    let labelled = world.query_ref::<Labelled>();
    let all: Vec<Labelled<'_>> = labelled.iter().collect();
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].name, &Name("a"));
    assert_eq!(all[0].kin.vel.0, 1.0);
    assert!(all[0].maybe.is_some());

    let mut query = world.query::<NamedStep>();
    for s in query.iter_mut() {
        let s: NamedStepItem<'_> = s;
        s.step.pos.0 += s.step.vel.0;
    }
    let twin: NamedStepReadOnly<'_> = query.get(a).unwrap();
    let inner: StepReadOnly<'_> = twin.step;
    assert_eq!((twin.name, inner.pos), (&Name("a"), &Position(1.0)));
    query.get_mut(a).unwrap().step.pos.0 = 7.0;
    assert_eq!(world.get::<Position>(a).unwrap(), &Position(7.0));
}
