//! `berserk`: a unit that may charge with a bonus and stays pinned after combat.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::{Condition, EffectRule};

use super::SideRule;

/// `berserk`: a unit that may charge with a bonus and stays pinned after combat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Berserk {
    /// The berserk counter.
    pub counter: String,
    /// Its charge bonus.
    pub charge_bonus: u8,
    /// Terrain the charged unit must be in.
    pub terrain: Vec<String>,
    /// Turns it stays in place after a combat next to an enemy.
    pub pinned_turns: u8,
}

impl HookSpec for Berserk {
    const ID: &'static str = "berserk";
    const SYSTEMS: &'static [&'static str] = &["lrf"];
    const SUMMARY: &'static str =
        "a unit that may charge with a bonus into listed terrain and is pinned after combat";
    const EXAMPLE: &'static str = r#"(hook: "berserk", params: {"counter": "berserkers", "charge_bonus": 2, "terrain": ["clear", "hill"], "pinned_turns": 1}, text: "The Berserkers may charge for +2 against a unit in clear or hill.")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.counter("counter", &self.counter, SideRule::Any);
        refs.terrain("terrain", &self.terrain);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// The counter charges for its bonus, and only a unit in the terrain named
    /// ([`super::charge_bonus::charge_rules`]). Its pinning after combat stays the
    /// hook's: no condition counts turns since an act.
    fn rules(&self) -> Vec<EffectRule> {
        super::charge_bonus::charge_rules(
            Self::ID,
            Condition::Counter(self.counter.clone()),
            &self.terrain,
            self.charge_bonus,
        )
    }
}
