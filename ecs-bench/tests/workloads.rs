//! Every contender of every workload does the work: after one run its checksum
//! equals the `ideal` contender's (`Workload::prepare` panics otherwise).
//!
//! Run with `--features peers` to check the other libraries' code too.

use ecs_bench::harness::Items;
use ecs_bench::workloads::{
    self, commands, empty_systems, heavy_compute, memory, random_get, schedule, schedule_many,
};

#[test]
fn every_contender_agrees_with_ideal() {
    for workload in workloads::all() {
        let prepared = workload.prepare();
        assert!(
            prepared.len() >= 2,
            "{}: ideal and ours at least",
            workload.name
        );
        assert_eq!(prepared[0].contender.name, "ideal");
        assert_eq!(prepared[1].contender.name, "ours");
    }
}

#[test]
fn workload_names_are_unique() {
    let mut names: Vec<_> = workloads::all().iter().map(|w| w.name).collect();
    names.sort_unstable();
    let count = names.len();
    names.dedup();
    assert_eq!(names.len(), count);
}

#[test]
fn every_memory_contender_builds_its_world() {
    for contender in memory::contenders() {
        drop(contender.build());
    }
}

#[test]
fn world_get_agrees_with_ideal() {
    let workload = random_get::workload();
    let (_, expected) = workload.prepare_one(workload.reference(), None);
    let (prepared, checksum) = workload.prepare_one(random_get::world_get(), Some(expected));
    assert_eq!(prepared.contender.name, "ours_world_get");
    assert_eq!(checksum, expected);
}

#[test]
fn contender_finds_by_name() {
    for workload in workloads::all() {
        assert_eq!(workload.contender("ideal").name, "ideal");
        assert_eq!(workload.contender("ours").name, "ours");
    }
    let simple_iter = workloads::simple_iter::workload();
    assert_eq!(
        simple_iter.contender("ours_grouped").path,
        "group (Position, Velocity) + query.for_each"
    );
}

#[test]
#[should_panic(expected = "add_remove: no contender named `nobody`")]
fn contender_panics_on_an_unknown_name() {
    workloads::add_remove::workload().contender("nobody");
}

#[test]
fn the_systems_workloads_are_listed_with_their_other_paths() {
    let names: Vec<_> = workloads::all().iter().map(|w| w.name).collect();
    for name in ["schedule", "empty_systems", "schedule_many", "commands"] {
        assert!(names.contains(&name), "{name} is not in all()");
    }
    // Each extra path of ours is a contender, so the test above checks it agrees with ideal.
    for (workload, path) in [
        (heavy_compute::workload(), "ours_schedule"),
        (schedule::workload(), "ours_single_threaded"),
        (schedule::workload(), "ours_by_hand"),
        (empty_systems::workload(), "ours_single_threaded"),
        (schedule_many::workload(), "ours_threshold_0"),
        (schedule_many::workload(), "ours_single_threaded"),
        (schedule_many::workload(), "ours_by_hand"),
        (commands::workload(), "ours_world_commands"),
    ] {
        assert_eq!(workload.contender(path).name, path);
    }
}

#[test]
fn per_item_workloads_say_what_an_item_is() {
    assert_eq!(
        empty_systems::workload().items,
        Some(Items {
            count: 100,
            name: "system"
        })
    );
    assert_eq!(
        commands::workload().items,
        Some(Items {
            count: 2_000,
            name: "command"
        })
    );
    assert_eq!(schedule::workload().items, None);
}

#[test]
fn a_second_run_keeps_agreeing_where_runs_return_the_world_to_its_start() {
    // commands spawns and despawns the same 1,000 entities every run, and the
    // schedule workload's swaps undo themselves every second run: the checksum
    // after three runs equals the one after one.
    for workload in [commands::workload(), schedule::workload()] {
        for contender in (workload.contenders)() {
            let mut bench = contender.build();
            bench.time(1);
            let once = bench.checksum();
            bench.time(2);
            assert_eq!(
                bench.checksum(),
                once,
                "{}: {}",
                workload.name,
                contender.name
            );
        }
    }
}
