//! schedule for the peer libraries (the `peers` feature). hecs and sparsey
//! have no scheduler: they run the three queries by hand, one after the
//! other, as ecs_bench_suite does for hecs.

use super::*;
use crate::components::Scalar;
use specs::{Join, WorldExt};

pub(super) fn contenders() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs>(
            "hecs",
            "three query_mut(..).into_iter().for_each by hand (no scheduler)",
        ),
        Contender::of::<Bevy<true>>(
            "bevy",
            "Schedule (multi-threaded executor), 3 systems, query.iter_mut().for_each",
        ),
        Contender::of::<Bevy<false>>(
            "bevy_single_threaded",
            "Schedule with SingleThreadedExecutor",
        ),
        Contender::of::<Shipyard>("shipyard", "ScheduledWorkload of 3 systems, run_with_world"),
        Contender::of::<Sparsey>(
            "sparsey",
            "three world.for_each by hand (no scheduler in 0.13)",
        ),
        Contender::of::<Specs>("specs", "Dispatcher of 3 systems, dispatch"),
        Contender::of::<Legion>("legion", "Schedule of 3 SystemBuilder systems, execute"),
    ]
}

struct Hecs(hecs::World);

impl Bench for Hecs {
    fn setup() -> Self {
        let mut world = hecs::World::new();
        world.spawn_batch((0..PER_KIND).map(kind_ab));
        world.spawn_batch((0..PER_KIND).map(kind_abc));
        world.spawn_batch((0..PER_KIND).map(kind_abcd));
        world.spawn_batch((0..PER_KIND).map(kind_abce));
        Self(world)
    }

    fn run(&mut self) {
        // Internal iteration: hecs' fastest path, several times its `for`
        // loop over the same query.
        self.0
            .query_mut::<(&mut A, &mut B)>()
            .into_iter()
            .for_each(|(a, b)| swap(&mut a.0, &mut b.0));
        self.0
            .query_mut::<(&mut C, &mut D)>()
            .into_iter()
            .for_each(|(c, d)| swap(&mut c.0, &mut d.0));
        self.0
            .query_mut::<(&mut C, &mut E)>()
            .into_iter()
            .for_each(|(c, e)| swap(&mut c.0, &mut e.0));
    }

    fn checksum(&mut self) -> f64 {
        let world = &mut self.0;
        weighted(
            total(world.query_mut::<&A>().into_iter().map(|x| &x.0)),
            total(world.query_mut::<&B>().into_iter().map(|x| &x.0)),
            total(world.query_mut::<&C>().into_iter().map(|x| &x.0)),
            total(world.query_mut::<&D>().into_iter().map(|x| &x.0)),
            total(world.query_mut::<&E>().into_iter().map(|x| &x.0)),
        )
    }
}

mod bevy_systems {
    use super::*;
    use bevy_ecs::system::Query;

    pub fn ab(mut q: Query<(&mut A, &mut B)>) {
        q.iter_mut()
            .for_each(|(mut a, mut b)| swap(&mut a.0, &mut b.0));
    }

    pub fn cd(mut q: Query<(&mut C, &mut D)>) {
        q.iter_mut()
            .for_each(|(mut c, mut d)| swap(&mut c.0, &mut d.0));
    }

    pub fn ce(mut q: Query<(&mut C, &mut E)>) {
        q.iter_mut()
            .for_each(|(mut c, mut e)| swap(&mut c.0, &mut e.0));
    }
}

/// A bevy `Schedule` with its default multi-threaded executor, or the
/// single-threaded one.
struct Bevy<const PARALLEL: bool> {
    world: bevy_ecs::world::World,
    schedule: bevy_ecs::schedule::Schedule,
}

impl<const PARALLEL: bool> Bench for Bevy<PARALLEL> {
    fn setup() -> Self {
        bevy_tasks::ComputeTaskPool::get_or_init(bevy_tasks::TaskPool::default);
        let mut world = bevy_ecs::world::World::new();
        world.spawn_batch((0..PER_KIND).map(kind_ab));
        world.spawn_batch((0..PER_KIND).map(kind_abc));
        world.spawn_batch((0..PER_KIND).map(kind_abcd));
        world.spawn_batch((0..PER_KIND).map(kind_abce));
        let mut schedule = bevy_ecs::schedule::Schedule::default();
        if !PARALLEL {
            schedule.set_executor(bevy_ecs::schedule::SingleThreadedExecutor::new());
        }
        schedule.add_systems((bevy_systems::ab, bevy_systems::cd, bevy_systems::ce));
        Self { world, schedule }
    }

    fn run(&mut self) {
        self.schedule.run(&mut self.world);
    }

