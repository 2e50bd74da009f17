//! The change filters `Added<T>` and `Changed<T>`, and `Query::changed_since`.

use core::marker::PhantomData;
use core::ptr::NonNull;

use crate::access::Access;
use crate::change::Tick;
use crate::component::TrackedComponent;
use crate::entity::Entity;
use crate::error::Error;
use crate::storage::SparseSet;
use crate::view::{ViewMode, WorldView};

use super::Query;
use super::chunk;
use super::column::{Presence, Required, StorageRoot};
use super::data::QueryData;
use super::filter::{QueryFilter, sealed};
use super::probe::Seat;
use super::world_query::WorldQuery;

/// Keeps entities whose `T` was added after the asker last looked: since the
/// asking system's last run, or since the tick given to
/// [`Query::changed_since`].
///
/// `T` must track changes (`#[component(track_changes)]`). A component
/// counts as added when an entity that did not hold a `T` gets one (spawn,
/// insert, a bundle, commands); replacing a `T` is a change, not an add.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// #[component(track_changes)]
/// struct Health(i32);
///
/// fn greet(added: Query<Entity, Added<Health>>, mut seen: ResMut<Vec<Entity>>) {
///     seen.extend(added.iter());
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Vec::<Entity>::new());
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, greet)?;
/// let first = world.spawn(Health(3));
/// schedule.run(&mut world)?; // sees `first`
/// schedule.run(&mut world)?; // nothing new
/// let second = world.spawn(Health(3));
/// world.insert(first, Health(4))?; // a replacement, not an add
/// schedule.run(&mut world)?; // sees `second` only
/// assert_eq!(*world.resource::<Vec<Entity>>()?, [first, second]);
/// # Ok::<(), Error>(())
/// ```
pub struct Added<T>(PhantomData<fn() -> T>);

/// Keeps entities whose `T` was added or written after the asker last
/// looked: since the asking system's last run, or since the tick given to
/// [`Query::changed_since`].
///
/// `T` must track changes (`#[component(track_changes)]`). A component
/// counts as written when it is inserted or replaced, and when it is written
/// through the [`Mut<T>`](crate::change::Mut) that `&mut T` yields: handing
/// out the `Mut` marks nothing, writing through it does, and
/// [`Mut::set_if_neq`](crate::change::Mut::set_if_neq) writes only a
/// different value.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, PartialEq)]
/// #[component(track_changes)]
/// struct Health(i32);
///
/// fn regen(mut q: Query<&mut Health>) {
///     for mut h in q.iter_mut() {
///         let full = h.0.max(10);
///         h.set_if_neq(Health(full)); // writes only those below 10
///     }
/// }
/// fn report(changed: Query<(Entity, &Health), Changed<Health>>, mut log: ResMut<Vec<Entity>>) {
///     log.extend(changed.iter().map(|(e, _)| e));
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Vec::<Entity>::new());
/// let weak = world.spawn(Health(3));
/// let strong = world.spawn(Health(12));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, regen)?;
/// schedule.add_system(Stage::PostUpdate, report)?;
/// schedule.run(&mut world)?; // first run: both were added, so both changed
/// world.resource_mut::<Vec<Entity>>()?.clear();
/// world.get_mut::<Health>(weak)?.0 = 1;
/// schedule.run(&mut world)?; // `weak` was hurt, then healed; `strong` untouched
/// assert_eq!(*world.resource::<Vec<Entity>>()?, [weak]);
/// # let _ = strong;
/// # Ok::<(), Error>(())
/// ```
pub struct Changed<T>(PhantomData<fn() -> T>);

impl<T> sealed::Sealed for Added<T> {}
impl<T> sealed::Sealed for Changed<T> {}

/// What `Added<T>` and `Changed<T>` look at: which entities hold `T`, the
/// ticks the filter compares (added ticks for `Added`, changed ticks for
/// `Changed`), and the tick to compare against.
///
/// Invariant: when the storage exists and `T::TRACK_CHANGES`, `ticks` points
/// at one tick per entity of `presence`, in the same order; otherwise
/// `tracked` is false and `ticks` is never read.
pub struct TickFilter<'w, T> {
    presence: Presence<'w, T>,
    ticks: NonNull<u64>,
    tracked: bool,
    last_run: u64,
}

impl<T> Clone for TickFilter<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for TickFilter<'_, T> {}

// SAFETY: the filter only reads ticks, through `QueryFilter::matches_ticks`
// and `ticks_chunk`, which a query asks only for an entity that passed
// every presence condition of the query (its required fetches, `With`,
// `Without`, the filter's own `T`) and whose item is not live yet
// (`query/probe.rs` is the one place that orders the steps). Another query
// may write `T`'s ticks at the same moment only if the access check found it
// disjoint: it requires a type this query excludes, or excludes one this
// query requires, so no entity that passed those conditions is one it writes.
// Every other writer is ordered apart by the read this filter registers.
unsafe impl<T> Sync for TickFilter<'_, T> {}

