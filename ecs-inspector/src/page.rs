//! The page: one HTML file, its script and its style sheet, compiled into
//! the binary so the inspector works offline, with nothing to build.

/// `/`: the page.
pub(crate) const INDEX_HTML: &str = include_str!("page/index.html");
/// `/inspector.js`: plain JavaScript, no framework.
pub(crate) const SCRIPT: &str = include_str!("page/inspector.js");
/// `/inspector.css`.
pub(crate) const STYLE: &str = include_str!("page/inspector.css");
