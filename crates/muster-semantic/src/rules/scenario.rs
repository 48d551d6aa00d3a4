//! What a system's rules mean for one scenario: the sides that have no leader under
//! leader control, the men a table side's bases stand for, the optional rules in play
//! and the vocabulary rules its special rules put in force.

use crate::ScenarioCx;
use muster_model::scenario::Forces;
use muster_model::system::{RulesSystem, UnitRole};
use muster_model::vocab::{Condition, Effect, EffectRule, SideFact};

/// How a side moves under leaders' movement control when it has no leader at all.
#[derive(Debug, Clone, PartialEq)]
pub struct UnledSide {
    pub side: usize,
    /// Unit kinds that begin every movement phase out of control: they move at the
    /// reduced rate all game.
    pub reduced: Vec<String>,
    /// Unit kinds no such rule slows: exempt by the scenario's leadership note, or
    /// always counted in command.
    pub exempt: Vec<String>,
    pub factor: f64,
    /// The leadership note that exempts (`Mt. Ex.`), if the side has it.
    pub note: Option<String>,
}

/// The sides of a zoned scenario that have no leader, under the system's rules that
/// change the allowance of units out of command (a `MoveAllowance` whose condition asks
/// `Not(InCommand)`): which kinds move at the changed rate all game (PRESTAGS 10.23;
/// El Mansura's Arabs, `Mt. Ex.` and no leader, move their foot at half rate).
pub fn unled_sides(cx: &ScenarioCx) -> Vec<UnledSide> {
    let Some(system) = cx.system else {
        return Vec::new();
    };
    // The rules that change the allowance of units out of command, with their factor.
    let slowing: Vec<(&Condition, f64)> = system
        .rules
        .effects
        .iter()
        .filter_map(|r| {
            let c = r.when.as_ref().filter(|c| asks_out_of_command(c))?;
            let factor = r.then.iter().find_map(|e| match e {
                Effect::MoveAllowance(f) => Some(*f),
                _ => None,
            })?;
            Some((c, factor))
        })
        .collect();
    if slowing.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for side in cx.zoned_sides() {
        let kinds: Vec<&str> = side.forces.units.iter().map(|u| u.kind.as_str()).collect();
        let has_leader = kinds.iter().any(|k| {
            cx.unit_kind(k)
                .is_some_and(|u| u.role == UnitRole::Commander)
        });
        if has_leader {
            continue;
        }
        let note = side.forces.leadership.as_deref();
        let mut factor = 1.0;
        let (mut reduced, mut exempt) = (Vec::new(), Vec::new());
        for k in kinds {
            let held: Vec<f64> = slowing
                .iter()
                .filter(|(c, _)| unled_holds(c, system, k, note) == Some(true))
                .map(|(_, f)| *f)
                .collect();
            if held.is_empty() {
                exempt.push(k.to_string());
            } else {
                factor = held.iter().product();
                reduced.push(k.to_string());
            }
        }
        // The note names the exemption only where a rule asks for it.
        let named = note.filter(|n| slowing.iter().any(|(c, _)| mentions_leadership(c, n)));
        out.push(UnledSide {
            side: side.index,
            reduced,
            exempt,
            factor,
            note: named.map(str::to_string),
        });
    }
    out
}

/// Whether a condition asks that the unit be out of command: `Not(InCommand)`, alone
/// or as a member of its `All`.
fn asks_out_of_command(c: &Condition) -> bool {
    let out = |x: &Condition| matches!(x, Condition::Not(inner) if **inner == Condition::InCommand);
    match c {
        Condition::All(list) => list.iter().any(out),
        other => out(other),
    }
}

/// Whether a condition names this leadership note (`OwnSide(Leadership(...))`).
fn mentions_leadership(c: &Condition, note: &str) -> bool {
    match c {
        Condition::All(list) | Condition::Any(list) => {
            list.iter().any(|x| mentions_leadership(x, note))
        }
        Condition::Not(inner) => mentions_leadership(inner, note),
        Condition::OwnSide(SideFact::Leadership(n)) => n == note,
        _ => false,
    }
}

/// Whether a condition holds for a unit of `kind` on a side with no leader whose
/// leadership note is `note`; `None` where it asks anything else than command, troop
/// type and leadership note.
fn unled_holds(
    c: &Condition,
    system: &RulesSystem,
    kind: &str,
    note: Option<&str>,
) -> Option<bool> {
    match c {
        Condition::All(list) => list
            .iter()
            .map(|x| unled_holds(x, system, kind, note))
            .try_fold(true, |acc, x| Some(acc && x?)),
        Condition::Any(list) => list
            .iter()
            .map(|x| unled_holds(x, system, kind, note))
            .try_fold(false, |acc, x| Some(acc || x?)),
        Condition::Not(inner) => unled_holds(inner, system, kind, note).map(|b| !b),
        Condition::InCommand => Some(false),
        Condition::Troop(t) => Some(super::specificity(system, t, kind).is_some()),
        Condition::OwnSide(SideFact::Leadership(n)) => Some(note == Some(n.as_str())),
        _ => None,
    }
}

