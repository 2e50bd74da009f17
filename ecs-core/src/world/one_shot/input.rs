//! What a system may take besides its params: a value handed to it by whoever
//! runs it ([`In`]), or a borrow of one ([`InRef`], [`InMut`]). A system with
//! input is run on demand ([`World::run_system_with`](crate::World::run_system_with))
//! or fed by another system's output (`a.pipe(b)`).

use core::ops::{Deref, DerefMut};

/// The input a system takes as its first argument: `()` for none, or one of
/// [`In`], [`InRef`] and [`InMut`].
///
/// `Inner` is what the caller hands over (`T` for `In<T>`, `&T` for
/// `InRef<T>`); `Param` is what the system's first argument receives.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::SystemIn;
///
/// let value: SystemIn<'_, In<u32>> = 7;
/// let borrowed: SystemIn<'_, InRef<'static, str>> = "seven";
/// assert_eq!((value, borrowed), (7, "seven"));
/// ```
pub trait SystemInput: Sized {
    /// What the system's first argument is, for a borrow of lifetime `'i`.
    type Param<'i>: SystemInput;
    /// What the caller hands over, for a borrow of lifetime `'i`.
    type Inner<'i>;

    /// Wraps what the caller handed over as the system's argument.
    fn wrap<'i>(inner: Self::Inner<'i>) -> Self::Param<'i>;
}

/// What a caller hands a system whose input is `I`.
pub type SystemIn<'i, I> = <I as SystemInput>::Inner<'i>;

impl SystemInput for () {
    type Param<'i> = ();
    type Inner<'i> = ();

    #[inline(always)]
    fn wrap<'i>((): Self::Inner<'i>) -> Self::Param<'i> {}
}

/// A value handed to a system by whoever runs it: the first argument of a
/// system run with [`World::run_system_with`](crate::World::run_system_with),
/// or of the second half of a pipe (`a.pipe(b)` hands `b` what `a`
/// returned).
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut world = World::new();
/// let double = world.register_system(|In(x): In<i32>| x * 2);
/// assert_eq!(world.run_system_with(double, 21)?, 42);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct In<T>(pub T);

impl<T: 'static> SystemInput for In<T> {
    type Param<'i> = In<T>;
    type Inner<'i> = T;

    #[inline(always)]
    fn wrap<'i>(inner: Self::Inner<'i>) -> Self::Param<'i> {
        In(inner)
    }
}

impl<T> Deref for In<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for In<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}

/// A borrow handed to a system by whoever runs it, for input the caller
/// keeps (a name, a slice): the system reads it without taking it.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut world = World::new();
/// let length = world.register_system(|InRef(name): InRef<str>| name.len());
/// assert_eq!(world.run_system_with(length, "goblin")?, 6);
/// # Ok::<(), Error>(())
/// ```
#[derive(Debug)]
pub struct InRef<'i, T: ?Sized>(pub &'i T);

impl<T: ?Sized + 'static> SystemInput for InRef<'_, T> {
    type Param<'i> = InRef<'i, T>;
    type Inner<'i> = &'i T;

    #[inline(always)]
    fn wrap<'i>(inner: Self::Inner<'i>) -> Self::Param<'i> {
        InRef(inner)
    }
}

impl<T: ?Sized> Deref for InRef<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.0
    }
}

/// A mutable borrow handed to a system by whoever runs it: the system
/// changes the caller's value in place (fills a buffer, updates a tally).
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Enemy;
///
/// let mut world = World::new();
/// world.spawn_batch([Enemy, Enemy]);
/// let collect = world.register_system(|InMut(found): InMut<Vec<Entity>>, q: Query<Entity>| {
///     found.extend(q.iter());
/// });
/// let mut found = Vec::new();
/// world.run_system_with(collect, &mut found)?;
/// assert_eq!(found.len(), 2);
/// # Ok::<(), Error>(())
/// ```
#[derive(Debug)]
pub struct InMut<'i, T: ?Sized>(pub &'i mut T);

impl<T: ?Sized + 'static> SystemInput for InMut<'_, T> {
    type Param<'i> = InMut<'i, T>;
    type Inner<'i> = &'i mut T;

    #[inline(always)]
    fn wrap<'i>(inner: Self::Inner<'i>) -> Self::Param<'i> {
        InMut(inner)
    }
}

impl<T: ?Sized> Deref for InMut<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.0
    }
}

impl<T: ?Sized> DerefMut for InMut<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.0
    }
}
