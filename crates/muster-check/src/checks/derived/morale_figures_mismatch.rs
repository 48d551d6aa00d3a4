use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// For an army whose morale fails at a share of figures lost (Viking raid: Saxons at
    /// 40%, Vikings at 50%), counts the force's figures (leaving out kinds such as cattle)
    /// and checks that the printed figure count is that share, rounded up.
    ///
    /// ## Why is this bad?
    /// The figure count is what players watch at the table; a wrong count makes the army
    /// break too early or too late.
    ///
    /// ## Example
    /// ```ron
    /// bands: [(id: "fyrd", name: "Fyrd", figures: [(kind: "foot", count: 5), (kind: "bowman", count: 2)], entry: Rolled(edges: ["west", "east"]))],
    /// morale: (loss_percent: 40, figures: 2), // 40% of 7 figures is 2.8
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// bands: [(id: "fyrd", name: "Fyrd", figures: [(kind: "foot", count: 5), (kind: "bowman", count: 2)], entry: Rolled(edges: ["west", "east"]))],
    /// morale: (loss_percent: 40, figures: 3), // 40% of 7 figures is 2.8
    /// ```
    pub META = ("derived::morale-figures-mismatch", Error, "an army morale figure count that does not match its percentage");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for side in cx.table_sides() {
        let Some(morale) = &side.forces.morale else {
            continue;
        };
        let counted: u32 = side
            .forces
            .bands
            .iter()
            .flat_map(|b| b.figures.iter())
            .filter(|f| !morale.not_counted.iter().any(|n| n == &f.kind))
            .map(|f| u32::from(f.count))
            .sum();
        let expected = (counted * u32::from(morale.loss_percent)).div_ceil(100);
        if expected != u32::from(morale.figures) {
            sink.push(
                Report::new(
                    &META,
                    side.place.field("morale").field("figures"),
                    format!(
                        "{}% of {counted} figures, rounded up, is {expected}, not {}",
                        morale.loss_percent, morale.figures
                    ),
                )
                .help("the figure count is the percentage of the counted figures, rounded up"),
            );
        }
    }
}
