//! Fields marked `#[entity]`: the body of `map_entities` for a component or a
//! `#[derive(MapEntities)]` type, and `#[derive(MapEntities)]` itself.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Data, DeriveInput, Fields, Index, Member, Path};

use crate::crate_path::CratePath;
use crate::options::{combine, parse_options};

/// What `#[derive(MapEntities)]`'s and `#[derive(Component)]`'s
/// `map_entities` does: maps every `#[entity]` field, or `None` when the type
/// has no such field.
pub(crate) fn map_body(input: &DeriveInput, krate: &Path) -> syn::Result<Option<TokenStream>> {
    let mut errors = Vec::new();
    let body = match &input.data {
        Data::Struct(data) => {
            let members = marked(&data.fields, &mut errors);
            (!members.is_empty()).then(|| {
                let calls = members.iter().map(
                    |member| quote!(#krate::MapEntities::map_entities(&mut self.#member, mapper);),
                );
                quote!(#(#calls)*)
            })
        }
        Data::Enum(data) => {
            let mut arms = Vec::new();
            for variant in &data.variants {
                let members = marked(&variant.fields, &mut errors);
                if members.is_empty() {
                    continue;
                }
                let name = &variant.ident;
                let bindings: Vec<_> = (0..members.len())
                    .map(|i| format_ident!("__ecs_field_{i}"))
                    .collect();
                let pattern = members
                    .iter()
                    .zip(&bindings)
                    .map(|(member, binding)| quote!(#member: #binding));
                arms.push(quote! {
                    Self::#name { #(#pattern,)* .. } => {
                        #(#krate::MapEntities::map_entities(#bindings, mapper);)*
                    }
                });
            }
            (!arms.is_empty()).then(|| {
                quote! {
                    #[allow(unreachable_patterns, reason = "every variant may hold ids")]
                    match self {
                        #(#arms)*
                        _ => {}
                    }
                }
            })
        }
        Data::Union(_) => None,
    };
    combine(errors)?;
    Ok(body)
}

/// The members of `fields` marked `#[entity]`; a marker with arguments is reported.
fn marked(fields: &Fields, errors: &mut Vec<syn::Error>) -> Vec<Member> {
    let mut members = Vec::new();
    for (index, field) in fields.iter().enumerate() {
        let mut is_marked = false;
        for attr in field.attrs.iter().filter(|a| a.path().is_ident("entity")) {
            if let Err(error) = attr.meta.require_path_only() {
                errors.push(syn::Error::new_spanned(
                    attr,
                    "`#[entity]` takes no arguments: write `#[entity]` on a field that holds \
                     entity ids",
                ));
                drop(error);
            }
            is_marked = true;
        }
        if is_marked {
            members.push(match &field.ident {
                Some(ident) => Member::Named(ident.clone()),
                None => Member::Unnamed(Index::from(index)),
            });
        }
    }
    members
}

/// `#[derive(MapEntities)]`.
pub(crate) fn derive_map_entities(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Vec::new();
    if let Data::Union(data) = &input.data {
        errors.push(syn::Error::new_spanned(
            data.union_token,
            "`MapEntities` cannot be derived for a union: which field holds ids is unknown",
        ));
    }
    let mut krate = CratePath::new();
    parse_options(
        &input.attrs,
        "map_entities",
        "`crate = \"path\"`",
        &mut errors,
        |meta, errors| krate.parse(meta, errors),
    );
    combine(errors)?;
    let krate = krate.get();
    let body = map_body(input, &krate)?.unwrap_or_else(|| quote!(let _ = mapper;));
    let name = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics #krate::MapEntities for #name #type_generics #where_clause {
            fn map_entities<__EcsM: #krate::EntityMapper + ?::core::marker::Sized>(
                &mut self,
                mapper: &mut __EcsM,
            ) {
                #body
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use syn::parse_quote;

    use super::*;
    use crate::test_util::{input, messages};

    fn body(source: &str) -> Option<String> {
        map_body(&input(source), &parse_quote!(::ecs_core))
            .expect("valid")
            .map(|t| t.to_string())
    }

    #[test]
    fn unmarked_types_have_no_body() {
        assert_eq!(body("struct S { a: Entity }"), None);
        assert_eq!(body("enum E { A(Entity), B }"), None);
        assert_eq!(body("struct Unit;"), None);
    }

    #[test]
    fn marked_fields_of_structs_are_mapped_in_order() {
        let expected = quote! {
            ::ecs_core::MapEntities::map_entities(&mut self.a, mapper);
            ::ecs_core::MapEntities::map_entities(&mut self.c, mapper);
        };
        assert_eq!(
            body("struct S { #[entity] a: Entity, b: u8, #[entity] c: Vec<Entity> }"),
            Some(expected.to_string())
        );
        let expected = quote!(::ecs_core::MapEntities::map_entities(&mut self.1, mapper););
        assert_eq!(
            body("struct T(u8, #[entity] Option<Entity>);"),
            Some(expected.to_string())
        );
    }

    #[test]
    fn marked_fields_of_enums_are_bound_per_variant() {
        let expected = quote! {
            #[allow(unreachable_patterns, reason = "every variant may hold ids")]
            match self {
                Self::Open { 1: __ecs_field_0, .. } => {
                    ::ecs_core::MapEntities::map_entities(__ecs_field_0, mapper);
                }
                _ => {}
            }
        };
        assert_eq!(
            body("enum Door { Closed, Open(u8, #[entity] Entity) }"),
            Some(expected.to_string())
        );
    }

    #[test]
    fn a_marker_with_arguments_is_reported_at_the_attribute() {
        let error = map_body(
            &input("struct S { #[entity(deep)] a: Entity }"),
            &parse_quote!(::ecs_core),
        )
        .err()
        .unwrap();
        assert_eq!(
            messages(error),
            [(
                "`#[entity]` takes no arguments: write `#[entity]` on a field that holds \
                 entity ids"
                    .to_owned(),
                "#[entity(deep)]".to_owned()
            )]
        );
    }
}
