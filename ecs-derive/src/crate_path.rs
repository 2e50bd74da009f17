//! The `crate = "path"` option shared by every derive.

use syn::meta::ParseNestedMeta;
use syn::{Expr, ExprLit, Lit, Path, parse_quote};

use crate::options::skip_value;

/// The path generated code uses to name the core crate.
pub(crate) struct CratePath(Option<Path>);

impl CratePath {
    pub(crate) fn new() -> Self {
        Self(None)
    }

    /// Parses `crate = "path"` if `meta` is that option; returns whether it was.
    /// A malformed value is reported in `errors` and parsing goes on.
    pub(crate) fn parse(
        &mut self,
        meta: &ParseNestedMeta<'_>,
        errors: &mut Vec<syn::Error>,
    ) -> syn::Result<bool> {
        if !meta.path.is_ident("crate") {
            return Ok(false);
        }
        if !meta.input.peek(syn::Token![=]) {
            errors.push(meta.error(
                "the `crate` option takes a string holding a path, e.g. `crate = \"my_ecs\"`",
            ));
            skip_value(meta)?;
            return Ok(true);
        }
        let value: Expr = meta.value()?.parse()?;
        let Expr::Lit(ExprLit {
            lit: Lit::Str(literal),
            ..
        }) = &value
        else {
            errors.push(syn::Error::new_spanned(
                &value,
                "the `crate` option takes a string holding a path, e.g. `crate = \"my_ecs\"`",
            ));
            return Ok(true);
        };
        if self.0.is_some() {
            errors.push(syn::Error::new_spanned(literal, "`crate` is given twice"));
            return Ok(true);
        }
        match literal.parse::<Path>() {
            Ok(path) => self.0 = Some(path),
            Err(_) => errors.push(syn::Error::new_spanned(
                literal,
                format!(
                    "the `crate` option must be a path to ecs_core, such as `crate = \"my_ecs\"` \
                     or `crate = \"::engine::ecs\"`; `{:?}` is not a path",
                    literal.value()
                ),
            )),
        }
        Ok(true)
    }

    /// The chosen path, `::ecs_core` by default.
    pub(crate) fn get(self) -> Path {
        self.0.unwrap_or_else(|| parse_quote!(::ecs_core))
    }
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    use super::*;
    use crate::options::{combine, parse_options};
    use crate::test_util::{input, messages};

    const NOT_A_STRING: &str =
        "the `crate` option takes a string holding a path, e.g. `crate = \"my_ecs\"`";

    /// The path chosen by the `#[demo(...)]` attributes of `source`, as tokens
    /// printed, and every error with the text it points at.
    fn crate_option(source: &str) -> (String, Vec<(String, String)>) {
        let input = input(source);
        let mut errors = Vec::new();
        let mut krate = CratePath::new();
        parse_options(
            &input.attrs,
            "demo",
            "`crate`",
            &mut errors,
            |meta, errors| krate.parse(meta, errors),
        );
        let errors = combine(errors).err().map(messages).unwrap_or_default();
        (krate.get().to_token_stream().to_string(), errors)
    }

    #[test]
    fn default_is_the_absolute_core_crate() {
        assert_eq!(
            crate_option("struct S;"),
            (":: ecs_core".to_owned(), vec![])
        );
    }

    #[test]
    fn a_string_path_replaces_the_default() {
        let (path, errors) = crate_option(r#"#[demo(crate = "my_ecs")] struct S;"#);
        assert_eq!((path.as_str(), errors), ("my_ecs", vec![]));
        let (path, errors) = crate_option(r#"#[demo(crate = "::engine::ecs")] struct S;"#);
        assert_eq!((path.as_str(), errors), (":: engine :: ecs", vec![]));
    }

    #[test]
    fn other_options_are_left_to_the_caller() {
        let (path, errors) = crate_option(r#"#[demo(krate = "x")] struct S;"#);
        assert_eq!(path, ":: ecs_core");
        assert_eq!(
            errors,
            [(
                "unknown `demo` option `krate`; the options are: `crate`".to_owned(),
                "krate".to_owned(),
            )]
        );
    }

    #[test]
    fn crate_without_a_value_is_reported_at_the_name_and_parsing_goes_on() {
        let (path, errors) =
            crate_option(r#"#[demo(crate, crate(my_ecs), crate = "later")] struct S;"#);
        assert_eq!(path, "later");
        assert_eq!(
            errors,
            [
                (NOT_A_STRING.to_owned(), "crate".to_owned()),
                (NOT_A_STRING.to_owned(), "crate".to_owned()),
            ]
        );
    }

    #[test]
    fn a_value_that_is_not_a_string_is_reported_at_the_value() {
        let (path, errors) = crate_option("#[demo(crate = my_ecs, crate = 5)] struct S;");
        assert_eq!(path, ":: ecs_core");
        assert_eq!(
            errors,
            [
                (NOT_A_STRING.to_owned(), "my_ecs".to_owned()),
                (NOT_A_STRING.to_owned(), "5".to_owned()),
            ]
        );
    }

    #[test]
    fn a_string_that_is_not_a_path_is_quoted_in_the_error() {
        let (path, errors) = crate_option(r#"#[demo(crate = "my ecs")] struct S;"#);
        assert_eq!(path, ":: ecs_core");
        assert_eq!(
            errors,
            [(
                "the `crate` option must be a path to ecs_core, such as `crate = \"my_ecs\"` \
                 or `crate = \"::engine::ecs\"`; `\"my ecs\"` is not a path"
                    .to_owned(),
                r#""my ecs""#.to_owned(),
            )]
        );
    }

    #[test]
    fn the_second_path_is_reported_and_the_first_kept() {
        let (path, errors) = crate_option(
            r#"#[demo(crate = "first")] #[demo(crate = "second", crate = "third")] struct S;"#,
        );
        assert_eq!(path, "first");
        assert_eq!(
            errors,
            [
                (
                    "`crate` is given twice".to_owned(),
                    r#""second""#.to_owned()
                ),
                ("`crate` is given twice".to_owned(), r#""third""#.to_owned()),
            ]
        );
    }

    #[test]
    fn a_rejected_path_does_not_count_as_given() {
        let (path, errors) = crate_option(r#"#[demo(crate = "1x", crate = "ok")] struct S;"#);
        assert_eq!(path, "ok");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].1, r#""1x""#);
    }
}
