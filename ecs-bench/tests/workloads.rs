//! Every contender of every workload does the work: after one run its checksum
//! equals the `ideal` contender's (`Workload::prepare` panics otherwise).
//!
//! Run with `--features peers` to check the other libraries' code too.

use ecs_bench::workloads::{self, memory};

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
