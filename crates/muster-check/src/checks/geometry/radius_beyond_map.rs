//! `geometry::radius-beyond-map`: a zone radius larger than the map itself.

use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that every radius (`Zone(center: ..., radius: ...)` in a map or a scenario,
    /// `Near(label: ..., radius: ...)` deployment zones, `near: (label, radius)` exit
    /// goals) is at most the map's extent: the largest distance between two of its hexes.
    ///
    /// ## Why is this bad?
    /// A larger radius reaches nothing more, so it is a typing slip (`65535` for `5`);
    /// zones are computed within the map, so it costs no more than the map either.
    ///
    /// ## Example
    /// ```ron
    /// Terrain(terrain: "woods", area: Zone(center: "0606", radius: 65535)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Terrain(terrain: "woods", area: Zone(center: "0606", radius: 2)),
    /// ```
    pub META = ("geometry::radius-beyond-map", Error, "a zone radius larger than the map");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Some(grid) = cx.grid else { return };
    let extent = grid.extent();
    for (place, radius) in cx.radius_refs() {
        if u32::from(radius) > extent {
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!(
                        "radius {radius} reaches beyond the map, on which no two hexes are more than {extent} apart"
                    ),
                )
                .help(format!(
                    "radii on this {} x {} map run from 0 to {extent}",
                    grid.columns, grid.rows
                )),
            );
        }
    }
}
