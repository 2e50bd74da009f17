//! Rollback: a world's registered data saved in memory every frame, put back
//! exactly, and hashed the same on every machine, for peer-to-peer rollback
//! networking (GGPO-style, as the `ggrs` crate runs it).
//!
//! [`RollbackRegistry`] names the component and resource types to save;
//! [`RollbackRegistry::save`] makes a [`WorldState`],
//! [`RollbackRegistry::restore`] puts it back, and
//! [`RollbackRegistry::checksum`] / [`WorldState::checksum`] compare worlds
//! across peers. [`ChecksumHasher`] is the hasher values are fed to.

mod checksum;
mod column;
mod registry;
mod resource;
mod saved;
mod state;

pub use checksum::ChecksumHasher;
pub use registry::RollbackRegistry;
pub use state::WorldState;
