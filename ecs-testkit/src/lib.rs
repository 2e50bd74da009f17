//! What ecs-core's integration tests and its `cargo fuzz` targets share: one reference model of
//! a world, one drop ledger, the byte decoder of the fuzz targets and the proptest strategies
//! of the model tests.
//!
//! - [`ledger`]: every tracked value is made and dropped by id, so a double drop or a leak
//!   names the value.
pub mod ledger;
