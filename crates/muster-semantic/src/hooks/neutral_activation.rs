//! `neutral-activation`: a neutral unit that joins a side during play.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::EffectRule;

use super::SideRule;

/// `neutral-activation`: a neutral unit that joins a side during play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NeutralActivation {
    /// The neutral counter (one of the scenario's `neutrals`).
    pub counter: String,
    /// The first turn a side may activate it.
    pub from_turn: u8,
    /// Attacking it before this turn hands it to the other side.
    pub joins_other_side_if_attacked_before_turn: u8,
}

impl HookSpec for NeutralActivation {
    const ID: &'static str = "neutral-activation";
    const SYSTEMS: &'static [&'static str] = &["lrf"];
    const SUMMARY: &'static str = "a neutral unit that one side may activate from a turn on, or that joins the other side if attacked";
    const EXAMPLE: &'static str = r#"(hook: "neutral-activation", params: {"counter": "catalogne", "from_turn": 4, "joins_other_side_if_attacked_before_turn": 7}, text: "From turn 4 each player may try to take Catalogne; attacking it before turn 7 hands it to the other army.")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.counter("counter", &self.counter, SideRule::Neutral);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// None: a neutral unit changing sides is an event of play.
    fn rules(&self) -> Vec<EffectRule> {
        Vec::new()
    }
}
