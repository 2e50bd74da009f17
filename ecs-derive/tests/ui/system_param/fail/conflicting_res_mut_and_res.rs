// `ResMut<X>` and `Res<X>` in two fields: caught at compile time, at the second field.
use ecs_core::prelude::*;

struct Score(u32);

#[derive(SystemParam)]
struct Scoring<'w> {
    score: ResMut<'w, Score>,
    shown: Res<'w, Score>,
}

fn main() {}
