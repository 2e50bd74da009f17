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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::{input, messages};

    /// Runs `parse_options` for `#[demo(...)]` over `source`'s attributes,
    /// knowing only the option `known`. Returns how often `known` was seen and
    /// every error, with the text it points at.
    fn parse_demo(source: &str) -> (usize, Vec<(String, String)>) {
        let input = input(source);
        let mut errors = Vec::new();
        let mut seen = 0;
        parse_options(&input.attrs, "demo", "`known`", &mut errors, |meta, _| {
            if meta.path.is_ident("known") {
                seen += 1;
                return Ok(true);
            }
            if meta.path.is_ident("number") {
                meta.value()?.parse::<syn::LitInt>()?;
                return Ok(true);
            }
            Ok(false)
        });
        let errors = combine(errors).err().map(messages).unwrap_or_default();
        (seen, errors)
    }

    #[test]
    fn unknown_option_is_reported_at_its_name_and_parsing_goes_on() {
        let (seen, errors) = parse_demo(r#"#[demo(colour = "red", known)] struct S;"#);
        assert_eq!(seen, 1);
        assert_eq!(
            errors,
            [(
                "unknown `demo` option `colour`; the options are: `known`".to_owned(),
                "colour".to_owned(),
            )]
        );
    }

    #[test]
    fn unknown_option_path_is_named_without_spaces() {
        let (_, errors) = parse_demo("#[demo(some::path = 1)] struct S;");
        assert_eq!(
            errors,
            [(
                "unknown `demo` option `some::path`; the options are: `known`".to_owned(),
                "some::path".to_owned(),
            )]
        );
    }

    #[test]
    fn every_unknown_option_is_reported_whatever_its_value() {
        let (seen, errors) =
            parse_demo("#[demo(a = [1, 2], b(x, y), c, d = x::<u8>, known)] struct S;");
        assert_eq!(seen, 1, "the values of a, b, c and d are skipped whole");
        let spans: Vec<_> = errors.into_iter().map(|(_, span)| span).collect();
        assert_eq!(spans, ["a", "b", "c", "d"]);
    }

    #[test]
    fn only_attributes_of_the_given_name_are_read_and_all_of_them() {
        let source = r#"
            #[other(colour)]
            #[doc = "demo(colour)"]
            #[demo(known)]
            #[demo(known, size)]
            struct S;
        "#;
        let (seen, errors) = parse_demo(source);
        assert_eq!(seen, 2);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].1, "size");
    }

    #[test]
    fn an_error_inside_an_option_abandons_the_rest_of_its_attribute_only() {
        let source = r#"#[demo(number = "x", known)] #[demo(known)] struct S;"#;
        let (seen, errors) = parse_demo(source);
        assert_eq!(
            seen, 1,
            "the first attribute's `known` comes after the error"
        );
        assert_eq!(
            errors,
            [("expected integer literal".to_owned(), r#""x""#.to_owned())]
        );
    }

    #[test]
    fn an_unparsable_attribute_is_reported() {
        let (seen, errors) = parse_demo("#[demo(known known)] struct S;");
        assert_eq!(seen, 1);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].1, "known", "at the second `known`: {errors:?}");
    }

    #[test]
    fn combine_without_errors_is_ok() {
        assert!(combine(Vec::new()).is_ok());
    }

    #[test]
    fn combine_keeps_every_error_in_order() {
        let span = proc_macro2::Span::call_site();
        let errors = ["first", "second", "third"]
            .map(|message| syn::Error::new(span, message))
            .into();
        let combined = combine(errors).expect_err("three errors");
        let texts: Vec<_> = combined.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(texts, ["first", "second", "third"]);
    }
}
