// A `crate = "..."` path cannot stand in a fake read-only check: a field that writes
// through a type alias is still rejected by the real `ReadOnlyQueryData`.
use ecs_core::prelude::*;

mod fake {
    pub use ecs_core::Entity;
    pub mod query {
        pub use ecs_core::query::{
            Access, QueryData, ReadOnlyQueryData, Required, ViewMode, WorldQuery, WorldView,
        };
        pub trait ReadOnlyField {}
        impl<T: ?Sized> ReadOnlyField for T {}
    }
}

#[derive(Component)]
struct S(String);

type M<'a> = &'a mut S;

#[derive(Query)]
#[query(crate = "crate::fake")]
struct Sneaky<'w> {
    s: M<'w>,
}

fn main() {}
