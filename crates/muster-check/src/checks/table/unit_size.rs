use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that each unit on a table has between the system's smallest and largest
    /// number of bases (Chanson de Geste: 1 to 6).
    ///
    /// ## Why is this bad?
    /// Units outside that range do not exist in the rules; the number is mistyped or the
    /// unit should be split.
    ///
    /// ## Example
    /// ```ron
    /// (id: "s-knights-1", name: "Artois knights", troop: "knights", bases: 7, formation: Line, at: (10.0, 30.0), facing: 0.0), // units have 1 to 6 bases
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "s-knights-1", name: "Artois knights", troop: "knights", bases: 6, formation: Line, at: (10.0, 30.0), facing: 0.0),
    /// ```
    pub META = ("table::unit-size", Error, "a unit with fewer or more bases than the rules allow");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let (min, max) = cx
        .system
        .and_then(|s| s.break_point.as_ref())
        .map_or((1, 6), |b| (b.min_bases, b.max_bases));
    for side in cx.table_sides() {
        for (k, u) in side.forces.units.iter().enumerate() {
            if u.bases < min || u.bases > max {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("units").index(k).field("bases"),
                        format!(
                            "unit `{}` has {} bases; units have {min} to {max}",
                            u.id, u.bases
                        ),
                    )
                    .help("split the unit in two, or correct the number"),
                );
            }
        }
    }
}
