use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that a side's printed panic level is below its victory point total: the army
    /// panics when the enemy has scored that many of its points.
    ///
    /// ## Why is this bad?
    /// A panic level at or above the total can never be reached, so the army could never
    /// panic; the figure is almost certainly mistyped.
    ///
    /// ## Example
    /// ```ron
    /// victory_points: 19,
    /// panic_level: 19,
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// victory_points: 19,
    /// panic_level: 18,
    /// ```
    pub META = ("derived::panic-level-too-high", Error, "a panic level not below the victory point total");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for side in cx.zoned_sides() {
        let (pl, vp) = (side.forces.panic_level, side.forces.victory_points);
        if pl >= vp {
            sink.push(
                Report::new(
                    &META,
                    side.place.field("panic_level"),
                    format!("panic level {pl} is not below the victory point total {vp}"),
                )
                .label(
                    Loc::Value(side.place.field("victory_points")),
                    "victory point total",
                )
                .help("the panic level is a share of the total; check both printed figures"),
            );
        }
    }
}
