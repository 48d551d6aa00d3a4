use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::system::RulesSystem;
use muster_model::vocab::{Condition, Effect, EffectRule};
use muster_semantic::FileCx;
use muster_semantic::rules::vocab::{
    Relation, canonical_when, disagree, effect_rule_groups, relation,
};

declare_check! {
    /// ## What it does
    /// Checks that two of the system's vocabulary rules that give different answers
    /// (may and may not for the same act, two movement costs, stacking limits, fixed
    /// strengths or zone-of-control effects that differ) cannot both apply to one unit
    /// at one moment, unless one is an exception to the other. Two conditions can both
    /// hold unless they ask for two sides, weathers, phases, kinds or statuses at once,
    /// attacking and defending, or a condition and its negation; one is an exception
    /// when it asks all the other asks and more (a kind of the other's class counts).
    /// Rules under the same condition are `rules::effect-conflict`'s. Rules are compared
    /// as `rules::effect-conflict` groups them: the system's effects, then each special
    /// and each optional rule on its own. Beyond 256 different conditions in one group,
    /// the later rules are not compared, and the check says so.
    ///
    /// ## Why is this bad?
    /// A cavalry unit in mud meets both "cavalry pay 2 MP a hex" and "in mud a hex
    /// costs 3": which one it pays depends on the order of the file, not on the book.
    ///
    /// ## Example
    /// ```ron
    ///             (id: "mud", section: "8.2", when: Weather("mud"), then: [MoveCost(Points(3.0))]),
    /// ```
    ///
    /// Use instead:
    /// ```ron
    ///             (id: "mud", section: "8.2", when: All([Weather("mud"), Not(Troop("cavalry"))]), then: [MoveCost(Points(3.0))]),
    /// ```
    pub META = ("rules::effect-overlap", Warning, "two rules give different answers where both can apply and neither is an exception to the other");
}

/// Different conditions compared with each other in one group, at most.
const MAX_CONDITIONS: usize = 256;

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(effect_overlaps(system), sink);
    }
}

/// One condition of a group, with the effects stated under it so far.
struct Under<'a> {
    when: Option<&'a Condition>,
    text: String,
    effects: Vec<(&'a Effect, Place, &'a str)>,
}

/// Every effect that disagrees with an earlier one of its group under an overlapping
/// condition.
pub fn effect_overlaps(system: &RulesSystem) -> Vec<Report> {
    let mut out = Vec::new();
    for rules in effect_rule_groups(system) {
        overlaps_in(system, rules, &mut out);
    }
    out
}

fn overlaps_in(system: &RulesSystem, rules: Vec<(Place, &EffectRule)>, out: &mut Vec<Report>) {
    let mut seen: Vec<Under> = Vec::new();
    for (place, rule) in rules {
        let text = canonical_when(rule.when.as_ref());
        if !seen.iter().any(|u| u.text == text) {
            if seen.len() == MAX_CONDITIONS {
                out.push(
                    Report::new(
                        &META,
                        place.clone(),
                        format!(
                            "rule `{}` and those after it were not compared for overlapping conditions: the group has more than {MAX_CONDITIONS} different conditions",
                            rule.id
                        ),
                    )
                    .help("split the rules into optional or special rules, or merge rules with the same effect"),
                );
                return;
            }
            seen.push(Under {
                when: rule.when.as_ref(),
                text: text.clone(),
                effects: Vec::new(),
            });
        }
        for (k, effect) in rule.then.iter().enumerate() {
            let at = place.field("then").index(k);
            let clash = seen.iter().filter(|u| u.text != text).find_map(|u| {
                let (e, first, id) = u.effects.iter().find(|(e, _, _)| disagree(e, effect))?;
                (relation(u.when, rule.when.as_ref(), system) == Relation::Overlapping)
                    .then_some((*e, first, *id))
            });
            if let Some((first_effect, first, first_id)) = clash {
                out.push(
                    Report::new(
                        &META,
                        at.clone(),
                        format!(
                            "rule `{}` says `{effect:?}` where rule `{first_id}` says `{first_effect:?}`, and a unit can meet both conditions at once",
                            rule.id
                        ),
                    )
                    .label(first.clone(), format!("rule `{first_id}` says this"))
                    .help("make the conditions exclusive, or make one an exception by adding the other's condition to it"),
                );
            }
            let under = seen.iter_mut().find(|u| u.text == text);
            if let Some(u) = under
                && !u.effects.iter().any(|(e, _, _)| *e == effect)
            {
                u.effects.push((effect, at, &rule.id));
            }
        }
    }
}
