use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::{Action, Allowance};
use muster_model::system::RulesSystem;
use muster_model::vocab::{Act, Condition, Effect};
use muster_semantic::FileCx;
use muster_semantic::rules::vocab::effect_rules;

declare_check! {
    /// ## What it does
    /// Checks the effects of status levels. A vocabulary rule that asks
    /// for a status level (`Status`, alone or in an `All`) may not ask for a level that
    /// removes the unit, nor forbid (`MayNot`) an act that a permission binds the same
    /// troops to at that level; a multiplier of movement allowance or strength
    /// (`MoveAllowance`, `Strength`, `FinalStrength`) is above 0.
    ///
    /// ## Why is this bad?
    /// A rule for a unit already removed never applies, a share of 0 or less is no
    /// share, and a unit that must and may never act at once cannot be played.
    ///
    /// ## Example
    /// ```ron
    /// effects: [(id: "fleet-slowed", section: "3.23", when: Some(All([Troop("fleet"), Status("eliminated")])), then: [MoveAllowance(0.0)])],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// effects: [(id: "fleet-slowed", section: "3.23", when: Some(All([Troop("fleet"), Status("disrupted")])), then: [MoveAllowance(0.5)])],
    /// ```
    pub META = ("rules::state-effect-conflict", Error, "effects of a status level that contradict themselves or a permission");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(state_effect_conflicts(system), sink);
    }
}

/// The conditions a rule's condition (at `at`) asks for in any case, with their
/// places: itself, or the members of its `All`.
fn required<'a>(c: &'a Condition, at: &Place) -> Vec<(Place, &'a Condition)> {
    match c {
        Condition::All(list) => list
            .iter()
            .enumerate()
            .map(|(k, x)| (at.variant("All").index(k), x))
            .collect(),
        c => vec![(at.clone(), c)],
    }
}

/// The permission action an act of the vocabulary is, where there is one.
fn action_of(act: Act) -> Option<Action> {
    match act {
        Act::Attack => Some(Action::Attack),
        Act::Charge => Some(Action::Charge),
        Act::Evade => Some(Action::Evade),
        Act::Face => Some(Action::TurnToFace),
        _ => None,
    }
}

/// Vocabulary rules for a status level that removes the unit, multipliers not above 0,
/// `MayNot` against a permission that binds the same troop name to the act at the
/// rule's level.
pub fn state_effect_conflicts(system: &RulesSystem) -> Vec<Report> {
    let rules = &system.rules;
    let mut out = Vec::new();
    for r in effect_rules(system) {
        let asked = r
            .rule
            .when
            .as_ref()
            .map(|c| required(c, &r.at.field("when")))
            .unwrap_or_default();
        let troops: Vec<&str> = asked
            .iter()
            .filter_map(|(_, c)| match c {
                Condition::Troop(t) => Some(t.as_str()),
                _ => None,
            })
            .collect();
        let level = asked.iter().find_map(|(at, c)| match c {
            Condition::Status(s) => Some((at.variant("Status"), s.as_str())),
            _ => None,
        });
        if let Some((status_at, s)) = level.clone()
            && let Some(ladder) = &rules.status
            && ladder.levels.iter().any(|l| l.id == s && l.removes)
        {
            out.push(
                Report::new(
                    &META,
                    status_at,
                    format!(
                        "{} asks for status `{s}`, which removes the unit: its effects never apply",
                        r.what
                    ),
                )
                .help("name a level at which the unit is still in play"),
            );
        }
        for (k, e) in r.rule.then.iter().enumerate() {
            let at = r.at.field("then").index(k);
            match e {
                Effect::MoveAllowance(f) | Effect::Strength(f) | Effect::FinalStrength(f)
                    if !(f.is_finite() && *f > 0.0) =>
                {
                    let what = match e {
                        Effect::MoveAllowance(_) => "MoveAllowance",
                        Effect::FinalStrength(_) => "FinalStrength",
                        _ => "Strength",
                    };
                    out.push(
                        Report::new(
                            &META,
                            at.variant(what),
                            format!("{} multiplies by {f}: a multiplier is above 0", r.what),
                        )
                        .help("give the share kept, as 0.5 for half; a unit that may not act at all is `MayNot`"),
                    );
                }
                Effect::MayNot(act) => {
                    let (Some(action), Some((_, s))) = (action_of(*act), level.clone()) else {
                        continue;
                    };
                    for (p, perm) in rules.permissions.iter().enumerate() {
                        if perm.action == action
                            && perm.allowed == Allowance::Must
                            && !perm.is_conditional()
                            && perm.status.as_deref() == Some(s)
                            && perm.troops.iter().any(|t| troops.contains(&t.as_str()))
                        {
                            out.push(
                                Report::new(
                                    &META,
                                    at.variant("MayNot"),
                                    format!(
                                        "{} says troops at `{s}` may not {}, yet a permission says they must",
                                        r.what,
                                        action.words()
                                    ),
                                )
                                .label(
                                    Place::rules().field("permissions").index(p).field("allowed"),
                                    "must",
                                )
                                .help("remove one of the two"),
                            );
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}
