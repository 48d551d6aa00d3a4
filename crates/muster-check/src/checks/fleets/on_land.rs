use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that carriers (fleets) in a sample deployment stand only in terrain they may
    /// enter (PRESTAGS: fleets move only on sea and river).
    ///
    /// ## Why is this bad?
    /// A fleet on land cannot move or carry anyone; the hex is mistyped.
    ///
    /// ## Example
    /// ```ron
    /// (hex: "0205", units: [(kind: "VF", count: 1)], aboard: [(kind: "AX", count: 3)]), // 0205 is clear ground
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (hex: "1005", units: [(kind: "VF", count: 1)], aboard: [(kind: "AX", count: 3)]), // 1005 is river
    /// ```
    pub META = ("fleets::on-land", Error, "a fleet placed on land");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    if cx.map.is_none() {
        return;
    }
    for unit in cx
        .sample_units()
        .iter()
        .filter(|u| u.carrier && !cx.may_enter(u.hex, u.kind))
    {
        sink.push(
            Report::new(
                &META,
                unit.place(),
                format!(
                    "fleet `{}` is on `{}` in hex `{}`",
                    unit.kind,
                    cx.entry(unit.kind).barring_terrain(unit.hex).unwrap_or("?"),
                    unit.hex
                ),
            )
            .help("fleets stay on sea and river hexes"),
        );
    }
}
