// Query filters are sealed: a filter could otherwise read component data while
// mutable items are alive, or hand the query another world's storages.
use ecs_core::prelude::*;
use ecs_core::query::{QueryFilter, Required, WorldView};

#[derive(Component)]
struct A(u32);

struct Peek;

impl QueryFilter for Peek {
    type State<'w> = ();

    fn state(_: WorldView<'_>) -> Self::State<'_> {}

    fn for_each_required<'w>(_: &(), _: &mut impl FnMut(Required<'w>)) {}

    fn matches_presence(_: &(), _: Entity) -> bool {
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
