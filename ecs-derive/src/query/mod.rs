//! `#[derive(Query)]`: a struct of fetches that a query yields per entity.

mod expand;
mod fields;

use proc_macro2::TokenStream;
use syn::{Data, DeriveInput, GenericParam, Lifetime};

use crate::crate_path::CratePath;
use crate::options::{combine, parse_options};
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

    let world = world_lifetime(input, &mut errors);

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
    Ok(expand::expand(&QueryInput {
        input,
        krate: krate.get(),
        world: world.expect("no error means the lifetime was found"),
        fields,
        writes,
    }))
}

/// The struct's one lifetime parameter: the borrow of the world.
fn world_lifetime(input: &DeriveInput, errors: &mut Vec<syn::Error>) -> Option<Lifetime> {
    let lifetimes: Vec<&Lifetime> = input
        .generics
        .params
        .iter()
        .filter_map(|param| match param {
            GenericParam::Lifetime(def) => Some(&def.lifetime),
            _ => None,
        })
        .collect();
    match lifetimes.as_slice() {
        [one] => Some((*one).clone()),
        [] => {
            errors.push(syn::Error::new_spanned(
                &input.ident,
                format!(
                    "`{name}` needs a lifetime parameter for the borrow of the world: \
                     write `struct {name}<'w>` and borrow each component for it, e.g. \
                     `pos: &'w mut Position`",
                    name = input.ident
                ),
            ));
            None
        }
        [_, extra, ..] => {
            errors.push(syn::Error::new_spanned(
                extra,
                "a query struct takes exactly one lifetime parameter, the borrow of the world; \
                 borrow every field for that one",
            ));
            None
        }
    }
}
