// Query filters are sealed: a filter could otherwise read component data while
// mutable items are alive, or hand the query another world's storages. Even a
// type with a `WorldQuery` of its own cannot be one.
use ecs_core::prelude::*;
use ecs_core::query::{Access, QueryFilter, Required, Seat, ViewMode, WorldQuery, WorldView};

#[derive(Component)]
struct A(u32);

struct Peek;

// SAFETY: touches no component and requires no storage.
unsafe impl WorldQuery for Peek {
    type State<'w> = ();
    type Prepared = ();

    fn access(_: &mut Access) {}

    fn prepare(_: WorldView<'_>) {}

    unsafe fn state_prepared<M: ViewMode>(_: &(), _: WorldView<'_, M>) {}

    fn for_each_required<'w>(_: &(), _: &mut impl FnMut(Required<'w>)) {}
}

impl QueryFilter for Peek {
    fn matches_presence(_: &(), _: Entity, _: Seat<'_>) -> bool {
        true
    }

    fn check_presence(_: &(), _: Entity) -> Result<(), Error> {
        Ok(())
    }
}

fn main() {
    let mut world = World::new();
    world.spawn(A(1));
    world.query_filtered::<&mut A, Peek>().for_each(|a| a.0 += 1);
}
