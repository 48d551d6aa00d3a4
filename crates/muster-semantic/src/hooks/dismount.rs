//! `dismount`: units of one kind may dismount and fight as another.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::EffectRule;

/// `dismount`: units of one kind may dismount and fight as another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Dismount {
    /// The mounted unit kind.
    pub from: String,
    /// The kind it fights as once dismounted.
    #[serde(rename = "as")]
    pub as_kind: String,
}

impl HookSpec for Dismount {
    const ID: &'static str = "dismount";
    const SYSTEMS: &'static [&'static str] = &["prestags"];
    const SUMMARY: &'static str = "units of one kind may dismount and fight as another kind";
    const EXAMPLE: &'static str = r#"(hook: "dismount", params: {"from": "HC", "as": "SD"}, text: "Frankish heavy cavalry may dismount and fight as swordsmen.")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.unit_kind("from", &self.from);
        refs.unit_kind("as", &self.as_kind);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// None: dismounting is the owner's choice in play.
    fn rules(&self) -> Vec<EffectRule> {
        Vec::new()
    }
}
