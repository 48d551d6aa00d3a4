use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that each hidden trap lies in front of a friendly foot unit (within 6 inches
    /// of its front, across its frontage): the rules allow traps only in the ground just
    /// before vulnerable foot.
    ///
    /// ## Why is this bad?
    /// A trap elsewhere is not allowed by the rules, or the unit it protects was moved.
    ///
    /// ## Example
    /// ```ron
    /// (id: "n-spears-1", name: "Bruges spears", troop: "spearmen", bases: 4, formation: Line, at: (10.0, 10.0), facing: 180.0),
    /// traps: [(area: Rect(x: 8.0, y: 6.0, w: 4.0, h: 2.0), note: "pits before the Bruges spears")], // behind them: they face south
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "n-spears-1", name: "Bruges spears", troop: "spearmen", bases: 4, formation: Line, at: (10.0, 10.0), facing: 180.0),
    /// traps: [(area: Rect(x: 8.0, y: 12.0, w: 4.0, h: 2.0), note: "pits before the Bruges spears")], // 3 inches before them
    /// ```
    pub META = ("traps::not-before-foot", Warning, "a trap that is not in front of friendly foot");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    use muster_map::geometry::extent;
    use muster_semantic::table::{footprint_frame, is_foot};
    for side in cx.table_sides() {
        for (t, trap) in side.forces.traps.iter().enumerate() {
            let pts = extent(&trap.area);
            let centre = (
                pts.iter().map(|p| p.0).sum::<f64>() / pts.len().max(1) as f64,
                pts.iter().map(|p| p.1).sum::<f64>() / pts.len().max(1) as f64,
            );
            let guarded = side
                .forces
                .units
                .iter()
                .filter(|u| is_foot(cx, &u.troop))
                .any(|u| {
                    let Some(f) = footprint_frame(cx, u) else {
                        return false;
                    };
                    let (front, facing, right, half_width) =
                        (f.front, f.facing, f.right, f.half_width);
                    let d = (centre.0 - front.0, centre.1 - front.1);
                    let ahead = d.0 * facing.0 + d.1 * facing.1;
                    let across = (d.0 * right.0 + d.1 * right.1).abs();
                    ahead > 0.0 && ahead <= 6.0 && across <= half_width + 2.0
                });
            if !guarded {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("traps").index(t).field("area"),
                        "this trap is not in front of a friendly foot unit",
                    )
                    .help("lay traps within 6 inches in front of the foot they protect"),
                );
            }
        }
    }
}
