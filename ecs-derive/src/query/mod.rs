//! `#[derive(Query)]`: a struct of fetches that a query yields per entity.

mod expand;
pub(crate) mod fields;

use proc_macro2::TokenStream;
use syn::{Data, DeriveInput, Lifetime};

use crate::crate_path::CratePath;
use crate::options::{combine, parse_options};
use crate::world_lifetime::{Wording, world_lifetime};
use fields::{Mutability, QueryField};

const OPTIONS: &str = "`crate = \"path\"`, `mutable`";

/// Everything expansion needs, validated.
pub(crate) struct QueryInput<'a> {
    pub(crate) input: &'a DeriveInput,
    pub(crate) krate: syn::Path,
    pub(crate) world: Lifetime,
    pub(crate) fields: Vec<QueryField>,
    pub(crate) writes: bool,
}

pub(crate) fn derive_query(input: &DeriveInput) -> syn::Result<TokenStream> {
    analyse(input).map(|q| expand::expand(&q))
}

/// Validates the struct and reads its options, reporting every mistake at once.
fn analyse(input: &DeriveInput) -> syn::Result<QueryInput<'_>> {
    let mut errors = Vec::new();

    let mut krate = CratePath::new();
    let mut mutable = false;
    parse_options(
        &input.attrs,
        "query",
        OPTIONS,
        &mut errors,
        |meta, errors| {
            if krate.parse(meta, errors)? {
                return Ok(true);
            }
            if meta.path.is_ident("mutable") {
                if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
                    errors.push(
                        meta.error(
                            "the `mutable` option takes no value: write `#[query(mutable)]`",
                        ),
                    );
                    crate::options::skip_value(meta)?;
                }
                mutable = true;
                return Ok(true);
            }
            Ok(false)
        },
    );

    let world = world_lifetime(input, &WORDING, &mut errors);

    let fields = match &input.data {
        Data::Struct(data) => {
            if data.fields.is_empty() {
                errors.push(syn::Error::new_spanned(
                    &input.ident,
                    format!(
                        "`{}` has no fields, so a query would fetch nothing: add the components \
                         it reads and writes, e.g. `pos: &'w mut Position`",
                        input.ident
                    ),
                ));
            }
            fields::analyse(&data.fields, world.as_ref(), &mut errors)
        }
        Data::Enum(data) => {
            errors.push(syn::Error::new_spanned(
                data.enum_token,
                "`Query` can only be derived for a struct: an entity matches all of a \
                 query's fields at once, not one variant",
            ));
            Vec::new()
        }
        Data::Union(data) => {
            errors.push(syn::Error::new_spanned(
                data.union_token,
                "`Query` can only be derived for a struct, not a union",
            ));
            Vec::new()
        }
    };

    combine(errors)?;
    let writes = mutable || fields.iter().any(|f| f.mutability == Mutability::Writes);
    Ok(QueryInput {
        input,
        krate: krate.get(),
        world: world.expect("no error means the lifetime was found"),
        fields,
        writes,
    })
}

