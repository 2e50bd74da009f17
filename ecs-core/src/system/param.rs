//! What a system takes: the `SystemParam` trait, the world a param is
//! fetched from, and the impls for queries, commands, `&World` and tuples.

use core::any::type_name;

use crate::access::Access;
use crate::change::RunTicks;
use crate::error::Error;
use crate::query::{Prepared, Query, QueryData, QueryFilter, Reach};
use crate::util::DeferredPanic;
use crate::view::{Exclusive, WorldView};
use crate::world::{CommandQueue, Commands, ReservationLane, World};

use super::access::SystemAccess;

/// The world as a running system's params reach it: shared with the other
/// systems running at the same time, each writing only what its access
/// declares.
///
/// Only the schedule makes one; params are fetched from copies of it. Games
/// never name it: it is the machinery `#[derive(SystemParam)]` forwards.
///
/// Invariant: `view` is an exclusive view of `world` made by
/// `World::view_for_systems`, under the contract of `SystemWorld::new`: the
/// world is held exclusively by whoever made this, and the systems whose
/// params come from copies of it never conflict while those params live.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct SystemWorld<'w> {
    world: &'w World,
    view: WorldView<'w, Exclusive>,
    /// Where this run's spawns take their reservation numbers.
    lane: Option<&'w ReservationLane>,
}

impl core::fmt::Debug for SystemWorld<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SystemWorld")
            .field("view", &self.view)
            .finish()
    }
}

impl<'w> SystemWorld<'w> {
    /// `ticks` are the running system's: the tick of its last run, which its
    /// `Added` and `Changed` filters compare against, and the tick of this
    /// run, which its writes are stamped with.
    ///
    /// # Safety
    /// `world` is borrowed exclusively by the caller for `'w`, and the systems
    /// whose params are fetched from copies of the result, while any of their
    /// params live, never conflict (per [`SystemAccess::conflict_with`]).
    pub(crate) unsafe fn new(
        world: &'w World,
        lane: Option<&'w ReservationLane>,
        ticks: RunTicks,
    ) -> Self {
        Self {
            world,
            lane,
            // SAFETY: the caller holds `world` exclusively for `'w` and shares
            // it only with systems that never conflict while their params live
            // (this function's contract): what `view_for_systems` requires.
            view: unsafe { world.view_for_systems(ticks) },
        }
    }

    /// The world, read-only: what `&World` params get.
    pub(crate) fn world(self) -> &'w World {
        self.world
    }

    /// The view queries and resource params are built from.
    pub(crate) fn view(self) -> WorldView<'w, Exclusive> {
        self.view
    }

    /// The change ticks of the run this world was made for.
    pub(crate) fn ticks(self) -> RunTicks {
        self.view.ticks()
    }

    /// The same world for a reader whose `Added`, `Changed` and
    /// `is_changed` compare against `last_run` (a run condition, which keeps
    /// its own horizon beside its system's).
    pub(crate) fn since(self, last_run: u64) -> Self {
        Self {
            view: self.view.since(last_run),
            ..self
        }
    }
}

/// Something a system can take as a param: [`Query`], [`Res`](super::Res),
/// [`ResMut`](super::ResMut), `Option` of either, [`Commands`],
/// [`Local`](super::Local), [`EventReader`](super::EventReader),
/// [`EventWriter`](super::EventWriter), `&World`, tuples of up to 16 params, and
/// `#[derive(SystemParam)]` structs of params.
///
/// The trait is the machinery behind systems; a game writes params, not
/// impls of it. [`#[derive(SystemParam)]`](derive@crate::SystemParam) writes
/// the impl for a struct of params.
///
/// # Safety
///
/// An implementation promises that:
/// - [`init`](Self::init) registers in the access every component and
///   resource [`fetch`](Self::fetch) reads (as `Read`) or writes (as `Write`),
///   or the whole world for a param that may read anything;
/// - `fetch` reaches the world only through the given [`SystemWorld`], and
///   writes only what `init` registered as written.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::{SystemAccess, SystemParam};
///
/// struct Score(u32);
///
/// let mut access = SystemAccess::new();
/// <(Res<Score>, ResMut<Score>)>::init(&mut access);
/// let (first, second, type_name) = access.clash().unwrap();
/// assert!(first.contains("Res<") && second.contains("ResMut<") && type_name.ends_with("Score"));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a system param",
    label = "not a system param",
    note = "system params are `Query<..>`, `Res<R>`, `ResMut<R>`, `Option<Res<R>>`, \
            `Option<ResMut<R>>`, `Commands`, `Local<T>`, `EventReader<E>`, `EventWriter<E>`, \
            `&World`, tuples of those, and `#[derive(SystemParam)]` structs; a system that takes `&mut World` takes nothing else"
)]
pub unsafe trait SystemParam: Sized {
    /// What the param keeps between runs of its system: a `Local`'s value,
    /// a `Commands` buffer; `()` for most.
    type State: Send + 'static;

