//! What a query works out before it walks, and what it keeps between walks:
//! the plan (`plan.rs`: the driving storage and its known-aligned prefix,
//! from a group's packed prefix or the alignment cache, which the search
//! takes without comparing an id), the alignment cache
//! (`alignment.rs`: per pair of storages, how many leading positions hold
//! the same entities, valid while neither reorders), the cached matches
//! (`matches.rs`: the runs of the driver where every fetched column holds
//! its entities, with each column's shift, valid while the storages the
//! query requires keep their structure), and the world's table of them
//! (`kept.rs`: one entry per query type, which every spelling of a query
//! reaches, beside the alignment cache).
//!
//! Group prefixes and the layout pass are kept true by structural changes
//! (`world/structural/`): this module only reads them.

mod alignment;
mod kept;
mod matches;
mod plan;

pub(crate) use alignment::DenseOrder;
pub(crate) use kept::{KeptEntry, KeptMatches, Reach};
pub use matches::MatchStats;
pub(crate) use matches::Matches;
