//! Chart primitives on `plotters`' SVG backend: log–log scatter with the
//! diagonal, step curves, horizontal grouped bars and heat-map panels. Text is
//! left to the SVG viewer (`plotters` only estimates its size), in a font list
//! that reaches a CJK face on Debian (`fonts-noto-cjk`).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor;

/// The font list written into every `<text>` (the first installed face wins;
/// Noto Sans CJK covers the kanji in problem names and piece kinds).
pub const FONT: &str = "Noto Sans CJK JP, Noto Sans, DejaVu Sans, sans-serif";

/// A drawing area of an SVG being built.
pub type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Series colours (Okabe–Ito, distinguishable with colour-vision deficiencies).
pub const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
];

fn err(e: impl std::fmt::Display) -> String {
    format!("drawing a figure: {e}")
}

/// Draws `f` on a fresh `w × h` white SVG and returns its text.
///
/// # Errors
/// What `f` or the backend reports.
pub fn svg(
    w: u32,
    h: u32,
    f: impl FnOnce(&Area<'_>) -> Result<(), String>,
) -> Result<String, String> {
    let mut s = String::new();
    {
        let root = SVGBackend::with_string(&mut s, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        f(&root)?;
        root.present().map_err(err)?;
    }
    Ok(s)
}

/// Splits off a title strip of `px` pixels at the top, writes `title` there and returns the rest.
///
/// # Errors
/// What the backend reports.
pub fn titled<'a>(area: &Area<'a>, title: &str, px: u32) -> Result<Area<'a>, String> {
    let (top, rest) = area.split_vertically(px);
    let (w, h) = top.dim_in_pixel();
    top.draw(&Text::new(
        title.to_string(),
        (w as i32 / 2, h as i32 / 2),
        TextStyle::from((FONT, 20).into_font().style(FontStyle::Bold)).pos(text_anchor::Pos::new(
            text_anchor::HPos::Center,
            text_anchor::VPos::Center,
        )),
    ))
    .map_err(err)?;
    Ok(rest)
}

/// One set of points of a scatter plot.
pub struct Points {
    /// Legend text.
    pub label: String,
    /// `(x, y)`; non-positive values cannot be drawn on log axes and are clamped to the axis minimum.
    pub points: Vec<(f64, f64)>,
    /// Colour.
    pub color: RGBColor,
    /// Filled dot (true) or ring.
    pub filled: bool,
}

/// Axis range for log axes: powers of ten around the positive data, clamped below by `floor`.
pub fn log_range(values: impl IntoIterator<Item = f64>, floor: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, 0f64);
    for v in values {
        if v > 0.0 && v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    if !lo.is_finite() {
        return (floor.max(1e-3), 1.0);
    }
    let lo = 10f64.powf(lo.max(floor).log10().floor());
    let hi = 10f64.powf(hi.log10().ceil()).max(lo * 10.0);
    (lo, hi)
}

/// Number text with an SI suffix and about three significant digits (`1829` → `1.83k`,
/// `8.38e9` → `8.38G`, `0.05` → `0.05`).
pub fn tick(v: f64) -> String {
    let (x, suffix) = if v >= 1e9 {
        (v / 1e9, "G")
    } else if v >= 1e6 {
        (v / 1e6, "M")
    } else if v >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let digits = if x >= 100.0 || x == x.round() {
        0
    } else if x >= 10.0 {
        1
    } else if x >= 1.0 {
        2
    } else {
        3
    };
    let s = format!("{x:.digits$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    format!("{s}{suffix}")
}

/// A log–log scatter plot on `area`, both axes over `range`, with the diagonal y = x drawn
/// when `diagonal` (and labelled `diagonal_label`).
///
/// # Errors
/// What the backend reports.
#[allow(clippy::too_many_arguments)]
pub fn scatter(
    area: &Area<'_>,
    caption: &str,
    x_label: &str,
    y_label: &str,
    range: (f64, f64),
    sets: &[Points],
    diagonal: Option<&str>,
    legend_at: SeriesLabelPosition,
) -> Result<(), String> {
    let (lo, hi) = range;
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 18))
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d((lo..hi).log_scale(), (lo..hi).log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .axis_desc_style((FONT, 16))
        .label_style((FONT, 14))
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(err)?;
    if let Some(label) = diagonal {
        chart
            .draw_series(LineSeries::new(
                [(lo, lo), (hi, hi)],
                ShapeStyle::from(&BLACK.mix(0.5)).stroke_width(1),
            ))
            .map_err(err)?
            .label(label)
            .legend(|(x, y)| PathElement::new([(x, y), (x + 18, y)], BLACK.mix(0.5)));
    }
    for s in sets {
        let style = if s.filled {
            s.color.mix(0.75).filled()
        } else {
            s.color.stroke_width(2)
        };
        let clamp = |v: f64| v.max(lo).min(hi);
        chart
            .draw_series(
                s.points
                    .iter()
                    .map(|&(x, y)| Circle::new((clamp(x), clamp(y)), 4, style)),
            )
            .map_err(err)?
            .label(s.label.clone())
            .legend(move |(x, y)| Circle::new((x + 9, y), 4, style));
    }
    legend(&mut chart, legend_at)
}

