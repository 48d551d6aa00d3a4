use muster_model::scenario::Placement;
use muster_model::system::UnitRole;

use muster_db::declare_check;
use muster_db::report::{Report, Sink};
use muster_semantic::ScenarioCx;

declare_check! {
    /// ## What it does
    /// Checks that a placement "on a unit" (`OnUnit(kind: "cavalry")`, "Erispoe: on a
    /// Breton cavalry unit") names a kind or counter that some combat unit of the same
    /// side actually has.
    ///
    /// ## Why is this bad?
    /// The commander would have nowhere to go: no unit matches what the setup asks for.
    ///
    /// ## Example
    /// ```ron
    /// // red sets up no bowmen
    /// (units: [(counter: "charles")], at: OnUnit(kind: "missile-infantry")),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (units: [(counter: "charles")], at: OnUnit(kind: "cavalry")),
    /// ```
    pub META = ("setup::on-unit-unmatched", Error, "an \"on unit\" placement that matches no unit of the side");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    // Without the system's unit kinds nothing can be matched; `references::unknown-file`
    // or `references::outside-root` reports why.
    if cx.system.is_none() {
        return;
    }
    for g in cx.groups() {
        let Placement::OnUnit { kind, counter } = g.at else {
            continue;
        };
        // An unknown army or unit kind is reported by `references::unknown-army` and
        // `references::unknown-unit-kind`; no unit can match it here.
        if g.army.is_none() || kind.as_ref().is_some_and(|k| cx.unit_kind(k).is_none()) {
            continue;
        }
        let hosts = cx
            .groups()
            .iter()
            // Units waiting in a holding box stand on no hex to stack on.
            .filter(|h| {
                h.side == g.side && !std::ptr::eq(*h, g) && !matches!(h.at, Placement::Box(_))
            })
            .flat_map(|h| h.units.iter())
            .filter(|u| {
                u.role() == Some(UnitRole::Combat)
                    && kind
                        .as_ref()
                        .is_none_or(|k| u.kind.is_some_and(|uk| &uk.id == k))
                    && counter.as_ref().is_none_or(|c| u.counter_id == c)
            });
        if hosts.count() == 0 {
            let on_unit = g.place.field("at").variant("OnUnit");
            let (what, at) = match (kind, counter) {
                (Some(k), Some(c)) => (format!("`{k}` unit `{c}`"), on_unit),
                (Some(k), None) => (format!("`{k}` unit"), on_unit.field("kind")),
                (None, Some(c)) => (format!("unit `{c}`"), on_unit.field("counter")),
                (None, None) => ("combat unit".to_string(), on_unit),
            };
            sink.push(
                Report::new(
                    &META,
                    at,
                    format!(
                        "side {} sets up no {what} to place this on",
                        cx.side_name(g.side)
                    ),
                )
                .help("name a kind or counter that the side's setup contains"),
            );
        }
    }
}
