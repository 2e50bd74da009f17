//! What a query works out before it walks, and what it keeps between walks:
//! the plan (`plan.rs`: the driving storage and its known-aligned prefix,
//! from a group or the world's alignment cache), the cached matches
//! (`matches.rs`: the runs of the driver where every fetched column holds
//! its entities, with each column's shift, valid while the storages the
//! query requires keep their structure), and the world's table of them
//! (`kept.rs`: one entry per query type, which every query built from the
//! world reaches).

mod kept;
mod matches;
mod plan;

pub(crate) use kept::{KeptEntry, KeptMatches, Reach};
pub use matches::MatchStats;
pub(crate) use matches::Matches;
pub(crate) use plan::Plan;
