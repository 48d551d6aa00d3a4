//! `setup-option`: an optional free setup that hands the first move to the other side.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::EffectRule;

/// `setup-option`: an optional free setup that hands the first move to the other side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupOption {
    /// The side that may take the free setup.
    pub side: String,
    /// The side that then plays first.
    pub plays_first: String,
    /// How many of its units may set up in woods.
    pub max_wood_units: u8,
    /// The largest movement allowance of those units.
    pub max_movement: f64,
}

impl HookSpec for SetupOption {
    const ID: &'static str = "setup-option";
    const SYSTEMS: &'static [&'static str] = &["lrf"];
    const SUMMARY: &'static str =
        "an optional free setup for one side that gives the first move to the other";
    const EXAMPLE: &'static str = r#"(hook: "setup-option", params: {"side": "franks", "plays_first": "vikings", "max_wood_units": 3, "max_movement": 2.0}, text: "Option: the Franks may set up anywhere west of the Sarthe; the Vikings then play first.")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.side("side", &self.side);
        refs.side("plays_first", &self.plays_first);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// None: a choice between set-ups is made before play.
    fn rules(&self) -> Vec<EffectRule> {
        Vec::new()
    }
}
