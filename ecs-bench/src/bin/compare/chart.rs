//! One horizontal bar chart per workload, as PNG, with an embedded font so no
//! system font library is needed.

use std::path::Path;

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One bar.
pub struct Bar {
    /// The row label.
    pub name: String,
    /// The bar's length, in the chart's unit.
    pub value: f64,
    /// The text printed after the bar.
    pub label: String,
}

/// The font family every chart uses.
const FONT: &str = "sans-serif";

/// The colour of a contender's bar: ours stand out, ideal is grey.
fn colour(name: &str) -> RGBColor {
    if name == "ideal" {
        RGBColor(150, 150, 150)
    } else if name == "ours" || name.starts_with("ours_") {
        RGBColor(230, 115, 20)
    } else {
        RGBColor(60, 110, 170)
    }
}

/// Draws `bars` top to bottom into the PNG at `path`.
pub fn draw(path: &Path, title: &str, axis: &str, bars: &[Bar]) -> Result<(), String> {
    ecs_bench::fonts::register_chart_fonts();
    let rows = bars.len() as i32;
    let height = 110 + 34 * bars.len() as u32;
    let root = BitMapBackend::new(path, (960, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let longest = bars.iter().map(|b| b.value).fold(0.0, f64::max);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, (FONT, 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(150)
        .build_cartesian_2d(0.0..longest * 1.3, (0..rows - 1).into_segmented())
        .map_err(|e| e.to_string())?;
    // Row `i` of `bars` is drawn in segment `rows - 1 - i`, so the first is on top.
    let segment = |i: usize| rows - 1 - i as i32;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc(axis)
        .label_style((FONT, 15))
        .y_label_formatter(&|value| match value {
            SegmentValue::CenterOf(row) => bars
                .get((rows - 1 - row) as usize)
                .map(|bar| bar.name.clone())
                .unwrap_or_default(),
            _ => String::new(),
        })
        .draw()
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(bars.iter().enumerate().map(|(i, bar)| {
            let row = segment(i);
            let mut rect = Rectangle::new(
                [
                    (0.0, SegmentValue::Exact(row)),
                    (bar.value, SegmentValue::Exact(row + 1)),
                ],
                colour(&bar.name).filled(),
            );
            rect.set_margin(5, 5, 0, 0);
            rect
        }))
        .map_err(|e| e.to_string())?;
    let label_style =
        TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    chart
        .draw_series(bars.iter().enumerate().map(|(i, bar)| {
            Text::new(
                format!("  {}", bar.label),
                (bar.value, SegmentValue::CenterOf(segment(i))),
                label_style.clone(),
            )
        }))
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
