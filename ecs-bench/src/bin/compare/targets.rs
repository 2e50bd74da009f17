//! The comparison's targets, checked against this run's medians.

use std::fmt::Write as _;

use crate::report::{MemoryResult, Results, WorkloadResult, format_ratio};

/// How far a result is from its target.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Met,
    /// Missed by less than the ~10 % the report calls noise.
    WithinNoise,
    Missed,
}

impl Verdict {
    /// `value` against the upper `limit`.
    fn of(value: f64, limit: f64) -> Self {
        if value <= limit {
            Self::Met
        } else if value <= limit * 1.1 {
            Self::WithinNoise
        } else {
            Self::Missed
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::Met => "yes",
            Self::WithinNoise => "within noise (< 10 % over)",
            Self::Missed => "**no**",
        }
    }
}

/// One target and how this run did.
struct Check {
    target: String,
    measured: String,
    verdict: Verdict,
}

/// A ratio target: `value / base <= limit`.
fn ratio(target: String, value: f64, base: f64, limit: f64) -> Check {
    let r = value / base;
    Check {
        target,
        measured: format_ratio(r),
        verdict: Verdict::of(r, limit),
    }
}

/// Each workload's limit for our fastest path over the fastest peer's;
/// workloads not named have no target yet and are reported
/// without a verdict.
const PEER_LIMITS: [(&str, f64); 9] = [
    ("simple_insert", 0.60),
    ("simple_insert_batch", 0.80),
    ("simple_iter", 1.00),
    ("frag_iter", 0.80),
    ("heavy_compute", 1.00),
    ("add_remove", 0.80),
    ("random_get", 0.90),
    ("despawn_churn", 0.85),
    ("big_iter", 1.00),
];

/// Limits for one of our paths over another row of the same workload:
/// (workload, our path, the other row, limit).
const ROW_LIMITS: [(&str, &str, &str, f64); 11] = [
    // The plain `World` API within reach of a query.
    ("random_get", "ours_world_get", "ours", 1.30),
    // Per-frame query setup close to the bare loop.
    ("frag_iter", "ours", "ideal", 1.10),
    // Three queries by hand, no groups: storages holding the same entities at
    // different offsets read as zipped arrays.
    ("schedule", "ours_by_hand", "hecs", 1.00),
    // A frame's rollback save and restore within twice the memcpy of its
    // columns.
    ("rollback", "ours", "ideal", 2.00),
    // A frame of a real game: many small systems, against archetype
    // libraries at their fastest paths.
    ("schedule", "ours", "hecs", 1.00),
    ("schedule_many", "ours", "bevy_single_threaded", 1.00),
    ("schedule_many", "ours_by_hand", "hecs", 1.00),
    ("change_detection", "ours", "bevy", 0.90),
    (
        "commands",
        "ours_world_commands",
        "bevy_world_commands",
        0.80,
    ),
    // Snapshots through one monomorphised writer per column.
    ("serialize_binary", "ours", "hecs", 1.00),
    ("serialize_text", "ours", "hecs", 1.00),
];

/// The workload-by-workload targets.
fn workload_checks(result: &WorkloadResult, checks: &mut Vec<Check>) {
    let name = result.workload.name;
    let limit = PEER_LIMITS.iter().find(|(workload, _)| *workload == name);
    if let (Some(&(_, limit)), Some(peer)) = (limit, result.best_peer()) {
        let best = result.best_ours();
        checks.push(ratio(
            format!(
                "{name}: {} <= {limit:.2}x the fastest peer ({})",
                best.contender.name, peer.contender.name
            ),
            best.median(),
            peer.median(),
            limit,
        ));
    }
    for &(workload, path, other, limit) in &ROW_LIMITS {
        if workload != name {
            continue;
        }
        if let (Some(value), Some(base)) = (result.median_of(path), result.median_of(other)) {
            let target = format!("{name}: {path} <= {limit:.2}x {other}");
            checks.push(ratio(target, value, base, limit));
        }
    }
}

/// The memory target: ours within 1.40x of ideal's bytes per entity.
fn memory_check(memory: &[MemoryResult]) -> Option<Check> {
    let ours = memory.iter().find(|m| m.name == "ours")?;
    let ideal = memory.iter().find(|m| m.name == "ideal")?;
    let target = "memory: ours <= 1.40x ideal's bytes per entity".to_owned();
    Some(ratio(target, ours.per_entity(), ideal.per_entity(), 1.4))
}

/// The targets section of the report.
pub fn section(out: &mut String, results: &Results) {
    let mut checks = Vec::new();
    for result in &results.workloads {
        workload_checks(result, &mut checks);
    }
    checks.extend(memory_check(&results.memory));
    if checks.is_empty() {
        return;
    }
    let count = |verdict| checks.iter().filter(|c| c.verdict == verdict).count();
    let _ = writeln!(
        out,
        "## Targets\n\n\
         The targets (ours over the fastest peer, or over another row), checked against \
         this run: {} met, {} missed by less than 10 % (noise), {} missed.\n\n\
         | target | this run | met |\n|---|---:|---|",
        count(Verdict::Met),
        count(Verdict::WithinNoise),
        count(Verdict::Missed),
    );
    for check in &checks {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            check.target,
            check.measured,
            check.verdict.label()
        );
    }
    let _ = writeln!(out);
}
