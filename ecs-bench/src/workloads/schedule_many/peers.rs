//! schedule_many for the peer libraries (the `peers` feature). hecs and
//! sparsey have no scheduler: they run the 100 queries by hand, in order,
//! as a baseline of what the systems' work costs without one.

use core::marker::PhantomData;

use super::*;
use bevy_ecs::component::Mutable;
use bevy_ecs::schedule::{IntoScheduleConfigs, SystemSet};
use specs::{Join, WorldExt};

pub(super) fn contenders() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs>(
            "hecs",
            "100 query_mut(..).into_iter().for_each by hand (no scheduler)",
        ),
        Contender::of::<Bevy<true>>(
            "bevy",
            "Schedule (multi-threaded executor), conflicting systems ordered through sets",
        ),
        Contender::of::<Bevy<false>>(
            "bevy_single_threaded",
            "Schedule with SingleThreadedExecutor, same orderings",
        ),
        Contender::of::<Shipyard>(
            "shipyard",
            "ScheduledWorkload of 100 systems, run_with_world",
        ),
        Contender::of::<Sparsey>("sparsey", "100 world.for_each by hand (no scheduler)"),
        Contender::of::<Specs>(
            "specs",
            "Dispatcher of 100 systems, conflicting ones ordered through deps",
        ),
        Contender::of::<Legion>("legion", "Schedule of 100 SystemBuilder systems, execute"),
    ]
}

/// The hecs world: each entity spawned empty, then given its types one by
/// one (as every library's setup does).
fn hecs_world() -> hecs::World {
    let mut world = hecs::World::new();
    for j in 0..ENTITIES {
        let e = world.spawn(());
        for t in types_of(j) {
            with_type!(t, T => {
                world.insert_one(e, T::new(value(j, t))).expect("alive");
            });
        }
    }
    world
}

struct Hecs(hecs::World);

/// System `i`'s work on a hecs world.
fn hecs_mix<R: Scalar, W: Scalar>(world: &mut hecs::World) {
    // Internal iteration: hecs' fastest path.
    world
        .query_mut::<(&R, &mut W)>()
        .into_iter()
        .for_each(|(r, w)| mix(r, w));
}

impl Bench for Hecs {
    fn setup() -> Self {
        Self(hecs_world())
    }

    fn run(&mut self) {
        let world = &mut self.0;
        macro_rules! run {
            ($i:tt, $r:ty, $w:ty) => {
                hecs_mix::<$r, $w>(world);
            };
        }
        for_each_system!(run);
    }

    fn checksum(&mut self) -> f64 {
        fn sum<T: Scalar>(world: &mut hecs::World) -> f64 {
            world
                .query_mut::<&T>()
                .into_iter()
                .map(|x| f64::from(x.value()))
                .sum()
        }
        sum_types!(sum(&mut self.0))
    }
}

/// System `N` as bevy sees it.
fn bevy_mix<
    R: Scalar + bevy_ecs::component::Component,
    W: Scalar + bevy_ecs::component::Component<Mutability = Mutable>,
    const N: usize,
>(
    mut q: bevy_ecs::system::Query<(&R, &mut W)>,
) {
    q.iter_mut().for_each(|(r, mut w)| mix(r, &mut *w));
}

/// The set of system `i`, to order it after its [`predecessors`].
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Step(usize);

struct Bevy<const PARALLEL: bool> {
    world: bevy_ecs::world::World,
    schedule: bevy_ecs::schedule::Schedule,
}

impl<const PARALLEL: bool> Bench for Bevy<PARALLEL> {
    fn setup() -> Self {
        bevy_tasks::ComputeTaskPool::get_or_init(bevy_tasks::TaskPool::default);
        let mut world = bevy_ecs::world::World::new();
        for j in 0..ENTITIES {
            let mut entity = world.spawn_empty();
            for t in types_of(j) {
                with_type!(t, T => {
                    entity.insert(T::new(value(j, t)));
                });
            }
        }
        let mut schedule = bevy_ecs::schedule::Schedule::default();
        if !PARALLEL {
            schedule.set_executor(bevy_ecs::schedule::SingleThreadedExecutor::new());
        }
        macro_rules! add {
            ($i:tt, $r:ty, $w:ty) => {
                check_pair::<$r, $w>($i);
                schedule.add_systems(bevy_mix::<$r, $w, $i>.in_set(Step($i)));
            };
        }
        for_each_system!(add);
        for i in 0..SYSTEMS {
            for j in predecessors(i) {
                schedule.configure_sets(Step(i).after(Step(j)));
            }
        }
        Self { world, schedule }
    }

