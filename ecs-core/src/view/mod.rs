//! The one typed door to a world's data for queries and schedulers: storages,
//! groups and liveness, shared or exclusive as the view's type says.

use core::fmt;
use core::marker::PhantomData;
use core::ptr::NonNull;
use core::sync::atomic::{AtomicU64, Ordering};

use crate::change::{ChangeClock, RunTicks};
use crate::component::{ComponentId, ComponentMasks};
use crate::entity::{Entities, Entity};
use crate::group::{GroupSpan, Groups};
use crate::resource::{ResourceTicks, Resources};
use crate::storage::Storages;

/// Which world a [`QueryState`](crate::query::QueryState) was prepared from:
/// distinct for every world made in this process, and never reused, so a state
/// outliving its world can never be taken for a newer one's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct WorldId(u64);

impl Default for WorldId {
    /// A fresh id.
    ///
    /// # Panics
    /// After 2^64 - 1 worlds: a wrapped counter would hand out an id twice.
    fn default() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let id = NEXT
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_add(1))
            .expect("no more world ids: every one was handed out");
        WorldId(id)
    }
}

/// Everything a world owns that views reach: its id, the allocator, the
/// component masks, the storages, the groups, the resources, and the change
/// counter.
///
/// The world owns one and changes its structure only through its structural
/// funnel; views borrow it.
#[derive(Default)]
pub(crate) struct WorldData {
    /// Who this is, for prepared queries: the storage roots they keep are
    /// valid for this data (a storage, once made, lives as long as the
    /// world), and only for it.
    pub(crate) id: WorldId,
    pub(crate) entities: Entities,
    pub(crate) masks: ComponentMasks,
    pub(crate) storages: Storages,
    pub(crate) groups: Groups,
    pub(crate) resources: Resources,
    /// The newest change tick handed out.
    pub(crate) clock: ChangeClock,
}

/// Whether a [`WorldView`] may write component data: [`Shared`] or [`Exclusive`].
pub trait ViewMode: sealed::Sealed + 'static {
    /// Whether the view was made from an exclusive borrow of the world.
    const EXCLUSIVE: bool;
}

/// The mode of a view made from a shared borrow: it only reads.
#[derive(Clone, Copy, Debug)]
pub enum Shared {}

/// The mode of a view made from an exclusive borrow: it may hand out columns
/// that write component data.
#[derive(Clone, Copy, Debug)]
pub enum Exclusive {}

impl ViewMode for Shared {
    const EXCLUSIVE: bool = false;
}

impl ViewMode for Exclusive {
    const EXCLUSIVE: bool = true;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Shared {}
    impl Sealed for super::Exclusive {}
}

/// A world borrowed for `'w`, as queries (and, next, systems) reach it: the
/// storages, the groups and liveness, and nothing that changes structure.
///
/// The mode `M` says in the type whether the borrow was exclusive. Only a
/// `WorldView<'w, Exclusive>`, made from `&'w mut World`, can hand out
/// pointers for writing component data.
/// Views are `Copy`, like the borrow they come from; whoever writes through
/// an exclusive view's pointers must make sure no two writers, or a writer
/// and a reader, reach the same component type at once (queries check this
/// with [`Access`](crate::query::Access) before building their columns).
///
/// Pointer provenance: every pointer to component data that a view hands out
/// is a copy of the storage's root raw pointer (see `Storages`), never one
/// derived from a reference the view made, so no later reborrow through the
/// world invalidates it while the view's borrow lasts.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::query::{QueryData, ViewMode, WorldView};
///
/// /// A fetch wrapping `Q` builds its state from the same view.
/// fn wrapped_state<'w, Q: QueryData, M: ViewMode>(view: WorldView<'w, M>) -> Q::State<'w> {
///     Q::state(view)
/// }
/// # let _ = wrapped_state::<Entity, ecs_core::query::Shared>;
/// ```
pub struct WorldView<'w, M: ViewMode = Shared> {
    data: &'w WorldData,
    /// The change ticks of whoever reads through the view: what `Added` and
    /// `Changed` compare against, and what `Mut` stamps.
    ticks: RunTicks,
    _mode: PhantomData<M>,
}

impl<M: ViewMode> Clone for WorldView<'_, M> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M: ViewMode> Copy for WorldView<'_, M> {}

impl<M: ViewMode> fmt::Debug for WorldView<'_, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorldView")
            .field("exclusive", &M::EXCLUSIVE)
            .field("entities", &self.data.entities.len())
            .finish()
    }
}

impl<'w> WorldView<'w, Shared> {
    /// A read-only view of a shared borrow, whose `Added` and `Changed`
    /// filters compare against tick 0 (everything).
    #[inline]
    pub(crate) fn shared(data: &'w WorldData) -> Self {
        Self {
            data,
            ticks: RunTicks {
                last_run: 0,
                this_run: data.clock.current(),
            },
            _mode: PhantomData,
        }
    }
}

impl<'w> WorldView<'w, Exclusive> {
    /// A view that may write, made from an exclusive borrow for `'w`: it
    /// takes a new change tick for what it writes, and its `Added` and
    /// `Changed` filters compare against tick 0 (everything).
    #[inline]
    pub(crate) fn exclusive(data: &'w mut WorldData) -> Self {
        let this_run = data.clock.advance();
        Self {
            data,
            ticks: RunTicks {
                last_run: 0,
                this_run,
            },
            _mode: PhantomData,
        }
    }

