//! `maps::grid-too-large`: a map larger than its hex numbers can name, or than the
//! project's `[limits]` allow.

use muster_map::SizeProblem;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Refuses a hex grid wider or deeper than 99 (`CCRR` hex numbers name columns and
    /// rows 01 to 99), a grid of more hexes than `max-hexes`, and an open table whose
    /// raster has more cells than `max-raster-cells` (`[limits]` in `muster.toml`;
    /// defaults 9801, all that `CCRR` can name, and 100,000 cells).
    ///
    /// ## Why is this bad?
    /// No printed hex number can name column 100, so nothing on such a map can be placed
    /// or checked; and a one-line slip (`columns: 9999`) would make muster build a table
    /// of millions of hexes. The map is not compiled, so its other checks, and the map
    /// checks of its scenarios, do not run until its size is fixed.
    ///
    /// ## Example
    /// ```ron
    /// grid: Hex(columns: 100, rows: 15, layout: EvenColumnsDown),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// grid: Hex(columns: 12, rows: 15, layout: EvenColumnsDown),
    /// ```
    pub META = ("maps::grid-too-large", Error, "a map grid larger than its numbering or the project's limits");
}

const NOT_COMPILED: &str = "the map is not compiled: its other checks, and the map checks of the scenarios played on it, do not run";

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Some(map) = cx.map() else { return };
    for problem in muster_map::size_problems(map, &cx.db.limits) {
        let report = match problem {
            SizeProblem::Unnumbered { field, value } => Report::new(
                &META,
                Place::hex_grid().field(field),
                format!(
                    "`{field}` is {value}, but `CCRR` hex numbers name {field} 01 to {}",
                    muster_map::MAX_CCRR
                ),
            )
            .help("split the map into sheets of at most 99 columns and 99 rows, each its own map"),
            SizeProblem::TooManyHexes { hexes, limit } => Report::new(
                &META,
                Place::hex_grid(),
                format!("the grid has {hexes} hexes, above this project's limit of {limit}"),
            )
            .help("raise `max-hexes` under `[limits]` in `muster.toml` (at most 9801) or split the map"),
            SizeProblem::TooManyCells { cells, limit } => {
                let cells = if cells.is_finite() {
                    format!("{cells:.0}")
                } else {
                    "too many".to_string()
                };
                let (w, d) = match map.grid {
                    muster_model::map::MapGrid::Table { width, depth, .. } => (width, depth),
                    _ => (0.0, 0.0),
                };
                let coarsest = ((w * d / limit as f64).sqrt() * 100.0).ceil() / 100.0;
                Report::new(
                    &META,
                    Place::table_grid().field("raster"),
                    format!(
                        "this raster cuts the {w} x {d} inch table into {cells} cells, above the limit of {limit}"
                    ),
                )
                .help(format!(
                    "use cells of {coarsest} inches or more, or raise `max-raster-cells` under `[limits]` in `muster.toml`"
                ))
            }
            // Not a size beyond a limit: `maps::table-size-not-positive`.
            SizeProblem::NotPositive { .. } => continue,
        };
        sink.push(report.note(NOT_COMPILED));
    }
}
