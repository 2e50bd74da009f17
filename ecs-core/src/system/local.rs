//! `Local<T>`: state that belongs to one system and lives between its runs.

use core::fmt;
use core::ops::{Deref, DerefMut};

use crate::error::Error;

use super::access::SystemAccess;
use super::param::{SystemParam, SystemWorld};

/// A value owned by one system, kept from one run to the next; it starts as
/// `T::default()` when the system is added. Two systems never share it, so
/// it touches nothing the scheduler must order.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Default)]
/// struct Seen(Vec<u32>);
///
/// fn tick(mut frame: Local<u32>, mut seen: ResMut<Seen>) {
///     *frame += 1;
///     seen.0.push(*frame);
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Seen::default());
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, tick)?;
/// for _ in 0..3 {
///     schedule.run(&mut world)?;
/// }
/// assert_eq!(world.resource::<Seen>()?.0, [1, 2, 3]);
/// # Ok::<(), Error>(())
/// ```
pub struct Local<'w, T: Default + Send + 'static> {
    value: &'w mut T,
}

impl<T: Default + Send + 'static> Deref for Local<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        self.value
    }
}

impl<T: Default + Send + 'static> DerefMut for Local<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        self.value
    }
}

impl<T: Default + Send + fmt::Debug + 'static> fmt::Debug for Local<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

// SAFETY: touches only its own state, which the system owns.
unsafe impl<T: Default + Send + 'static> SystemParam for Local<'_, T> {
    const DEFERS: bool = false;
    const PREPARES: bool = false;

    type State = T;
    type Item<'w> = Local<'w, T>;

    fn init(_: &mut SystemAccess) -> T {
        T::default()
    }

    #[inline]
    unsafe fn fetch<'w>(value: &'w mut T, _: SystemWorld<'w>) -> Result<Local<'w, T>, Error> {
        Ok(Local { value })
    }
}
