// A type that is `Send` but not `Sync` cannot become a component by hand either: queries hand
// out `&T` to several threads at once through a shared world.
use ecs_core::Component;
use std::cell::Cell;

struct Counter(Cell<u32>);

impl Component for Counter {
    type Mut<'w> = &'w mut Self;
}

fn main() {}
