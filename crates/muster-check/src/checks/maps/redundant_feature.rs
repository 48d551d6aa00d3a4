use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::FileCx;
use muster_semantic::features::added_features;

declare_check! {
    /// ## What it does
    /// Warns when an `AddTerrain` overlay adds a feature that a hex already has: the
    /// hex's own terrain, or the same feature from an earlier `AddTerrain` overlay.
    ///
    /// ## Why is this bad?
    /// The feature adds nothing there: a village added to a village is one village.
    /// The hex is usually a typo for a neighbour, or the overlay meant another terrain.
    ///
    /// ## Example
    /// ```ron
    /// AddTerrain(terrain: "woods", area: List(["0405"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// AddTerrain(terrain: "village", area: List(["0405"])),
    /// ```
    pub META = ("maps::redundant-feature", Warning, "a feature added to a hex that already has it");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let (Some(source), Some(map)) = (cx.map(), cx.db.terrain_map(cx.index)) else {
        return;
    };
    let at = |i: usize| Place::overlay(i).variant("AddTerrain").field("terrain");
    let more = |n: usize| match n {
        0 => String::new(),
        1 => " and 1 more hex".to_string(),
        n => format!(" and {n} more hexes"),
    };
    for added in added_features(source, map) {
        let terrain = added.terrain;
        if let Some(hex) = added.own_terrain.first() {
            sink.push(
                Report::new(
                    &META,
                    at(added.overlay),
                    format!(
                        "feature `{terrain}` is already the terrain of hex `{hex}`{}",
                        more(added.own_terrain.len() - 1)
                    ),
                )
                .help("leave those hexes out of the area, or add a different terrain"),
            );
        }
        if let Some((hex, earlier)) = added.again.first() {
            sink.push(
                Report::new(
                    &META,
                    at(added.overlay),
                    format!(
                        "feature `{terrain}` is added to hex `{hex}`{} a second time",
                        more(added.again.len() - 1)
                    ),
                )
                .label(Loc::Value(at(*earlier)), "added here first")
                .help("keep one of the two overlays for those hexes"),
            );
        }
    }
}