    fn checksum(&mut self) -> f64 {
        let world = &mut self.world;
        let mut sum = |f: fn(&mut bevy_ecs::world::World) -> f64| f(world);
        weighted(
            sum(|w| total(w.query::<&A>().iter(w).map(|x| &x.0))),
            sum(|w| total(w.query::<&B>().iter(w).map(|x| &x.0))),
            sum(|w| total(w.query::<&C>().iter(w).map(|x| &x.0))),
            sum(|w| total(w.query::<&D>().iter(w).map(|x| &x.0))),
            sum(|w| total(w.query::<&E>().iter(w).map(|x| &x.0))),
        )
    }
}

mod shipyard_systems {
    use super::*;
    use shipyard::{IntoIter, ViewMut};

    pub fn ab(mut a: ViewMut<A>, mut b: ViewMut<B>) {
        (&mut a, &mut b)
            .iter()
            .for_each(|(a, b)| swap(&mut a.0, &mut b.0));
    }

    pub fn cd(mut c: ViewMut<C>, mut d: ViewMut<D>) {
        (&mut c, &mut d)
            .iter()
            .for_each(|(c, d)| swap(&mut c.0, &mut d.0));
    }

    pub fn ce(mut c: ViewMut<C>, mut e: ViewMut<E>) {
        (&mut c, &mut e)
            .iter()
            .for_each(|(c, e)| swap(&mut c.0, &mut e.0));
    }
}

struct Shipyard {
    world: shipyard::World,
    workload: shipyard::scheduler::ScheduledWorkload,
}

impl Bench for Shipyard {
    fn setup() -> Self {
        let mut world = shipyard::World::new();
        world.bulk_add_entity((0..PER_KIND).map(kind_ab));
        world.bulk_add_entity((0..PER_KIND).map(kind_abc));
        world.bulk_add_entity((0..PER_KIND).map(kind_abcd));
        world.bulk_add_entity((0..PER_KIND).map(kind_abce));
        let (workload, _) = shipyard::Workload::new("schedule")
            .with_system(shipyard_systems::ab)
            .with_system(shipyard_systems::cd)
            .with_system(shipyard_systems::ce)
            .build()
            .expect("the workload builds");
        Self { world, workload }
    }

    fn run(&mut self) {
        self.workload
            .run_with_world(&self.world)
            .expect("the workload runs");
    }

    fn checksum(&mut self) -> f64 {
        use shipyard::{IntoIter, View};
        self.world.run(
            |a: View<A>, b: View<B>, c: View<C>, d: View<D>, e: View<E>| {
                weighted(
                    total(a.iter().map(|x| &x.0)),
                    total(b.iter().map(|x| &x.0)),
                    total(c.iter().map(|x| &x.0)),
                    total(d.iter().map(|x| &x.0)),
                    total(e.iter().map(|x| &x.0)),
                )
            },
        )
    }
}

struct Sparsey(sparsey::World);

impl Bench for Sparsey {
    fn setup() -> Self {
        let mut world = sparsey::World::builder()
            .register::<A>()
            .register::<B>()
            .register::<C>()
            .register::<D>()
            .register::<E>()
            .build();
        world.extend((0..PER_KIND).map(kind_ab));
        world.extend((0..PER_KIND).map(kind_abc));
        world.extend((0..PER_KIND).map(kind_abcd));
        world.extend((0..PER_KIND).map(kind_abce));
        Self(world)
    }

    fn run(&mut self) {
        self.0
            .for_each::<(&mut A, &mut B)>(|(a, b)| swap(&mut a.0, &mut b.0));
        self.0
            .for_each::<(&mut C, &mut D)>(|(c, d)| swap(&mut c.0, &mut d.0));
        self.0
            .for_each::<(&mut C, &mut E)>(|(c, e)| swap(&mut c.0, &mut e.0));
    }

    fn checksum(&mut self) -> f64 {
        let world = &self.0;
        weighted(
            total(world.query_all::<&A>().iter().map(|x| &x.0)),
            total(world.query_all::<&B>().iter().map(|x| &x.0)),
            total(world.query_all::<&C>().iter().map(|x| &x.0)),
            total(world.query_all::<&D>().iter().map(|x| &x.0)),
            total(world.query_all::<&E>().iter().map(|x| &x.0)),
        )
    }
}

mod specs_systems {
    use super::*;
    use specs::{System, WriteStorage};

    pub struct Ab;
    pub struct Cd;
    pub struct Ce;

    impl<'a> System<'a> for Ab {
        type SystemData = (WriteStorage<'a, A>, WriteStorage<'a, B>);

        fn run(&mut self, (mut a, mut b): Self::SystemData) {
            (&mut a, &mut b)
                .join()
                .for_each(|(a, b)| swap(&mut a.0, &mut b.0));
        }
    }

    impl<'a> System<'a> for Cd {
        type SystemData = (WriteStorage<'a, C>, WriteStorage<'a, D>);

        fn run(&mut self, (mut c, mut d): Self::SystemData) {
            (&mut c, &mut d)
                .join()
                .for_each(|(c, d)| swap(&mut c.0, &mut d.0));
        }
    }

