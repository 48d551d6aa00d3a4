//! `baggage-carrier`: a baggage counter that may carry one unit of a kind (drakkars).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Effect, HookSpec, Refs};
use muster_model::vocab::EffectRule;

use super::{CarrierEffect, SideRule};

/// `baggage-carrier`: a baggage counter that may carry one unit of a kind (drakkars).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaggageCarrier {
    /// The baggage counter that carries.
    pub counter: String,
    /// The unit kind it may carry.
    pub carries_kind: String,
    /// How many units it carries at most.
    #[schemars(range(min = 1))]
    pub max_carried: u8,
    /// Only units with at most this movement allowance may be carried.
    pub max_movement: f64,
}

impl HookSpec for BaggageCarrier {
    const ID: &'static str = "baggage-carrier";
    const SYSTEMS: &'static [&'static str] = &["lrf"];
    const SUMMARY: &'static str =
        "a baggage counter that may carry units of one kind up to a movement allowance (drakkars)";
    const EXAMPLE: &'static str = r#"(hook: "baggage-carrier", params: {"counter": "drakkar", "carries_kind": "infantry", "max_carried": 1, "max_movement": 2.0}, text: "One Viking infantry unit of movement 2 may stack on a drakkar.")"#;

    fn references<'a>(&'a self, refs: &mut Refs<'a>) {
        refs.counter("counter", &self.counter, SideRule::Any);
        refs.unit_kind("carries_kind", &self.carries_kind);
    }

    fn effects(&self) -> Vec<Effect<'_>> {
        vec![Effect::Carrier(CarrierEffect {
            counter: &self.counter,
            carries_kind: &self.carries_kind,
            max_carried: self.max_carried,
            max_movement: self.max_movement,
        })]
    }

    /// None: a carrier is a stacking fact of the set-up, which `effects` gives the checks.
    fn rules(&self) -> Vec<EffectRule> {
        Vec::new()
    }
}
