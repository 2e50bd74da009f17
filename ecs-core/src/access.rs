//! Which component types a query reads and writes, checked for aliasing when it is built.

use core::any::TypeId;

use crate::component::Component;
use crate::util::ShortName;

/// How a param touches one component type's or resource's data: what a
/// hand-written [`SystemParam`](crate::system::SystemParam) records.
///
/// ```
/// use ecs_core::system::{AccessMode, SystemAccess};
///
/// struct Score(u32);
///
/// let mut readers = SystemAccess::new();
/// readers.add_resource::<Score>("Res<Score>", AccessMode::Read);
/// let mut writer = SystemAccess::new();
/// writer.add_resource::<Score>("ResMut<Score>", AccessMode::Write);
/// assert!(readers.conflict_with(&readers.clone()).is_none(), "readers share");
/// assert!(readers.conflict_with(&writer).is_some());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessMode {
    /// Shared references only (`&T`, `Option<&T>`).
    Read,
    /// A mutable reference (`&mut T`, `Option<&mut T>`).
    Write,
}

#[derive(Clone, Copy)]
struct Entry {
    type_id: TypeId,
    name: &'static str,
    mode: AccessMode,
    /// A filter's read of change ticks: it orders the query after writers
    /// elsewhere, but never clashes inside its own query.
    ticks_only: bool,
}

/// The component data a query reads and writes.
///
/// Each fetch registers the types it touches; a type that is written and also
/// read or written elsewhere in the same query is a conflict, because one entity
/// would hand out two references to the same value, one of them mutable.
/// Filters (`With`, `Without`, ...) only look at which entities hold a type, never
/// at its data, so they register nothing here.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::query::{Access, AccessMode, WorldQuery};
///
/// #[derive(Component)]
/// struct Position(f32);
/// #[derive(Component)]
/// struct Velocity(f32);
///
/// let mut access = Access::new();
/// <(&mut Position, &Velocity)>::access(&mut access);
/// assert_eq!(access.mode_of::<Position>(), Some(AccessMode::Write));
/// assert_eq!(access.conflict(), None);
///
/// let mut access = Access::new();
/// <(&mut Position, Option<&Position>)>::access(&mut access);
/// assert_eq!(access.conflict(), Some("Position"));
/// ```
#[derive(Clone, Default)]
pub struct Access {
    /// The first entries live inline, so building a query allocates nothing
    /// and the whole check can fold away once the fetch types are known.
    inline: [Option<Entry>; INLINE],
    spilled: Vec<Entry>,
    conflict: Option<&'static str>,
    /// How the two clashing entries of `conflict` touch it: (earlier, later).
    conflict_modes: Option<(AccessMode, AccessMode)>,
    /// Types every matched entity holds (required fetches, `With`).
    with: Vec<TypeId>,
    /// Types no matched entity holds (`Without`).
    without: Vec<TypeId>,
}

/// How many entries fit before `Access` spills to the heap.
const INLINE: usize = 16;

impl Access {
    /// No access at all.
    ///
    /// ```
    /// # use ecs_core::query::Access;
    /// assert_eq!(Access::new().conflict(), None);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Records that the query touches `T`'s data in `mode`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::query::{Access, AccessMode};
    /// #[derive(Component)]
    /// struct Health(u32);
    ///
    /// let mut access = Access::new();
    /// access.add::<Health>(AccessMode::Read);
    /// access.add::<Health>(AccessMode::Read);
    /// assert_eq!(access.conflict(), None, "two readers never conflict");
    /// ```
    pub fn add<T: Component>(&mut self, mode: AccessMode) {
        self.add_type::<T>(mode);
    }

