//! Resource params: `Res<R>` reads the world's `R`, `ResMut<R>` writes it;
//! `Option<..>` of either runs without one.

use core::any::type_name;
use core::fmt;
use core::ops::{Deref, DerefMut};

use crate::access::AccessMode;
use crate::change::RunTicks;
use crate::error::Error;
use crate::resource::ResourceTicks;

use super::access::SystemAccess;
use super::param::{SystemParam, SystemWorld};

/// A system param that reads the resource `R`.
///
/// A system whose `Res<R>` finds no `R` does not run: `schedule.run` returns
/// an error naming the system and the type. Take `Option<Res<R>>` to run
/// without one.
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Time { dt: f32 }
/// #[derive(Component)]
/// struct Position(f32);
///
/// fn fall(mut q: Query<&mut Position>, time: Res<Time>) {
///     for p in q.iter_mut() {
///         p.0 -= 9.8 * time.dt;
///     }
/// }
///
/// let mut world = World::new();
/// let e = world.spawn(Position(0.0));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, fall)?;
/// let err = schedule.run(&mut world).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "system `fall` could not run: the world has no resource `Time`: \
///      add it with `world.insert_resource(..)`"
/// );
/// world.insert_resource(Time { dt: 0.5 });
/// schedule.run(&mut world)?;
/// assert_eq!(world.get::<Position>(e)?.0, -4.9);
/// # Ok::<(), Error>(())
/// ```
pub struct Res<'w, R: Send + Sync + 'static> {
    value: &'w R,
    ticks: &'w ResourceTicks,
    run: RunTicks,
}

/// A system param that writes the resource `R`; as [`Res`] otherwise.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Default)]
/// struct Frames(u64);
///
/// fn count(mut frames: ResMut<Frames>) {
///     frames.0 += 1;
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Frames::default());
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Last, count)?;
/// schedule.run(&mut world)?;
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Frames>()?.0, 2);
/// # Ok::<(), Error>(())
/// ```
pub struct ResMut<'w, R: Send + Sync + 'static> {
    value: &'w mut R,
    ticks: &'w ResourceTicks,
    run: RunTicks,
}

impl<R: Send + Sync + 'static> Deref for Res<'_, R> {
    type Target = R;

    #[inline]
    fn deref(&self) -> &R {
        self.value
    }
}

impl<R: Send + Sync + 'static> Deref for ResMut<'_, R> {
    type Target = R;

    #[inline]
    fn deref(&self) -> &R {
        self.value
    }
}

impl<R: Send + Sync + 'static> DerefMut for ResMut<'_, R> {
    /// Marks the resource changed for every later reader.
    #[inline]
    fn deref_mut(&mut self) -> &mut R {
        self.ticks.mark_changed(self.run.this_run);
        self.value
    }
}

impl<'w, R: Send + Sync + 'static> Res<'w, R> {
    /// The resource, borrowed for the whole run rather than for this `Res`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Name(String);
    ///
    /// fn greet(name: Res<Name>) -> usize {
    ///     let name: &str = &name.into_inner().0;
    ///     name.len()
    /// }
    /// # let _ = greet;
    /// ```
    pub fn into_inner(self) -> &'w R {
        self.value
    }
}

impl<'w, R: Send + Sync + 'static> ResMut<'w, R> {
    /// The resource, borrowed for the whole run rather than for this `ResMut`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Log(Vec<String>);
    ///
    /// fn note(log: ResMut<Log>) {
    ///     let log: &mut Vec<String> = &mut log.into_inner().0;
    ///     log.push("noted".into());
    /// }
    /// # let _ = note;
    /// ```
    pub fn into_inner(self) -> &'w mut R {
        self.ticks.mark_changed(self.run.this_run);
        self.value
    }
}

/// Change detection shared by [`Res`] and [`ResMut`]: news is what happened
/// since the reading system last ran (or since tick 0 on its first run).
macro_rules! change_detection {
    ($param:ident) => {
        impl<R: Send + Sync + 'static> $param<'_, R> {
            /// Whether the resource was inserted since the system last ran.
            ///
            /// ```
            /// use ecs_core::prelude::*;
            ///
            /// #[derive(Default)]
            /// struct Score(u32);
            /// #[derive(Default)]
            /// struct Log(Vec<(bool, bool)>);
            ///
            /// fn watch(score: Res<Score>, mut log: ResMut<Log>) {
            ///     log.0.push((score.is_added(), score.is_changed()));
            /// }
            ///
            /// let mut world = World::new();
            /// world.init_resource::<Score>();
            /// world.init_resource::<Log>();
            /// let mut schedule = Schedule::new();
            /// schedule.add_system(Stage::Update, watch)?;
            /// schedule.run(&mut world)?;
            /// schedule.run(&mut world)?;
            /// world.resource_mut::<Score>()?.0 += 1;
            /// schedule.run(&mut world)?;
            /// assert_eq!(world.resource::<Log>()?.0, [(true, true), (false, false), (false, true)]);
            /// # Ok::<(), Error>(())
            /// ```
            #[inline]
            pub fn is_added(&self) -> bool {
                self.ticks.added() > self.run.last_run
            }

            /// Whether the resource was inserted or written since the system
            /// last ran (see [`is_added`](Self::is_added)).
            #[inline]
            pub fn is_changed(&self) -> bool {
                self.ticks.changed() > self.run.last_run
            }
        }
    };
}

change_detection!(Res);
change_detection!(ResMut);

