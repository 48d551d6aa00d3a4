use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::MoraleEvent;
use muster_model::system::RulesSystem;
use muster_model::vocab::{Condition, Effect};
use muster_semantic::FileCx;
use muster_semantic::rules::vocab::effect_rules;

declare_check! {
    /// ## What it does
    /// Checks the immunities to combat results, the rules whose effect is `Immune`:
    /// each must name at least one result code, and one whose condition names troop
    /// types only (or none) may not cover a troop type that a morale trigger on the
    /// same result code names by the same name.
    ///
    /// ## Why is this bad?
    /// A unit that both ignores a `T` result and must test its morale on it leaves an
    /// engine to guess which rule wins.
    ///
    /// ## Example
    /// ```ron
    /// effects: [(id: "baggage-calm", section: "9.4", when: Some(Troop("baggage")), then: [Immune(["T"])])],
    /// morale: Some((triggers: [(event: CombatResult("T"), troops: ["infantry", "baggage"])])),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// effects: [
    ///     (id: "baggage-calm", section: "9.4", when: Some(Troop("baggage")), then: [Immune(["R", "T"])]),
    ///     (id: "held-by-the-baggage", section: "9.4", when: Some(StackedWith("baggage")), then: [Immune(["R"])]),
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

/// The troop types a condition picks when it says nothing else: every unit without one
/// (`"*"`), `Troop(t)`, or an `Any` of troop types; `None` for any other condition.
fn troops_only(c: Option<&Condition>) -> Option<Vec<&str>> {
    match c {
        None => Some(vec!["*"]),
        Some(Condition::Troop(t)) => Some(vec![t.as_str()]),
        Some(Condition::Any(list)) => list
            .iter()
            .map(|x| match x {
                Condition::Troop(t) => Some(t.as_str()),
                _ => None,
            })
            .collect(),
        Some(_) => None,
    }
}

/// Immunities to nothing, and immunities picked by troop type alone to a result code
/// that a morale trigger on the same code names the same troop type for.
pub fn immunity_conflicts(system: &RulesSystem) -> Vec<Report> {
    let mut out = Vec::new();
    for r in effect_rules(system) {
        for (k, e) in r.rule.then.iter().enumerate() {
            let Effect::Immune(codes) = e else { continue };
            let at = r.at.field("then").index(k).variant("Immune");
            if codes.is_empty() {
                out.push(
                    Report::new(
                        &META,
                        at.clone(),
                        format!("{} is an immunity to no result", r.what),
                    )
                    .help("list the result codes these troops ignore"),
                );
            }
            let Some(troops) = troops_only(r.rule.when.as_ref()) else {
                continue;
            };
            let Some(m) = &system.rules.morale else {
                continue;
            };
            for (t, trigger) in m.triggers.iter().enumerate() {
                let MoraleEvent::CombatResult(code) = &trigger.event else {
                    continue;
                };
                let Some(c) = codes.iter().position(|x| x == code) else {
                    continue;
                };
                for (n, troop) in trigger.troops.iter().enumerate() {
                    if troop != "*"
                        && troops.contains(&troop.as_str())
                        && !trigger.exempt.contains(troop)
                    {
                        out.push(
                            Report::new(&META,
                                Place::rules().field("morale").field("triggers").index(t).field("troops").index(n),
                                format!("`{troop}` is immune to `{code}`, yet this trigger makes it test on it"),
                            )
                            .label(at.index(c), "immune")
                            .help(format!("remove `{troop}` from the trigger or `{code}` from the immunity")),
                        );
                    }
                }
            }
        }
    }
    out
}
