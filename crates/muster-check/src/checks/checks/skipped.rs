//! `checks::skipped`: the map checks of a scenario could not run because its map could
//! not be used.

use muster_model::FileKind;
use muster_model::map::MapGrid;

use muster_db::declare_check;
use muster_db::load::Document;
use muster_db::place::Place;
use muster_db::project::Resolution;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Says, once per scenario, that the checks that need its map (hexes on the map,
    /// terrain, stacking, zones, table positions) did not run because the map it names
    /// was found but could not be used: the map file does not parse, its grid is refused
    /// (`maps::grid-too-large`, `maps::table-size-not-positive`) or its rules system is
    /// not found. An information, not an error: the map's own diagnostics say what to
    /// fix. A map reference that does not resolve is already an error at the reference.
    ///
    /// ## Why is this bad?
    /// Without it, a scenario whose map is broken would read "0 errors" while a hex
    /// `9999` in its setup went unchecked.
    ///
    /// ## Example
    /// ```ron
    /// map: "../../maps/grid-too-large/invalid.map.ron",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// map: "test-map",
    /// ```
    pub META = ("checks::skipped", Info, "checks that could not run because an input is broken");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    if cx.map.is_some() || cx.table.is_some() {
        return;
    }
    let db = cx.file.db;
    let reference = &cx.scenario.map;
    let Resolution::Found(m) = db.resolve(cx.file.index, reference, FileKind::Map) else {
        return;
    };
    let name = &db.files[m].file.name;
    let why = match db.doc(m) {
        None => format!("`{name}` could not be read as a map"),
        Some(Document::Map(map)) => {
            let problems = muster_map::size_problems(map, &db.limits);
            if let Some(problem) = problems.first() {
                format!("the grid of `{name}` is refused: {}", size_words(problem))
            } else if !matches!(
                db.resolve(m, &map.system, FileKind::System),
                Resolution::Found(_)
            ) {
                match db.unloaded(FileKind::System, &map.system) {
                    Some(s) => format!(
                        "the rules system `{}` of `{name}` failed to load (`{}` has errors)",
                        map.system, db.files[s].file.name
                    ),
                    None => format!("the rules system `{}` of `{name}` is not found", map.system),
                }
            } else if matches!(map.grid, MapGrid::Table { .. }) {
                format!("the table of `{name}` could not be compiled")
            } else {
                format!("the hexes of `{name}` could not be compiled")
            }
        }
        Some(_) => return,
    };
    sink.push(
        Report::new(
            &META,
            Place::top("map"),
            format!("the map checks of this scenario did not run: {why}"),
        )
        .help(format!(
            "fix `{name}` (its own diagnostics say how); then positions, terrain, stacking and zones are checked here"
        )),
    );
}

fn size_words(problem: &muster_map::SizeProblem) -> String {
    use muster_map::SizeProblem::*;
    match problem {
        Unnumbered { field, value } => {
            format!("{value} {field}, beyond the 99 that `CCRR` numbers can name")
        }
        TooManyHexes { hexes, limit } => format!("{hexes} hexes, above the limit of {limit}"),
        NotPositive { field, .. } => format!("its `{field}` is not a positive number"),
        TooManyCells { limit, .. } => format!("its raster has more than {limit} cells"),
    }
}
