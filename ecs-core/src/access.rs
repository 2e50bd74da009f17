//! Which component types a query reads and writes, checked for aliasing when it is built.

use core::any::TypeId;

use crate::component::Component;
use crate::util::ShortName;

/// How a query touches one component type's data.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::query::{Access, AccessMode, QueryData};
///
/// #[derive(Component)]
/// struct Health(u32);
///
/// let mut access = Access::new();
/// <Option<&mut Health>>::access(&mut access);
/// assert_eq!(access.mode_of::<Health>(), Some(AccessMode::Write));
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
    mode: AccessMode,
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
/// use ecs_core::query::{Access, AccessMode, QueryData};
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
#[derive(Default)]
pub struct Access {
    /// The first entries live inline, so building a query allocates nothing
    /// and the whole check can fold away once the fetch types are known.
    inline: [Option<Entry>; INLINE],
    spilled: Vec<Entry>,
    conflict: Option<&'static str>,
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
        let type_id = TypeId::of::<T>();
        let clashes = |entry: &Entry| {
            entry.type_id == type_id
                && (entry.mode == AccessMode::Write || mode == AccessMode::Write)
        };
        if self.conflict.is_none() && self.entries().any(|entry| clashes(&entry)) {
            self.conflict = Some(core::any::type_name::<T>());
        }
        let entry = Entry { type_id, mode };
        match self.inline.iter_mut().find(|slot| slot.is_none()) {
            Some(slot) => *slot = Some(entry),
            None => self.spilled.push(entry),
        }
    }

    /// The strongest way the query touches `T`, if it does.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::query::{Access, AccessMode, QueryData};
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
    /// # use ecs_core::query::{Access, QueryData};
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

    /// Every type touched, with its mode, in registration order.
    ///
    /// ```
    /// use std::any::TypeId;
    /// use ecs_core::prelude::*;
    /// use ecs_core::query::{Access, AccessMode, QueryData};
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

    fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        self.inline
            .iter()
            .map_while(|slot| *slot)
            .chain(self.spilled.iter().copied())
    }
}
