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
mod options;
mod query;

/// Implements `ecs_core::Component` for a struct (named, tuple or unit) or an enum,
/// generic or not.
///
/// Options, as `#[component(...)]` on the type:
/// - `crate = "path"`: where `ecs_core` is, when the dependency is renamed or re-exported.
///
/// ```ignore
/// #[derive(Component)]
/// struct Position { x: f32, y: f32 }
/// ```
#[proc_macro_derive(Component, attributes(component))]
pub fn derive_component(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    component::derive_component(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Implements `ecs_core::query::QueryData` for a struct of fetches, so a query
/// can yield it per entity.
///
/// The struct takes one lifetime parameter (the borrow of the world) and its
/// fields are `&'w T`, `&'w mut T`, `Option<&'w T>`, `Option<&'w mut T>`,
/// `Entity`, tuples of these, or other derived query structs. A struct with a
/// `&mut` field also gets a read-only twin, `{Name}ReadOnly`, which `Query::iter`
/// and `Query::get` yield.
///
/// Options, as `#[query(...)]` on the struct:
/// - `mutable`: the struct writes through a nested query field, which the
///   derive cannot see from the field's type;
/// - `crate = "path"`: where `ecs_core` is, when renamed or re-exported.
///
/// ```ignore
/// #[derive(Query)]
/// struct Mover<'w> {
///     entity: Entity,
///     pos: &'w mut Position,
///     vel: &'w Velocity,
/// }
/// ```
#[proc_macro_derive(Query, attributes(query))]
pub fn derive_query(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    query::derive_query(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
