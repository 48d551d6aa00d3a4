use muster_hex::{HexGrid, HexId};
use muster_model::scenario::Placement;

use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that a setup line gives exactly one hex per unit: "2 x Saxe : 0903, 1004"
    /// lists two units and two hexes. For a range (`0307 à 0309`) the range's length
    /// counts; for `Spaced` placements the run must have room for every unit. A group the
    /// owner picks `choose: N` units from needs N hexes.
    ///
    /// ## Why is this bad?
    /// One more unit than hexes means a unit without a place (or two units in one hex);
    /// one fewer means a hex was mistyped or a unit forgotten.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// ```
    pub META = ("setup::count-mismatch", Error, "a setup line with more or fewer units than hexes");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for g in cx.groups() {
        let units = match g.choose.map(usize::from) {
            None => g.units.len(),
            Some(n) if (1..=g.units.len()).contains(&n) => n,
            // `setup::choose-out-of-range` reports it.
            Some(_) => continue,
        };
        let what_units = if g.choose.is_some() {
            " picked"
        } else {
            " listed"
        };
        let (hexes, what, place) = match g.at {
            Placement::Hexes(list) => (list.len(), "", g.place.field("at").variant("Hexes")),
            Placement::Range(a, b) => match (HexId::parse(a), HexId::parse(b)) {
                (Ok(a), Ok(b)) => match HexGrid::straight_range(a, b) {
                    Ok(r) => (
                        r.len(),
                        " in the range",
                        g.place.field("at").variant("Range"),
                    ),
                    Err(_) => continue,
                },
                _ => continue,
            },
            // Counted by `setup::spacing`; no hexes on a unit or in a box.
            Placement::Spaced { .. } | Placement::OnUnit { .. } | Placement::Box(_) => continue,
        };
        if units != hexes {
            sink.push(
                Report::new(
                    &META,
                    place,
                    format!(
                        "{units} unit{}{what_units} but {hexes} hex{}{what}",
                        if units == 1 { "" } else { "s" },
                        if hexes == 1 { "" } else { "es" }
                    ),
                )
                .label(
                    Loc::Value(g.place.field("units")),
                    format!("{units} unit{} here", if units == 1 { "" } else { "s" }),
                )
                .help(if units > hexes {
                    "add the missing hexes or check the unit counts"
                } else {
                    "remove the extra hexes or add the missing units"
                }),
            );
        }
    }
}