// SAFETY: the filter owns nothing, and reads only under the rule its `Sync`
// states.
unsafe impl<T> Send for TickFilter<'_, T> {}

impl<'w, T: TrackedComponent> TickFilter<'w, T> {
    /// The filter's view of the storage at `found`, comparing added ticks if
    /// `added`, else changed ones.
    ///
    /// # Safety
    /// `found` was found in the world `view` borrows.
    #[inline]
    unsafe fn of(view: WorldView<'w>, found: Option<StorageRoot<T>>, added: bool) -> Self {
        let (ticks, tracked) = match found {
            Some(found) if T::TRACK_CHANGES => {
                // SAFETY: a live `SparseSet<T>` owned by the world (the
                // caller's contract), borrowed for `'w`; its ticks vector
                // changes only under `&mut World`.
                let (added_ticks, changed_ticks) =
                    unsafe { SparseSet::ticks_for_read(found.root().as_ptr()) };
                (if added { added_ticks } else { changed_ticks }, true)
            }
            _ => (NonNull::dangling(), false),
        };
        Self {
            // SAFETY: `found` was found in the world `view` borrows for `'w`
            // (this function's contract), as `Presence::found` requires.
            presence: unsafe { Presence::found(found) },
            ticks,
            tracked,
            last_run: view.ticks().last_run,
        }
    }

    /// `entity`'s tick, if it holds a tracked `T`.
    #[inline(always)]
    fn ticks_of(&self, entity: Entity) -> Option<u64> {
        let dense = self.presence.dense(entity)?;
        self.ticks_at(dense)
    }

    /// `entity`'s tick, where the query walks `driver` and found `entity`
    /// at `index`: when `driver` is this storage's own entity array, the
    /// position is the dense index, and no sparse lookup is needed.
    #[inline(always)]
    fn ticks_at_driver(&self, entity: Entity, driver: &[Entity], index: usize) -> Option<u64> {
        if core::ptr::eq(self.presence.entities, driver) {
            self.ticks_at(index)
        } else {
            self.ticks_of(entity)
        }
    }

    /// The ticks of the `len` positions from `start` of `driver`, when
    /// `driver` is this storage's own entity array (so its positions are
    /// the ticks' positions) and the range lies within it.
    ///
    /// The caller reads them only while no item of those entities is live,
    /// and only once every one of them passed its query's presence
    /// conditions (see the `Sync` impl).
    #[inline(always)]
    fn driver_ticks(&self, driver: &[Entity], start: usize, len: usize) -> Option<&[u64]> {
        let within = start
            .checked_add(len)
            .is_some_and(|end| end <= self.presence.entities.len());
        if !self.tracked || !within || !core::ptr::eq(self.presence.entities, driver) {
            return None;
        }
        // SAFETY: the ticks run beside the storage's entities (type
        // invariant), `start..start + len` is checked against their length,
        // and nothing writes those ticks while the slice lives: no item of
        // their entities is live (the caller's promise), and a query that
        // could write them at the same time is disjoint from this one by a
        // presence condition every one of them passed.
        Some(unsafe { core::slice::from_raw_parts(self.ticks.as_ptr().add(start), len) })
    }

    /// The tick at dense position `dense`, if it is in range and `T` is tracked.
    #[inline(always)]
    fn ticks_at(&self, dense: usize) -> Option<u64> {
        if !self.tracked || dense >= self.presence.entities.len() {
            return None;
        }
        // SAFETY: the ticks run beside the storage's entities (type
        // invariant), `dense` is checked against their length, and no item of
        // the entity there is live while a filter looks at it.
        Some(unsafe { self.ticks.as_ptr().add(dense).read() })
    }
}