    /// This param with its world borrow set to `'w`.
    type Item<'w>: SystemParam<State = Self::State>;

    /// Whether [`apply`](Self::apply) and [`discard`](Self::discard) may
    /// have anything to do: a schedule never calls them for a system none of
    /// whose params defers. Keep the default, `true`, for a param that
    /// overrides `apply`; tuples and `#[derive(SystemParam)]` structs defer
    /// when a member does.
    const DEFERS: bool = true;

    /// Whether [`prepare`](Self::prepare) may have anything to do: a
    /// schedule calls it at the start of a frame only for systems one of
    /// whose params prepares. Keep the default, `true`, for a param that
    /// overrides `prepare`; tuples and `#[derive(SystemParam)]` structs
    /// prepare when a member does.
    const PREPARES: bool = true;

    /// Registers what the param touches, and makes its state. Called once,
    /// when the system is added.
    fn init(access: &mut SystemAccess) -> Self::State;

    /// Readies the world for the param, with the world to itself: the
    /// schedule calls it for every system at the start of each
    /// [`run`](crate::Schedule::run), before any system runs. Event params
    /// make their store here and register their reader; most params do
    /// nothing.
    fn prepare(state: &mut Self::State, world: &mut World) {
        let _ = (state, world);
    }

    /// Builds the param for one run of its system.
    ///
    /// # Safety
    /// `world` was made for this system's run, no system whose access
    /// conflicts with the one `init` registered runs while the item lives,
    /// and that access has no clash ([`SystemAccess::clash`] is `None`), so no
    /// two params of one system reach the same data where one writes.
    unsafe fn fetch<'w>(
        state: &'w mut Self::State,
        world: SystemWorld<'w>,
    ) -> Result<Self::Item<'w>, Error>;

    /// Applies what the param deferred (commands) to the world, after its
    /// stage, reporting each failure to `failed` and the names of systems to
    /// remove to `removals`.
    fn apply(
        state: &mut Self::State,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    ) {
        let _ = (state, world, failed, removals);
    }

    /// Drops what the param deferred, unapplied: what a stage whose system
    /// panicked does with its commands.
    fn discard(state: &mut Self::State) {
        let _ = state;
    }

    /// Ends a run of an observer: moves what the param deferred (commands)
    /// into `queue`, unapplied, where an observer's commands wait until the
    /// call that triggered it is done. A param that defers anything moves
    /// it here, as it applies it in [`apply`](Self::apply). A param that
    /// holds anything of the world back between its system's runs (an event
    /// reader's registration) lets go of it here: an observer runs at no set
    /// time. Called after every run of an observer, one that failed or
    /// panicked included.
    fn defer(state: &mut Self::State, queue: &mut CommandQueue) {
        let _ = (state, queue);
    }
}

/// What `P` is for a run that borrows the world for `'w`.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::ParamItem;
///
/// #[derive(Component)]
/// struct Position(f32);
///
/// fn count(q: ParamItem<'_, Query<'static, &'static Position>>) -> usize {
///     q.iter().count()
/// }
/// # let _ = count;
/// ```
pub type ParamItem<'w, P> = <P as SystemParam>::Item<'w>;

// SAFETY: registers the fetch's component access and the filter's presence
// checks; the query is built from the system's view, which writes only the
// types the access names as written.
unsafe impl<Q: QueryData, F: QueryFilter> SystemParam for Query<'_, Q, F> {
    const DEFERS: bool = false;
    const PREPARES: bool = false;

    /// The storages the query uses, found on its first run and kept, as a
    /// [`QueryState`](crate::query::QueryState) keeps them: later runs look
    /// no type up. Found again for a world other than the last one.
    type State = Option<Prepared<Q::Prepared, F::Prepared>>;
    type Item<'w> = Query<'w, Q, F>;

    fn init(access: &mut SystemAccess) -> Self::State {
        let mut query = Access::new();
        Q::access(&mut query);
        F::access(&mut query);
        access.add_query(type_name::<Self>(), query);
        None
    }

    #[inline]
    unsafe fn fetch<'w>(
        state: &'w mut Self::State,
        world: SystemWorld<'w>,
    ) -> Result<Query<'w, Q, F>, Error> {
        let view = world.view();
        if !state
            .as_ref()
            .is_some_and(|prepared| prepared.belongs_to(view))
        {
            *state = None;
        }
        let prepared = state.get_or_insert_with(|| Prepared::new::<Q, F>(view.as_shared()));
        // Through the lock: systems that run at once share the world.
        let reach = Reach::Locked(world.world().kept_matches());
        // SAFETY: `world.world()` is the world `view` borrows: a system
        // world holds the two of one world.
        Ok(unsafe { prepared.query::<Q, F, _>(view, reach) })
    }
}

