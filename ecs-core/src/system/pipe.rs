//! Systems made of systems: [`Pipe`] (`a.pipe(b)`: `b` takes what `a`
//! returned) and [`Map`] (`a.map(f)`: a plain function of `a`'s output).

use std::borrow::Cow;

use crate::error::Error;
use crate::world::{In, SystemIn, World};

use super::access::SystemAccess;
use super::config::function_name;
use super::param::SystemWorld;
use super::typed::{Sealed, TypedSystem};

/// Two systems run as one, the second taking what the first returned as
/// its [`In`]: made by [`pipe`](super::IntoTypedSystem::pipe).
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::TypedSystem;
///
/// fn roll() -> u32 { 4 }
/// fn double(In(x): In<u32>) -> u32 { x * 2 }
///
/// let mut world = World::new();
/// let pipe = roll.pipe(double);
/// assert_eq!(pipe.name(), "roll.pipe(double)");
/// assert_eq!(world.run_system_once(pipe)?, 8);
/// # Ok::<(), Error>(())
/// ```
pub struct Pipe<A, B> {
    first: A,
    next: B,
    /// Both parts' access: what the pipe touches while it runs.
    access: SystemAccess,
    name: Cow<'static, str>,
}

impl<A: TypedSystem, B: TypedSystem<In = In<A::Out>>> Pipe<A, B> {
    pub(crate) fn new(first: A, next: B) -> Self {
        let mut access = first.access().clone();
        access.extend_in_sequence(next.access());
        let name = format!("{}.pipe({})", first.name(), next.name());
        Self {
            first,
            next,
            access,
            name: Cow::Owned(name),
        }
    }
}

impl<A, B> Sealed for Pipe<A, B> {}

impl<A: TypedSystem, B: TypedSystem<In = In<A::Out>>> TypedSystem for Pipe<A, B> {
    type In = A::In;
    type Out = B::Out;

    fn name(&self) -> Cow<'static, str> {
        self.name.clone()
    }

    fn access(&self) -> &SystemAccess {
        &self.access
    }

    fn prepare(&mut self, world: &mut World) {
        self.first.prepare(world);
        self.next.prepare(world);
    }

    fn prepares(&self) -> bool {
        self.first.prepares() || self.next.prepares()
    }

    #[inline]
    unsafe fn run_with(
        &mut self,
        input: SystemIn<'_, A::In>,
        world: SystemWorld<'_>,
    ) -> Result<B::Out, Error> {
        // SAFETY: the caller made `world` for this run and keeps every
        // system conflicting with the pipe's access away; that access holds
        // `first`'s, and `first`'s own has no clash (a clash of either part
        // is the pipe's, which the caller ruled out).
        let output = unsafe { self.first.run_with(input, world)? };
        // SAFETY: as above for `next`, whose access the pipe's holds too.
        // `first`'s params were dropped when its run returned (its output
        // is `'static`, so none of them escaped in it), so the two parts
        // never hold the world's data at once.
        unsafe { self.next.run_with(output, world) }
    }

    fn apply(
        &mut self,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    ) {
        self.first.apply(world, failed, removals);
        self.next.apply(world, failed, removals);
    }

    fn discard(&mut self) {
        self.first.discard();
        self.next.discard();
    }

    fn defers(&self) -> bool {
        self.first.defers() || self.next.defers()
    }
}

/// A system whose output is passed through a plain function: made by
/// [`map`](super::IntoTypedSystem::map).
///
/// ```
/// use ecs_core::prelude::*;
///
/// fn fallible() -> Result<(), String> { Err("no level".into()) }
///
/// let mut world = World::new();
/// let errors = world.run_system_once(fallible.map(Result::err))?;
/// assert_eq!(errors.as_deref(), Some("no level"));
/// # Ok::<(), Error>(())
/// ```
pub struct Map<S, F> {
    system: S,
    f: F,
    name: Cow<'static, str>,
}

impl<S: TypedSystem, F> Map<S, F> {
    pub(crate) fn new(system: S, f: F) -> Self {
        let name = format!(
            "{}.map({})",
            system.name(),
            function_name(core::any::type_name::<F>())
        );
        Self {
            system,
            f,
            name: Cow::Owned(name),
        }
    }
}

impl<S, F> Sealed for Map<S, F> {}

impl<S, F, T> TypedSystem for Map<S, F>
where
    S: TypedSystem,
    F: FnMut(S::Out) -> T + Send + 'static,
    T: 'static,
{
    type In = S::In;
    type Out = T;

    fn name(&self) -> Cow<'static, str> {
        self.name.clone()
    }

    fn access(&self) -> &SystemAccess {
        self.system.access()
    }

    fn prepare(&mut self, world: &mut World) {
        self.system.prepare(world);
    }

    fn prepares(&self) -> bool {
        self.system.prepares()
    }

    #[inline]
    unsafe fn run_with(
        &mut self,
        input: SystemIn<'_, S::In>,
        world: SystemWorld<'_>,
    ) -> Result<T, Error> {
        // SAFETY: the map's access is its system's, so the caller's promise
        // for this run (a world made for it, no conflicting system running,
        // no clash) is the system's.
        let output = unsafe { self.system.run_with(input, world)? };
        Ok((self.f)(output))
    }

    fn apply(
        &mut self,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    ) {
        self.system.apply(world, failed, removals);
    }

    fn discard(&mut self) {
        self.system.discard();
    }

    fn defers(&self) -> bool {
        self.system.defers()
    }
}
