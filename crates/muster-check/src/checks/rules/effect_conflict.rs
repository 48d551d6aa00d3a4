use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::system::RulesSystem;
use muster_model::vocab::{Effect, EffectRule};
use muster_semantic::FileCx;
use muster_semantic::rules::vocab::{canonical_when, disagree, effect_rule_groups};

declare_check! {
    /// ## What it does
    /// Checks that the system's vocabulary rules (`rules: (effects: [...])`) do not
    /// give two answers under the same condition: may and may not (or must and may
    /// not) for the same act, or two stacking limits, fixed strengths, movement costs
    /// or zone-of-control effects that differ. Two conditions count as the same when
    /// they are equal once `All`s and `Any`s are flattened and sorted. Shifts, die modifiers and
    /// strength multipliers add up and never conflict; an exception is written with a
    /// narrower condition.
    ///
    /// ## Why is this bad?
    /// An engine asking "may this unit attack?" under that condition gets yes and no,
    /// and which one wins depends on the order of the file.
    ///
    /// ## Example
    /// ```ron
    /// (id: "baggage-attacks", section: "9.5", when: Troop("baggage"), then: [May(Attack)]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// (id: "baggage-never-attacks", section: "9.4", when: Troop("baggage"), then: [MayNot(Attack), Immune(["DR"])]),
    /// ```
    pub META = ("rules::effect-conflict", Error, "two rules give different answers under the same condition");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(effect_conflicts(system), sink);
    }
}

/// Every later effect that disagrees with an earlier one under the same condition,
/// within `effects`, within each special rule and within each optional rule (special
/// and optional rules are switched on by a scenario, where they may well override an
/// effect).
pub fn effect_conflicts(system: &RulesSystem) -> Vec<Report> {
    let mut out = Vec::new();
    for rules in effect_rule_groups(system) {
        conflicts_in(rules, &mut out);
    }
    out
}

/// The conflicts among one group of rules, each with its place.
fn conflicts_in(rules: Vec<(Place, &EffectRule)>, out: &mut Vec<Report>) {
    // The effects seen so far under each condition, each distinct effect once: a rule
    // repeated many times costs its length, not its square.
    type Seen<'a> = Vec<(&'a Effect, Place, &'a str)>;
    let mut seen: std::collections::HashMap<String, Seen> = Default::default();
    for (place, rule) in rules {
        let when = canonical_when(rule.when.as_ref());
        let under = seen.entry(when).or_default();
        for (k, effect) in rule.then.iter().enumerate() {
            let at = place.field("then").index(k);
            if let Some((first_effect, first, first_id)) =
                under.iter().find(|(e, _, _)| disagree(e, effect))
            {
                out.push(
                    Report::new(
                        &META,
                        at.clone(),
                        format!(
                            "rule `{}` says `{}` where rule `{first_id}` says `{}` under the same condition",
                            rule.id,
                            words(effect),
                            words(first_effect),
                        ),
                    )
                    .label(first.clone(), format!("rule `{first_id}` says this"))
                    .help("keep one answer, or narrow one rule's `when` to the exception it states"),
                );
            }
            if !under.iter().any(|(e, _, _)| *e == effect) {
                under.push((effect, at, &rule.id));
            }
        }
    }
}

/// An effect as written in RON (`MayNot(Attack)`).
fn words(effect: &Effect) -> String {
    format!("{effect:?}")
}