fn legend<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    at: SeriesLabelPosition,
) -> Result<(), String>
where
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    chart
        .configure_series_labels()
        .position(at)
        .label_font((FONT, 14))
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .draw()
        .map_err(err)
}

/// One step curve: `(x, y)` points in increasing x; drawn as a staircase.
pub struct Curve {
    /// Legend text.
    pub label: String,
    /// Points where the curve steps up.
    pub points: Vec<(f64, f64)>,
    /// Colour.
    pub color: RGBColor,
}

/// Step curves on a log x axis `x_range` and a linear y axis `0..y_max`.
///
/// # Errors
/// What the backend reports.
pub fn steps(
    area: &Area<'_>,
    caption: &str,
    x_label: &str,
    y_label: &str,
    x_range: (f64, f64),
    y_max: f64,
    curves: &[Curve],
) -> Result<(), String> {
    let (lo, hi) = x_range;
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 18))
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d((lo..hi).log_scale(), 0f64..y_max)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .axis_desc_style((FONT, 16))
        .label_style((FONT, 14))
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(err)?;
    for c in curves {
        let mut path = vec![(lo, 0.0)];
        let mut last = 0.0;
        for &(x, y) in &c.points {
            let x = x.max(lo).min(hi);
            path.push((x, last));
            path.push((x, y));
            last = y;
        }
        path.push((hi, last));
        let color = c.color;
        chart
            .draw_series(LineSeries::new(path, color.stroke_width(2)))
            .map_err(err)?
            .label(format!("{} ({last:.0})", c.label))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], color.stroke_width(2)));
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft)
}

/// One group of horizontal bars: a value per category (`None`: no bar, the category lacks it).
pub struct Bars {
    /// Legend text.
    pub label: String,
    /// One value per category.
    pub values: Vec<Option<f64>>,
    /// Colour.
    pub color: RGBColor,
}

/// Horizontal grouped bars on a log x axis: one row per category (top to bottom), one
/// bar per group within it, each bar's value written at its end (a legend when there are
/// several groups). Empty category strings leave the axis unlabelled (a panel beside another).
///
/// # Errors
/// What the backend reports.
#[allow(clippy::too_many_arguments)]
pub fn hbars(
    area: &Area<'_>,
    caption: &str,
    x_label: &str,
    categories: &[String],
    groups: &[Bars],
    label_area: u32,
    value_text: &dyn Fn(f64) -> String,
) -> Result<(), String> {
    let (lo, hi) = log_range(
        groups
            .iter()
            .flat_map(|g| g.values.iter().flatten().copied()),
        0.0,
    );
    let hi = hi * 8.0; // room for the value texts and the legend
    let n = categories.len();
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 18))
        .margin(12)
        .x_label_area_size(48)
        .y_label_area_size(label_area)
        .build_cartesian_2d((lo..hi).log_scale(), -0.5f64..n as f64 - 0.5)
        .map_err(err)?;
    let cats = categories.to_vec();
    chart
        .configure_mesh()
        .x_desc(x_label)
        .axis_desc_style((FONT, 16))
        .label_style((FONT, 14))
        .x_label_formatter(&|v| tick(*v))
        .y_labels(n)
        .y_label_formatter(&move |v| {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < cats.len() {
                cats[n - 1 - i as usize].clone()
            } else {
                String::new()
            }
        })
        .disable_y_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(err)?;
    let k = groups.len().max(1) as f64;
    let band = 0.8 / k;
    for (gi, g) in groups.iter().enumerate() {
        let color = g.color;
        let rects: Vec<_> = g
            .values
            .iter()
            .enumerate()
            .filter_map(|(ci, v)| {
                let v = (*v)?;
                let row = (n - 1 - ci) as f64;
                let top = row + 0.4 - gi as f64 * band;
                Some((v, top))
            })
            .collect();
        chart
            .draw_series(rects.iter().map(|&(v, top)| {
                Rectangle::new([(lo, top), (v.max(lo), top - band * 0.9)], color.filled())
            }))
            .map_err(err)?
            .label(g.label.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], color.filled()));
        chart
            .draw_series(rects.iter().map(|&(v, top)| {
                Text::new(
                    format!(" {}", value_text(v)),
                    (v.max(lo), top - band * 0.45),
                    TextStyle::from((FONT, 12).into_font()).pos(text_anchor::Pos::new(
                        text_anchor::HPos::Left,
                        text_anchor::VPos::Center,
                    )),
                )
            }))
            .map_err(err)?;
    }
    if groups.len() > 1 {
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
    }
    Ok(())
}

