//! Derive macros for `ecs-core`. Use them through `ecs_core::prelude::*`, which re-exports them.
//!
//! Each derive parses its input, calls a `derive_*` function returning
//! `syn::Result<TokenStream>`, and turns errors into `compile_error!` pointing at
//! the offending tokens. Generated code names every item by absolute path
//! (`::ecs_core::...`, `::core::...`), so it works under `#![no_implicit_prelude]`
//! and never clashes with user names.

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

mod component;
mod crate_path;
mod entity_event;
mod entity_fields;
mod event;
mod hooks;
mod marker;
mod options;
mod query;
mod relationship;
mod requires;
mod states;
mod system_param;
#[cfg(test)]
mod test_util;
mod world_lifetime;

/// Implements `ecs_core::Component` for a struct (named, tuple or unit) or an enum,
/// generic or not.
///
/// Options, as `#[component(...)]` on the type:
/// - `track_changes`: keep an added and a changed tick per value, so the
///   filters `Added<T>` and `Changed<T>` work for the type, and `&mut T` in
///   a query yields `Mut<T>`, which marks the value changed when written;
/// - `debug`: show the values of a generic type in `World::inspect` (it must
///   implement `Debug`); a type without generic parameters needs nothing, the
///   derive detects `Debug` by itself;
/// - `on_add = f`, `on_insert = f`, `on_replace = f`, `on_remove = f`,
///   `on_despawn = f`: the type's hooks, each the path of a function
///   `fn(DeferredWorld, HookContext)`, run on every structural change of the
///   type (`ecs_core::ComponentHooks` says when each runs);
/// - `crate = "path"`: where `ecs_core` is, when the dependency is renamed or re-exported.
///
/// Fields marked `#[entity]` hold entity ids (`Entity`, `Option<Entity>`,
/// `Vec<Entity>`, arrays, any `MapEntities` type) and follow their entities
/// through `World::merge` and snapshot loads.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Debug, PartialEq)]
/// struct Position { x: f32, y: f32 }
///
/// #[derive(Component)]
/// #[component(crate = "ecs_core")]
/// enum Team { Red, Blue }
///
/// #[derive(Component)]
/// #[component(track_changes)]
/// struct Health(i32);
///
/// #[derive(Component)]
/// #[component(on_add = count_up, on_remove = count_down)]
/// struct Enemy;
/// #[derive(Default)]
/// struct EnemyCount(i32);
///
/// fn count_up(mut world: DeferredWorld, _: HookContext) {
///     world.resource_mut::<EnemyCount>().unwrap().0 += 1;
/// }
/// fn count_down(mut world: DeferredWorld, _: HookContext) {
///     world.resource_mut::<EnemyCount>().unwrap().0 -= 1;
/// }
///
/// let mut world = World::new();
/// world.insert_resource(EnemyCount::default());
/// let e = world.spawn((Position { x: 1.0, y: 2.0 }, Team::Red, Health(3), Enemy));
/// assert_eq!(world.get::<Position>(e)?, &Position { x: 1.0, y: 2.0 });
/// let added = world.query_filtered::<Entity, Added<Health>>().iter().count();
/// assert_eq!(added, 1);
/// assert_eq!(world.resource::<EnemyCount>()?.0, 1);
/// # Ok::<(), Error>(())
/// ```
#[proc_macro_derive(
    Component,
    attributes(component, entity, relationship, relationship_target)
)]
pub fn derive_component(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    component::derive_component(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Implements `ecs_core::MapEntities` for a struct or enum by mapping each
/// field marked `#[entity]`, for types that hold entity ids inside a
/// component (the component's own `#[entity]` fields need no derive).
///
/// Options, as `#[map_entities(...)]` on the type:
/// - `crate = "path"`: where `ecs_core` is, when renamed or re-exported.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(MapEntities)]
/// enum Target {
///     Nobody,
///     One(#[entity] Entity),
///     Group { #[entity] members: Vec<Entity>, leader_first: bool },
/// }
///
/// let mut world = World::new();
/// let (a, b) = (world.spawn(()), world.spawn(()));
/// let mut target = Target::Group { members: vec![a, a], leader_first: true };
/// target.map_entities(&mut |_| b);
/// assert!(matches!(target, Target::Group { members, .. } if members == [b, b]));
/// ```
#[proc_macro_derive(MapEntities, attributes(map_entities, entity))]
pub fn derive_map_entities(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    entity_fields::derive_map_entities(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Implements `ecs_core::query::QueryData` for a struct of fetches, so a query
/// can yield it per entity.
///
/// The struct takes one lifetime parameter (the borrow of the world) and its
/// fields are `&'w T`, `&'w mut T`, `Option<&'w T>`, `Option<&'w mut T>`,
/// `Entity`, tuples of these, or other derived query structs. A struct that
/// only reads is its own item. A struct with a `&mut` field describes the
/// fetch, and gets two generated structs of the same shape: `{Name}Item`, which
/// `Query::iter_mut` and `Query::get_mut` yield, each field the item of its fetch
/// (a `&'w mut T` field of a type with `#[component(track_changes)]` is a
/// `Mut<'w, T>` there, plain `&'w mut T` otherwise), and the read-only twin
/// `{Name}ReadOnly`, which `Query::iter` and `Query::get` yield.
///
/// Options, as `#[query(...)]` on the struct:
/// - `mutable`: the struct writes through a nested query field, which the
///   derive cannot see from the field's type;
/// - `crate = "path"`: where `ecs_core` is, when renamed or re-exported.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Position(f32);
/// #[derive(Component)]
/// struct Velocity(f32);
///
/// #[derive(Query)]
/// struct Mover<'w> {
///     entity: Entity,
///     pos: &'w mut Position,
///     vel: &'w Velocity,
/// }
///
/// #[derive(Component)]
/// #[component(track_changes)]
/// struct Health(i32);
///
/// #[derive(Query)]
/// struct Patient<'w> {
///     health: &'w mut Health,
///     pos: &'w Position,
/// }
///
/// let mut world = World::new();
/// let e = world.spawn((Position(0.0), Velocity(2.0), Health(3)));
/// for m in world.query::<Mover>().iter_mut() {
///     let m: MoverItem = m;
///     m.pos.0 += m.vel.0;
/// }
/// let query = world.query::<Mover>();
/// let view: MoverReadOnly = query.get(e)?;
/// assert_eq!(view.pos.0, 2.0);
/// for p in world.query::<Patient>().iter_mut() {
///     let mut health: Mut<Health> = p.health; // marks `Health` changed only when written
///     health.0 += 1;
/// }
/// assert_eq!(world.get::<Health>(e)?.0, 4);
/// # Ok::<(), Error>(())
/// ```
#[proc_macro_derive(Query, attributes(query))]
pub fn derive_query(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    query::derive_query(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Implements `ecs_core::system::SystemParam` for a struct of system params,
/// so a system can take the whole group as one param.
///
/// The struct takes one lifetime parameter, the borrow of the world, and
/// borrows every param for it: `Query<'w, ..>`, `Res<'w, R>`, `ResMut<'w, R>`,
/// `Option<Res<'w, R>>`, `Option<ResMut<'w, R>>`, `Local<'w, T>`,
/// `Commands<'w>`, `&'w World`, tuples of these, and other
/// `#[derive(SystemParam)]` structs. Named and tuple structs work. Type and
/// const parameters are passed through with the bounds written on the struct
/// (the derive adds none: `Res<'w, R>` needs `R: Send + Sync + 'static`), but
/// a field cannot be a bare type parameter, whose borrow of the world the
/// derive could not name.
///
/// Each field is fetched, in order, as if it were a param of its own: what
/// the struct reads and writes is what its fields do. Two fields that take
/// `Res`/`ResMut` of the same written type where one writes are rejected at
/// compile time; every other clash (two queries, a nested struct) is caught by
/// `Schedule::add_system`, which returns `Error::ConflictingAccess`.
///
/// Options, as `#[system_param(...)]` on the struct:
/// - `crate = "path"`: where `ecs_core` is, when renamed or re-exported.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Position { x: f32 }
/// #[derive(Component)]
/// struct Velocity { x: f32 }
/// #[derive(Component)]
/// struct Frozen;
/// struct Time { dt: f32 }
///
/// #[derive(Query)]
/// struct Mover<'w> {
///     pos: &'w mut Position,
///     vel: &'w Velocity,
/// }
///
/// #[derive(SystemParam)]
/// struct Physics<'w> {
///     movers: Query<'w, Mover<'w>, Without<Frozen>>,
///     time: Res<'w, Time>,
/// }
///
/// fn physics(mut p: Physics) {
///     for m in p.movers.iter_mut() {
///         m.pos.x += m.vel.x * p.time.dt;
///     }
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Time { dt: 0.5 });
/// let moving = world.spawn((Position { x: 0.0 }, Velocity { x: 2.0 }));
/// let frozen = world.spawn((Position { x: 0.0 }, Velocity { x: 2.0 }, Frozen));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::PostUpdate, physics.named("physics"))?;
/// schedule.run(&mut world)?;
/// assert_eq!(world.get::<Position>(moving)?.x, 1.0);
/// assert_eq!(world.get::<Position>(frozen)?.x, 0.0);
/// # Ok::<(), Error>(())
/// ```
#[proc_macro_derive(SystemParam, attributes(system_param))]
pub fn derive_system_param(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    system_param::derive_system_param(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Derives `ecs_core::state::States` for a type whose values are the states
/// of a game (`Menu`, `Playing`, `Paused`). The type must also be `Clone`,
/// `PartialEq`, `Eq`, `Hash`, `Debug` and `Send + Sync + 'static`; derive
/// those beside it. `#[states(crate = "path")]` names a renamed core crate.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
/// enum GameState { #[default] Menu, Playing }
///
/// let mut world = World::new();
/// world.init_state::<GameState>();
/// assert_eq!(*world.resource::<State<GameState>>()?.get(), GameState::Menu);
/// # Ok::<(), Error>(())
/// ```
#[proc_macro_derive(States, attributes(states))]
pub fn derive_states(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    states::derive_states(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Derives `ecs_core::Event` for a type a game triggers for its
/// observers (`world.trigger(Explosion { .. })`, `commands.trigger(..)`),
/// which observers take as `On<Explosion>`. The type must be
/// `Send + Sync + 'static`. `#[event(crate = "path")]` names a renamed core
/// crate.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Event)]
/// struct Explosion { radius: f32 }
/// #[derive(Default)]
/// struct Heard(f32);
///
/// let mut world = World::new();
/// world.init_resource::<Heard>();
/// world.observe(|ev: On<Explosion>, mut heard: ResMut<Heard>| heard.0 += ev.radius);
/// world.trigger(Explosion { radius: 5.0 });
/// assert_eq!(world.resource::<Heard>()?.0, 5.0);
/// # Ok::<(), Error>(())
/// ```
#[proc_macro_derive(Event, attributes(event))]
pub fn derive_event(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    event::derive_event(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Derives `ecs_core::EntityEvent` (and `Event`) for an event aimed at one
/// entity: the field `entity: Entity`, or the field marked
/// `#[event_target]`, names it, and the event's travel updates it.
///
/// - `#[entity_event(propagate)]`: after the entity's observers, the event
///   goes to its parent (`ChildOf`), and so on up; `propagate = R` travels
///   along the relationship `R` instead.
/// - `#[entity_event(auto_propagate)]` (with `propagate`): the event travels
///   unless an observer stops it (`ev.propagate(false)`); without it, only
///   when an observer asks (`ev.propagate(true)`).
/// - `#[entity_event(crate = "path")]` names a renamed core crate.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(EntityEvent)]
/// #[entity_event(propagate, auto_propagate)]
/// struct Attack { entity: Entity, damage: u16 }
///
/// #[derive(Default)]
/// struct Heard(Vec<(Entity, u16)>);
///
/// let mut world = World::new();
/// world.init_resource::<Heard>();
/// let knight = world.spawn(());
/// let shield = world.spawn(ChildOf(knight));
/// world.observe(|ev: On<Attack>, mut heard: ResMut<Heard>| heard.0.push((ev.entity(), ev.damage)));
/// world.trigger(Attack { entity: shield, damage: 25 });
/// assert_eq!(world.resource::<Heard>()?.0, [(shield, 25), (knight, 25)]);
/// # Ok::<(), Error>(())
/// ```
#[proc_macro_derive(EntityEvent, attributes(entity_event, event_target))]
pub fn derive_entity_event(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    entity_event::derive_entity_event(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