    fn run(&mut self) {
        self.schedule.run(&mut self.world);
    }

    fn checksum(&mut self) -> f64 {
        fn sum<T: Scalar + bevy_ecs::component::Component>(
            world: &mut bevy_ecs::world::World,
        ) -> f64 {
            let mut query = world.query::<&T>();
            query.iter(world).map(|x| f64::from(x.value())).sum()
        }
        sum_types!(sum(&mut self.world))
    }
}

/// System `N` as shipyard sees it.
fn shipyard_mix<
    R: Scalar + shipyard::Component,
    W: Scalar + shipyard::Component<Tracking = shipyard::track::Untracked>,
    const N: usize,
>(
    r: shipyard::View<R>,
    mut w: shipyard::ViewMut<W>,
) {
    use shipyard::IntoIter;
    (&r, &mut w).iter().for_each(|(r, w)| mix(r, w));
}

struct Shipyard {
    world: shipyard::World,
    workload: shipyard::scheduler::ScheduledWorkload,
}

impl Bench for Shipyard {
    fn setup() -> Self {
        let mut world = shipyard::World::new();
        for j in 0..ENTITIES {
            let e = world.add_entity(());
            for t in types_of(j) {
                with_type!(t, T => {
                    world.add_component(e, T::new(value(j, t)));
                });
            }
        }
        let mut workload = shipyard::Workload::new("schedule_many");
        macro_rules! add {
            ($i:tt, $r:ty, $w:ty) => {
                check_pair::<$r, $w>($i);
                workload = workload.with_system(shipyard_mix::<$r, $w, $i>);
            };
        }
        for_each_system!(add);
        let (workload, _) = workload.build().expect("the workload builds");
        Self { world, workload }
    }

    fn run(&mut self) {
        self.workload
            .run_with_world(&self.world)
            .expect("the workload runs");
    }

    fn checksum(&mut self) -> f64 {
        fn sum<T: Scalar + shipyard::Component>(world: &shipyard::World) -> f64 {
            use shipyard::IntoIter;
            world.run(|view: shipyard::View<T>| {
                view.iter().map(|x| f64::from(x.value())).sum::<f64>()
            })
        }
        sum_types!(sum(&self.world))
    }
}

struct Sparsey(sparsey::World);

/// System `i`'s work on a sparsey world.
fn sparsey_mix<R: Scalar, W: Scalar>(world: &mut sparsey::World) {
    world.for_each::<(&R, &mut W)>(|(r, w)| mix(r, w));
}

impl Bench for Sparsey {
    fn setup() -> Self {
        let mut world = sparsey::World::builder()
            .register::<A>()
            .register::<B>()
            .register::<C>()
            .register::<D>()
            .register::<E>()
            .register::<F>()
            .register::<G>()
            .register::<H>()
            .register::<I>()
            .register::<J>()
            .build();
        for j in 0..ENTITIES {
            let e = world.create(());
            for t in types_of(j) {
                with_type!(t, T => {
                    world.insert(e, (T::new(value(j, t)),));
                });
            }
        }
        Self(world)
    }

    fn run(&mut self) {
        let world = &mut self.0;
        macro_rules! run {
            ($i:tt, $r:ty, $w:ty) => {
                sparsey_mix::<$r, $w>(world);
            };
        }
        for_each_system!(run);
    }

    fn checksum(&mut self) -> f64 {
        fn sum<T: Scalar>(world: &sparsey::World) -> f64 {
            world
                .query_all::<&T>()
                .iter()
                .map(|x| f64::from(x.value()))
                .sum()
        }
        sum_types!(sum(&self.0))
    }
}

/// System `N` as specs sees it.
struct SpecsMix<R, W, const N: usize>(PhantomData<fn() -> (R, W)>);

