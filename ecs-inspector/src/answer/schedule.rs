//! `GET /api/schedule` (what `Schedule::explain` says: stages, order,
//! batches, conflicts) and `GET /api/systems` (each system's timings).

use ecs_core::Schedule;
use serde_json::json;

use crate::http::Response;

pub(super) fn explain(schedule: &Schedule) -> Response {
    let explanation = match schedule.explain() {
        Ok(explanation) => explanation,
        Err(error) => {
            return Response::error(409, format!("the schedule cannot be planned: {error}"));
        }
    };
    let stages: Vec<_> = explanation
        .stages
        .iter()
        .map(|stage| {
            let conflicts: Vec<_> = stage
                .conflicts
                .iter()
                .map(|o| {
                    json!({
                        "first": o.first,
                        "second": o.second,
                        "reason": o.reason.to_string(),
                        "text": o.to_string(),
                    })
                })
                .collect();
            json!({
                "stage": stage.stage.name(),
                "order": stage.order,
                "batches": stage.batches,
                "conflicts": conflicts,
            })
        })
        .collect();
    Response::json(&json!({ "stages": stages, "text": explanation.to_string() }))
}

pub(super) fn systems(schedule: &Schedule) -> Response {
    let systems: Vec<_> = schedule
        .stats()
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "stage": s.stage.name(),
                "last_us": s.last.as_secs_f64() * 1e6,
                "mean_us": s.mean.as_secs_f64() * 1e6,
                "runs": s.runs,
            })
        })
        .collect();
    Response::json(&json!({
        "frame": schedule.frames(),
        "parallel_batches": schedule.parallel_batches(),
        "systems": systems,
    }))
}
