use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that every reinforcement group lists at least one entry hex.
    ///
    /// ## Why is this bad?
    /// With `entry: []` the units have nowhere to come on: they never arrive, and no
    /// other check can look at where they would.
    ///
    /// ## Example
    /// ```ron
    /// reinforcements: [(side: "red", turn: 3, units: [(counter: "provence")], entry: [])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// reinforcements: [(side: "red", turn: 3, units: [(counter: "provence")], entry: ["0515", "1208"])],
    /// ```
    pub META = ("reinforcements::no-entry", Error, "a reinforcement group with no entry hex");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for (i, r) in cx.scenario.reinforcements.iter().enumerate() {
        if r.entry.is_empty() {
            sink.push(
                Report::new(
                    &META,
                    Place::reinforcement(i).field("entry"),
                    format!(
                        "the reinforcements of side `{}` on turn {} have no entry hex",
                        r.side, r.turn
                    ),
                )
                .help("list the map-edge hexes they may enter from"),
            );
        }
    }
}
