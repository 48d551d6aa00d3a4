//! A system's combat rules (`rules.combat`) as checks and summaries ask about them:
//! the compulsory-attack rule ([`compulsory`]), the unit kinds it binds
//! ([`bound_kinds`]) and those a permission or a rule bars from the part they are
//! bound to ([`obliged_but_barred`]), whether a lone unit could ever meet an obligation to
//! attack every adjacent enemy ([`lone_unit_cannot_comply`]), and whether split
//! strength meets one attack a phase ([`split_contradicts_once`]).

use muster_db::place::Place;
use muster_model::combat::{
    CombatRules, CompulsoryAttacks, DefenderGroup, OncePerPhase, SplitStrength,
};
use muster_model::rules::{Action, Allowance};
use muster_model::system::{RulesSystem, UnitKind, UnitRole};
use muster_model::vocab::{Act, Condition, Effect};

use super::vocab::admits_kind;
use super::{permission_for, specificity};

/// The system's compulsory-attack rule, if it states one.
pub fn compulsory(system: &RulesSystem) -> Option<&CompulsoryAttacks> {
    system.rules.combat.as_ref()?.compulsory.as_ref()
}

/// The unit kinds an obligation binds: the combat kinds its `who` could admit (every
/// combat kind, when it has none).
pub fn bound_kinds<'a>(system: &'a RulesSystem, c: &CompulsoryAttacks) -> Vec<&'a UnitKind> {
    system
        .unit_kinds
        .iter()
        .filter(|k| k.role == UnitRole::Combat)
        .filter(|k| c.who.as_ref().is_none_or(|who| admits_kind(who, system, k)))
        .collect()
}

/// A unit kind bound by compulsory attacks to a part its rules forbid it.
#[derive(Debug, Clone, PartialEq)]
pub struct Barred<'a> {
    pub kind: &'a UnitKind,
    /// The part it is bound to: `Attack` (it must attack) or `BeAttackedInMelee` (it
    /// must be attacked).
    pub action: Action,
    /// What forbids it: the `allowed` of a permission, or the `MayNot(Attack)` of an
    /// always-on rule of `rules.effects`.
    pub by: Place,
    /// That in words (`a permission`, `rule `levy-holds``).
    pub what: String,
}

/// Whether a rule's condition holds for every unit of `kind` at every moment: none, a
/// troop name covering the kind, or an `All` of such.
fn always_for(c: Option<&Condition>, system: &RulesSystem, kind: &UnitKind) -> bool {
    match c {
        None => true,
        Some(Condition::Troop(t)) => specificity(system, t, &kind.id).is_some(),
        Some(Condition::All(list)) => list.iter().all(|x| always_for(Some(x), system, kind)),
        Some(_) => false,
    }
}

/// The bound kinds (see [`bound_kinds`]) that may never attack, where every adjacent
/// unit must attack, or may never be attacked in melee, where every adjacent enemy
/// must be attacked: by a permission without a condition, or (for attacking) by a
/// rule of `rules.effects` whose condition always holds for the kind.
pub fn obliged_but_barred(system: &RulesSystem) -> Vec<Barred<'_>> {
    let Some(c) = compulsory(system) else {
        return Vec::new();
    };
    let mut actions = Vec::new();
    if c.attacks.binds_attackers() {
        actions.push(Action::Attack);
    }
    if c.attacks.binds_defenders() {
        actions.push(Action::BeAttackedInMelee);
    }
    let mut out = Vec::new();
    for kind in bound_kinds(system, c) {
        for &action in &actions {
            if let Some((i, p)) = permission_for(system, &kind.id, action, None)
                && p.allowed == Allowance::Never
            {
                out.push(Barred {
                    kind,
                    action,
                    by: Place::rules()
                        .field("permissions")
                        .index(i)
                        .field("allowed"),
                    what: "a permission".to_string(),
                });
            }
        }
        if !c.attacks.binds_attackers() {
            continue;
        }
        for (i, rule) in system.rules.effects.iter().enumerate() {
            let bars = rule
                .then
                .iter()
                .position(|e| *e == Effect::MayNot(Act::Attack));
            if let Some(k) = bars
                && always_for(rule.when.as_ref(), system, kind)
            {
                out.push(Barred {
                    kind,
                    action: Action::Attack,
                    by: Place::rules()
                        .field("effects")
                        .index(i)
                        .field("then")
                        .index(k),
                    what: format!("rule `{}`", rule.id),
                });
            }
        }
    }
    out
}

/// Whether the combat rules bind every enemy next to a phasing unit to be attacked
/// while a unit attacks at most once a phase and one combat's defenders stand in one
/// hex (or are one unit): a lone unit next to enemies in two hexes can then never
/// comply. `None` when the rules do not say enough to tell.
pub fn lone_unit_cannot_comply(combat: &CombatRules) -> Option<DefenderGroup> {
    let compulsory = combat.compulsory.as_ref()?;
    let once = combat.once_per_phase.as_ref()?;
    let combined = combat.combined.as_ref()?;
    (compulsory.attacks.binds_defenders()
        && once.each_attacker_once
        && combined.defenders != DefenderGroup::MultiHex)
        .then_some(combined.defenders)
}

/// The split-strength and once-a-phase rules when strength may be split among attacks
/// yet a unit takes part in one attack a phase.
pub fn split_contradicts_once(combat: &CombatRules) -> Option<(&SplitStrength, &OncePerPhase)> {
    let split = combat.split_strength.as_ref()?;
    let once = combat.once_per_phase.as_ref()?;
    (split.allowed && once.each_attacker_once).then_some((split, once))
}
