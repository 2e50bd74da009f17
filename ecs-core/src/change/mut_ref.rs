//! `Mut`: a mutable reference to a tracked component that marks it changed
//! when, and only when, it is written.

use core::fmt;
use core::ops::{Deref, DerefMut};

/// A mutable reference to a component whose type tracks changes
/// (`#[component(track_changes)]`): reading through it is free, and the
/// first write through it ([`DerefMut`]) marks the value changed.
///
/// Queries hand it out where they would hand out `&mut T` for a type that
/// does not track changes: `&mut T` in a query, `Option<&mut T>`,
/// [`World::get_mut`](crate::World::get_mut) and
/// [`EntityMut::get_mut`](crate::EntityMut::get_mut). Merely asking for it
/// marks nothing, so a system that looks at every value and changes a few
/// reports only those few.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, PartialEq)]
/// #[component(track_changes)]
/// struct Health(i32);
///
/// let mut world = World::new();
/// let hurt = world.spawn(Health(5));
/// let fine = world.spawn(Health(9));
/// let since = world.change_tick();
/// for (e, mut h) in world.query::<(Entity, &mut Health)>().iter_mut() {
///     if e == hurt {
///         h.0 -= 1; // a write: marked changed
///     } else {
///         assert_eq!(h.0, 9); // a read: not marked
///     }
/// }
/// let changed = world.query_filtered::<Entity, Changed<Health>>().changed_since(since);
/// assert_eq!(changed.iter().collect::<Vec<_>>(), [hurt]);
/// # let _ = fine;
/// ```
pub struct Mut<'w, T: ?Sized> {
    value: &'w mut T,
    /// Where the value's changed tick lives; `None` only when a component
    /// type says it tracks nothing yet chose `Mut` as its reference.
    changed: Option<&'w mut u64>,
    /// The tick a write stamps.
    tick: u64,
}

impl<'w, T: ?Sized> Mut<'w, T> {
    /// Writes `value` only if it differs from the current one, and reports
    /// whether it did: an unchanged value stays unmarked, so readers of
    /// [`Changed`](crate::query::Changed) see only real changes.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, PartialEq)]
    /// #[component(track_changes)]
    /// struct Speed(u32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Speed(3));
    /// let since = world.change_tick();
    /// assert!(!world.get_mut::<Speed>(e)?.set_if_neq(Speed(3)));
    /// assert!(world.query_filtered::<Entity, Changed<Speed>>().changed_since(since).is_empty());
    /// assert!(world.get_mut::<Speed>(e)?.set_if_neq(Speed(4)));
    /// assert!(!world.query_filtered::<Entity, Changed<Speed>>().changed_since(since).is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn set_if_neq(&mut self, value: T) -> bool
    where
        T: PartialEq + Sized,
    {
        if *self.value == value {
            return false;
        }
        *self.deref_mut() = value;
        true
    }

    /// The plain reference, for code that needs `&mut T` for the rest of the
    /// borrow; the value counts as changed, since the reference may write.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(track_changes)]
    /// struct Name(String);
    ///
    /// fn shout(name: &mut String) {
    ///     name.make_ascii_uppercase();
    /// }
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Name("orc".into()));
    /// shout(&mut world.get_mut::<Name>(e)?.into_inner().0);
    /// assert_eq!(world.get::<Name>(e)?.0, "ORC");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn into_inner(mut self) -> &'w mut T {
        self.mark();
        self.value
    }

    #[inline]
    fn mark(&mut self) {
        if let Some(changed) = self.changed.as_deref_mut() {
            *changed = self.tick;
        }
    }
}

impl<T: ?Sized> Deref for Mut<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        self.value
    }
}

impl<T: ?Sized> DerefMut for Mut<'_, T> {
    /// Marks the value changed, then lends it.
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        self.mark();
        self.value
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for Mut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Mut").field(&&*self.value).finish()
    }
}

/// What `&mut T` yields for a component type `T`: `&mut T` itself, or
/// [`Mut<T>`] for a type that tracks changes. Named by
/// [`Component::Mut`](crate::Component::Mut); only those two types implement it.
///
/// Generic code reaches the value through [`DerefMut`]:
///
/// ```
/// use ecs_core::prelude::*;
///
/// fn reset<T: Component + Default>(world: &mut World, e: Entity) -> Result<(), Error> {
///     *world.get_mut::<T>(e)? = T::default();
///     Ok(())
/// }
///
/// #[derive(Component, Default, PartialEq, Debug)]
/// struct Plain(u8);
/// #[derive(Component, Default, PartialEq, Debug)]
/// #[component(track_changes)]
/// struct Tracked(u8);
///
/// let mut world = World::new();
/// let e = world.spawn((Plain(1), Tracked(2)));
/// reset::<Plain>(&mut world, e)?;
/// reset::<Tracked>(&mut world, e)?;
/// assert_eq!((world.get::<Plain>(e)?, world.get::<Tracked>(e)?), (&Plain(0), &Tracked(0)));
/// # Ok::<(), Error>(())
/// ```
pub trait ComponentMut<'w, T: ?Sized + 'w>: DerefMut<Target = T> + sealed::Sealed {
    /// Wraps `value`, whose changed tick (for a tracked type) is `changed`,
    /// for a borrow whose writes are stamped `tick`.
    #[doc(hidden)]
    fn from_parts(value: &'w mut T, changed: Option<&'w mut u64>, tick: u64) -> Self;
}

impl<'w, T: ?Sized + 'w> ComponentMut<'w, T> for &'w mut T {
    #[inline(always)]
    fn from_parts(value: &'w mut T, _: Option<&'w mut u64>, _: u64) -> Self {
        value
    }
}

impl<'w, T: ?Sized + 'w> ComponentMut<'w, T> for Mut<'w, T> {
    #[inline(always)]
    fn from_parts(value: &'w mut T, changed: Option<&'w mut u64>, tick: u64) -> Self {
        Mut {
            value,
            changed,
            tick,
        }
    }
}

mod sealed {
    /// Implemented by `&mut T` and `Mut<T>` only.
    pub trait Sealed {}
    impl<T: ?Sized> Sealed for &mut T {}
    impl<T: ?Sized> Sealed for super::Mut<'_, T> {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_marks_nothing_and_writing_marks_with_the_borrow_tick() {
        let (mut value, mut changed) = (1u32, 0u64);
        {
            let mut m = Mut::from_parts(&mut value, Some(&mut changed), 7);
            assert_eq!(*m, 1);
            assert!(!m.set_if_neq(1));
            *m += 1;
        }
        assert_eq!((value, changed), (2, 7));
    }

    #[test]
    fn set_if_neq_marks_only_a_different_value() {
        let (mut value, mut changed) = (1u32, 0u64);
        {
            let mut m = Mut::from_parts(&mut value, Some(&mut changed), 3);
            assert!(!m.set_if_neq(1));
            assert_eq!(
                m.changed.as_deref(),
                Some(&0),
                "an equal value marks nothing"
            );
            assert!(m.set_if_neq(5));
        }
        assert_eq!((value, changed), (5, 3));
    }

    #[test]
    fn a_mut_without_a_tick_slot_writes_without_marking() {
        let mut value = 1u32;
        let mut m = Mut::from_parts(&mut value, None, 3);
        *m = 4;
        assert_eq!(value, 4);
    }
}