/// The men a table side's units of bases stand for, fewest to most (leaders and
/// transport not counted), by the system's representation.
pub fn men_represented(cx: &ScenarioCx, index: usize) -> Option<(u32, u32)> {
    let system = cx.system?;
    let r = system.rules.representation.as_ref()?;
    let Forces::Table(forces) = &cx.scenario.sides.get(index)?.forces else {
        return None;
    };
    if forces.units.is_empty() {
        return None;
    }
    let (mut min, mut max) = (0u32, 0u32);
    for u in &forces.units {
        let Some(kind) = cx.unit_kind(&u.troop) else {
            continue;
        };
        if kind.role != UnitRole::Combat {
            continue;
        }
        let range = if kind.mounted { r.mounted } else { r.foot };
        min = min.saturating_add(range.min.saturating_mul(u32::from(u.bases)));
        max = max.saturating_add(range.max.saturating_mul(u32::from(u.bases)));
    }
    Some((min, max))
}

/// An optional rule in play in a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionalOn<'a> {
    pub id: &'a str,
    /// Switched on by the project (`[optional-rules]` in `muster.toml`) for every
    /// scenario of the system, rather than by the scenario's own `optional_rules`.
    pub by_project: bool,
}

/// The optional rules in play in a scenario: its own `optional_rules`, then those the
/// project switches on for its system, each once.
pub fn optional_rules_on<'a>(cx: &ScenarioCx<'a>) -> Vec<OptionalOn<'a>> {
    let mut out: Vec<OptionalOn<'a>> = cx
        .scenario
        .optional_rules
        .iter()
        .map(|id| OptionalOn {
            id,
            by_project: false,
        })
        .collect();
    let project = cx
        .system
        .and_then(|s| cx.file.db.optional_rules.get(&s.id))
        .map(Vec::as_slice)
        .unwrap_or_default();
    for id in project {
        if !out.iter().any(|o| o.id == id) {
            out.push(OptionalOn {
                id,
                by_project: true,
            });
        }
    }
    out
}

/// The vocabulary rules a scenario puts in force beyond its system's `effects` and
/// optional rules, in the order of its `special_rules`:
/// - a special rule naming one of the system's `special_rules` switches that rule on,
///   narrowed by the scenario's `when` where it gives one;
/// - a special rule stated in the vocabulary (`then`) is a rule of its own, its hook
///   the rule's id;
/// - a registered hook brings the rules it desugars into ([`crate::hooks::Hook::rules`]).
///
/// A rule with no section of its own takes the special rule's.
pub fn scenario_rules(cx: &ScenarioCx) -> Vec<EffectRule> {
    (0..cx.scenario.special_rules.len())
        .flat_map(|i| special_rule_rules(cx, i))
        .collect()
}

/// The vocabulary rules of the scenario's special rule at index `i`
/// ([`scenario_rules`]).
pub fn special_rule_rules(cx: &ScenarioCx, i: usize) -> Vec<EffectRule> {
    let Some(rule) = cx.scenario.special_rules.get(i) else {
        return Vec::new();
    };
    let section = rule.section.clone().unwrap_or_default();
    let declared = cx
        .system
        .and_then(|s| s.rules.special_rules.iter().find(|r| r.id == rule.hook));
    if let Some(base) = declared {
        let when = match (&base.when, &rule.when) {
            (Some(a), Some(b)) => Some(Condition::All(vec![a.clone(), b.clone()])),
            (a, b) => a.as_ref().or(b.as_ref()).cloned(),
        };
        vec![EffectRule {
            when,
            ..base.clone()
        }]
    } else if !rule.then.is_empty() {
        vec![EffectRule {
            id: rule.hook.clone(),
            section,
            when: rule.when.clone(),
            then: rule.then.clone(),
            note: Some(rule.text.clone()),
        }]
    } else if let Some(hook) = cx.hooks().iter().find(|h| h.rule == i) {
        let mut rules = hook.hook.rules();
        for r in rules.iter_mut().filter(|r| r.section.is_empty()) {
            r.section.clone_from(&section);
        }
        rules
    } else {
        Vec::new()
    }
}
