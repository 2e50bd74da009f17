//! `#[derive(Component)]`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Path, parse_quote};

use crate::crate_path::CratePath;
use crate::entity_fields::map_body;
use crate::hooks::Hooks;
use crate::options::{combine, parse_options};
use crate::relationship::{self, RelationField};
use crate::requires::Requires;

const OPTIONS: &str = "`track_changes`, `debug`, `on_add = f`, `on_insert = f`, \
                       `on_replace = f`, `on_remove = f`, `on_despawn = f`, `requires(A, B = expr)`, \
                       `clone`, `crate = \"path\"`";

/// What the `#[component(...)]` options asked for.
struct Options {
    krate: Path,
    track_changes: bool,
    debug: bool,
    clone: bool,
    hooks: Hooks,
    requires: Requires,
    relation: Option<RelationField>,
}

pub(crate) fn derive_component(input: &DeriveInput) -> syn::Result<TokenStream> {
    let Options {
        krate,
        track_changes,
        debug,
        clone,
        hooks,
        requires,
        relation,
    } = analyse(input)?;
    let name = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    let mut where_clause = where_clause.cloned();
    let generic = !input.generics.params.is_empty();
    if generic && debug {
        // A generic type's `Debug` usually needs its parameters' too: the
        // type is then a component exactly where it can be shown.
        where_clause
            .get_or_insert_with(|| parse_quote!(where))
            .predicates
            .push(parse_quote!(Self: ::core::fmt::Debug));
    }
    if generic && clone {
        where_clause
            .get_or_insert_with(|| parse_quote!(where))
            .predicates
            .push(parse_quote!(Self: ::core::clone::Clone));
    }
    if generic {
        // Generic parameters must make the type storable; a non-generic type is
        // checked by the trait's own supertraits, with the clearer message.
        where_clause
            .get_or_insert_with(|| parse_quote!(where))
            .predicates
            .push(parse_quote!(
                Self: ::core::marker::Send + ::core::marker::Sync + 'static
            ));
    }
    let (tracking, reference, marker) = if track_changes {
        (
            quote!(
                const TRACK_CHANGES: ::core::primitive::bool = true;
            ),
            quote!(#krate::change::Mut<'__ecs_w, Self>),
            quote!(impl #impl_generics #krate::TrackedComponent for #name #type_generics #where_clause {}),
        )
    } else {
        (quote!(), quote!(&'__ecs_w mut Self), quote!())
    };
    // A relationship's one field is mapped whether or not it is marked.
    let relation_items = relation.as_ref().map(|r| r.component_items(&krate));
    let relation_impl = relation.as_ref().map(|r| r.trait_impl(input, &krate));
    let mapping = map_body(input, &krate)?
        .filter(|_| relation.is_none())
        .map(|body| {
            quote! {
                const MAPS_ENTITIES: ::core::primitive::bool = true;
                fn map_entities<__EcsM: #krate::EntityMapper + ?::core::marker::Sized>(
                    &mut self,
                    mapper: &mut __EcsM,
                ) {
                    #body
                }
            }
        });
    // Autoref detection sees a concrete type's impls; through a generic
    // parameter it cannot, so a generic type shows its values only on request.
    let shown = if debug {
        Some(quote!(::core::option::Option::Some(self)))
    } else if !generic {
        Some(quote! {
            #[allow(unused_imports, reason = "only one of the two answers applies")]
            use #krate::__private::{ViaDebug as _, WithoutDebug as _};
            (&&#krate::__private::DebugProbe(self)).debug_view()
        })
    } else {
        None
    };
    let as_debug = shown.map(|shown| {
        quote! {
            fn as_debug(&self) -> ::core::option::Option<&dyn ::core::fmt::Debug> {
                #shown
            }
        }
    });
    // As for `Debug`: detected for a concrete type, asked for by a generic one.
    let copied = if clone {
        Some(quote!(::core::option::Option::Some(
            ::core::clone::Clone::clone(self)
        )))
    } else if !generic {
        Some(quote! {
            #[allow(unused_imports, reason = "only one of the two answers applies")]
            use #krate::__private::{ViaClone as _, WithoutClone as _};
            (&&#krate::__private::CloneProbe(self)).clone_view()
        })
    } else {
        None
    };
    let clone_value = copied.map(|copied| {
        quote! {
            fn clone_value(&self) -> ::core::option::Option<Self> {
                #copied
            }
        }
    });
    let hooks = hooks.expand(&krate);
    let requires = requires.expand(&krate);
    Ok(quote! {
        impl #impl_generics #krate::Component for #name #type_generics #where_clause {
            #tracking
            type Mut<'__ecs_w> = #reference;
            #mapping
            #as_debug
            #clone_value
            #hooks
            #requires
            #relation_items
        }
        #marker
        #relation_impl
    })
}

/// Checks that the type can be a component and reads its options: the path
/// to the core crate and whether it tracks changes, or every mistake at once.
fn analyse(input: &DeriveInput) -> syn::Result<Options> {
    let mut errors = Vec::new();
    if let Data::Union(data) = &input.data {
        errors.push(syn::Error::new_spanned(
            data.union_token,
            "`Component` cannot be derived for a union: a union's active field is unknown, \
             so its value could not be dropped correctly; wrap it in a struct that knows \
             which field is active and derive `Component` on that",
        ));
    }

    let mut krate = CratePath::new();
    let mut track_changes = false;
    let mut debug = false;
    let mut clone = false;
    let mut hooks = Hooks::default();
    let mut requires = Requires::default();
    parse_options(
        &input.attrs,
        "component",
        OPTIONS,
        &mut errors,
        |meta, errors| {
            if krate.parse(meta, errors)?
                || hooks.parse(meta, errors)?
                || requires.parse(meta, errors)?
            {
                return Ok(true);
            }
            if meta.path.is_ident("track_changes") {
                if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
                    errors.push(meta.error(
                        "the `track_changes` option takes no value: write \
                         `#[component(track_changes)]`",
                    ));
                    crate::options::skip_value(meta)?;
                }
                track_changes = true;
                return Ok(true);
            }
            if meta.path.is_ident("clone") {
                if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
                    errors.push(
                        meta.error(
                            "the `clone` option takes no value: write `#[component(clone)]`",
                        ),
                    );
                    crate::options::skip_value(meta)?;
                }
                clone = true;
                return Ok(true);
            }
            if meta.path.is_ident("debug") {
                if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
                    errors.push(
                        meta.error(
                            "the `debug` option takes no value: write `#[component(debug)]`",
                        ),
                    );
                    crate::options::skip_value(meta)?;
                }
                debug = true;
                return Ok(true);
            }
            Ok(false)
        },
    );
    let krate = krate.get();
    let relation = relationship::parse(input, &mut errors);
    if let Some(relation) = &relation {
        relation.add_hooks(&mut hooks, &krate, &mut errors);
    }
    combine(errors)?;
    Ok(Options {
        krate,
        track_changes,
        debug,
        clone,
        hooks,
        requires,
        relation,
    })
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    use super::*;
    use crate::test_util::{input, messages};

    const UNION: &str = "`Component` cannot be derived for a union: a union's active field is \
                         unknown, so its value could not be dropped correctly; wrap it in a \
                         struct that knows which field is active and derive `Component` on that";

    fn crate_of(source: &str) -> String {
        let options = analyse(&input(source)).expect("a valid input");
        options.krate.to_token_stream().to_string()
    }

    #[test]
    fn structs_and_enums_of_every_shape_are_accepted() {
        for source in [
            "struct Unit;",
            "struct Tuple(f32, f32);",
            "struct Named { x: f32 }",
            "enum Team { Red, Blue }",
            "struct Generic<'a, T, const N: usize>(&'a [T; N]);",
        ] {
            assert_eq!(crate_of(source), ":: ecs_core", "{source}");
        }
    }

    #[test]
    fn the_crate_option_names_the_core_crate() {
        assert_eq!(
            crate_of(r#"#[component(crate = "::engine::ecs")] struct S;"#),
            ":: engine :: ecs"
        );
    }

    #[test]
    fn a_union_is_rejected_at_its_keyword() {
        let error = analyse(&input("union Bits { f: f32, u: u32 }"))
            .err()
            .unwrap();
        assert_eq!(messages(error), [(UNION.to_owned(), "union".to_owned())]);
    }

    #[test]
    fn a_union_and_bad_options_are_all_reported_union_first() {
        let source = r#"#[component(storage = "dense", crate = 1)] union U { f: f32 }"#;
        let error = analyse(&input(source)).err().unwrap();
        assert_eq!(
            messages(error),
            [
                (UNION.to_owned(), "union".to_owned()),
                (
                    "unknown `component` option `storage`; the options are: `track_changes`, \
                     `debug`, `on_add = f`, `on_insert = f`, `on_replace = f`, `on_remove = f`, \
                     `on_despawn = f`, `requires(A, B = expr)`, `clone`, `crate = \"path\"`"
                        .to_owned(),
                    "storage".to_owned(),
                ),
                (
                    "the `crate` option takes a string holding a path, e.g. `crate = \"my_ecs\"`"
                        .to_owned(),
                    "1".to_owned(),
                ),
            ]
        );
    }

    #[test]
    fn query_options_are_not_read() {
        assert_eq!(
            crate_of(r#"#[query(crate = "elsewhere")] struct S;"#),
            ":: ecs_core"
        );
    }

    #[test]
    fn a_plain_type_gets_an_impl_without_bounds() {
        let tokens = derive_component(&parse_quote!(
            struct Position {
                x: f32,
            }
        ))
        .unwrap();
        let expected = quote!(
            impl ::ecs_core::Component for Position {
                type Mut<'__ecs_w> = &'__ecs_w mut Self;
                fn as_debug(&self) -> ::core::option::Option<&dyn ::core::fmt::Debug> {
                    #[allow(unused_imports, reason = "only one of the two answers applies")]
                    use ::ecs_core::__private::{ViaDebug as _, WithoutDebug as _};
                    (&&::ecs_core::__private::DebugProbe(self)).debug_view()
                }
                fn clone_value(&self) -> ::core::option::Option<Self> {
                    #[allow(unused_imports, reason = "only one of the two answers applies")]
                    use ::ecs_core::__private::{ViaClone as _, WithoutClone as _};
                    (&&::ecs_core::__private::CloneProbe(self)).clone_view()
                }
            }
        );
        assert_eq!(tokens.to_string(), expected.to_string());
    }

    #[test]
    fn track_changes_sets_the_constant_the_reference_and_the_marker() {
        let tokens = derive_component(&parse_quote!(
            #[component(track_changes)]
            struct Health(i32);
        ))
        .unwrap();
        let expected = quote! {
            impl ::ecs_core::Component for Health {
                const TRACK_CHANGES: ::core::primitive::bool = true;
                type Mut<'__ecs_w> = ::ecs_core::change::Mut<'__ecs_w, Self>;
                fn as_debug(&self) -> ::core::option::Option<&dyn ::core::fmt::Debug> {
                    #[allow(unused_imports, reason = "only one of the two answers applies")]
                    use ::ecs_core::__private::{ViaDebug as _, WithoutDebug as _};
                    (&&::ecs_core::__private::DebugProbe(self)).debug_view()
                }
                fn clone_value(&self) -> ::core::option::Option<Self> {
                    #[allow(unused_imports, reason = "only one of the two answers applies")]
                    use ::ecs_core::__private::{ViaClone as _, WithoutClone as _};
                    (&&::ecs_core::__private::CloneProbe(self)).clone_view()
                }
            }
            impl ::ecs_core::TrackedComponent for Health {}
        };
        assert_eq!(tokens.to_string(), expected.to_string());
    }

    #[test]
    fn entity_fields_map_and_the_debug_option_shows_a_generic_type() {
        let tokens = derive_component(&parse_quote!(
            #[component(debug)]
            struct Link<T> {
                #[entity]
                to: Entity,
                weight: T,
            }
        ))
        .unwrap();
        let expected = quote! {
            impl<T> ::ecs_core::Component for Link<T>
            where
                Self: ::core::fmt::Debug,
                Self: ::core::marker::Send + ::core::marker::Sync + 'static
            {
                type Mut<'__ecs_w> = &'__ecs_w mut Self;
                const MAPS_ENTITIES: ::core::primitive::bool = true;
                fn map_entities<__EcsM: ::ecs_core::EntityMapper + ?::core::marker::Sized>(
                    &mut self,
                    mapper: &mut __EcsM,
                ) {
                    ::ecs_core::MapEntities::map_entities(&mut self.to, mapper);
                }
                fn as_debug(&self) -> ::core::option::Option<&dyn ::core::fmt::Debug> {
                    ::core::option::Option::Some(self)
                }
            }
        };
        assert_eq!(tokens.to_string(), expected.to_string());
    }

    #[test]
    fn debug_with_a_value_is_reported() {
        let error = analyse(&input("#[component(debug = true)] struct S;"))
            .err()
            .unwrap();
        assert_eq!(
            messages(error),
            [(
                "the `debug` option takes no value: write `#[component(debug)]`".to_owned(),
                "debug".to_owned(),
            )]
        );
    }

    #[test]
    fn track_changes_with_a_value_is_reported() {
        let error = analyse(&input("#[component(track_changes = true)] struct S;"))
            .err()
            .unwrap();
        assert_eq!(
            messages(error),
            [(
                "the `track_changes` option takes no value: write `#[component(track_changes)]`"
                    .to_owned(),
                "track_changes".to_owned(),
            )]
        );
    }

    #[test]
    fn a_generic_type_is_bounded_to_be_storable_after_its_own_bounds() {
        let tokens = derive_component(&parse_quote!(
            #[component(crate = "my_ecs")]
            struct Wrapper<'a, T: Clone, const N: usize>(&'a [T; N])
            where
                T: Default;
        ))
        .unwrap();
        let expected = quote! {
            impl<'a, T: Clone, const N: usize> my_ecs::Component for Wrapper<'a, T, N>
            where
                T: Default,
                Self: ::core::marker::Send + ::core::marker::Sync + 'static
            {
                type Mut<'__ecs_w> = &'__ecs_w mut Self;
            }
        };
        assert_eq!(tokens.to_string(), expected.to_string());
    }

    #[test]
    fn a_lifetime_alone_makes_a_type_generic() {
        let tokens = derive_component(&parse_quote!(
            struct Name<'a>(&'a str);
        ))
        .unwrap();
        let expected = quote! {
            impl<'a> ::ecs_core::Component for Name<'a>
            where
                Self: ::core::marker::Send + ::core::marker::Sync + 'static
            {
                type Mut<'__ecs_w> = &'__ecs_w mut Self;
            }
        };
        assert_eq!(tokens.to_string(), expected.to_string());
    }
}
