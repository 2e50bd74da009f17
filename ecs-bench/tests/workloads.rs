//! Every contender of every workload does the work: after one run its checksum
//! equals the `ideal` contender's (`Workload::prepare` panics otherwise).
//!
//! Run with `--features peers` to check the other libraries' code too.

use ecs_bench::workloads::{self, memory, random_get};

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
