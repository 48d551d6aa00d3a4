use crate::declare_check;
use crate::report::{Report, Sink};
use crate::semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that no unit sets up in terrain it may not enter (a river hex, a column a
    /// special rule closes), unless an `impassable-area` special rule lists its counter
    /// as an exception (Montfaucon's drakkars on the Meuse).
    ///
    /// ## Why is this bad?
    /// The unit could never have got there and cannot move out; it is almost always a
    /// mistyped hex.
    ///
    /// ## Example
    /// ```ron
    /// // column 01 is a river
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "0105"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub META = ("setup::impassable-terrain", Error, "a unit set up in terrain it may not enter");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(map) = cx.map else { return };
    let exceptions = cx.terrain_exceptions();
    let closed = cx.impassable_columns();
    // The bridge an `impassable-area` rule names stays open in its closed column.
    let bridges = cx.open_in_closed_columns();
    for g in &cx.groups {
        let allowed =
            !g.units.is_empty() && g.units.iter().all(|u| exceptions.contains(&u.counter_id));
        if allowed {
            continue;
        }
        // Spaced placements: every hex of the run must be usable for the units.
        let mut hexes = g.hexes.clone();
        if let muster_model::scenario::Placement::Spaced { from, to, .. } = g.at
            && let (Ok(a), Ok(b)) = (muster_hex::HexId::parse(from), muster_hex::HexId::parse(to))
        {
            hexes.extend(
                muster_hex::HexGrid::straight_range(a, b)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|h| (h, g.place.field("at").variant("Spaced"))),
            );
        }
        for (hex, place) in hexes {
            if !map.contains(hex) {
                continue;
            }
            let terrain = map.terrain_id_at(hex).unwrap_or("?");
            let reason = if !map.is_enterable(hex) {
                Some(format!("`{terrain}` is impassable"))
            } else if closed.contains(&hex.col) && !bridges.contains(&hex) {
                Some(format!("a special rule closes column {:02}", hex.col))
            } else {
                None
            };
            if let Some(reason) = reason {
                let who = g.units.first().map(|u| u.counter_id).unwrap_or("unit");
                sink.push(
                    Report::new(&META, place, format!("`{who}` is set up in hex `{hex}`, where {reason}"))
                        .help("move the unit to an enterable hex, or list its counter in the `except` of an `impassable-area` rule"),
                );
            }
        }
    }
}
