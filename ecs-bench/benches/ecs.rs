//! Criterion benches of `ecs-core`, one group per topic, each bench one
//! contender of a workload in `ecs_bench::workloads`: the code the `compare`
//! binary times, so a workload is written once.
//!
//! `cargo bench -p ecs-bench --bench ecs` runs them all; add a filter such as
//! `-- iteration` for one topic (`-- systems`: schedules and commands;
//! `-- change_detection`: `Changed` over 100,000 tracked entities;
//! `-- rollback`: a frame's save and restore beside `memcpy`;
//! `-- layout`: schedule_many through a schedule, whose frames keep the
//! layout sorted and whose systems keep their matches, then over a layout
//! sorted once by `World::optimize_layout`, and by hand through the
//! matches the world keeps for `World::query`).
//! Worlds are built only for the benches the filter keeps.

use criterion::{Criterion, criterion_group, criterion_main};
use ecs_bench::harness::{Contender, Timed};
use ecs_bench::workloads::{
    add_remove, big_iter, change_detection, commands, despawn_churn, empty_systems, frag_iter,
    heavy_compute, hierarchy, random_get, rollback, schedule, schedule_many, simple_insert,
    simple_iter,
};

/// Every bench, in run order: its group, its name, and the contender it times.
/// A group's benches are listed together.
fn table() -> Vec<(&'static str, &'static str, Contender)> {
    let one_by_one = simple_insert::one_by_one();
    let batch = simple_insert::batch();
    let add_remove = add_remove::workload();
    let random_get = random_get::workload();
    let despawn_churn = despawn_churn::workload();
    let simple_iter = simple_iter::workload();
    let frag_iter = frag_iter::workload();
    let big_iter = big_iter::workload();
    let schedule = schedule::workload();
    let heavy_compute = heavy_compute::workload();
    let empty_systems = empty_systems::workload();
    let schedule_many = schedule_many::workload();
    let commands = commands::workload();
    let change_detection = change_detection::workload();
    let rollback = rollback::workload();
    let despawn_child = hierarchy::despawn_child();
    let spawn_children = hierarchy::spawn_children();
    let propagate = hierarchy::propagate();
    vec![
        (
            "hierarchy",
            "despawn_one_child_of_1m",
            despawn_child.contender("ours"),
        ),
        (
            "hierarchy",
            "despawn_one_entity_without_parent_in_1m",
            despawn_child.contender("ours_no_parent"),
        ),
        (
            "hierarchy",
            "spawn_100k_children_under_1k_parents",
            spawn_children.contender("ours"),
        ),
        (
            "hierarchy",
            "propagate_111k_nodes_depth_6",
            propagate.contender("ours"),
        ),
        (
            "spawn",
            "one_by_one_10k_4_components",
            one_by_one.contender("ours"),
        ),
        ("spawn", "batch_10k_4_components", batch.contender("ours")),
        (
            "add_remove",
            "insert_then_remove_10k",
            add_remove.contender("ours"),
        ),
        (
            "add_remove",
            "view_insert_then_remove_10k",
            add_remove.contender("ours_view"),
        ),
        (
            "add_remove",
            "insert_then_remove_10k_observers_elsewhere",
            add_remove.contender("ours_observers_elsewhere"),
        ),
        (
            "add_remove",
            "insert_then_remove_10k_observed",
            add_remove.contender("ours_observed"),
        ),
        (
            "random_get",
            "world_get_10k_of_100k",
            random_get::world_get(),
        ),
        (
            "random_get",
            "view_get_10k_of_100k",
            random_get.contender("ours_view"),
        ),
        (
            "random_get",
            "query_get_10k_of_100k",
            random_get.contender("ours"),
        ),
        (
            "despawn_churn",
            "despawn_third_respawn_100k",
            despawn_churn.contender("ours"),
        ),
        (
            "iteration",
            "simple_iter_10k",
            simple_iter.contender("ours"),
        ),
        ("iteration", "frag_iter_26x20", frag_iter.contender("ours")),
        (
            "iteration",
            "frag_iter_26x20_unprepared",
            frag_iter.contender("ours_unprepared"),
        ),
        ("iteration", "big_iter_1m", big_iter.contender("ours")),
        (
            "iteration",
            "ideal_simple_iter_10k",
            simple_iter.contender("ideal"),
        ),
        (
            "iteration",
            "ideal_frag_iter_26x20",
            frag_iter.contender("ideal"),
        ),
        // Three queries over storages holding the same runs of entities at
        // different offsets, no group: the iterator's offset runs.
        (
            "iteration",
            "offset_runs_3_queries_40k",
            schedule.contender("ours_by_hand"),
        ),
        (
            "systems",
            "schedule_3_systems_40k",
            schedule.contender("ours"),
        ),
        (
            "systems",
            "heavy_compute_par_for_each_1k",
            heavy_compute.contender("ours"),
        ),
        (
            "systems",
            "heavy_compute_schedule_1k",
            heavy_compute.contender("ours_schedule"),
        ),
        (
            "systems",
            "empty_systems_100",
            empty_systems.contender("ours"),
        ),
        (
            "systems",
            "schedule_many_100_systems",
            schedule_many.contender("ours"),
        ),
        (
            "systems",
            "commands_system_1k_spawn_1k_despawn",
            commands.contender("ours"),
        ),
        (
            "systems",
            "commands_world_1k_spawn_1k_despawn",
            commands.contender("ours_world_commands"),
        ),
        (
            "layout",
            "schedule_many_cached_matches",
            schedule_many.contender("ours"),
        ),
        (
            "layout",
            "schedule_many_optimized_layout",
            schedule_many.contender("ours_optimized"),
        ),
        (
            "layout",
            "schedule_many_by_hand_optimized_layout",
            schedule_many.contender("ours_by_hand_optimized"),
        ),
        (
            "layout",
            "schedule_many_by_hand_kept_matches_maintained_layout",
            schedule_many.contender("ours_by_hand"),
        ),
        (
            "change_detection",
            "changed_100k_10_percent_written",
            change_detection.contender("ours"),
        ),
        (
            "change_detection",
            "ideal_changed_100k_10_percent_written",
            change_detection.contender("ideal"),
        ),
        (
            "rollback",
            "save_restore_10k_3_components",
            rollback.contender("ours"),
        ),
        (
            "rollback",
            "save_restore_10k_3_components_fresh_state",
            rollback.contender("ours_fresh_state"),
        ),
        (
            "rollback",
            "ideal_save_restore_10k_3_components",
            rollback.contender("ideal"),
        ),
    ]
}

fn ecs(c: &mut Criterion) {
    let table = table();
    for run in table.chunk_by(|a, b| a.0 == b.0) {
        let mut group = c.benchmark_group(run[0].0);
        for &(_, name, contender) in run {
            let mut built: Option<Box<dyn Timed>> = None;
            group.bench_function(name, |b| {
                let bench = built.get_or_insert_with(|| contender.build());
                b.iter_custom(|iters| bench.time(iters));
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    // With `--features peers` criterion's plots need the embedded font.
    config = {
        ecs_bench::fonts::register_chart_fonts();
        Criterion::default()
    };
    targets = ecs
}
criterion_main!(benches);
