//! `evasion`: units that may fall back before combat on a die roll (Breton cavalry).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::{Act, Condition, Effect as VEffect, EffectRule};

use super::SideRule;

/// `evasion`: units that may fall back before combat on a die roll (Breton cavalry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Evasion {
    /// The counters, all of one side, that may evade.
    pub counters: Vec<String>,
    /// The die roll (1-6) at or above which they evade.
    #[schemars(range(min = 1, max = 6))]
    pub roll_at_least: u8,
    /// How many hexes they may fall back.
    pub retreat_hexes: Vec<u8>,
}

impl HookSpec for Evasion {
    const ID: &'static str = "evasion";
    const SYSTEMS: &'static [&'static str] = &["lrf"];
    const SUMMARY: &'static str = "units that may fall back 1-2 hexes before combat on a die roll";
    const EXAMPLE: &'static str = r#"(hook: "evasion", params: {"counters": ["jengland-breton-cavalry-4", "jengland-breton-cavalry-3"], "roll_at_least": 5, "retreat_hexes": [1, 2]}, text: "Breton cavalry attacked rolls a die: on 5-6 it falls back 1 or 2 hexes before the combat.")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.counters("counters", &self.counters, SideRule::OneSide);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// The counters, attacked, may evade (`May(Evade)`); the roll that decides it and
    /// the hexes fallen back stay the hook's parameters.
    fn rules(&self) -> Vec<EffectRule> {
        let who = super::any_counter(&self.counters);
        vec![EffectRule {
            id: Self::ID.into(),
            section: String::new(),
            when: Some(Condition::All(vec![who, Condition::Defending])),
            then: vec![VEffect::May(Act::Evade)],
            note: Some(format!(
                "on a roll of {} or more, falling back {} hexes",
                self.roll_at_least,
                self.retreat_hexes
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>()
                    .join(" or ")
            )),
        }]
    }
}
