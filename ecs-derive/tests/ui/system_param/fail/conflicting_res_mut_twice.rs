// `ResMut<X>` twice, the second inside a tuple and an `Option`: caught at the second field.
use ecs_core::prelude::*;

struct Score(u32);

#[derive(SystemParam)]
struct Scoring<'w>(ResMut<'w, Score>, (Commands<'w>, Option<ResMut<'w, Score>>));

fn main() {}
