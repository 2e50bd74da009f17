//! The report's layout line: for one of this ECS's contenders, how its
//! world's storages are ordered and what its queries walk, so a reader sees
//! why a row is fast or slow.

use ecs_core::World;
use ecs_core::query::MatchStats;

use crate::text::thousands;

/// One line on `world` after the runs: how many storage entries sit in
/// signature order, and over `queries` (each query's kept matches) how many
/// runs they walk, how many entities those hold, and how many candidates
/// their last searches looked at.
///
/// ```
/// use ecs_bench::layout::describe;
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Hp(u32);
///
/// let mut world = World::new();
/// world.spawn_batch((0..4).map(Hp));
/// let stats = world.query::<&Hp>().match_stats();
/// let line = describe(&world, stats.into_iter());
/// assert!(line.starts_with("1 query walks 1 run holding 4 entities"), "{line}");
/// ```
pub fn describe(world: &World, queries: impl Iterator<Item = MatchStats>) -> String {
    let (mut count, mut runs, mut matched, mut searched, mut searches) = (0, 0, 0, 0, 0);
    for stats in queries {
        count += 1;
        runs += stats.runs;
        matched += stats.matched;
        searched += stats.searched;
        searches += stats.searches;
    }
    let layout = world.layout_stats();
    let entries: usize = layout.storages.iter().map(|s| s.len).sum();
    let ordered: usize = layout.storages.iter().map(|s| s.grouped + s.in_order).sum();
    let percent = if entries == 0 {
        100.0
    } else {
        ordered as f64 * 100.0 / entries as f64
    };
    let plural = |n: usize, one: &str, many: &str| {
        format!("{} {}", thousands(n), if n == 1 { one } else { many })
    };
    let each = |total: f64| total / count.max(1) as f64;
    format!(
        "{} {} {} holding {} ({} per run); each query searched {:.1} times, \
         the last search looking at {} candidates; {percent:.0} % of {} in signature order",
        plural(count, "query", "queries"),
        if count == 1 { "walks" } else { "walk" },
        plural(runs, "run", "runs"),
        plural(matched, "entity", "entities"),
        thousands((matched as f64 / runs.max(1) as f64).round() as usize),
        each(searches as f64),
        thousands(each(searched as f64).round() as usize),
        plural(entries, "storage entry", "storage entries"),
    )
}
