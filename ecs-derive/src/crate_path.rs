//! The `crate = "path"` option shared by every derive.

use syn::meta::ParseNestedMeta;
use syn::{LitStr, Path, parse_quote};

/// The path generated code uses to name the core crate.
pub(crate) struct CratePath(Option<Path>);

impl CratePath {
    pub(crate) fn new() -> Self {
        Self(None)
    }

    /// Parses `crate = "path"` if `meta` is that option; returns whether it was.
    pub(crate) fn parse(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<bool> {
        if !meta.path.is_ident("crate") {
            return Ok(false);
        }
        let literal: LitStr = meta.value()?.parse()?;
        if self.0.is_some() {
            return Err(syn::Error::new_spanned(literal, "`crate` is given twice"));
        }
        self.0 = Some(literal.parse()?);
        Ok(true)
    }

    /// The chosen path, `::ecs_core` by default.
    pub(crate) fn get(self) -> Path {
        self.0.unwrap_or_else(|| parse_quote!(::ecs_core))
    }
}