impl<'a, R, W, const N: usize> specs::System<'a> for SpecsMix<R, W, N>
where
    R: Scalar + specs::Component<Storage = specs::VecStorage<R>>,
    W: Scalar + specs::Component<Storage = specs::VecStorage<W>>,
{
    type SystemData = (specs::ReadStorage<'a, R>, specs::WriteStorage<'a, W>);

    fn run(&mut self, (r, mut w): Self::SystemData) {
        (&r, &mut w).join().for_each(|(r, w)| mix(r, w));
    }
}

struct Specs {
    world: specs::World,
    dispatcher: specs::Dispatcher<'static, 'static>,
}

impl Bench for Specs {
    fn setup() -> Self {
        let mut world = specs::World::new();
        macro_rules! register {
            ($i:tt, $r:ty, $w:ty) => {
                world.register::<$w>();
            };
        }
        // Each type is written by some system among the first ten.
        for_each_system!(register);
        let entities: Vec<_> = world.create_iter().take(ENTITIES).collect();
        for (j, &e) in entities.iter().enumerate() {
            for t in types_of(j) {
                with_type!(t, T => {
                    world
                        .write_storage::<T>()
                        .insert(e, T::new(value(j, t)))
                        .expect("a fresh entity");
                });
            }
        }
        let name = |i: usize| format!("mix_{i}");
        let mut builder = specs::DispatcherBuilder::new();
        macro_rules! add {
            ($i:tt, $r:ty, $w:ty) => {
                check_pair::<$r, $w>($i);
                let after: Vec<String> = predecessors($i).into_iter().map(name).collect();
                let after: Vec<&str> = after.iter().map(String::as_str).collect();
                builder.add(SpecsMix::<$r, $w, $i>(PhantomData), &name($i), &after);
            };
        }
        for_each_system!(add);
        let mut dispatcher = builder.build();
        dispatcher.setup(&mut world);
        Self { world, dispatcher }
    }

    fn run(&mut self) {
        self.dispatcher.dispatch(&self.world);
    }

    fn checksum(&mut self) -> f64 {
        fn sum<T: Scalar + specs::Component<Storage = specs::VecStorage<T>>>(
            world: &specs::World,
        ) -> f64 {
            (&world.read_storage::<T>())
                .join()
                .map(|x| f64::from(x.value()))
                .sum()
        }
        sum_types!(sum(&self.world))
    }
}

/// System `i` as legion sees it.
fn legion_mix<R: Scalar, W: Scalar>(i: usize) -> impl legion::systems::ParallelRunnable {
    use legion::IntoQuery;
    legion::SystemBuilder::new(format!("mix_{i}"))
        .with_query(<(&R, &mut W)>::query())
        .build(|_, world, _, query| {
            query.for_each_mut(world, |(r, w): (&R, &mut W)| mix(r, w));
        })
}

struct Legion {
    world: legion::World,
    resources: legion::Resources,
    schedule: legion::Schedule,
}

impl Bench for Legion {
    fn setup() -> Self {
        let mut world = legion::World::default();
        for j in 0..ENTITIES {
            let mut types = types_of(j);
            let first = types.next().expect("two types at least");
            let e = with_type!(first, T => world.push((T::new(value(j, first)),)));
            let mut entry = world.entry(e).expect("just pushed");
            for t in types {
                with_type!(t, T => {
                    entry.add_component(T::new(value(j, t)));
                });
            }
        }
        let mut builder = legion::Schedule::builder();
        macro_rules! add {
            ($i:tt, $r:ty, $w:ty) => {
                check_pair::<$r, $w>($i);
                builder.add_system(legion_mix::<$r, $w>($i));
            };
        }
        for_each_system!(add);
        Self {
            world,
            resources: legion::Resources::default(),
            schedule: builder.build(),
        }
    }

    fn run(&mut self) {
        self.schedule.execute(&mut self.world, &mut self.resources);
    }

    fn checksum(&mut self) -> f64 {
        fn sum<T: Scalar>(world: &legion::World) -> f64 {
            use legion::IntoQuery;
            <&T>::query()
                .iter(world)
                .map(|x| f64::from(x.value()))
                .sum()
        }
        sum_types!(sum(&self.world))
    }
}