macro_rules! tick_filter {
    ($filter:ident, $added:literal) => {
        // SAFETY: reads `T`'s ticks (registered as such) and no component
        // data; registers `T` as held by every match, which
        // `matches_presence` keeps; the one storage reported is `T`'s, which
        // holds every entity that has a `T`.
        unsafe impl<T: TrackedComponent> WorldQuery for $filter<T> {
            type State<'w> = TickFilter<'w, T>;
            type Prepared = Option<StorageRoot<T>>;

            fn access(access: &mut Access) {
                access.read_ticks::<T>();
                access.require::<T>();
            }

            #[inline]
            fn prepare(view: WorldView<'_>) -> Self::Prepared {
                StorageRoot::find(view)
            }

            #[inline]
            unsafe fn state_prepared<'w, M: ViewMode>(
                prepared: &Self::Prepared,
                view: WorldView<'w, M>,
            ) -> TickFilter<'w, T> {
                // SAFETY: found in the same world (the caller's contract).
                unsafe { TickFilter::of(view.as_shared(), *prepared, $added) }
            }

            #[inline]
            fn for_each_required<'w>(state: &TickFilter<'w, T>, f: &mut impl FnMut(Required<'w>)) {
                f(state.presence.required());
            }
        }

        impl<T: TrackedComponent> QueryFilter for $filter<T> {
            const READS_TICKS: bool = true;

            /// Every position holds `T` when the query walks `T`'s own
            /// storage.
            #[inline(always)]
            fn matches_presence(state: &TickFilter<'_, T>, entity: Entity, seat: Seat<'_>) -> bool {
                match seat {
                    Seat::Driver(driver, _) if core::ptr::eq(state.presence.entities, driver) => {
                        true
                    }
                    _ => state.presence.contains(entity),
                }
            }

            #[inline(always)]
            fn matches_ticks(state: &TickFilter<'_, T>, entity: Entity, seat: Seat<'_>) -> bool {
                let tick = match seat {
                    Seat::Driver(driver, index) => state.ticks_at_driver(entity, driver, index),
                    Seat::Anywhere => state.ticks_of(entity),
                };
                tick.is_some_and(|tick| tick > state.last_run)
            }

            /// Every position holds `T` when the query walks `T`'s own
            /// storage.
            #[inline(always)]
            fn presence_chunk(
                state: &TickFilter<'_, T>,
                driver: &[Entity],
                start: usize,
                len: usize,
            ) -> u64 {
                if core::ptr::eq(state.presence.entities, driver) {
                    return chunk::full(len);
                }
                chunk::bits_where(driver, start, len, |entity, index| {
                    Self::matches_presence(state, entity, Seat::Driver(driver, index))
                })
            }

            /// A whole chunk of the driving storage's own ticks is compared
            /// at once, without a branch; a part of a chunk, or another
            /// storage's ticks, one candidate at a time.
            #[inline(always)]
            fn ticks_chunk(
                state: &TickFilter<'_, T>,
                driver: &[Entity],
                start: usize,
                len: usize,
                candidates: u64,
            ) -> u64 {
                if candidates == chunk::full(len)
                    && let Some(ticks) = state.driver_ticks(driver, start, len)
                {
                    return chunk::newer_than(ticks, state.last_run);
                }
                chunk::bits_among(driver, start, candidates, |entity, index| {
                    Self::matches_ticks(state, entity, Seat::Driver(driver, index))
                })
            }

            fn check_presence(state: &TickFilter<'_, T>, entity: Entity) -> Result<(), Error> {
                if Self::matches_presence(state, entity, Seat::Anywhere) {
                    Ok(())
                } else {
                    Err(Error::missing::<T>(entity))
                }
            }

            fn check_ticks(state: &TickFilter<'_, T>, entity: Entity) -> Result<(), Error> {
                if Self::matches_ticks(state, entity, Seat::Anywhere) {
                    Ok(())
                } else {
                    Err(Error::FilteredOut {
                        entity,
                        filter: core::any::type_name::<Self>(),
                    })
                }
            }
        }
    };
}

tick_filter!(Added, true);
tick_filter!(Changed, false);

impl<'w, Q: QueryData, F: QueryFilter> Query<'w, Q, F> {
    /// Makes the query's [`Added`] and [`Changed`] filters keep what is new
    /// since `tick`, a tick kept from [`World::change_tick`](crate::World::change_tick).
    ///
    /// Without it, a query built from the world
    /// ([`World::query`](crate::World::query) and friends) compares against
    /// tick 0, so every tracked component counts as added and changed; a
    /// system's query compares against the system's last run.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(track_changes)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let a = world.spawn(Health(1));
    /// let b = world.spawn(Health(1));
    /// assert_eq!(world.query_filtered::<Entity, Changed<Health>>().iter().count(), 2);
    ///
    /// let since = world.change_tick();
    /// world.get_mut::<Health>(b)?.0 += 1;
    /// let changed: Vec<Entity> =
    ///     world.query_filtered::<Entity, Changed<Health>>().changed_since(since).iter().collect();
    /// assert_eq!(changed, [b]);
    /// # let _ = a;
    /// # Ok::<(), Error>(())
    /// ```
    pub fn changed_since(self, tick: Tick) -> Self {
        let view = self.view.since(tick.get());
        // Only the filters compare ticks: the plan, and the matches a walk
        // takes (which cache no filter), hold as they are.
        Query {
            view,
            filter: F::state(view),
            ..self
        }
    }
}
