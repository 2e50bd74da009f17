//! `ParamSet`: params that conflict with one another in one system, handed
//! out one at a time.

use core::marker::PhantomData;

use crate::error::Error;
use crate::world::{CommandQueue, World};

use super::access::SystemAccess;
use super::param::{DiscardEach, SystemParam, SystemWorld};

/// A system param holding up to four params that may conflict with one
/// another (two queries writing one component), used one at a time:
/// `p0()`, `p1()`, ... each borrow the set mutably, so no two members'
/// items live at once. The members are still checked against the system's
/// other params.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::ParamSet;
///
/// #[derive(Component)]
/// struct Health(i32);
/// #[derive(Component)]
/// struct Boss;
///
/// fn balance(mut set: ParamSet<(Query<&mut Health, With<Boss>>, Query<&mut Health>)>) {
///     for h in set.p0().iter_mut() {
///         h.0 *= 2; // bosses first
///     }
///     for h in set.p1().iter_mut() {
///         h.0 += 1; // then everyone
///     }
/// }
///
/// let mut world = World::new();
/// let boss = world.spawn((Health(10), Boss));
/// let minion = world.spawn(Health(1));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, balance)?;
/// schedule.run(&mut world)?;
/// assert_eq!((world.get::<Health>(boss)?.0, world.get::<Health>(minion)?.0), (21, 2));
/// # Ok::<(), Error>(())
/// ```
pub struct ParamSet<'w, T: SystemParam> {
    state: &'w mut T::State,
    world: SystemWorld<'w>,
    _members: PhantomData<T>,
}

macro_rules! param_set {
    ($(($param:ident, $index:tt, $method:ident)),*) => {
        impl<'w, $($param: SystemParam),*> ParamSet<'w, ($($param,)*)> {
            $(
                #[doc = concat!("Member ", stringify!($index), " of the set, until the next call.")]
                ///
                /// # Panics
                /// If the member cannot be fetched now though it could when
                /// the system's params were (a `Single` whose match changed
                /// through another member's writes).
                pub fn $method(&mut self) -> $param::Item<'_> {
                    // SAFETY: the world was made for this run and the
                    // system's access, which holds every member's, keeps
                    // conflicting systems apart; the member was checked
                    // against the system's other params (`add_param_set`),
                    // and `&mut self` ends the previous member's item
                    // before this one is made. Exercised by
                    // `tests/systems/params.rs` (`param_set_*`).
                    let item = unsafe { $param::fetch(&mut self.state.$index, self.world) };
                    item.unwrap_or_else(|error| {
                        panic!("a ParamSet member could not be fetched again in its run: {error}")
                    })
                }
            )*
        }

        // SAFETY: registers every member's access (`add_param_set`) and
        // reaches the world only through the members' own fetches.
        unsafe impl<$($param: SystemParam),*> SystemParam for ParamSet<'_, ($($param,)*)> {
            type State = ($($param::State,)*);
            type Item<'w> = ParamSet<'w, ($($param,)*)>;

            const DEFERS: bool = false $(|| $param::DEFERS)*;
            const PREPARES: bool = false $(|| $param::PREPARES)*;

            fn init(access: &mut SystemAccess) -> Self::State {
                let mut members = Vec::new();
                let state = ($({
                    let mut member = SystemAccess::new();
                    let state = $param::init(&mut member);
                    members.push(member);
                    state
                },)*);
                access.add_param_set(&members);
                state
            }

            fn prepare(state: &mut Self::State, world: &mut World) {
                $($param::prepare(&mut state.$index, world);)*
            }

            unsafe fn fetch<'w>(
                state: &'w mut Self::State,
                world: SystemWorld<'w>,
            ) -> Result<Self::Item<'w>, Error> {
                // Each member is fetched once and dropped, so a missing
                // resource fails the run here rather than a member's call.
                $(
                    // SAFETY: as for the set's methods; the item is dropped
                    // before the next member is fetched.
                    drop(unsafe { $param::fetch(&mut state.$index, world)? });
                )*
                Ok(ParamSet { state, world, _members: PhantomData })
            }

            fn apply(
                state: &mut Self::State,
                world: &mut World,
                failed: &mut dyn FnMut(Error),
                removals: &mut Vec<String>,
            ) {
                $($param::apply(&mut state.$index, world, failed, removals);)*
            }

            fn discard(state: &mut Self::State) {
                let mut panics = DiscardEach::default();
                $(panics.run(|| $param::discard(&mut state.$index));)*
                panics.finish();
            }

            fn defer(state: &mut Self::State, queue: &mut CommandQueue) {
                $($param::defer(&mut state.$index, queue);)*
            }
        }
    };
}

param_set!((P0, 0, p0), (P1, 1, p1));
param_set!((P0, 0, p0), (P1, 1, p1), (P2, 2, p2));
param_set!((P0, 0, p0), (P1, 1, p1), (P2, 2, p2), (P3, 3, p3));
