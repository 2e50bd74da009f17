//! Ordering systems by value: `.after(system_fn)`, `.before`, chains, sets
//! and their orderings, and the errors for names nobody has.

use ecs_core::prelude::*;

fn a() {}
fn b() {}
fn c() {}
fn d() {}

fn order(schedule: &Schedule, stage: Stage) -> Vec<String> {
    schedule
        .explain()
        .unwrap()
        .stage(stage)
        .unwrap()
        .order
        .clone()
}

#[test]
fn after_and_before_take_the_function_itself() -> Result<(), Error> {
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, a.after(c))?;
    schedule.add_system(Stage::Update, b.before(c))?;
    schedule.add_system(Stage::Update, c)?;
    assert_eq!(order(&schedule, Stage::Update), ["b", "c", "a"]);
    Ok(())
}

#[test]
fn a_chain_orders_its_tuple_in_the_order_given() -> Result<(), Error> {
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, d)?;
    schedule.add_systems(Stage::Update, (c, b.named("bee"), a).chain())?;
    assert_eq!(order(&schedule, Stage::Update), ["d", "c", "bee", "a"]);
    let batches = schedule
        .explain()?
        .stage(Stage::Update)
        .unwrap()
        .batches
        .clone();
    assert_eq!(
        batches,
        [vec!["d", "c"], vec!["bee"], vec!["a"]],
        "chained, so never at once"
    );
    Ok(())
}

#[test]
fn sets_order_every_member_and_can_be_ordered_against() -> Result<(), Error> {
    let mut schedule = Schedule::new();
    schedule.add_systems(Stage::Update, (a, b).in_set("combat"))?;
    schedule.add_system(Stage::Update, c.in_set("physics_done"))?;
    schedule.add_system(Stage::Update, d.before("combat"))?;
    schedule.configure_set(Stage::Update, "combat", after("physics_done"))?;
    let order = order(&schedule, Stage::Update);
    let at = |name: &str| order.iter().position(|n| n == name).unwrap();
    assert!(at("c") < at("a") && at("c") < at("b"), "{order:?}");
    assert!(at("d") < at("a") && at("d") < at("b"), "{order:?}");
    Ok(())
}

#[test]
fn a_configured_set_without_members_is_a_known_name() -> Result<(), Error> {
    let mut schedule = Schedule::new();
    schedule.configure_set(Stage::Update, "later", SetConfig::default())?;
    schedule.add_system(Stage::Update, a.after("later"))?;
    let mut world = World::new();
    schedule.run(&mut world)?;
    Ok(())
}

use ecs_core::system::SetConfig;

#[test]
fn an_unknown_name_fails_the_first_run_naming_the_system_and_the_name() -> Result<(), Error> {
    #[derive(Default)]
    struct Ran(bool);
    let mut world = World::new();
    world.init_resource::<Ran>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::First, |mut r: ResMut<Ran>| r.0 = true)?;
    schedule.add_system(Stage::Update, a.after("movment"))?;
    let error = schedule.run(&mut world).unwrap_err();
    assert_eq!(
        error.to_string(),
        "system `a` is ordered against `movment`, but stage `Update` has no system of that name"
    );
    assert!(!world.resource::<Ran>()?.0, "nothing ran");
    Ok(())
}

#[test]
fn an_unknown_name_in_a_set_ordering_fails_the_first_run() -> Result<(), Error> {
    let mut schedule = Schedule::new();
    schedule.add_systems(Stage::Update, (a,).in_set("combat"))?;
    schedule.configure_set(Stage::Update, "combat", before("rendr"))?;
    let error = schedule.run(&mut World::new()).unwrap_err();
    assert!(
        matches!(&error, Error::UnknownOrdering { system, missing, .. }
            if system == "set combat" && missing == "rendr"),
        "{error}"
    );
    Ok(())
}

#[test]
fn an_ordering_against_a_system_of_another_stage_fails_when_added() -> Result<(), Error> {
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::PreUpdate, a)?;
    let error = schedule.add_system(Stage::Update, b.after(a)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "system `b` of stage `Update` is ordered against `a`, which is in stage `PreUpdate`: \
         orderings hold between systems of one stage"
    );
    assert!(!schedule.contains_system("b"));
    let error = schedule
        .configure_set(Stage::Update, "combat", after(a))
        .unwrap_err();
    assert!(matches!(error, Error::OrderingAcrossStages { .. }));
    Ok(())
}

#[test]
fn add_systems_adds_all_or_none() -> Result<(), Error> {
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, c)?;
    let error = schedule.add_systems(Stage::Update, (a, b, c)).unwrap_err();
    assert_eq!(error, Error::DuplicateSystem { system: "c".into() });
    assert!(!schedule.contains_system("a") && !schedule.contains_system("b"));
    let error = schedule
        .add_systems(Stage::Update, (a, a.named("a")))
        .unwrap_err();
    assert_eq!(error, Error::DuplicateSystem { system: "a".into() });
    assert!(!schedule.contains_system("a"));
    Ok(())
}

#[test]
fn stage_is_copy_and_counts_one_system_in_words() -> Result<(), Error> {
    let stage = Stage::Update;
    let mut schedule = Schedule::new();
    schedule.add_system(stage, a)?;
    schedule.add_system(stage, b.after(a))?;
    schedule.add_system(Stage::Last, c)?;
    let text = schedule.explain()?.to_string();
    assert!(text.contains("stage Update: 2 systems"), "{text}");
    assert!(text.contains("stage Last: 1 system\n"), "{text}");
    Ok(())
}

/// A chain of closures from one function: each gets its own name (`#2`,
/// `#3`, ...) as it is added, and the chain orders each after the one
/// before it by that name, so none runs beside its predecessor.
#[test]
fn a_chain_of_closures_orders_each_after_the_one_before() -> Result<(), Error> {
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, || {})?;
    schedule.add_systems(
        Stage::Update,
        ((|| {}).named("first"), || {}, || {}, || {}).chain(),
    )?;
    let why = schedule.explain()?;
    let batches = &why.stage(Stage::Update).unwrap().batches;
    let closure = "a_chain_of_closures_orders_each_after_the_one_before::{{closure}}";
    assert_eq!(
        *batches,
        [
            vec![closure.to_owned(), "first".to_owned()],
            vec![format!("{closure}#2")],
            vec![format!("{closure}#3")],
            vec![format!("{closure}#4")],
        ]
    );
    Ok(())
}