    /// Records that something touches `T` in `mode`, for any `T`: how
    /// systems record resources, in an `Access` of their own.
    pub(crate) fn add_type<T: 'static>(&mut self, mode: AccessMode) {
        self.push(Entry {
            type_id: TypeId::of::<T>(),
            name: core::any::type_name::<T>(),
            mode,
            ticks_only: false,
        });
    }

    /// Records that a filter ([`Added`](crate::query::Added),
    /// [`Changed`](crate::query::Changed)) reads `T`'s change ticks.
    ///
    /// Towards other queries and systems this is a read of `T`: it conflicts
    /// with a writer. Inside its own query it clashes with nothing, so
    /// `Query<&mut T, Changed<T>>` is fine: the filter reads an entity's
    /// ticks before that entity's item exists.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::query::{Access, AccessMode, WorldQuery};
    /// #[derive(Component)]
    /// #[component(track_changes)]
    /// struct Health(u32);
    ///
    /// let mut query = Access::new();
    /// <&mut Health>::access(&mut query);
    /// <Changed<Health>>::access(&mut query);
    /// assert_eq!(query.conflict(), None);
    ///
    /// let mut other = Access::new();
    /// <Changed<Health>>::access(&mut other);
    /// assert_eq!(other.mode_of::<Health>(), Some(AccessMode::Read));
    /// assert!(query.conflict_with(&other).is_some());
    /// ```
    pub fn read_ticks<T: Component>(&mut self) {
        self.push(Entry {
            type_id: TypeId::of::<T>(),
            name: core::any::type_name::<T>(),
            mode: AccessMode::Read,
            ticks_only: true,
        });
    }

    /// Records `entry`, noting the first clash with an earlier entry.
    fn push(&mut self, entry: Entry) {
        let clashes = |earlier: Entry| {
            earlier.type_id == entry.type_id
                && !earlier.ticks_only
                && !entry.ticks_only
                && (earlier.mode == AccessMode::Write || entry.mode == AccessMode::Write)
        };
        if self.conflict.is_none() {
            let earlier = self.entries().find(|&earlier| clashes(earlier));
            if let Some(earlier) = earlier {
                self.conflict = Some(entry.name);
                self.conflict_modes = Some((earlier.mode, entry.mode));
            }
        }
        match self.inline.iter_mut().find(|slot| slot.is_none()) {
            Some(slot) => *slot = Some(entry),
            None => self.spilled.push(entry),
        }
    }

    /// The strongest way the query touches `T`, if it does.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::query::{Access, AccessMode, WorldQuery};
    /// #[derive(Component)]
    /// struct Health(u32);
    ///
    /// let mut access = Access::new();
    /// <Option<&Health>>::access(&mut access);
    /// assert_eq!(access.mode_of::<Health>(), Some(AccessMode::Read));
    /// ```
    pub fn mode_of<T: Component>(&self) -> Option<AccessMode> {
        let type_id = TypeId::of::<T>();
        self.entries()
            .filter(|entry| entry.type_id == type_id)
            .map(|entry| entry.mode)
            .max_by_key(|&mode| mode == AccessMode::Write)
    }

    /// The short name of the first type written and also accessed elsewhere.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::query::{Access, WorldQuery};
    /// #[derive(Component)]
    /// struct Health(u32);
    ///
    /// let mut access = Access::new();
    /// <(&mut Health, &mut Health)>::access(&mut access);
    /// assert_eq!(access.conflict(), Some("Health"));
    /// ```
    pub fn conflict(&self) -> Option<&'static str> {
        let name = self.conflict?;
        // Type names are `'static`; the short form is a suffix for plain paths.
        Some(
            name.rsplit("::")
                .next()
                .filter(|_| !name.contains('<'))
                .unwrap_or(name),
        )
    }

    /// Panics with a message naming `query` and the conflicting type, if there is one.
    pub(crate) fn assert_no_conflict(&self, query: &'static str) {
        if let Some(name) = self.conflict {
            panic!(
                "query `{}` asks for `{}` mutably and also reads or writes it elsewhere: \
                 one entity would hand out two references to the same value. \
                 Fetch it once as `&mut {}` and read it through that reference",
                ShortName(query),
                ShortName(name),
                ShortName(name),
            );
        }
    }

    /// Records that every entity the query matches holds a `T`: a required
    /// fetch (`&T`, `&mut T`) or a `With<T>` filter.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::query::{Access, WorldQuery};
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Player;
    ///
    /// let (mut players, mut others) = (Access::new(), Access::new());
    /// <&mut Position>::access(&mut players);
    /// <With<Player>>::access(&mut players);
    /// <&mut Position>::access(&mut others);
    /// <Without<Player>>::access(&mut others);
    /// assert!(players.is_disjoint(&others), "no entity matches both");
    /// ```
    pub fn require<T: Component>(&mut self) {
        self.with.push(TypeId::of::<T>());
    }

    /// Records that no entity the query matches holds a `T` (`Without<T>`).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::query::Access;
    /// #[derive(Component)]
    /// struct Frozen;
    ///
    /// let (mut frozen, mut thawed) = (Access::new(), Access::new());
    /// frozen.require::<Frozen>();
    /// thawed.exclude::<Frozen>();
    /// assert!(frozen.is_disjoint(&thawed));
    /// ```
    pub fn exclude<T: Component>(&mut self) {
        self.without.push(TypeId::of::<T>());
    }

    /// Adds `inner`'s data access but none of what it requires: how
    /// `Option<Q>` registers `Q`, which matches entities lacking `Q` too.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::query::{Access, AccessMode, WorldQuery};
    /// #[derive(Component)]
    /// struct Shield(u32);
    ///
    /// let mut access = Access::new();
    /// <Option<&mut Shield>>::access(&mut access);
    /// assert_eq!(access.mode_of::<Shield>(), Some(AccessMode::Write));
    /// let mut holders = Access::new();
    /// holders.exclude::<Shield>();
    /// assert!(!access.is_disjoint(&holders), "an optional fetch matches entities without it");
    /// ```
    pub fn add_optional(&mut self, inner: &Access) {
        for entry in inner.entries() {
            self.push(entry);
        }
        if self.conflict.is_none() {
            self.conflict = inner.conflict;
            self.conflict_modes = inner.conflict_modes;
        }
    }

    /// Whether no entity can match both `self` and `other`: one requires a
    /// type the other excludes. Two queries that are disjoint may write the
    /// same component type at once.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::query::Access;
    /// #[derive(Component)]
    /// struct Player;
    ///
    /// let (mut a, mut b) = (Access::new(), Access::new());
    /// a.require::<Player>();
    /// assert!(!a.is_disjoint(&b));
    /// b.exclude::<Player>();
    /// assert!(a.is_disjoint(&b) && b.is_disjoint(&a));
    /// ```
    pub fn is_disjoint(&self, other: &Access) -> bool {
        let excludes =
            |with: &[TypeId], without: &[TypeId]| with.iter().any(|t| without.contains(t));
        excludes(&self.with, &other.without) || excludes(&other.with, &self.without)
    }

    /// The first component type both `self` and `other` touch where at least
    /// one writes, unless no entity can match both: `(type name, self's mode,
    /// other's mode)`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::query::{Access, AccessMode, WorldQuery};
    /// #[derive(Component)]
    /// struct Position(f32);
    ///
    /// let (mut reader, mut writer) = (Access::new(), Access::new());
    /// <&Position>::access(&mut reader);
    /// <&mut Position>::access(&mut writer);
    /// let (name, _, theirs) = reader.conflict_with(&writer).unwrap();
    /// assert!(name.ends_with("Position") && theirs == AccessMode::Write);
    /// assert!(reader.conflict_with(&reader).is_none(), "readers never conflict");
    /// ```
    pub fn conflict_with(&self, other: &Access) -> Option<(&'static str, AccessMode, AccessMode)> {
        if self.is_disjoint(other) {
            return None;
        }
        self.entries().find_map(|mine| {
            other
                .entries()
                .filter(|theirs| theirs.type_id == mine.type_id)
                .find(|theirs| mine.mode == AccessMode::Write || theirs.mode == AccessMode::Write)
                .map(|theirs| (mine.name, mine.mode, theirs.mode))
        })
    }

    /// Every type touched, with its mode, in registration order.
    ///
    /// ```
    /// use std::any::TypeId;
    /// use ecs_core::prelude::*;
    /// use ecs_core::query::{Access, AccessMode, WorldQuery};
    ///
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    ///
    /// let mut access = Access::new();
    /// <(&mut Position, Entity, &Velocity)>::access(&mut access);
    /// let touched: Vec<_> = access.iter().collect();
    /// assert_eq!(touched, [
    ///     (TypeId::of::<Position>(), AccessMode::Write),
    ///     (TypeId::of::<Velocity>(), AccessMode::Read),
    /// ]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (TypeId, AccessMode)> + '_ {
        self.entries().map(|entry| (entry.type_id, entry.mode))
    }

    /// The full type name of the first type written and also accessed
    /// elsewhere (what [`conflict`](Self::conflict) shortens).
    pub(crate) fn conflict_type_name(&self) -> Option<&'static str> {
        self.conflict
    }

    /// How the two clashing fetches of [`conflict_type_name`] touch the
    /// type: (the earlier's mode, the later's).
    ///
    /// [`conflict_type_name`]: Self::conflict_type_name
    pub(crate) fn conflict_modes(&self) -> Option<(AccessMode, AccessMode)> {
        self.conflict_modes
    }

    /// The first type written, by full name.
    pub(crate) fn first_write(&self) -> Option<&'static str> {
        self.entries()
            .find(|entry| entry.mode == AccessMode::Write)
            .map(|entry| entry.name)
    }

    /// The types every matched entity holds.
    #[cfg_attr(
        not(feature = "parallel"),
        allow(
            dead_code,
            reason = "the executor estimates work only to decide on threads"
        )
    )]
    pub(crate) fn required(&self) -> &[TypeId] {
        &self.with
    }

    fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.inline
            .iter()
            .map_while(|slot| *slot)
            .chain(self.spilled.iter().copied())
    }
}
