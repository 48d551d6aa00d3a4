//! `stacking-override`: some unit kinds of one side stack to a different limit.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::{Condition, Effect as VEffect, EffectRule};

/// `stacking-override`: some unit kinds of one side stack to a different limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackingOverride {
    /// The side whose units stack differently.
    pub side: String,
    /// The unit kinds concerned.
    pub kinds: Vec<String>,
    /// How many of them may share a hex.
    #[schemars(range(min = 1))]
    pub limit: u8,
}

impl HookSpec for StackingOverride {
    const ID: &'static str = "stacking-override";
    const SYSTEMS: &'static [&'static str] = &["prestags"];
    const SUMMARY: &'static str = "some unit kinds of one side stack to their own limit";
    const EXAMPLE: &'static str = r#"(hook: "stacking-override", params: {"side": "normans", "kinds": ["HC"], "limit": 3}, text: "Norman HC may stack three to a hex.")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.side("side", &self.side);
        refs.unit_kinds("kinds", &self.kinds);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        vec![Effect::StackingLimit {
            side: &self.side,
            kinds: &self.kinds,
            limit: self.limit,
        }]
    }

    /// The kinds of the side stack to the limit: `StackingLimit` for them.
    fn rules(&self) -> Vec<EffectRule> {
        let kinds = self.kinds.iter().map(|k| Condition::Troop(k.clone()));
        vec![EffectRule {
            id: Self::ID.into(),
            section: String::new(),
            when: Some(Condition::All(vec![
                Condition::Side(self.side.clone()),
                Condition::Any(kinds.collect()),
            ])),
            then: vec![VEffect::StackingLimit(self.limit)],
            note: None,
        }]
    }
}