/// White → dark blue for a probability in [0, 1], on a square-root scale so that small
/// probabilities (1/20 for the king of an unmoved piece) stay visible.
pub fn heat(p: f64) -> RGBColor {
    let v = p.clamp(0.0, 1.0).sqrt();
    let mix = |a: f64, b: f64| (a + (b - a) * v).round() as u8;
    RGBColor(mix(255.0, 8.0), mix(255.0, 48.0), mix(255.0, 107.0))
}

/// One heat-map panel: `cells[row][col]` in [0, 1]; column `c` spans x ∈ [c, c + 1],
/// row `r` spans y ∈ [r, r + 1] (row 0 at the top; a tick `n` marks the end of row `n`,
/// counting rows from 1).
///
/// # Errors
/// What the backend reports.
pub fn heatmap(
    area: &Area<'_>,
    caption: &str,
    x_label: &str,
    y_label: &str,
    cells: &[Vec<f64>],
) -> Result<(), String> {
    let rows = cells.len();
    let cols = cells.first().map_or(0, Vec::len);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 16))
        .margin(6)
        .x_label_area_size(if x_label.is_empty() { 22 } else { 40 })
        .y_label_area_size(52)
        .build_cartesian_2d(0f64..cols as f64, rows as f64..0f64)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .axis_desc_style((FONT, 13))
        .label_style((FONT, 11))
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_labels(5)
        .y_label_formatter(&|v| {
            if v.fract().abs() < 1e-9 && *v >= 1.0 {
                format!("{v:.0}")
            } else {
                String::new()
            }
        })
        .draw()
        .map_err(err)?;
    // One rectangle per run of equal colour along a row (keeps the SVG small).
    let mut runs = Vec::new();
    for (r, row) in cells.iter().enumerate() {
        let mut c0 = 0;
        for c in 1..=row.len() {
            if c == row.len() || heat(row[c]) != heat(row[c0]) {
                runs.push((r, c0, c, heat(row[c0])));
                c0 = c;
            }
        }
    }
    chart
        .draw_series(runs.into_iter().map(|(r, c0, c1, color)| {
            Rectangle::new(
                [(c0 as f64, r as f64), (c1 as f64, r as f64 + 1.0)],
                color.filled(),
            )
        }))
        .map_err(err)?;
    Ok(())
}

/// A horizontal colour bar for [`heat`] (positions on its square-root scale, ticks labelled
/// with the probability they stand for) and a label.
///
/// # Errors
/// What the backend reports.
pub fn colorbar(area: &Area<'_>, label: &str) -> Result<(), String> {
    let mut chart = ChartBuilder::on(area)
        .margin_left(200)
        .margin_right(200)
        .margin_top(4)
        .x_label_area_size(36)
        .build_cartesian_2d(0f64..1f64, 0f64..1f64)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .disable_y_axis()
        .x_labels(11)
        .x_desc(label)
        .axis_desc_style((FONT, 14))
        .label_style((FONT, 12))
        .x_label_formatter(&|v| tick(v * v))
        .draw()
        .map_err(err)?;
    chart
        .draw_series((0..100).map(|i| {
            let a = i as f64 / 100.0;
            let mid = a + 0.005;
            Rectangle::new([(a, 0.0), (a + 0.0101, 1.0)], heat(mid * mid).filled())
        }))
        .map_err(err)?;
    Ok(())
}
