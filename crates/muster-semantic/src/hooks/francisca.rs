//! `francisca`: the Viking optional rule of thrown axes (PRESTAGS Viking 1.0).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::EffectRule;

/// `francisca`: the Viking optional rule of thrown axes (PRESTAGS Viking 1.0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Francisca {
    /// Whether the scenario makes the rule mandatory rather than allowed.
    #[serde(default)]
    pub mandatory: bool,
}

impl HookSpec for Francisca {
    const ID: &'static str = "francisca";
    const SYSTEMS: &'static [&'static str] = &["prestags"];
    const SUMMARY: &'static str = "the Viking francisca (thrown axe) optional rule is in play";
    const EXAMPLE: &'static str = r#"(hook: "francisca", params: {"mandatory": false}, text: "The players may agree to arm the Frankish AX with the francisca (Excl 1.0).")"#;

    fn references<'a>(&'a self, _refs: &mut Refs<'a>) {}

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// None: the francisca is a once-a-game defensive weapon: no effect records a use.
    fn rules(&self) -> Vec<EffectRule> {
        Vec::new()
    }
}
