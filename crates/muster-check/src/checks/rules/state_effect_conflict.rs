use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_model::rules::{Allowance, StateEffect};
use muster_model::system::RulesSystem;
use muster_semantic::FileCx;

declare_check! {
    /// ## What it does
    /// Checks the effects of status levels (`status_effects`) and of panic
    /// (`panic.effects`): shares above 0 and at most 1, no effect given twice, no
    /// effects for a level that removes the unit, and no `Never` effect on an action a
    /// permission binds the same troops to at that level.
    ///
    /// ## Why is this bad?
    /// A share of 0 or above 1 is not a reduction, two shares give two answers, and a
    /// unit that must and may never act at once cannot be played.
    ///
    /// ## Example
    /// ```ron
    /// status_effects: [
    ///     (troops: ["fleet"], status: "disrupted", effects: [MovementShare(2.0), MovementShare(0.5)]),
    /// ],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// status_effects: [(troops: ["fleet"], status: "disrupted", effects: [MovementShare(0.5), Never(Attack)])],
    /// ```
    pub META = ("rules::state-effect-conflict", Error, "effects of a status level or of panic that contradict themselves or a permission");
}

pub fn run(cx: &FileCx, sink: &mut Sink) {
    if let Some(system) = super::system(cx) {
        super::report(state_effect_conflicts(system), sink);
    }
}

/// The variant name of an effect, for places and duplicates.
fn effect_variant(e: &StateEffect) -> &'static str {
    match e {
        StateEffect::Never(_) => "Never",
        StateEffect::MovementShare(_) => "MovementShare",
        StateEffect::MeleeDefenceShare(_) => "MeleeDefenceShare",
        StateEffect::EliminatedBy(_) => "EliminatedBy",
        StateEffect::FleeFromEnemy => "FleeFromEnemy",
    }
}

/// Shares outside (0, 1] and one kind of share given twice in a list of effects.
fn effect_list_problems(base: &Place, effects: &[StateEffect]) -> Vec<Report> {
    let mut out = Vec::new();
    for (k, e) in effects.iter().enumerate() {
        if let StateEffect::MovementShare(f) | StateEffect::MeleeDefenceShare(f) = e {
            if !(*f > 0.0 && *f <= 1.0) {
                out.push(
                    Report::new(
                        &META,
                        base.index(k).variant(effect_variant(e)),
                        format!("a share of {f}: a share is above 0 and at most 1"),
                    )
                    .help("give the share kept, as 0.5 for half"),
                );
            }
            if let Some(j) = effects[..k]
                .iter()
                .position(|x| effect_variant(x) == effect_variant(e))
            {
                out.push(
                    Report::new(
                        &META,
                        base.index(k),
                        format!("`{}` is given twice", effect_variant(e)),
                    )
                    .label(base.index(j), "first here")
                    .help("give each share once"),
                );
            }
        } else if let Some(j) = effects[..k].iter().position(|x| x == e) {
            out.push(
                Report::new(
                    &META,
                    base.index(k),
                    format!("`{}` is given twice", effect_variant(e)),
                )
                .label(base.index(j), "first here")
                .help("give each effect once"),
            );
        }
    }
    out
}

/// Effects of a status level that removes the unit anyway, shares outside (0, 1],
/// effects given twice, and a `Never` effect against a permission that binds the same
/// troop name to the action at that level.
pub fn state_effect_conflicts(system: &RulesSystem) -> Vec<Report> {
    let rules = &system.rules;
    let mut out = Vec::new();
    for (i, se) in rules.status_effects.iter().enumerate() {
        let base = Place::rules().field("status_effects").index(i);
        if let Some(ladder) = &rules.status
            && ladder.levels.iter().any(|l| l.id == se.status && l.removes)
        {
            out.push(
                Report::new(
                    &META,
                    base.field("status"),
                    format!(
                        "status level `{}` removes the unit: its effects never apply",
                        se.status
                    ),
                )
                .help("name a level at which the unit is still in play"),
            );
        }
        out.extend(effect_list_problems(&base.field("effects"), &se.effects));
        for (k, e) in se.effects.iter().enumerate() {
            let StateEffect::Never(action) = e else {
                continue;
            };
            for (p, perm) in rules.permissions.iter().enumerate() {
                if perm.action == *action
                    && perm.allowed == Allowance::Must
                    && perm.condition.is_none()
                    && perm.status.as_deref() == Some(se.status.as_str())
                    && perm.troops.iter().any(|t| se.troops.contains(t))
                {
                    out.push(
                        Report::new(
                            &META,
                            base.field("effects").index(k).variant("Never"),
                            format!(
                                "troops at `{}` may never {}, yet a permission says they must",
                                se.status,
                                action.words()
                            ),
                        )
                        .label(
                            Place::rules()
                                .field("permissions")
                                .index(p)
                                .field("allowed"),
                            "must",
                        )
                        .help("remove one of the two"),
                    );
                }
            }
        }
    }
    if let Some(p) = &rules.panic {
        out.extend(effect_list_problems(
            &Place::rules().field("panic").field("effects"),
            &p.effects,
        ));
    }
    out
}
