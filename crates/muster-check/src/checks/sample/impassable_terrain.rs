use muster_hex::HexId;

use crate::checks::context::ScenarioCx;
use crate::declare_check;
use crate::report::{Report, Sink};

declare_check! {
    /// ## What it does
    /// Checks that each unit of a sample deployment stack may enter the terrain of its hex
    /// (the system's prohibitions, such as foot fire units and streams, with the scenario's
    /// terrain modifications applied). Fleets are checked by `fleets::on-land`.
    ///
    /// ## Why is this bad?
    /// A unit cannot start in terrain it could never enter.
    ///
    /// ## Example
    /// ```ron
    /// (hex: "0606", units: [(kind: "MI", count: 1), (kind: "IB", count: 1)]), // 0606 is a stream
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (hex: "0606", units: [(kind: "MI", count: 1)]), // militia may stand in the stream
    /// (hex: "0404", units: [(kind: "IB", count: 1)]),
    /// ```
    pub META = ("sample::impassable-terrain", Error, "a sample deployment unit in terrain it may not enter");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(map) = cx.map else { return };
    let carriers: Vec<&str> = cx
        .system
        .map(|s| s.carriers.iter().map(|c| c.kind.as_str()).collect())
        .unwrap_or_default();
    for side in cx.zoned_sides() {
        for (k, stack) in side.forces.sample.iter().enumerate() {
            let Ok(hex) = HexId::parse(&stack.hex) else {
                continue;
            };
            if !map.contains(hex) {
                continue;
            }
            for (u, unit) in stack.units.iter().enumerate() {
                if carriers.contains(&unit.kind.as_str()) || cx.may_enter(hex, &unit.kind) {
                    continue;
                }
                sink.push(
                    Report::new(
                        &META,
                        format!("{}/sample/{k}/units/{u}/kind", side.pointer),
                        format!(
                            "`{}` may not enter hex `{hex}` (`{}`)",
                            unit.kind,
                            map.terrain_id_at(hex).unwrap_or("?")
                        ),
                    )
                    .help("place the unit in terrain it may enter"),
                );
            }
        }
    }
}
