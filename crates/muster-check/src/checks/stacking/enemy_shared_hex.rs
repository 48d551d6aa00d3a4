use super::occupancy;
use crate::checks::context::ScenarioCx;
use crate::declare_check;
use crate::report::{Loc, Report, Sink};

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
    /// // Franks
    /// (units: [(counter: "saxe")], at: Hexes(["0507"])),
    /// // Bretons
    /// (units: [(counter: "breton-cavalry-4")], at: Hexes(["0507"])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "saxe")], at: Hexes(["0504"])),
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
