//! Small helpers every layer may use: finishing a loop of drops past a panic,
//! short type names, a cell that only `&mut` opens, hashers for `TypeId` and entity keys, and
//! tuple-impl macros.

mod bits_hasher;
mod deferred_panic;
pub(crate) mod macros;
mod short_name;
mod sync_cell;
mod type_id_hasher;

pub(crate) use bits_hasher::BitsHasher;
pub(crate) use deferred_panic::{DeferredPanic, PanicPayload};
pub(crate) use short_name::ShortName;
pub(crate) use sync_cell::SyncCell;
pub(crate) use type_id_hasher::TypeIdHasher;
