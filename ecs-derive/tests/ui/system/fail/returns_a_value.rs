// A system returns `()` or `Result<(), E>`: a value it returns would be lost,
// so returning one is refused, and the message says what a system may return.
use ecs_core::prelude::*;

struct Score(u32);

fn doubled(score: Res<Score>) -> u32 {
    score.0 * 2
}

fn main() {
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, doubled).unwrap();
}
