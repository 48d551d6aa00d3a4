use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

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
    if cx.map.is_none() {
        return;
    }
    // Fleets are `fleets::on-land`'s.
    for unit in cx
        .sample_units()
        .iter()
        .filter(|u| !u.carrier && !cx.may_enter(u.hex, u.kind))
    {
        sink.push(
            Report::new(
                &META,
                unit.place(),
                format!(
                    "`{}` may not enter hex `{}` (`{}`)",
                    unit.kind,
                    unit.hex,
                    cx.entry(unit.kind).barring_terrain(unit.hex).unwrap_or("?")
                ),
            )
            .help("place the unit in terrain it may enter"),
        );
    }
}
