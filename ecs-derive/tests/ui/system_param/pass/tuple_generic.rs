// Tuple structs, type and const parameters, `&World`, and a derived struct as a `System`'s params.
use ecs_core::prelude::*;
use ecs_core::system::ParamItem;

#[derive(Default)]
struct Score(u32);

struct Steps<const N: usize>([u8; N]);

impl<const N: usize> Default for Steps<N> {
    fn default() -> Self {
        Steps([0; N])
    }
}

#[derive(SystemParam)]
struct Counted<'w, R, const N: usize>(ResMut<'w, R>, Local<'w, Steps<N>>)
where
    R: Send + Sync + 'static;

#[derive(SystemParam)]
struct Reader<'w> {
    world: &'w World,
}

fn bump(mut c: Counted<Score, 4>) {
    c.0.0 += 1;
    c.1.0[0] += 1;
}

struct Check;

impl System for Check {
    type Params = Reader<'static>;

    fn run(&mut self, reader: ParamItem<'_, Self::Params>) {
        assert!(reader.world.resource::<Score>().is_ok());
    }
}

fn main() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Score::default());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, bump)?;
    schedule.add_system(Stage::Last, Check)?;
    schedule.run(&mut world)?;
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Score>()?.0, 2);
    Ok(())
}
