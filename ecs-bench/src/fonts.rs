//! The font charts are drawn with.
//!
//! With the `peers` feature, plotters (the compare binary's charts, and
//! criterion's own plots, which share the crate) draws text with ab_glyph,
//! which knows only fonts registered at run time; there is no system font
//! lookup, so a machine without fontconfig draws the same charts.

/// Registers DejaVu Sans, embedded from the `dejavu` crate, under every family
/// name plotters and criterion ask for. Does nothing without the `peers`
/// feature (plotters then needs no font); safe to call more than once.
pub fn register_chart_fonts() {
    #[cfg(feature = "peers")]
    {
        static REGISTER: std::sync::Once = std::sync::Once::new();
        REGISTER.call_once(|| {
            for family in ["sans-serif", "serif", "monospace"] {
                let style = plotters::style::FontStyle::Normal;
                if plotters::style::register_font(family, style, dejavu::sans::regular()).is_err() {
                    panic!("the embedded DejaVu Sans font does not parse");
                }
            }
        });
    }
}