impl<R: Send + Sync + 'static> ResMut<'_, R> {
    /// Marks the resource changed without writing it.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Dirty;
    /// fn touch(mut dirty: ResMut<Dirty>) { dirty.set_changed(); }
    /// # let _ = touch;
    /// ```
    #[inline]
    pub fn set_changed(&mut self) {
        self.ticks.mark_changed(self.run.this_run);
    }

    /// The resource without marking it changed: for a write the game
    /// does not want others to notice.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Frame(u64);
    /// fn count(mut frame: ResMut<Frame>) { frame.bypass_change_detection().0 += 1; }
    /// # let _ = count;
    /// ```
    #[inline]
    pub fn bypass_change_detection(&mut self) -> &mut R {
        self.value
    }
}

impl<R: Send + Sync + fmt::Debug + 'static> fmt::Debug for Res<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<R: Send + Sync + fmt::Debug + 'static> fmt::Debug for ResMut<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

// SAFETY: registers a read of `R` and only reads it.
unsafe impl<R: Send + Sync + 'static> SystemParam for Res<'_, R> {
    const DEFERS: bool = false;
    const PREPARES: bool = false;

    type State = ();
    type Item<'w> = Res<'w, R>;

    fn init(access: &mut SystemAccess) {
        access.add_resource::<R>(type_name::<Self>(), AccessMode::Read);
    }

    #[inline]
    unsafe fn fetch<'w>(_: &'w mut (), world: SystemWorld<'w>) -> Result<Res<'w, R>, Error> {
        let view = world.view();
        let (root, ticks) = view
            .resource_ticked::<R>()
            .ok_or_else(Error::missing_resource::<R>)?;
        // SAFETY: the cell lives while the world is borrowed for `'w`; this
        // param registered a read of `R`, so no system writes `R` during the
        // run (fetch contract).
        let value = unsafe { root.as_ref() };
        Ok(Res {
            value,
            ticks,
            run: view.ticks(),
        })
    }
}

// SAFETY: registers a write of `R`; the pointer is the resource's root, and
// the caller keeps every other user of `R` apart while the item lives.
unsafe impl<R: Send + Sync + 'static> SystemParam for ResMut<'_, R> {
    const DEFERS: bool = false;
    const PREPARES: bool = false;

    type State = ();
    type Item<'w> = ResMut<'w, R>;

    fn init(access: &mut SystemAccess) {
        access.add_resource::<R>(type_name::<Self>(), AccessMode::Write);
    }

    #[inline]
    unsafe fn fetch<'w>(_: &'w mut (), world: SystemWorld<'w>) -> Result<ResMut<'w, R>, Error> {
        let view = world.view();
        let (mut root, ticks) = view
            .resource_ticked::<R>()
            .ok_or_else(Error::missing_resource::<R>)?;
        // SAFETY: the cell lives while the world is borrowed for `'w`; this
        // param registered a write of `R`, so no other system and no other
        // param of this one reaches `R` during the run (fetch contract).
        let value = unsafe { root.as_mut() };
        Ok(ResMut {
            value,
            ticks,
            run: view.ticks(),
        })
    }
}

// SAFETY: registers a read of `R`, as `Res<R>` does, and only reads it; a
// missing `R` is `None` rather than an error.
unsafe impl<R: Send + Sync + 'static> SystemParam for Option<Res<'_, R>> {
    const DEFERS: bool = false;
    const PREPARES: bool = false;

    type State = ();
    type Item<'w> = Option<Res<'w, R>>;

    fn init(access: &mut SystemAccess) {
        access.add_resource::<R>(type_name::<Self>(), AccessMode::Read);
    }

    #[inline]
    unsafe fn fetch<'w>(
        _: &'w mut (),
        world: SystemWorld<'w>,
    ) -> Result<Option<Res<'w, R>>, Error> {
        let view = world.view();
        Ok(view.resource_ticked::<R>().map(|(root, ticks)| {
            // SAFETY: the cell lives while the world is borrowed for `'w`;
            // this param registered a read of `R`, so no system writes `R`
            // during the run (fetch contract).
            let value = unsafe { root.as_ref() };
            Res {
                value,
                ticks,
                run: view.ticks(),
            }
        }))
    }
}

// SAFETY: registers a write of `R`, as `ResMut<R>` does; the pointer is the
// resource's root, and the caller keeps every other user of `R` apart while
// the item lives. A missing `R` is `None` rather than an error.
unsafe impl<R: Send + Sync + 'static> SystemParam for Option<ResMut<'_, R>> {
    const DEFERS: bool = false;
    const PREPARES: bool = false;

    type State = ();
    type Item<'w> = Option<ResMut<'w, R>>;

    fn init(access: &mut SystemAccess) {
        access.add_resource::<R>(type_name::<Self>(), AccessMode::Write);
    }

    #[inline]
    unsafe fn fetch<'w>(
        _: &'w mut (),
        world: SystemWorld<'w>,
    ) -> Result<Option<ResMut<'w, R>>, Error> {
        let view = world.view();
        Ok(view.resource_ticked::<R>().map(|(mut root, ticks)| {
            // SAFETY: the cell lives while the world is borrowed for `'w`;
            // this param registered a write of `R`, so no other system and no
            // other param of this one reaches `R` during the run (fetch
            // contract).
            let value = unsafe { root.as_mut() };
            ResMut {
                value,
                ticks,
                run: view.ticks(),
            }
        }))
    }
}
