//! `carried-only`: terrain that units may enter only aboard a carrier (river only on fleets).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::EffectRule;

/// `carried-only`: terrain that units may enter only aboard a carrier (river only on fleets).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CarriedOnly {
    /// The terrain entered only aboard a carrier.
    pub terrain: Vec<String>,
    /// The carrier's unit kind.
    pub carrier: String,
}

impl HookSpec for CarriedOnly {
    const ID: &'static str = "carried-only";
    const SYSTEMS: &'static [&'static str] = &["prestags"];
    const SUMMARY: &'static str =
        "terrain that units may enter only aboard a carrier (fleets on rivers)";
    const EXAMPLE: &'static str = r#"(hook: "carried-only", params: {"terrain": ["river"], "carrier": "VF"}, text: "Units enter river hexes only aboard Viking fleets.")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.terrain("terrain", &self.terrain);
        refs.unit_kind("carrier", &self.carrier);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// None: being carried is no condition of the vocabulary.
    fn rules(&self) -> Vec<EffectRule> {
        Vec::new()
    }
}
