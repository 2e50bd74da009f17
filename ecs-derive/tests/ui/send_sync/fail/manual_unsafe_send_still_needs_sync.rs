// Promising `Send` by hand is not enough: a component must also be `Sync`.
use ecs_core::Component;

struct Handle(*mut u8);

// SAFETY: (for the test) the pointer is never dereferenced.
unsafe impl Send for Handle {}

impl Component for Handle {
    type Mut<'w> = &'w mut Self;
}

fn main() {}
