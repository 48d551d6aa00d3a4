//! `band-grouping`: a side's small bands try to join larger ones or their leader (the
//! raid's Saxons, Additional Notes 4).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::EffectRule;

/// `band-grouping`: a side's small bands try to join larger ones or their leader (the
/// raid's Saxons, Additional Notes 4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BandGrouping {
    /// The side whose bands group.
    pub side: String,
    /// Small bands try to join larger friendly bands, forming large ones.
    pub join_larger: bool,
    /// Small bands try to rally to the side's leader.
    pub rally_to_leader: bool,
}

impl HookSpec for BandGrouping {
    const ID: &'static str = "band-grouping";
    const SYSTEMS: &'static [&'static str] = &["raid"];
    const SUMMARY: &'static str =
        "a side's small bands try to join larger bands or rally to their leader";
    const EXAMPLE: &'static str = r#"(hook: "band-grouping", params: {"side": "saxons", "join_larger": true, "rally_to_leader": true}, text: "Small Saxon bands try to form large ones or rally to the leader when they can.")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.side("side", &self.side);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// None: bands are a grouping of the set-up, not an effect of play.
    fn rules(&self) -> Vec<EffectRule> {
        Vec::new()
    }
}
