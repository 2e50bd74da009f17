//! Observers' bookkeeping, with no world in sight: ids, the triggers an
//! observer takes, the index from (event, component type) and from custom
//! event type to observers, globally and per entity, and the record of
//! events waiting to be dispatched.
//!
//! Running observers needs the whole world, so that lives in
//! `world/observe.rs`; the registry here is generic over what it stores.

mod registry;
mod trigger;

#[doc(hidden)]
pub use registry::Follows;
pub(crate) use registry::{Fired, ObserverIndex, ObserverRegistry};
pub use trigger::{OnAdd, OnInsert, OnRemove, Trigger, TriggerKind};

slotmap::new_key_type! {
    /// The handle [`World::observe`](crate::World::observe) returns, for
    /// [`World::unobserve`](crate::World::unobserve). Versioned: once its
    /// observer is removed, the id is stale for good, even if the slot is
    /// reused.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let id: ObserverId = world.observe(|_: OnAdd<Health>| {});
    /// world.unobserve(id)?;
    /// assert!(world.unobserve(id).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub struct ObserverId;
}
