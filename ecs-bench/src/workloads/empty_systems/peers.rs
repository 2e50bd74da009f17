//! empty_systems for the peer libraries (the `peers` feature) that have a
//! scheduler. hecs and sparsey have none, so they have no row: without a
//! scheduler there is nothing to measure but a function call. Where the
//! library cannot say how many systems it holds (shipyard, specs, legion),
//! the checksum is the number added.

use super::*;

pub(super) fn contenders() -> Vec<Contender> {
    vec![
        Contender::of::<Bevy<true>>("bevy", "Schedule (multi-threaded executor), 100 systems"),
        Contender::of::<Bevy<false>>(
            "bevy_single_threaded",
            "Schedule with SingleThreadedExecutor, 100 systems",
        ),
        Contender::of::<Shipyard>(
            "shipyard",
            "ScheduledWorkload of 100 systems, run_with_world",
        ),
        Contender::of::<Specs>("specs", "Dispatcher of 100 systems, dispatch"),
        Contender::of::<Legion>("legion", "Schedule of 100 SystemBuilder systems, execute"),
    ]
}

struct Bevy<const PARALLEL: bool> {
    world: bevy_ecs::world::World,
    schedule: bevy_ecs::schedule::Schedule,
}

impl<const PARALLEL: bool> Bench for Bevy<PARALLEL> {
    fn setup() -> Self {
        bevy_tasks::ComputeTaskPool::get_or_init(bevy_tasks::TaskPool::default);
        let mut schedule = bevy_ecs::schedule::Schedule::default();
        if !PARALLEL {
            schedule.set_executor(bevy_ecs::schedule::SingleThreadedExecutor::new());
        }
        macro_rules! add {
            ($n:tt) => {
                schedule.add_systems(empty::<$n>);
            };
        }
        for_each_system!(add);
        Self {
            world: bevy_ecs::world::World::new(),
            schedule,
        }
    }

    fn run(&mut self) {
        self.schedule.run(&mut self.world);
    }

    fn checksum(&mut self) -> f64 {
        self.schedule.systems_len() as f64
    }
}

struct Shipyard {
    world: shipyard::World,
    workload: shipyard::scheduler::ScheduledWorkload,
    systems: usize,
}

impl Bench for Shipyard {
    fn setup() -> Self {
        let mut workload = shipyard::Workload::new("empty_systems");
        let mut systems = 0;
        macro_rules! add {
            ($n:tt) => {
                workload = workload.with_system(empty::<$n>);
                systems += 1;
            };
        }
        for_each_system!(add);
        let (workload, _) = workload.build().expect("the workload builds");
        Self {
            world: shipyard::World::new(),
            workload,
            systems,
        }
    }

    fn run(&mut self) {
        self.workload
            .run_with_world(&self.world)
            .expect("the workload runs");
    }

    fn checksum(&mut self) -> f64 {
        self.systems as f64
    }
}

/// A specs system that does nothing, one type per `N`.
struct SpecsEmpty<const N: usize>;

impl<'a, const N: usize> specs::System<'a> for SpecsEmpty<N> {
    type SystemData = ();

    fn run(&mut self, (): Self::SystemData) {}
}

struct Specs {
    world: specs::World,
    dispatcher: specs::Dispatcher<'static, 'static>,
    systems: usize,
}

impl Bench for Specs {
    fn setup() -> Self {
        use specs::WorldExt;
        let mut world = specs::World::new();
        let mut builder = specs::DispatcherBuilder::new();
        let mut systems = 0;
        macro_rules! add {
            ($n:tt) => {
                builder.add(SpecsEmpty::<$n>, &format!("empty_{}", $n), &[]);
                systems += 1;
            };
        }
        for_each_system!(add);
        let mut dispatcher = builder.build();
        dispatcher.setup(&mut world);
        Self {
            world,
            dispatcher,
            systems,
        }
    }

    fn run(&mut self) {
        self.dispatcher.dispatch(&self.world);
    }

    fn checksum(&mut self) -> f64 {
        self.systems as f64
    }
}

struct Legion {
    world: legion::World,
    resources: legion::Resources,
    schedule: legion::Schedule,
    systems: usize,
}

impl Bench for Legion {
    fn setup() -> Self {
        let mut builder = legion::Schedule::builder();
        let mut systems = 0;
        for n in 0..SYSTEMS {
            builder.add_system(
                legion::SystemBuilder::new(format!("empty_{n}")).build(|_, _, _, _| {}),
            );
            systems += 1;
        }
        let schedule = builder.build();
        Self {
            world: legion::World::default(),
            resources: legion::Resources::default(),
            schedule,
            systems,
        }
    }

    fn run(&mut self) {
        self.schedule.execute(&mut self.world, &mut self.resources);
    }

    fn checksum(&mut self) -> f64 {
        self.systems as f64
    }
}
