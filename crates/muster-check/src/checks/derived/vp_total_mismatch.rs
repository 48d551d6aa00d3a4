use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Recomputes a side's victory point total from its units by the system's rule
    /// (PRESTAGS: half the melee strength rounded up plus the fire strength, a dot counting
    /// as 1, each leader included; skirmish: the sum of the figures' values) and compares
    /// it with the printed total.
    ///
    /// ## Why is this bad?
    /// The printed total decides victory levels and the panic level; a mismatch means a
    /// unit count or the total was transcribed wrong.
    ///
    /// ## Example
    /// ```ron
    /// units: [(kind: "MI", count: 4), (kind: "IB", count: 2), (kind: "VF", count: 1), (kind: "AX", count: 3), (kind: "3L", count: 1)],
    /// victory_points: 21, // the units are worth 19
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// units: [(kind: "MI", count: 4), (kind: "IB", count: 2), (kind: "VF", count: 1), (kind: "AX", count: 3), (kind: "3L", count: 1)],
    /// victory_points: 19, // 4 MI x 1 + 2 IB x 3 + 1 VF x 2 + 3 AX x 2 + 1 leader x 1
    /// ```
    pub META = ("derived::vp-total-mismatch", Error, "printed victory points differ from the force's computed total");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for side in cx.zoned_sides() {
        let printed = u32::from(side.forces.victory_points);
        if let Some(computed) = cx.vp_of(&side.forces.units)
            && computed != printed
        {
            sink.push(
                Report::new(
                    &META,
                    side.place.field("victory_points"),
                    format!("printed victory points {printed} but the units add up to {computed}"),
                )
                .label(
                    Loc::Value(side.place.field("units")),
                    "computed from these units",
                )
                .help("check the unit counts against the rulebook, then the printed total"),
            );
        }
    }
    for side in cx.table_sides() {
        let Some(printed) = side.forces.victory_points else {
            continue;
        };
        let figures: Vec<_> = side
            .forces
            .bands
            .iter()
            .flat_map(|b| b.figures.iter().cloned())
            .collect();
        if let Some(computed) = cx.vp_of(&figures)
            && computed != u32::from(printed)
        {
            sink.push(
                Report::new(
                    &META,
                    side.place.field("victory_points"),
                    format!(
                        "printed victory points {printed} but the figures add up to {computed}"
                    ),
                )
                .help("check the band figures against the figure types' victory points"),
            );
        }
    }
}
