//! `no-end-move-in`: terrain where no unit may end its movement (fords and bridges).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::{Act, Condition, Effect as VEffect, EffectRule};

/// `no-end-move-in`: terrain where no unit may end its movement (fords and bridges).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoEndMoveIn {
    /// The terrain no unit ends its movement in.
    pub terrain: Vec<String>,
}

impl HookSpec for NoEndMoveIn {
    const ID: &'static str = "no-end-move-in";
    const SYSTEMS: &'static [&'static str] = &["prestags"];
    const SUMMARY: &'static str = "terrain in which no unit may end its movement";
    const EXAMPLE: &'static str = r#"(hook: "no-end-move-in", params: {"terrain": ["ford", "bridge"]}, text: "No unit ends its movement phase on a ford or bridge hex (Excl 3.17).")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.terrain("terrain", &self.terrain);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// No unit ends a move in the terrain: `MayNot(EndMove)` there.
    fn rules(&self) -> Vec<EffectRule> {
        let terrain = self.terrain.iter().map(|t| Condition::InTerrain(t.clone()));
        vec![EffectRule {
            id: Self::ID.into(),
            section: String::new(),
            when: Some(Condition::Any(terrain.collect())),
            then: vec![VEffect::MayNot(Act::EndMove)],
            note: None,
        }]
    }
}
