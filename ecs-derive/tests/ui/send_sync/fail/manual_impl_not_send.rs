// A type that is not `Send` cannot become a component, even by a hand-written impl that skips
// the derive: `Component` requires `Send + Sync`.
use ecs_core::Component;
use std::rc::Rc;

struct Local(Rc<u8>);

impl Component for Local {
    type Mut<'w> = &'w mut Self;
}

fn main() {}
