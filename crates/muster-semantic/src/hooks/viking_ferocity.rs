//! `viking-ferocity`: the Viking ferocity rules (PRESTAGS Viking 3.6-3.9).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};

/// `viking-ferocity`: the Viking ferocity rules (PRESTAGS Viking 3.6-3.9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VikingFerocity {
    /// The Viking side.
    pub side: String,
    /// Whether the rules must be used rather than may.
    #[serde(default)]
    pub mandatory: bool,
}

impl HookSpec for VikingFerocity {
    const ID: &'static str = "viking-ferocity";
    const SYSTEMS: &'static [&'static str] = &["prestags"];
    const SUMMARY: &'static str = "the Viking ferocity rules apply to one side";
    const EXAMPLE: &'static str = r#"(hook: "viking-ferocity", params: {"side": "vikings", "mandatory": true}, text: "Viking ferocity rules apply (Excl 3.6-3.9).")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.side("side", &self.side);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }
}
