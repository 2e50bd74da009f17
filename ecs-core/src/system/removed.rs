//! `RemovedComponents<T>`: the entities that lost a `T` since the system
//! last ran, from a log an `OnRemove<T>` observer keeps.

use core::fmt;
use core::marker::PhantomData;

use crate::component::Component;
use crate::entity::Entity;
use crate::error::Error;
use crate::event::EventCursor;
use crate::observer::{ObserverId, OnRemove};
use crate::world::{CommandQueue, World};

use super::access::SystemAccess;
use super::event::{EventReader, EventWriter};
use super::param::{SystemParam, SystemWorld};

/// One entity that lost its `T`: an entry of the world's removal log of `T`.
#[doc(hidden)]
pub struct Removed<T>(Entity, PhantomData<fn() -> T>);

/// Marks a world that logs removals of `T`: the observer that does it.
struct RemovalLog<T> {
    _observer: ObserverId,
    _type: PhantomData<fn() -> T>,
}

/// A system param listing the entities that lost their `T` since the
/// system last ran: removed, despawned, or cleared. The ids may be dead.
///
/// The world logs removals of `T` from the first frame a system with this
/// param is in a schedule that runs it (an `OnRemove<T>` observer writes
/// the log, an event store each such system reads with its own cursor), so
/// removals before that frame are not listed. An entity that lost `T`
/// twice is listed twice.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::RemovedComponents;
///
/// #[derive(Component)]
/// struct Health(i32);
/// #[derive(Default)]
/// struct Graves(Vec<Entity>);
///
/// fn bury(mut gone: RemovedComponents<Health>, mut graves: ResMut<Graves>) {
///     graves.0.extend(gone.read());
/// }
///
/// let mut world = World::new();
/// world.init_resource::<Graves>();
/// let a = world.spawn(Health(1));
/// let b = world.spawn(Health(2));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Last, bury)?;
/// schedule.run(&mut world)?;
/// world.remove::<Health>(a)?;
/// world.despawn(b)?;
/// schedule.run(&mut world)?;
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Graves>()?.0, [a, b]);
/// # Ok::<(), Error>(())
/// ```
pub struct RemovedComponents<'w, T: Component> {
    reader: EventReader<'w, Removed<T>>,
}

impl<T: Component> RemovedComponents<'_, T> {
    /// The entities that lost a `T` since the last read, oldest first.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::system::RemovedComponents;
    ///
    /// #[derive(Component)]
    /// struct Shield;
    /// fn count(mut lost: RemovedComponents<Shield>) -> usize {
    ///     lost.read().count()
    /// }
    /// # let _ = count;
    /// ```
    pub fn read(&mut self) -> impl Iterator<Item = Entity> + '_ {
        self.reader.read().map(|removed| removed.0)
    }

    /// How many removals are unread.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::system::RemovedComponents;
    ///
    /// #[derive(Component)]
    /// struct Shield;
    /// fn any_lost(lost: RemovedComponents<Shield>) -> bool {
    ///     !lost.is_empty()
    /// }
    /// # let _ = any_lost;
    /// ```
    pub fn len(&self) -> usize {
        self.reader.len()
    }

    /// Whether no removal is unread.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T: Component> fmt::Debug for RemovedComponents<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RemovedComponents")
            .field("unread", &self.len())
            .finish()
    }
}

/// Writes the removal of `T` from the entity of `trigger` into the log.
fn log_removal<T: Component>(trigger: OnRemove<T>, mut log: EventWriter<Removed<T>>) {
    log.send(Removed(trigger.entity(), PhantomData));
}

// SAFETY: registers what `EventReader<Removed<T>>` registers (a read of the
// log's store) and reaches the world only through that reader; `prepare`
// has the world to itself.
unsafe impl<T: Component> SystemParam for RemovedComponents<'_, T> {
    const DEFERS: bool = false;

    type State = EventCursor<Removed<T>>;
    type Item<'w> = RemovedComponents<'w, T>;

    fn init(access: &mut SystemAccess) -> Self::State {
        <EventReader<'_, Removed<T>> as SystemParam>::init(access)
    }

    fn prepare(cursor: &mut Self::State, world: &mut World) {
        if !world.contains_resource::<RemovalLog<T>>() {
            let observer = world.observe(log_removal::<T>);
            world.insert_resource(RemovalLog::<T> {
                _observer: observer,
                _type: PhantomData,
            });
        }
        <EventReader<'_, Removed<T>> as SystemParam>::prepare(cursor, world);
    }

    unsafe fn fetch<'w>(
        cursor: &'w mut Self::State,
        world: SystemWorld<'w>,
    ) -> Result<RemovedComponents<'w, T>, Error> {
        // SAFETY: the caller's contract is the reader's: this param
        // registered exactly its access.
        let reader = unsafe { <EventReader<'_, Removed<T>> as SystemParam>::fetch(cursor, world)? };
        Ok(RemovedComponents { reader })
    }

    fn defer(cursor: &mut Self::State, queue: &mut CommandQueue) {
        <EventReader<'_, Removed<T>> as SystemParam>::defer(cursor, queue);
    }
}
