use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::MoraleEvent;
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks the immunities to combat results: each must name at least one result
    /// code, and an immunity without a condition may not cover a troop type that a
    /// morale trigger on the same result code names by the same name.
    ///
    /// ## Why is this bad?
    /// A unit that both ignores a `T` result and must test its morale on it leaves an
    /// engine to guess which rule wins.
    ///
    /// ## Example
    /// ```ron
    /// immunities: [(troops: ["baggage"], results: ["T"])],
    /// morale: Some((triggers: [(event: CombatResult("T"), troops: ["infantry", "baggage"])])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// immunities: [
    ///     (troops: ["baggage"], results: ["R", "T"]),
    /// ],
    /// morale: Some((triggers: [(event: CombatResult("T"), troops: ["*"])])),
    /// ```
    pub META = ("rules::immunity-conflict", Error, "an immunity to nothing, or to a result a trigger tests the same troops on");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(immunity_conflicts(system), sink);
    }
}

/// Immunities to nothing, and unconditional immunities to a result code that a morale
/// trigger on the same code names the same troop type for.
pub fn immunity_conflicts(system: &RulesSystem) -> Vec<Report> {
    let rules = &system.rules;
    let mut out = Vec::new();
    for (i, im) in rules.immunities.iter().enumerate() {
        let base = Place::rules().field("immunities").index(i);
        if im.results.is_empty() {
            out.push(
                Report::new(&META, base.field("results"), "an immunity to no result")
                    .help("list the result codes these troops ignore"),
            );
        }
        if im.condition.is_some() {
            continue;
        }
        let Some(m) = &rules.morale else { continue };
        for (t, trigger) in m.triggers.iter().enumerate() {
            let MoraleEvent::CombatResult(code) = &trigger.event else {
                continue;
            };
            let Some(r) = im.results.iter().position(|c| c == code) else {
                continue;
            };
            for (k, troop) in trigger.troops.iter().enumerate() {
                if troop != "*" && im.troops.contains(troop) && !trigger.exempt.contains(troop) {
                    out.push(
                        Report::new(&META,
                            Place::rules().field("morale").field("triggers").index(t).field("troops").index(k),
                            format!("`{troop}` is immune to `{code}`, yet this trigger makes it test on it"),
                        )
                        .label(base.field("results").index(r), "immune")
                        .help(format!("remove `{troop}` from the trigger or `{code}` from the immunity")),
                    );
                }
            }
        }
    }
    out
}
