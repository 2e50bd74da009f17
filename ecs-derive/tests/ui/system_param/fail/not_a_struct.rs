// Enums and structs without fields are rejected at their keyword or name.
use ecs_core::prelude::*;

struct Time(f32);

#[derive(SystemParam)]
enum Either<'w> {
    Time(Res<'w, Time>),
    Commands(Commands<'w>),
}

#[derive(SystemParam)]
struct Empty<'w>;

fn main() {}
