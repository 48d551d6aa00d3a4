use std::collections::HashMap;

use muster_hex::HexId;
use muster_model::map::{Area, Overlay};

use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Warns when two terrain overlays that list hexes one by one give the same hex two
    /// different terrains. Fills (a whole column, a zone) may be overwritten freely:
    /// later overlays win.
    ///
    /// ## Why is this bad?
    /// Listing a hex twice by hand is rarely meant; one of the two entries is usually a
    /// typo for a neighbouring hex.
    ///
    /// ## Example
    /// ```ron
    /// Terrain(terrain: "woods", area: List(["0405", "0406"])),
    /// Terrain(terrain: "village", area: List(["0405"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// Terrain(terrain: "woods", area: List(["0405", "0406"])),
    /// Terrain(terrain: "village", area: List(["0505"])),
    /// ```
    pub META = ("maps::overlay-conflict", Warning, "a hex listed twice with different terrain");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    let Some(map) = cx.map() else { return };
    let mut seen: HashMap<HexId, (Place, &str)> = HashMap::new();
    for (i, o) in map.overlays.iter().enumerate() {
        let Overlay::Terrain {
            terrain,
            area: Area::List(hexes),
        } = o
        else {
            continue;
        };
        for (k, text) in hexes.iter().enumerate() {
            let Ok(hex) = HexId::parse(text) else {
                continue;
            };
            let place = Place::overlay(i)
                .variant("Terrain")
                .field("area")
                .variant("List")
                .index(k);
            match seen.get(&hex) {
                Some((first, t)) if *t != terrain => sink.push(
                    Report::new(
                        &META,
                        place.clone(),
                        format!("hex `{hex}` is set to `{terrain}` after being listed as `{t}`"),
                    )
                    .label(Loc::Value(first.clone()), format!("listed as `{t}` here"))
                    .help("keep one of the two, or check whether a neighbouring hex was meant"),
                ),
                _ => {}
            }
            seen.insert(hex, (place, terrain));
        }
    }
}
