//! What ecs-core's integration tests and its `cargo fuzz` targets share: one reference model of
//! a world, one drop ledger, the byte decoder of the fuzz targets and the proptest strategies
//! of the model tests.
//!
//! - [`Model`] ([`model`]): what a world made by `World::new` should hold after the operations
//!   mirrored in it: the exact ids the allocator hands out, every value, the exact errors, the
//!   registration order, `World::stats` field by field. Component types are mirrored through
//!   [`Mirror`] ([`component`]), so tests keep their own types where they need to.
//! - [`query`]: every query shape the tests build, answered by the model by brute force.
//! - [`Op`] and [`Harness`] ([`harness`]): one operation enum over the whole `World` API, run
//!   against a world and the model with every answer compared.
//! - [`fuzz`]: arbitrary bytes decoded into operations, for the libFuzzer targets and their
//!   stable, bounded twin `ecs-core/tests/world/fuzz_ops.rs`.
//! - [`strategy`]: proptest strategies producing operations.
//! - [`ledger`]: every tracked value is made and dropped by id, so a double drop or a leak
//!   names the value.
//! - [`faults`]: operations that carry a fault (a `Drop`, an observer, a command, a system or a
//!   `MapEntities` that panics), a model of how each call must end under it, and the harness
//!   that compares the two after every step.

pub mod bundle;
pub mod component;
pub mod faults;
pub mod fuzz;
pub mod harness;
pub mod ledger;
pub mod model;
pub mod query;
pub mod strategy;

pub use bundle::{Hint, Spec};
pub use component::{
    Count, Generate, Items, Key, Mark, Mirror, Name, Pos, Tag, Tracked, Value, Which,
};
pub use harness::{Assembly, HandleOp, Harness, Op, Target};
pub use ledger::{Ledger, Token};
pub use model::{DeadIds, Model, Record, Status, ent};
