//! Parsing `#[name(...)]` options: every mistake reported at once, each at its own tokens.

use proc_macro2::TokenTree;
use quote::ToTokens;
use syn::Attribute;
use syn::meta::ParseNestedMeta;

/// Parses every `#[attr_name(...)]` attribute in `attrs`.
///
/// `known` handles one option and returns `Ok(true)` if it knew it. Unknown options
/// and errors are collected in `errors`; parsing goes on with the next option.
pub(crate) fn parse_options(
    attrs: &[Attribute],
    attr_name: &str,
    options: &str,
    errors: &mut Vec<syn::Error>,
    mut known: impl FnMut(&ParseNestedMeta<'_>, &mut Vec<syn::Error>) -> syn::Result<bool>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident(attr_name)) {
        let parsed = attr.parse_nested_meta(|meta| {
            if known(&meta, errors)? {
                return Ok(());
            }
            let name = meta.path.to_token_stream().to_string().replace(' ', "");
            errors.push(meta.error(format_args!(
                "unknown `{attr_name}` option `{name}`; the options are: {options}"
            )));
            skip_value(&meta)
        });
        if let Err(error) = parsed {
            errors.push(error);
        }
    }
}

/// Consumes an option's value (`= ...` or `(...)`) up to the next comma.
pub(crate) fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    meta.input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, TokenTree::Punct(p) if p.as_char() == ',') {
                break;
            }
            rest = next;
        }
        Ok(((), rest))
    })
}

/// Combines `errors` into one, if there are any.
pub(crate) fn combine(errors: Vec<syn::Error>) -> syn::Result<()> {
    let mut errors = errors.into_iter();
    let Some(mut all) = errors.next() else {
        return Ok(());
    };
    for error in errors {
        all.combine(error);
    }
    Err(all)
}
