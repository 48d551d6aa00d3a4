//! `charge-bonus`: a different charge bonus for some counters.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::EffectRule;

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

    /// None: it names counters, and no condition picks a counter.
    fn rules(&self) -> Vec<EffectRule> {
        Vec::new()
    }
}
