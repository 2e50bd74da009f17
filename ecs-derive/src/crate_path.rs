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
