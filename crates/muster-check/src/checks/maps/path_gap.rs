use muster_hex::HexId;
use muster_model::map::Overlay;

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks that consecutive hexes of a path (a road drawn from hex to hex) are
    /// neighbours.
    ///
    /// ## Why is this bad?
    /// A gap breaks the road: the hexside between two hexes that do not touch cannot
    /// carry it, so movement along the road stops there.
    ///
    /// ## Example
    /// ```ron
    /// Path(feature: "road", hexes: ["0301", "0302", "0304"]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Path(feature: "road", hexes: ["0301", "0302", "0303", "0304"]),
    /// ```
    pub META = ("maps::path-gap", Error, "consecutive path hexes that are not adjacent");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let (Some(map), Some(grid)) = (cx.map(), cx.grid) else {
        return;
    };
    for (i, o) in map.overlays.iter().enumerate() {
        let Overlay::Path { hexes, .. } = o else {
            continue;
        };
        for k in 1..hexes.len() {
            let (Ok(a), Ok(b)) = (HexId::parse(&hexes[k - 1]), HexId::parse(&hexes[k])) else {
                continue;
            };
            if !grid.adjacent(a, b) {
                sink.push(
                    Report::new(
                        &META,
                        Place::overlay(i).variant("Path").field("hexes").index(k),
                        format!(
                            "path jumps from `{a}` to `{b}`, which are {} hexes apart",
                            grid.distance(a, b)
                        ),
                    )
                    .label(
                        Loc::Value(
                            Place::overlay(i)
                                .variant("Path")
                                .field("hexes")
                                .index(k - 1),
                        ),
                        "previous hex",
                    )
                    .help("add the hexes in between"),
                );
            }
        }
    }
}
