//! `secret-commander-placement`: commanders are placed in secret and revealed together.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::EffectRule;

/// `secret-commander-placement`: commanders are placed in secret and revealed together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SecretCommanderPlacement {}

impl HookSpec for SecretCommanderPlacement {
    const ID: &'static str = "secret-commander-placement";
    const SYSTEMS: &'static [&'static str] = &["lrf"];
    const SUMMARY: &'static str =
        "commanders are placed in secret and revealed at the end of setup";
    const EXAMPLE: &'static str = r#"(hook: "secret-commander-placement", text: "Each player notes his commander's position in secret; both reveal it together once set-up is over.")"#;

    fn references<'a>(&'a self, _refs: &mut Refs<'a>) {}

    fn effects(&self) -> Vec<Effect<'_>> {
        Vec::new()
    }

    /// None: a hidden placement is a set-up procedure.
    fn rules(&self) -> Vec<EffectRule> {
        Vec::new()
    }
}