    impl<'a> System<'a> for Ce {
        type SystemData = (WriteStorage<'a, C>, WriteStorage<'a, E>);

        fn run(&mut self, (mut c, mut e): Self::SystemData) {
            (&mut c, &mut e)
                .join()
                .for_each(|(c, e)| swap(&mut c.0, &mut e.0));
        }
    }
}

struct Specs {
    world: specs::World,
    dispatcher: specs::Dispatcher<'static, 'static>,
}

impl Bench for Specs {
    fn setup() -> Self {
        let mut world = specs::World::new();
        world.register::<A>();
        world.register::<B>();
        world.register::<C>();
        world.register::<D>();
        world.register::<E>();
        {
            let entities: Vec<_> = world.create_iter().take(4 * PER_KIND).collect();
            let mut a = world.write_storage::<A>();
            let mut b = world.write_storage::<B>();
            let mut c = world.write_storage::<C>();
            let mut d = world.write_storage::<D>();
            let mut e = world.write_storage::<E>();
            let inserted = "a fresh entity";
            let kinds = entities.chunks(PER_KIND).collect::<Vec<_>>();
            for (i, &id) in kinds[0].iter().enumerate() {
                let (va, vb) = kind_ab(i);
                a.insert(id, va).expect(inserted);
                b.insert(id, vb).expect(inserted);
            }
            for (i, &id) in kinds[1].iter().enumerate() {
                let (va, vb, vc) = kind_abc(i);
                a.insert(id, va).expect(inserted);
                b.insert(id, vb).expect(inserted);
                c.insert(id, vc).expect(inserted);
            }
            for (i, &id) in kinds[2].iter().enumerate() {
                let (va, vb, vc, vd) = kind_abcd(i);
                a.insert(id, va).expect(inserted);
                b.insert(id, vb).expect(inserted);
                c.insert(id, vc).expect(inserted);
                d.insert(id, vd).expect(inserted);
            }
            for (i, &id) in kinds[3].iter().enumerate() {
                let (va, vb, vc, ve) = kind_abce(i);
                a.insert(id, va).expect(inserted);
                b.insert(id, vb).expect(inserted);
                c.insert(id, vc).expect(inserted);
                e.insert(id, ve).expect(inserted);
            }
        }
        let mut dispatcher = specs::DispatcherBuilder::new()
            .with(specs_systems::Ab, "ab", &[])
            .with(specs_systems::Cd, "cd", &[])
            .with(specs_systems::Ce, "ce", &[])
            .build();
        dispatcher.setup(&mut world);
        Self { world, dispatcher }
    }

    fn run(&mut self) {
        self.dispatcher.dispatch(&self.world);
    }

    fn checksum(&mut self) -> f64 {
        let world = &self.world;
        weighted(
            total((&world.read_storage::<A>()).join().map(|x| &x.0)),
            total((&world.read_storage::<B>()).join().map(|x| &x.0)),
            total((&world.read_storage::<C>()).join().map(|x| &x.0)),
            total((&world.read_storage::<D>()).join().map(|x| &x.0)),
            total((&world.read_storage::<E>()).join().map(|x| &x.0)),
        )
    }
}

/// A legion system that swaps the values of `X` and `Y` of every entity
/// holding both.
fn legion_swap<X: Scalar, Y: Scalar>(name: &'static str) -> impl legion::systems::ParallelRunnable {
    use legion::IntoQuery;
    legion::SystemBuilder::new(name)
        .with_query(<(&mut X, &mut Y)>::query())
        .build(|_, world, _, query| {
            query.for_each_mut(world, |(x, y): (&mut X, &mut Y)| {
                swap(x.value_mut(), y.value_mut());
            });
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
        world.extend((0..PER_KIND).map(kind_ab));
        world.extend((0..PER_KIND).map(kind_abc));
        world.extend((0..PER_KIND).map(kind_abcd));
        world.extend((0..PER_KIND).map(kind_abce));
        let schedule = legion::Schedule::builder()
            .add_system(legion_swap::<A, B>("ab"))
            .add_system(legion_swap::<C, D>("cd"))
            .add_system(legion_swap::<C, E>("ce"))
            .build();
        Self {
            world,
            resources: legion::Resources::default(),
            schedule,
        }
    }

    fn run(&mut self) {
        self.schedule.execute(&mut self.world, &mut self.resources);
    }

    fn checksum(&mut self) -> f64 {
        use legion::IntoQuery;
        let world = &self.world;
        weighted(
            total(<&A>::query().iter(world).map(|x| &x.0)),
            total(<&B>::query().iter(world).map(|x| &x.0)),
            total(<&C>::query().iter(world).map(|x| &x.0)),
            total(<&D>::query().iter(world).map(|x| &x.0)),
            total(<&E>::query().iter(world).map(|x| &x.0)),
        )
    }
}
