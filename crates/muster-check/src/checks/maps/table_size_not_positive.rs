//! `maps::table-size-not-positive`: an open table's width, depth or raster that is not a
//! positive number of inches.

use muster_map::SizeProblem;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that an open table's `width`, `depth` and `raster` are positive, finite
    /// numbers of inches.
    ///
    /// ## Why is this bad?
    /// A table 0 inches wide puts every unit of its scenarios off the table, and a raster
    /// of 0 or below cannot cut the table into cells. The map is not compiled, so the
    /// table checks of its scenarios do not run until the size is fixed.
    ///
    /// ## Example
    /// ```ron
    /// grid: Table(width: 0.0, depth: 36.0, raster: -1.0),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// grid: Table(width: 48.0, depth: 36.0, edges: [(name: "ship", side: North), (name: "cattle", side: South), (name: "west", side: West), (name: "east", side: East)], raster: 4.0),
    /// ```
    pub META = ("maps::table-size-not-positive", Error, "a table width, depth or raster that is not a positive number");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Some(map) = cx.map() else { return };
    for problem in muster_map::size_problems(map, &cx.db.limits) {
        let SizeProblem::NotPositive { field, value } = problem else {
            continue;
        };
        let shown = if value.is_nan() {
            "not a number".to_string()
        } else if value.is_infinite() {
            "infinite".to_string()
        } else {
            format!("{value}")
        };
        let help = match field {
            "raster" => "give the size of a raster cell in inches, such as `raster: 1.0`",
            _ => "give the table's size in inches, such as `width: 72.0, depth: 48.0`",
        };
        sink.push(
            Report::new(
                &META,
                Place::table_grid().field(field),
                format!("table `{field}` is {shown}; it must be a positive number of inches"),
            )
            .help(help)
            .note("the map is not compiled: the table checks of its scenarios do not run"),
        );
    }
}