// SAFETY: commands only record; they reach the world's allocator to reserve
// ids, which is safe from many threads at once.
unsafe impl SystemParam for Commands<'_> {
    const PREPARES: bool = false;
    type State = CommandQueue;
    type Item<'w> = Commands<'w>;

    fn init(access: &mut SystemAccess) -> CommandQueue {
        access.set_reserves_ids();
        CommandQueue::default()
    }

    #[inline]
    unsafe fn fetch<'w>(
        queue: &'w mut CommandQueue,
        world: SystemWorld<'w>,
    ) -> Result<Commands<'w>, Error> {
        Ok(Commands::new(queue, world.view().entities(), world.lane))
    }

    fn apply(
        queue: &mut CommandQueue,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    ) {
        queue.apply(world, failed);
        removals.append(&mut queue.take_removals());
    }

    fn discard(queue: &mut CommandQueue) {
        queue.discard();
    }

    fn defer(state: &mut CommandQueue, queue: &mut CommandQueue) {
        queue.append(state);
    }
}

// SAFETY: registers a read of everything, so it never runs beside a writer.
unsafe impl SystemParam for &World {
    const DEFERS: bool = false;
    const PREPARES: bool = false;

    type State = ();
    type Item<'w> = &'w World;

    fn init(access: &mut SystemAccess) {
        access.add_world_read(type_name::<Self>());
    }

    #[inline]
    unsafe fn fetch<'w>(_: &'w mut (), world: SystemWorld<'w>) -> Result<&'w World, Error> {
        Ok(world.world())
    }
}

macro_rules! tuple_param {
    ($(($name:ident, $state:ident)),*) => {
        #[allow(
            unused_variables,
            clippy::unused_unit,
            reason = "the empty tuple uses no argument"
        )]
        // SAFETY: registers every element, fetches every element from the same world.
        unsafe impl<$($name: SystemParam),*> SystemParam for ($($name,)*) {
            type State = ($($name::State,)*);
            type Item<'w> = ($($name::Item<'w>,)*);

            const DEFERS: bool = false $(|| $name::DEFERS)*;
            const PREPARES: bool = false $(|| $name::PREPARES)*;

            fn init(access: &mut SystemAccess) -> Self::State {
                ($($name::init(access),)*)
            }

            #[inline]
            unsafe fn fetch<'w>(
                state: &'w mut Self::State,
                world: SystemWorld<'w>,
            ) -> Result<Self::Item<'w>, Error> {
                let ($($state,)*) = state;
                // SAFETY: every element gets this run's `world`. No system
                // conflicting with the tuple's access, which `init` made of
                // every element's, runs meanwhile, and that access has no
                // clash, so no two elements reach the same data where one
                // writes (the caller's contract).
                Ok(($(unsafe { $name::fetch($state, world)? },)*))
            }

            fn prepare(state: &mut Self::State, world: &mut World) {
                let ($($state,)*) = state;
                $($name::prepare($state, world);)*
            }

            fn apply(
                state: &mut Self::State,
                world: &mut World,
                failed: &mut dyn FnMut(Error),
                removals: &mut Vec<String>,
            ) {
                let ($($state,)*) = state;
                $($name::apply($state, world, failed, removals);)*
            }

            fn discard(state: &mut Self::State) {
                let ($($state,)*) = state;
                #[allow(unused_mut, reason = "the empty tuple discards nothing")]
                let mut panics = DiscardEach::default();
                $(panics.run(|| $name::discard($state));)*
                panics.finish();
            }

            fn defer(state: &mut Self::State, queue: &mut CommandQueue) {
                let ($($state,)*) = state;
                $($name::defer($state, queue);)*
            }
        }
    };
}

/// Discards each member of a composite param (a tuple, a [`ParamSet`](super::ParamSet),
/// a derived [`SystemParam`]) even when one member's values panic as they
/// drop: every member is discarded, then the first panic goes on. A later
/// member left holding its commands would apply them at the system's next
/// run. Named by the `SystemParam` derive's code.
#[doc(hidden)]
#[derive(Default)]
pub struct DiscardEach(DeferredPanic);

impl DiscardEach {
    /// Discards one member, keeping its panic for [`finish`](Self::finish).
    pub fn run(&mut self, discard: impl FnOnce()) {
        self.0.run(discard);
    }

    /// Raises the first panic kept, once every member is discarded.
    pub fn finish(self) {
        self.0.resume();
    }
}

crate::util::macros::all_tuple_pairs!(tuple_param:
    (P15, s15), (P14, s14), (P13, s13), (P12, s12), (P11, s11), (P10, s10), (P9, s9), (P8, s8),
    (P7, s7), (P6, s6), (P5, s5), (P4, s4), (P3, s3), (P2, s2), (P1, s1), (P0, s0));