/// How lifetime errors name this derive's struct and fields.
const WORDING: Wording = Wording {
    kind: "a query struct",
    each: "component",
    every: "field",
    example: "`pos: &'w mut Position`",
};

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    use super::*;
    use crate::test_util::{input, messages, spans};

    /// The errors `analyse` reports for `source`.
    fn errors(source: &str) -> Vec<(String, String)> {
        match analyse(&input(source)) {
            Ok(_) => Vec::new(),
            Err(error) => messages(error),
        }
    }

    /// Whether the struct in `source` writes, by `analyse`.
    fn writes(source: &str) -> bool {
        analyse(&input(source))
            .expect("a valid query struct")
            .writes
    }

    #[test]
    fn a_valid_struct_yields_its_lifetime_path_and_fields() {
        let input = input("struct Mover<'w, T> { pos: &'w mut P, vel: &'w T, id: Entity }");
        let q = analyse(&input).expect("valid");
        assert_eq!(q.world.to_string(), "'w");
        assert_eq!(q.krate.to_token_stream().to_string(), ":: ecs_core");
        let members: Vec<_> = q
            .fields
            .iter()
            .map(|f| f.member.to_token_stream().to_string())
            .collect();
        assert_eq!(members, ["pos", "vel", "id"]);
        assert!(q.writes);
    }

    #[test]
    fn writes_follows_the_fields_unless_the_mutable_option_says_so() {
        assert!(writes("struct Q<'w>(&'w P, Option<&'w mut V>);"));
        assert!(!writes("struct Q<'w>(&'w P, Option<&'w V>, Entity);"));
        assert!(!writes("struct Q<'w> { inner: Inner<'w>, p: &'w P }"));
        assert!(writes(
            "#[query(mutable)] struct Q<'w> { inner: Inner<'w> }"
        ));
        assert!(writes("#[query(mutable)] struct Q<'w> { p: &'w P }"));
    }

    #[test]
    fn the_crate_option_names_the_core_crate() {
        let input = input(r#"#[query(mutable, crate = "engine::ecs")] struct Q<'w>(&'w P);"#);
        let q = analyse(&input).expect("valid");
        assert_eq!(q.krate.to_token_stream().to_string(), "engine :: ecs");
        assert!(q.writes);
    }

    #[test]
    fn mutable_with_a_value_is_reported_and_the_value_skipped() {
        let message = "the `mutable` option takes no value: write `#[query(mutable)]`";
        assert_eq!(
            errors("#[query(mutable = true)] struct Q<'w>(&'w P);"),
            [(message.to_owned(), "mutable".to_owned())]
        );
        let found = errors("#[query(mutable(yes), oops)] struct Q<'w>(&'w P);");
        let spans: Vec<_> = found.iter().map(|(_, span)| span.as_str()).collect();
        assert_eq!(spans, ["mutable", "oops"]);
        assert_eq!(found[0].0, message);
    }

    #[test]
    fn only_a_struct_that_writes_gets_a_read_only_twin() {
        let twin = |source: &str| {
            let tokens = derive_query(&input(source)).expect("valid").to_string();
            tokens.contains("struct MoverReadOnly")
        };
        assert!(twin("struct Mover<'w> { pos: &'w mut P }"));
        assert!(twin(
            "#[query(mutable)] struct Mover<'w> { inner: Inner<'w> }"
        ));
        assert!(!twin("struct Mover<'w> { pos: &'w P, inner: Inner<'w> }"));
    }

    #[test]
    fn an_unknown_option_lists_both_options() {
        assert_eq!(
            errors("#[query(read_only)] struct Q<'w>(&'w P);"),
            [(
                "unknown `query` option `read_only`; the options are: `crate = \"path\"`, \
                 `mutable`"
                    .to_owned(),
                "read_only".to_owned(),
            )]
        );
    }

    #[test]
    fn a_missing_lifetime_is_reported_at_the_name() {
        assert_eq!(
            errors("struct Plain<T> { pos: &'static T }"),
            [(
                "`Plain` needs a lifetime parameter for the borrow of the world: write \
                 `struct Plain<'w>` and borrow each component for it, e.g. \
                 `pos: &'w mut Position`"
                    .to_owned(),
                "Plain".to_owned(),
            )],
            "and without a world lifetime, no borrow is called foreign"
        );
    }

    #[test]
    fn a_second_lifetime_is_reported_at_itself() {
        assert_eq!(
            errors("struct Q<'w, T, 'x, 'y> { pos: &'w T }"),
            [(
                "a query struct takes exactly one lifetime parameter, the borrow of the world; \
                 borrow every field for that one"
                    .to_owned(),
                "'x".to_owned(),
            )]
        );
    }

    #[test]
    fn a_struct_without_fields_is_reported_at_its_name() {
        let message = "`Empty` has no fields, so a query would fetch nothing: add the \
                       components it reads and writes, e.g. `pos: &'w mut Position`";
        for source in [
            "struct Empty<'w>;",
            "struct Empty<'w> {}",
            "struct Empty<'w>();",
        ] {
            assert_eq!(
                errors(source),
                [(message.to_owned(), "Empty".to_owned())],
                "{source}"
            );
        }
    }

    #[test]
    fn an_enum_or_a_union_is_reported_at_its_keyword() {
        assert_eq!(
            errors("enum Either<'w> { A(&'w P), B(&'w V) }"),
            [(
                "`Query` can only be derived for a struct: an entity matches all of a query's \
                 fields at once, not one variant"
                    .to_owned(),
                "enum".to_owned(),
            )]
        );
        assert_eq!(
            errors("union U<'w> { a: &'w P }"),
            [(
                "`Query` can only be derived for a struct, not a union".to_owned(),
                "union".to_owned(),
            )]
        );
    }

    #[test]
    fn every_mistake_is_reported_at_once_options_first() {
        let found = analyse(&input(
            r#"#[query(crate = 3)] #[query(fast)] struct Q { a: P, b: &'x mut V, c: &'x V }"#,
        ))
        .err()
        .unwrap();
        assert_eq!(spans(found), ["3", "fast", "Q", "P", "&'x V"]);
    }
}
