//! `impassable-area`: whole columns that units may not enter, with exceptions.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::EffectRule;

/// `impassable-area`: whole columns that units may not enter, with exceptions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImpassableArea {
    /// Map columns that are impassable (`[1]` for the Vilaine or the Meuse).
    pub columns: Vec<u16>,
    /// Counter ids that may be placed and move there anyway (drakkars and their riders).
    #[serde(default)]
    pub except: Vec<String>,
    /// The bridge hex that crosses the area, if any.
    #[serde(default)]
    pub bridge: Option<String>,
    /// The only hexes from which the bridge may be entered.
    #[serde(default)]
    pub bridge_access: Vec<String>,
}

impl HookSpec for ImpassableArea {
    const ID: &'static str = "impassable-area";
    const SYSTEMS: &'static [&'static str] = &["lrf"];
    const SUMMARY: &'static str = "columns no unit may enter, except listed counters; an optional bridge with its only access hexes";
    const EXAMPLE: &'static str = r#"(hook: "impassable-area", params: {"columns": [1], "except": [], "bridge": "0109", "bridge_access": ["0208"]}, text: "Column 01 (the Vilaine) is impassable except its bridge, which is entered only from 0208.")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.counters("except", &self.except, super::SideRule::Any);
        if let Some(bridge) = &self.bridge {
            refs.hex("bridge", bridge);
        }
        refs.hexes("bridge_access", &self.bridge_access);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        vec![
            Effect::EnterImpassable(&self.except),
            Effect::CloseColumns {
                columns: &self.columns,
                open: self.bridge.as_deref(),
            },
        ]
    }

    /// None: it names map columns, which no condition picks; `effects` gives the checks
    /// the closed columns. The bundled maps draw the column as impassable terrain and the
    /// bridge's access, which the engine reads.
    fn rules(&self) -> Vec<EffectRule> {
        Vec::new()
    }
}
