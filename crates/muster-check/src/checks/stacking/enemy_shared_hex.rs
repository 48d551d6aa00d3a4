use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;
use muster_semantic::stacking::occupancy;

declare_check! {
    /// ## What it does
    /// Reports a hex where units of different sides (or a neutral unit and a side's
    /// unit) are set up together.
    ///
    /// ## Why is this bad?
    /// Enemy units never share a hex; one of the two hexes is mistyped.
    ///
    /// ## Example
    /// ```ron
    /// // red
    /// (units: [(counter: "saxe", count: 2)], at: Hexes(["0903", "1004"])),
    /// // blue
    /// (units: [(counter: "viking", count: 2)], at: Hexes(["0610", "0903"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "viking", count: 2)], at: Hexes(["0610", "0904"])),
    /// ```
    pub META = ("stacking::enemy-shared-hex", Error, "units of different sides in one hex");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    for (hex, occupants) in occupancy(cx) {
        let Some(first) = occupants.first() else {
            continue;
        };
        if let Some(other) = occupants.iter().find(|o| o.side != first.side) {
            sink.push(
                Report::new(
                    &META,
                    other.at.clone(),
                    format!(
                        "hex `{hex}` holds `{}` of {} and `{}` of {}",
                        other.slot.counter_id,
                        cx.side_name(other.side),
                        first.slot.counter_id,
                        cx.side_name(first.side)
                    ),
                )
                .label(
                    Loc::Value(first.at.clone()),
                    format!("{} unit placed here", cx.side_name(first.side)),
                )
                .help("enemy units may not share a hex; check both hex numbers"),
            );
        }
    }
}
