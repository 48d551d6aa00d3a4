//! Whether a unit may do an act where it stands ([`Engine::may`]): the rules in force
//! that say `MayNot(act)` or `May(act)` of it, asked with the facts of its hex at the
//! position's moment of play, and what a carrier's act costs it.

use muster_model::rules::{Action, Allowance};
use muster_model::vocab::{Act, Effect};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cond::Facts;
use crate::{Engine, QueryError, RuleRef, rule_ref};

/// The answer to "may this unit do this act now".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct May {
    pub unit: String,
    pub act: Act,
    /// Nothing forbids it: no rule in force says `MayNot` of it and no `reason` stands.
    pub allowed: bool,
    /// Why it may not, where no rule says so: a permission that never allows it, fire
    /// without a range, a carrier's act asked of a unit that is no carrier, `Unmoor` of
    /// a fleet that is not moored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Movement points the act costs the unit, where the system prints a cost (a
    /// carrier's `moor_cost` or `unmoor_cost`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<f64>,
    /// The rules that forbid it; where none does, those that allow it in so many words
    /// (`May`).
    pub rules: Vec<RuleRef>,
}

impl Engine<'_> {
    /// Whether unit `id` may do `act` on its hex at the position's turn, phase and
    /// weather: forbidden where a rule in force says `MayNot(act)` of it, else allowed,
    /// with the rules that say `May(act)`. A rule against `Attack` forbids `Melee` and
    /// `Fire` too, and the system's permission for attacking, charging or evading
    /// (`permissions`) is read where it never allows the act. `Fire` needs a range.
    /// The question is asked outside any combat, so a condition on attacking,
    /// defending or an opponent does not hold here; the `combat` query answers those.
    /// `Moor`, `Unmoor` and `Load` are a carrier's acts (the system's `carriers`):
    /// asked of another unit, the answer is no. An act that ends kept states (their
    /// `ended_by`) needs the unit in one of them: a fleet that is not moored has
    /// nothing to unmoor.
    pub fn may(&self, id: &str, act: Act) -> Result<May, QueryError> {
        let i = self.unit(id)?;
        let facts = Facts::at(self, i, self.hex_of(i));
        let kind = &self.units[i].unit.kind;
        let carrier = self.system.carriers.iter().find(|c| c.kind == *kind);
        let carriers_act = matches!(act, Act::Moor | Act::Unmoor | Act::Load);
        // An act that ends kept states (`ended_by`) has nothing to end in none of them.
        let ends: Vec<&str> = (self.system.rules.states.iter())
            .filter(|s| s.ended_by.contains(&act))
            .map(|s| s.id.as_str())
            .collect();
        let in_one = ends
            .iter()
            .any(|s| self.units[i].unit.states.iter().any(|x| x == s));
        // The system's permission for the act, where it has one: a unit its permission
        // never lets attack (PRESTAGS Excl 3.5: a fleet) neither melees nor fires.
        let action = match act {
            Act::Attack | Act::Melee | Act::Fire => Some(Action::Attack),
            Act::Charge => Some(Action::Charge),
            Act::Evade => Some(Action::Evade),
            _ => None,
        };
        let never = action.filter(|a| self.allowance_in(i, *a, &facts) == Some(Allowance::Never));
        let reason = if let Some(a) = never {
            Some(format!(
                "the system's permissions never let a unit of kind `{kind}` {}",
                a.words()
            ))
        } else if act == Act::Fire && self.units[i].unit.range.is_none() {
            Some("it has no missile fire (no range)".to_string())
        } else if carriers_act && carrier.is_none() {
            Some(format!(
                "a unit of kind `{kind}` is no carrier (the system's `carriers`)"
            ))
        } else if !ends.is_empty() && !in_one {
            Some(format!(
                "it is in none of the kept states this act ends (`{}`)",
                ends.join("`, `")
            ))
        } else {
            None
        };
        let cost = carrier.and_then(|c| match act {
            Act::Moor => c.moor_cost,
            Act::Unmoor => c.unmoor_cost,
            _ => None,
        });
        // A rule against attacking at all forbids a melee and fire too, as in combat.
        let attack = matches!(act, Act::Melee | Act::Fire);
        let forbids =
            |e: &Effect| *e == Effect::MayNot(act) || (attack && *e == Effect::MayNot(Act::Attack));
        let forbidding = self.rules_giving(&facts, forbids);
        let (allowed, rules) = if forbidding.is_empty() {
            (
                reason.is_none(),
                self.rules_giving(&facts, |e| *e == Effect::May(act)),
            )
        } else {
            (false, forbidding)
        };
        Ok(May {
            unit: id.to_string(),
            act,
            allowed,
            reason,
            cost,
            rules: rules.into_iter().map(rule_ref).collect(),
        })
    }

    /// Whether unit `i` is a carrier with a unit aboard: a friendly unit that is no
    /// carrier on its hex (`Condition::Carrying`).
    pub(crate) fn carrying(&self, i: usize) -> bool {
        let is_carrier =
            |k: usize| (self.system.carriers.iter()).any(|c| c.kind == self.units[k].unit.kind);
        is_carrier(i)
            && self.units[i].hex.is_some_and(|h| {
                self.units_at(h).iter().any(|&o| {
                    o != i && self.units[o].unit.side == self.units[i].unit.side && !is_carrier(o)
                })
            })
    }
}

/// The vocabulary's act named `text`, or why there is none, with the acts there are.
pub fn act_named(text: &str) -> Result<Act, QueryError> {
    serde_json::from_value(serde_json::Value::String(text.to_string())).map_err(|_| {
        let schema = serde_json::to_value(schemars::schema_for!(Act)).unwrap_or_default();
        let mut names = Vec::new();
        consts(&schema, &mut names);
        QueryError::Invalid {
            reason: format!(
                "`{text}` is not an act of the rules vocabulary; the acts are {}",
                names.join(", ")
            ),
        }
    })
}

/// The string constants of a schema (an enum's variant names), in order.
fn consts(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, v) in map {
                match (key.as_str(), v) {
                    ("const", serde_json::Value::String(s)) => out.push(format!("`{s}`")),
                    ("enum", serde_json::Value::Array(list)) => out.extend(
                        list.iter()
                            .filter_map(serde_json::Value::as_str)
                            .map(|s| format!("`{s}`")),
                    ),
                    _ => consts(v, out),
                }
            }
        }
        serde_json::Value::Array(list) => list.iter().for_each(|v| consts(v, out)),
        _ => {}
    }
}
