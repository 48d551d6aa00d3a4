use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Counts the carriers (fleets) in each hex of a sample deployment against the system's
    /// limit per hex (PRESTAGS: one).
    ///
    /// ## Why is this bad?
    /// Two fleets in one hex break the fleet rules.
    ///
    /// ## Example
    /// ```ron
    /// (hex: "0105", units: [(kind: "VF", count: 2)], aboard: [(kind: "AX", count: 3)]), // two fleets in one hex
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (hex: "0105", units: [(kind: "VF", count: 1)], aboard: [(kind: "AX", count: 3)]),
    /// (hex: "0106", units: [(kind: "VF", count: 1)]),
    /// ```
    pub META = ("fleets::shared-hex", Error, "more fleets in one hex than allowed");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(system) = cx.system else { return };
    for side in cx.zoned_sides() {
        for (k, stack) in side.forces.sample.iter().enumerate() {
            for carrier in &system.carriers {
                let n: u32 = stack
                    .units
                    .iter()
                    .filter(|u| u.kind == carrier.kind)
                    .map(|u| u32::from(u.count))
                    .sum();
                if n > u32::from(carrier.per_hex) {
                    sink.push(
                        Report::new(
                            &META,
                            side.place.field("sample").index(k).field("units"),
                            format!(
                                "hex `{}` holds {n} `{}`; at most {} may share a hex",
                                stack.hex, carrier.kind, carrier.per_hex
                            ),
                        )
                        .help("put each fleet in its own hex"),
                    );
                }
            }
        }
    }
}
