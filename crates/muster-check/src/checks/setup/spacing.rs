use muster_hex::{HexGrid, HexId};
use muster_model::scenario::Placement;

use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that a `Spaced` placement ("3 drakkars between 0101 and 0107, at least
    /// one hex apart") has room for all its units with the required gap.
    ///
    /// ## Why is this bad?
    /// If the units cannot fit, the setup instruction cannot be followed.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(counter: "drakkar", count: 2)], at: Spaced(from: "0101", to: "0102", min_gap: 1)),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "drakkar", count: 2)], at: Spaced(from: "0101", to: "0107", min_gap: 1)),
    /// ```
    pub META = ("setup::spacing", Error, "a spaced placement without room for its units");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for g in cx.groups() {
        let Placement::Spaced { from, to, min_gap } = g.at else {
            continue;
        };
        let (Ok(a), Ok(b)) = (HexId::parse(from), HexId::parse(to)) else {
            continue;
        };
        let Ok(run) = HexGrid::straight_range(a, b) else {
            continue;
        };
        let units = g.units.len();
        let needed = units + units.saturating_sub(1) * usize::from(*min_gap);
        if needed > run.len() {
            sink.push(
                Report::new(&META, g.place.field("at").variant("Spaced"), format!("{units} units at least {min_gap} hex apart need {needed} hexes, but `{a}` to `{b}` has {}", run.len()))
                    .help("lengthen the run, lower the gap or place fewer units"),
            );
        }
    }
}
