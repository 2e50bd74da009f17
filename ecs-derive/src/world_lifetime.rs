//! The one lifetime parameter that `#[derive(Query)]` and
//! `#[derive(SystemParam)]` structs borrow the world for, and how each
//! derive words a struct that gets it wrong.

use syn::{DeriveInput, GenericParam, Lifetime};

/// How a derive names its struct and its fields in lifetime errors.
pub(crate) struct Wording {
    /// The struct, for the "exactly one" error: "a query struct".
    pub(crate) kind: &'static str,
    /// What each field borrows, for the "needs one" error: "component".
    pub(crate) each: &'static str,
    /// What every field is, for the "exactly one" error: "field".
    pub(crate) every: &'static str,
    /// A field written right: "`pos: &'w mut Position`".
    pub(crate) example: &'static str,
}

/// The struct's one lifetime parameter: the borrow of the world. Reports a
/// struct with none at its name, and one with several at the second.
pub(crate) fn world_lifetime(
    input: &DeriveInput,
    wording: &Wording,
    errors: &mut Vec<syn::Error>,
) -> Option<Lifetime> {
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
                    "`{name}` needs a lifetime parameter for the borrow of the world: write \
                     `struct {name}<'w>` and borrow each {each} for it, e.g. {example}",
                    name = input.ident,
                    each = wording.each,
                    example = wording.example,
                ),
            ));
            None
        }
        [_, extra, ..] => {
            errors.push(syn::Error::new_spanned(
                extra,
                format!(
                    "{} takes exactly one lifetime parameter, the borrow of the world; \
                     borrow every {} for that one",
                    wording.kind, wording.every
                ),
            ));
            None
        }
    }
}
