//! `#[derive(EntityEvent)]`: an event aimed at one entity, named by a field
//! `entity` (or one marked `#[event_target]`), optionally travelling up a
//! relationship (`#[entity_event(propagate)]`: `ChildOf`;
//! `propagate = Targeting` for another) and travelling by itself
//! (`auto_propagate`).

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Index, Member, Path};

use crate::crate_path::CratePath;
use crate::options::{combine, parse_options};

/// The options of `#[entity_event(..)]`.
struct Options {
    krate: CratePath,
    /// `Some(None)` for `propagate` alone (along `ChildOf`), `Some(path)`
    /// for `propagate = Path`.
    propagate: Option<Option<Path>>,
    auto_propagate: Option<proc_macro2::Span>,
}

pub(crate) fn derive_entity_event(input: &DeriveInput) -> syn::Result<TokenStream> {
    let mut errors = Vec::new();
    let mut options = Options {
        krate: CratePath::new(),
        propagate: None,
        auto_propagate: None,
    };
    parse_options(
        &input.attrs,
        "entity_event",
        "`propagate`, `propagate = Relationship`, `auto_propagate`, `crate = \"path\"`",
        &mut errors,
        |meta, errors| {
            if meta.path.is_ident("propagate") {
                let along = if meta.input.peek(syn::Token![=]) {
                    Some(meta.value()?.parse::<Path>()?)
                } else {
                    None
                };
                if options.propagate.is_some() {
                    errors.push(meta.error("`propagate` is given twice"));
                }
                options.propagate = Some(along);
                return Ok(true);
            }
            if meta.path.is_ident("auto_propagate") {
                options.auto_propagate = Some(meta.path.span());
                return Ok(true);
            }
            options.krate.parse(meta, errors)
        },
    );
    if let (Some(span), None) = (options.auto_propagate, &options.propagate) {
        errors.push(syn::Error::new(
            span,
            "`auto_propagate` needs `propagate`: say which way the event travels, \
             `#[entity_event(propagate, auto_propagate)]`",
        ));
    }
    let target = match target_field(input) {
        Ok(target) => Some(target),
        Err(error) => {
            errors.push(error);
            None
        }
    };
    combine(errors)?;
    let target = target.expect("no error, so a target was found");
    let krate = options.krate.get();
    let name = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    let auto = options.auto_propagate.is_some();
    let next_target = options.propagate.map(|along| {
        let along = along.map_or_else(|| quote!(#krate::ChildOf), |path| path.to_token_stream());
        quote! {
            fn next_target(
                world: &#krate::World,
                entity: #krate::Entity,
            ) -> ::core::option::Option<#krate::Entity> {
                #krate::relationship_target::<#along>(world, entity)
            }
        }
    });
    Ok(quote! {
        impl #impl_generics #krate::Event for #name #type_generics #where_clause {
            fn current_target(&self) -> ::core::option::Option<#krate::Entity> {
                ::core::option::Option::Some(self.#target)
            }

            fn retarget(&mut self, entity: #krate::Entity) {
                self.#target = entity;
            }

            const AUTO_PROPAGATE: bool = #auto;

            #next_target
        }

        impl #impl_generics #krate::EntityEvent for #name #type_generics #where_clause {
            fn event_target(&self) -> #krate::Entity {
                self.#target
            }

            fn event_target_mut(&mut self) -> &mut #krate::Entity {
                &mut self.#target
            }
        }
    })
}

/// The field naming the event's entity: the one marked `#[event_target]`,
/// or else the one named `entity`.
fn target_field(input: &DeriveInput) -> syn::Result<Member> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "`EntityEvent` can be derived for a struct only: the event names its entity in a field",
        ));
    };
    let fields: Vec<_> = match &data.fields {
        Fields::Named(named) => named.named.iter().collect(),
        Fields::Unnamed(unnamed) => unnamed.unnamed.iter().collect(),
        Fields::Unit => Vec::new(),
    };
    let member = |at: usize| match &fields[at].ident {
        Some(ident) => Member::Named(ident.clone()),
        None => Member::Unnamed(Index::from(at)),
    };
    let marked: Vec<usize> = (0..fields.len())
        .filter(|&at| {
            fields[at]
                .attrs
                .iter()
                .any(|a| a.path().is_ident("event_target"))
        })
        .collect();
    match marked.as_slice() {
        [at] => return Ok(member(*at)),
        [_, second, ..] => {
            return Err(syn::Error::new_spanned(
                fields[*second],
                "only one field can be the `#[event_target]`",
            ));
        }
        [] => {}
    }
    fields
        .iter()
        .position(|field| field.ident.as_ref().is_some_and(|ident| ident == "entity"))
        .map(member)
        .ok_or_else(|| {
            syn::Error::new_spanned(
                &input.ident,
                "an entity event names its entity: add a field `entity: Entity`, or mark the \
                 field that holds it `#[event_target]`",
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{input, messages};

    fn generated(source: &str) -> String {
        derive_entity_event(&input(source))
            .expect("valid")
            .to_string()
    }

    #[test]
    fn the_entity_field_is_the_target_and_childof_the_default_way() {
        let tokens = generated(
            "#[entity_event(propagate, auto_propagate)] struct Attack { entity: Entity, damage: u16 }",
        );
        assert!(tokens.contains("Some (self . entity)"), "{tokens}");
        assert!(
            tokens.contains("const AUTO_PROPAGATE : bool = true"),
            "{tokens}"
        );
        assert!(
            tokens.contains("relationship_target :: < :: ecs_core :: ChildOf >"),
            "{tokens}"
        );
    }

    #[test]
    fn a_marked_field_and_a_named_relationship() {
        let tokens = generated(
            "#[entity_event(propagate = Targeting)] struct Ping(u8, #[event_target] Entity);",
        );
        assert!(tokens.contains("self . 1"), "{tokens}");
        assert!(
            tokens.contains("relationship_target :: < Targeting >"),
            "{tokens}"
        );
        assert!(
            tokens.contains("const AUTO_PROPAGATE : bool = false"),
            "{tokens}"
        );
        let quiet = generated("struct Poke { entity: Entity }");
        assert!(
            !quiet.contains("next_target"),
            "no propagation: the default stays"
        );
    }

    #[test]
    fn mistakes_are_explained() {
        let missing = derive_entity_event(&input("struct Poke { target: Entity }")).unwrap_err();
        assert!(
            messages(missing)[0]
                .0
                .contains("add a field `entity: Entity`")
        );
        let enum_ = derive_entity_event(&input("enum Poke { A }")).unwrap_err();
        assert!(messages(enum_)[0].0.contains("for a struct only"));
        let auto = derive_entity_event(&input(
            "#[entity_event(auto_propagate)] struct P { entity: Entity }",
        ))
        .unwrap_err();
        assert!(
            messages(auto)[0]
                .0
                .contains("`auto_propagate` needs `propagate`")
        );
        let two = derive_entity_event(&input(
            "struct P { #[event_target] a: Entity, #[event_target] b: Entity }",
        ))
        .unwrap_err();
        assert_eq!(
            messages(two)[0].0,
            "only one field can be the `#[event_target]`"
        );
    }
}
