use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Computes every unit's footprint (bases, formation, facing) and reports units whose
    /// footprints overlap, whichever side they belong to.
    ///
    /// ## Why is this bad?
    /// Two units cannot stand on the same ground; one of the positions is mistyped.
    ///
    /// ## Example
    /// ```ron
    /// (id: "n-spears-1", name: "Bruges spears", troop: "spearmen", bases: 4, formation: Line, at: (10.0, 10.0), facing: 180.0),
    /// (id: "n-spears-2", name: "Ghent spears", troop: "spearmen", bases: 4, formation: Line, at: (19.0, 10.0), facing: 180.0), // 10 inches wide: x 14 to 24
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "n-spears-1", name: "Bruges spears", troop: "spearmen", bases: 4, formation: Line, at: (10.0, 10.0), facing: 180.0),
    /// (id: "n-spears-2", name: "Ghent spears", troop: "spearmen", bases: 4, formation: Line, at: (20.0, 10.0), facing: 180.0), // x 15 to 25
    /// ```
    pub META = ("table::overlap", Error, "two units overlapping on the table");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    use muster_semantic::table::{footprint, rectangles_overlap};
    // (place, unit id, corners) of every unit placed so far.
    type Placed = (Place, String, Vec<(f64, f64)>);
    let mut placed: Vec<Placed> = Vec::new();
    for side in cx.table_sides() {
        for (k, u) in side.forces.units.iter().enumerate() {
            let Some(corners) = footprint(cx, u) else {
                continue;
            };
            let place = side.place.field("units").index(k).field("at");
            if let Some((first_place, first_id, _)) = placed
                .iter()
                .find(|(_, _, other)| rectangles_overlap(other, &corners))
            {
                sink.push(
                    Report::new(
                        &META,
                        place.clone(),
                        format!("unit `{}` overlaps unit `{first_id}`", u.id),
                    )
                    .label(
                        Loc::Value(first_place.clone()),
                        format!("`{first_id}` stands here"),
                    )
                    .help("move one of the two units"),
                );
            }
            placed.push((place, u.id.clone(), corners));
        }
    }
}
