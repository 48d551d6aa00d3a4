use muster_hex::HexId;

use muster_db::declare_check;
use muster_db::report::{Loc, Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that every hex of a side's sample deployment lies in one of the side's
    /// deployment zones.
    ///
    /// ## Why is this bad?
    /// The sample shows a legal setup; a stack outside the zones shows one that the rules
    /// forbid.
    ///
    /// ## Example
    /// ```ron
    /// (units: [(kind: "MI", count: 4), (kind: "IB", count: 2), (kind: "3L", count: 1)], zone: Near(label: "A", radius: 3)),
    /// (hex: "0409", units: [(kind: "MI", count: 1), (kind: "IB", count: 1)]), // four hexes from A
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(kind: "MI", count: 4), (kind: "IB", count: 2), (kind: "3L", count: 1)], zone: Near(label: "A", radius: 3)),
    /// (hex: "0408", units: [(kind: "MI", count: 1), (kind: "IB", count: 1)]), // three hexes from A
    /// ```
    pub META = ("sample::outside-zone", Error, "a sample deployment stack outside the side's deployment zones");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    if cx.map.is_none() {
        return;
    }
    for side in cx.zoned_sides() {
        // A zone naming an unknown label (`zones::unknown-label`) leaves this side's zones
        // unknown: skip the side, not the others.
        let zones: Result<Vec<std::sync::Arc<[HexId]>>, String> = side
            .forces
            .deploy
            .iter()
            .filter(|d| d.arrives.is_none())
            .filter_map(|d| d.zone.as_ref())
            .map(|zone| cx.zone_hexes(zone))
            .collect();
        let Ok(zones) = zones else { continue };
        let allowed: muster_db::FastSet<HexId> =
            zones.iter().flat_map(|z| z.iter().copied()).collect();
        for (k, stack) in side.forces.sample.iter().enumerate() {
            let Ok(hex) = HexId::parse(&stack.hex) else {
                continue;
            };
            if cx.map.is_some_and(|m| m.contains(hex)) && !allowed.contains(&hex) {
                sink.push(
                    Report::new(
                        &META,
                        side.place.field("sample").index(k).field("hex"),
                        format!(
                            "hex `{hex}` is outside side `{}`'s deployment zones",
                            cx.scenario.sides[side.index].id
                        ),
                    )
                    .label(Loc::Value(side.place.field("deploy")), "zones defined here")
                    .help("move the stack into a zone"),
                );
            }
        }
    }
}
