//! The SVG chart of `ttt bench --chart`: nanoseconds per check on a log scale, one group of
//! bars per scenario, one bar per method. Drawn with plotters' SVG backend only (no font or
//! bitmap dependencies: the SVG names a font family and the viewer renders the text).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, anyhow};
use plotters::prelude::*;
use tictactoe::file::AtomicFile;

/// One bar: scenario, method, nanoseconds per check.
pub struct Bar<'a> {
    /// Scenario name.
    pub scenario: &'a str,
    /// Method name.
    pub method: &'a str,
    /// Nanoseconds per check.
    pub ns: f64,
}

/// Colours per method, in the order methods first appear: one for each of the ten methods.
const COLOURS: [RGBColor; 10] = [
    RGBColor(120, 120, 120),
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
];
const _: () = assert!(
    COLOURS.len() >= tictactoe::status::Method::ALL.len(),
    "a colour per method"
);

fn distinct<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen: Vec<&str> = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    seen
}

/// Writes the chart to `path`: drawn in memory, then written atomically (a regular file
/// appears complete or not at all), or as a stream to a device or FIFO. A failed write is an
/// I/O error naming the path.
pub fn write(path: &Path, bars: &[Bar<'_>], title: &str) -> anyhow::Result<()> {
    let mut svg = String::new();
    draw(&mut svg, bars, title).map_err(|e| anyhow!("drawing the chart: {e}"))?;
    save(path, svg.as_bytes())
        .with_context(|| format!("cannot write the chart to {}", path.display()))
}

/// Checks before a run that the chart can be written to `path`, leaving nothing behind: its
/// directory is created, and an existing file is opened for writing (not truncated) or a
/// temporary file created beside it and removed.
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let context = || format!("cannot write the chart to {}", path.display());
    if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file() && !meta.is_dir()) {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(context)?;
    } else {
        AtomicFile::create(path).with_context(context)?;
    }
    Ok(())
}

/// `bytes` to `path`: atomically for a regular file (or a new one), as a stream to anything
/// else that is not a directory.
fn save(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if std::fs::metadata(path).is_ok_and(|meta| !meta.is_file() && !meta.is_dir()) {
        let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
        file.write_all(bytes)?;
        return file.flush();
    }
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.commit()
}

fn draw(svg: &mut String, bars: &[Bar<'_>], title: &str) -> Result<(), Box<dyn std::error::Error>> {
    let scenarios = distinct(bars.iter().map(|b| b.scenario));
    let methods = distinct(bars.iter().map(|b| b.method));
    let positive = bars.iter().map(|b| b.ns).filter(|&ns| ns > 0.0);
    let lo = 10f64.powf(
        positive
            .clone()
            .fold(f64::INFINITY, f64::min)
            .log10()
            .floor(),
    );
    // One spare decade on top holds the legend clear of the bars.
    let hi = 10f64.powf(positive.fold(0.0, f64::max).log10().ceil() + 1.0);
    let (lo, hi) = if lo < hi { (lo, hi) } else { (0.01, 100.0) };

    let root = SVGBackend::with_string(svg, (1100, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..scenarios.len() as f64, (lo..hi).log_scale())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(0)
        .y_labels(12)
        .y_desc("ns per check (log scale), median trial")
        .y_label_formatter(&|v| format!("{v}"))
        .draw()?;

    let width = 0.8 / methods.len() as f64;
    for (m, method) in methods.iter().enumerate() {
        let colour = COLOURS[m % COLOURS.len()];
        let series = bars.iter().filter(|b| b.method == *method).filter_map(|b| {
            let s = scenarios.iter().position(|s| *s == b.scenario)? as f64;
            let x0 = s + 0.1 + m as f64 * width;
            Some(Rectangle::new(
                [(x0, lo), (x0 + width * 0.9, b.ns.max(lo))],
                colour.filled(),
            ))
        });
        chart
            .draw_series(series)?
            .label(*method)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], colour.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()?;

    let label_style =
        TextStyle::from(("sans-serif", 13)).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Top,
        ));
    for (s, scenario) in scenarios.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(s as f64 + 0.5, lo));
        root.draw(&Text::new(
            scenario.to_string(),
            (x, y + 8),
            label_style.clone(),
        ))?;
    }
    root.present()?;
    Ok(())
}
