//! `charge-bonus`: a different charge bonus for some counters.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::{Condition, EffectRule};

use super::SideRule;

/// `charge-bonus`: a different charge bonus for some counters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChargeBonus {
    /// The counters, all of one side, that charge with this bonus.
    pub counters: Vec<String>,
    /// Their charge bonus.
    pub bonus: u8,
    /// Terrain the charged unit must be in; empty means the system's usual charge terrain.
    #[serde(default)]
    pub terrain: Vec<String>,
}

impl HookSpec for ChargeBonus {
    const ID: &'static str = "charge-bonus";
    const SYSTEMS: &'static [&'static str] = &["lrf"];
    const SUMMARY: &'static str = "a charge bonus that differs from the system's for some counters";
    const EXAMPLE: &'static str = r#"(hook: "charge-bonus", params: {"counters": ["brissarthe-viking-cavalry-3"], "bonus": 1, "terrain": []}, text: "The Viking cavalry gains only +1 when it charges.")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.counters("counters", &self.counters, SideRule::OneSide);
        refs.terrain("terrain", &self.terrain);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// The counters charge for the bonus (`ChargeBonus`); where the hook names terrain,
    /// they charge only a unit in it (`charge_rules`).
    fn rules(&self) -> Vec<EffectRule> {
        let who = super::any_counter(&self.counters);
        charge_rules(Self::ID, who, &self.terrain, self.bonus)
    }
}

/// A charge by the units `who` picks adds `bonus`; where `terrain` names some, they may
/// charge a unit in it whatever the system's charge rule says (`May(Charge)`), and no
/// other (`MayNot(Charge)`).
pub(super) fn charge_rules(
    id: &str,
    who: Condition,
    terrain: &[String],
    bonus: u8,
) -> Vec<EffectRule> {
    let rule = |when: Condition, then| EffectRule {
        id: id.into(),
        section: String::new(),
        when: Some(when),
        then: vec![then],
        note: None,
    };
    let mut out = vec![rule(
        who.clone(),
        muster_model::vocab::Effect::ChargeBonus(bonus),
    )];
    if !terrain.is_empty() {
        let there = Condition::Any(terrain.iter().cloned().map(Condition::OpponentIn).collect());
        out.push(rule(
            Condition::All(vec![who.clone(), there.clone()]),
            muster_model::vocab::Effect::May(muster_model::vocab::Act::Charge),
        ));
        out.push(rule(
            Condition::All(vec![who, Condition::Not(Box::new(there))]),
            muster_model::vocab::Effect::MayNot(muster_model::vocab::Act::Charge),
        ));
    }
    out
}