    /// A view that may write, made from a shared borrow, for systems running
    /// at once: each gets a copy and writes only what its access declares.
    ///
    /// # Safety
    /// The caller holds the world exclusively for `'w` (it was given
    /// `&'w mut World` and shares it only with the systems it runs), and no
    /// two users of views made this way reach the same component type or
    /// resource at once where one of them writes.
    ///
    /// `ticks` are the running system's: the tick it last ran at and the one
    /// it runs at now.
    #[inline]
    pub(crate) unsafe fn exclusive_unchecked(data: &'w WorldData, ticks: RunTicks) -> Self {
        Self {
            data,
            ticks,
            _mode: PhantomData,
        }
    }

    /// The root raw pointer to the resource `R`, for a system param that
    /// writes it; valid for `'w`. Writing through it is sound only where no
    /// other pointer from a copy of this view is used for `R` at the same time.
    #[inline]
    pub(crate) fn resource_for_write<R: Send + Sync + 'static>(self) -> Option<NonNull<R>> {
        self.data.resources.lookup::<R>()
    }
}

impl<'w, M: ViewMode> WorldView<'w, M> {
    /// The same view, read-only: what a fetch that only reads builds its
    /// state from, whatever view it was given.
    ///
    /// ```
    /// use ecs_core::query::{Shared, ViewMode, WorldView};
    ///
    /// fn reader<'w, M: ViewMode>(view: WorldView<'w, M>) -> WorldView<'w, Shared> {
    ///     view.as_shared()
    /// }
    /// # let _ = reader::<ecs_core::query::Exclusive>;
    /// ```
    #[inline]
    pub fn as_shared(self) -> WorldView<'w, Shared> {
        WorldView {
            data: self.data,
            ticks: self.ticks,
            _mode: PhantomData,
        }
    }

    /// This view as an exclusive one, if it is one: how a fetch that writes
    /// refuses a view made from a shared borrow. A shared view never becomes
    /// an exclusive one.
    ///
    /// ```
    /// use ecs_core::query::{ViewMode, WorldView};
    ///
    /// fn may_write<M: ViewMode>(view: WorldView<'_, M>) -> bool {
    ///     view.as_exclusive().is_some()
    /// }
    /// # let _ = may_write::<ecs_core::query::Shared>;
    /// ```
    #[inline]
    pub fn as_exclusive(self) -> Option<WorldView<'w, Exclusive>> {
        M::EXCLUSIVE.then_some(WorldView {
            data: self.data,
            ticks: self.ticks,
            _mode: PhantomData,
        })
    }

    /// Which world this view borrows.
    #[inline]
    pub(crate) fn world_id(self) -> WorldId {
        self.data.id
    }

    /// The change ticks of whoever reads through this view.
    #[inline]
    pub(crate) fn ticks(self) -> RunTicks {
        self.ticks
    }

    /// The same view, with `Added` and `Changed` comparing against `last_run`.
    #[inline]
    pub(crate) fn since(mut self, last_run: u64) -> Self {
        self.ticks.last_run = last_run;
        self
    }

    /// Whether `entity` is alive in the viewed world.
    #[inline]
    pub(crate) fn is_alive(self, entity: Entity) -> bool {
        self.data.entities.is_alive(entity)
    }

    /// The allocator, for liveness and the walk over live entities.
    #[inline]
    pub(crate) fn entities(self) -> &'w Entities {
        &self.data.entities
    }

    /// The storages, to be read only. Their root pointers (`Storages::lookup`)
    /// may be written through while an exclusive view of the same world
    /// lives, where no other pointer from a copy of it is used for the same
    /// type's data at the same time.
    #[inline]
    pub(crate) fn storages(self) -> &'w Storages {
        &self.data.storages
    }

    /// The resource `R`, to be read only, if the world holds one.
    #[inline]
    pub(crate) fn resource<R: Send + Sync + 'static>(self) -> Option<&'w R> {
        self.data.resources.lookup::<R>().map(|root| {
            // SAFETY: the cell lives for `'w`; whoever made this view rules out
            // a writer of `R` while it is read (a shared borrow of the world,
            // or systems ordered apart by their access).
            unsafe { root.as_ref() }
        })
    }

    /// The resource `R` with its change ticks, if the world holds one;
    /// reading and writing through the pointer is bound as for
    /// [`resource`](Self::resource) and
    /// [`resource_for_write`](WorldView::resource_for_write).
    #[inline]
    pub(crate) fn resource_ticked<R: Send + Sync + 'static>(
        self,
    ) -> Option<(NonNull<R>, &'w ResourceTicks)> {
        self.data.resources.lookup_ticked::<R>()
    }

    /// How many entities hold the component with type id `type_id` (0 for a
    /// type this world has never seen): the work estimate of a query it drives.
    #[inline]
    #[cfg_attr(
        not(feature = "parallel"),
        allow(
            dead_code,
            reason = "the executor estimates work only to decide on threads"
        )
    )]
    pub(crate) fn storage_len(self, type_id: core::any::TypeId) -> usize {
        self.data.storages.len_of(type_id)
    }

    /// The group owning the component with `id`, and its packed prefix.
    #[inline]
    pub(crate) fn group_span(self, id: ComponentId) -> Option<GroupSpan> {
        self.data.groups.span(id)
    }
}
