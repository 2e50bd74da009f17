//! Change ticks: the world's change counter, the ticks a tracked component
//! carries, and [`Mut`], the reference that marks a value changed when it is
//! written.
//!
//! A component type opts in with `#[component(track_changes)]`. Its storage
//! then keeps, beside every value, the tick it was added at and the tick it
//! was last written at. The world hands out ticks from one 64-bit counter:
//! every system run takes a new one, and so does every change made through
//! the world itself. The filters [`Added`](crate::query::Added) and
//! [`Changed`](crate::query::Changed) keep the values whose tick is newer than
//! the tick the asker last looked at, so nothing has to be reset and any
//! number of systems each see every change once.
//!
//! ```
//! use ecs_core::prelude::*;
//!
//! #[derive(Component)]
//! #[component(track_changes)]
//! struct Health(i32);
//!
//! let mut world = World::new();
//! let e = world.spawn(Health(10));
//! let since = world.change_tick();
//! world.get_mut::<Health>(e)?.0 -= 3;
//! let changed = world.query_filtered::<Entity, Changed<Health>>().changed_since(since);
//! assert_eq!(changed.iter().collect::<Vec<_>>(), [e]);
//! # Ok::<(), Error>(())
//! ```

mod clock;
mod mut_ref;

pub use clock::Tick;
pub(crate) use clock::{ChangeClock, RunTicks};
pub use mut_ref::{ComponentMut, Mut};
