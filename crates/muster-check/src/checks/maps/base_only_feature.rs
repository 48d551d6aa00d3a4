use muster_model::map::Overlay;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that an `AddTerrain` overlay adds no terrain whose type in the system says
    /// `base_only: true`: terrain that is only ever a hex's own (a river, the sea).
    ///
    /// ## Why is this bad?
    /// The system says this terrain does not share a hex; added as a feature it would
    /// leave a hex both dry ground and river, which the rules never describe.
    ///
    /// ## Example
    /// ```ron
    /// AddTerrain(terrain: "river", area: List(["0707"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Terrain(terrain: "river", area: List(["0707"])),
    /// ```
    pub META = ("maps::base-only-feature", Error, "a base-only terrain added to a hex as a feature");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let (Some(map), Some(system)) = (cx.map(), cx.system) else {
        return;
    };
    for (i, o) in map.overlays.iter().enumerate() {
        let Overlay::AddTerrain { terrain, .. } = o else {
            continue;
        };
        if !system
            .terrain
            .iter()
            .any(|t| &t.id == terrain && t.base_only)
        {
            continue;
        }
        sink.push(
            Report::new(
                &META,
                Place::overlay(i).variant("AddTerrain").field("terrain"),
                format!(
                    "terrain `{terrain}` of system `{}` is only ever a hex's own terrain (`base_only`), never a feature added to a hex",
                    system.id
                ),
            )
            .help(format!(
                "set it as the hexes' terrain with `Terrain(terrain: \"{terrain}\", ...)`, or drop `base_only` from terrain `{terrain}` in system `{}`",
                system.id
            )),
        );
    }
}
