//! `maps::layout-mismatch`: a hex map whose column layout is not its system's.

use muster_model::map::MapGrid;
use muster_model::system::GridKind;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that a hex map shifts the same columns half a hex down as its rules
    /// system says (`layout` of the map's `grid` against the system's `grid`).
    ///
    /// ## Why is this bad?
    /// Which hexes are neighbours follows from the layout: with the other one, every
    /// odd column meets different hexes, so roads and rivers drawn hex by hex break
    /// (`maps::path-gap`), ranges and distances come out wrong, and an engine that
    /// trusts the system places the printed hexes elsewhere. The fault is one word, far
    /// from the errors it causes.
    ///
    /// ## Example
    /// ```ron
    /// grid: Hex(columns: 15, rows: 15, layout: OddColumnsDown),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// grid: Hex(columns: 15, rows: 15, layout: EvenColumnsDown),
    /// ```
    pub META = ("maps::layout-mismatch", Error, "a hex map's column layout differs from its system's");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Some(map) = cx.map() else { return };
    let (Some(system), Some(system_file)) = (cx.system, cx.system_source()) else {
        return;
    };
    let (MapGrid::Hex { layout, .. }, GridKind::Hex { layout: expected }) =
        (&map.grid, &system.grid)
    else {
        return;
    };
    if layout == expected {
        return;
    }
    let field = Place::hex_grid().field("layout");
    // A map that does not write its layout has the default one: the grid says so.
    let written = cx.loaded.file.find(&field).is_some_and(|f| f.exact);
    let (place, what) = if written {
        (field, format!("`{layout:?}`"))
    } else {
        (
            Place::hex_grid(),
            format!("`{layout:?}` (not written: the default)"),
        )
    };
    let system_name = &system_file.name;
    sink.push(
        Report::new(
            &META,
            place,
            format!(
                "this map's layout is {what}, but its system `{}` lays hexes out `{expected:?}` (`{system_name}`)",
                system.id
            ),
        )
        .help(format!(
            "write `layout: {expected:?}` in this map's grid; if the printed map really shifts the other columns down, change the `grid` of `{system_name}`, which every map of the system shares"
        ))
        .note("neighbours, distances and paths follow the map's own layout, so roads and rivers drawn for the system's break (`maps::path-gap`)"),
    );
}
