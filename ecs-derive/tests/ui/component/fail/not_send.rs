// A component that is not `Send` is rejected at the derive.
use ecs_core::prelude::*;

#[derive(Component)]
struct Local(std::rc::Rc<u8>);

fn main() {}
