//! Helpers for the unit tests: inputs parsed from source text, so that spans
//! carry it, and errors as messages with the text they point at.

use syn::DeriveInput;

/// Parses `source` as a derive input.
pub(crate) fn input(source: &str) -> DeriveInput {
    syn::parse_str(source).expect("test input parses")
}

/// Each message in `error`, in order, with the source text its span covers
/// (empty for a span that points at no source, such as one from `parse_quote!`).
pub(crate) fn messages(error: syn::Error) -> Vec<(String, String)> {
    error
        .into_iter()
        .map(|e| (e.to_string(), e.span().source_text().unwrap_or_default()))
        .collect()
}

/// The span texts of each message in `error`, in order.
pub(crate) fn spans(error: syn::Error) -> Vec<String> {
    messages(error).into_iter().map(|(_, span)| span).collect()
}
