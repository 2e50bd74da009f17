// `Option<Res<..>>` and `Option<ResMut<..>>` fields: the system runs without the resource.
use ecs_core::prelude::*;

struct Weather(&'static str);
#[derive(Default)]
struct Log(Vec<String>);

#[derive(SystemParam)]
struct Report<'w> {
    weather: Option<Res<'w, Weather>>,
    log: Option<ResMut<'w, Log>>,
}

fn report(r: Report) {
    if let Some(mut log) = r.log {
        let line = r.weather.map_or("unknown", |w| w.0).to_owned();
        log.0.push(line);
    }
}

fn main() -> Result<(), Error> {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, report)?;
    schedule.run(&mut world)?;
    world.insert_resource(Log::default());
    schedule.run(&mut world)?;
    world.insert_resource(Weather("rain"));
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Log>()?.0, ["unknown", "rain"]);
    Ok(())
}
