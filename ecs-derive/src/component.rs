//! `#[derive(Component)]`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Path, parse_quote};

use crate::crate_path::CratePath;
use crate::options::{combine, parse_options};

const OPTIONS: &str = "`crate = \"path\"`";

pub(crate) fn derive_component(input: &DeriveInput) -> syn::Result<TokenStream> {
    let krate = analyse(input)?;
    let name = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    let mut where_clause = where_clause.cloned();
    if !input.generics.params.is_empty() {
        // Generic parameters must make the type storable; a non-generic type is
        // checked by the trait's own supertraits, with the clearer message.
        where_clause
            .get_or_insert_with(|| parse_quote!(where))
            .predicates
            .push(parse_quote!(
                Self: ::core::marker::Send + ::core::marker::Sync + 'static
            ));
    }
    Ok(quote! {
        impl #impl_generics #krate::Component for #name #type_generics #where_clause {}
    })
}

/// Checks that the type can be a component and reads its options: the path
/// to the core crate, or every mistake at once.
fn analyse(input: &DeriveInput) -> syn::Result<Path> {
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
    parse_options(
        &input.attrs,
        "component",
        OPTIONS,
        &mut errors,
        |meta, errors| krate.parse(meta, errors),
    );
    combine(errors)?;
    Ok(krate.get())
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
        let path = analyse(&input(source)).expect("a valid input");
        path.to_token_stream().to_string()
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
                    "unknown `component` option `storage`; the options are: `crate = \"path\"`"
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
        let expected = quote!(impl ::ecs_core::Component for Position {});
        assert_eq!(tokens.to_string(), expected.to_string());
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
            {}
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
            {}
        };
        assert_eq!(tokens.to_string(), expected.to_string());
    }
}
