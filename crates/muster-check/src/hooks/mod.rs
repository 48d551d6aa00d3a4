//! The special-rule hook registry. A scenario's special rule names a hook id and gives
//! parameters; each hook here has a typed parameter struct (its JSON Schema checks the
//! parameters with exact spans), a documentation line, and — for some — an effect on
//! validation (a terrain exception, a stacking exception).

use std::sync::OnceLock;

use jsonschema::Validator;
use schemars::{JsonSchema, schema_for};
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

/// `baggage-carrier`: a baggage counter that may carry one unit of a kind (drakkars).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaggageCarrier {
    pub counter: String,
    pub carries_kind: String,
    #[schemars(range(min = 1))]
    pub max_carried: u8,
    /// Only units with at most this movement allowance may be carried.
    pub max_movement: f64,
}

/// `charge-bonus`: a different charge bonus for some counters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChargeBonus {
    pub counters: Vec<String>,
    pub bonus: u8,
    /// Terrain the charged unit must be in; empty means the system's usual charge terrain.
    #[serde(default)]
    pub terrain: Vec<String>,
}

/// `berserk`: a unit that may charge with a bonus and stays pinned after combat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Berserk {
    pub counter: String,
    pub charge_bonus: u8,
    pub terrain: Vec<String>,
    pub pinned_turns: u8,
}

/// `evasion`: units that may fall back before combat on a die roll (Breton cavalry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Evasion {
    pub counters: Vec<String>,
    #[schemars(range(min = 1, max = 6))]
    pub roll_at_least: u8,
    pub retreat_hexes: Vec<u8>,
}

/// `neutral-activation`: a neutral unit that joins a side during play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NeutralActivation {
    pub counter: String,
    pub from_turn: u8,
    pub joins_other_side_if_attacked_before_turn: u8,
}

/// `secret-commander-placement`: commanders are placed in secret and revealed together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SecretCommanderPlacement {}

/// `setup-option`: an optional free setup that hands the first move to the other side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupOption {
    pub side: String,
    pub plays_first: String,
    pub max_wood_units: u8,
    pub max_movement: f64,
}

/// `francisca`: the Viking optional rule of thrown axes (PRESTAGS Viking 1.0).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Francisca {
    /// Whether the scenario makes the rule mandatory rather than allowed.
    #[serde(default)]
    pub mandatory: bool,
}

/// `viking-ferocity`: the Viking ferocity rules (PRESTAGS Viking 3.6-3.9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VikingFerocity {
    pub side: String,
    #[serde(default)]
    pub mandatory: bool,
}

/// `stacking-override`: some unit kinds of one side stack to a different limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackingOverride {
    pub side: String,
    pub kinds: Vec<String>,
    #[schemars(range(min = 1))]
    pub limit: u8,
}

/// `dismount`: units of one kind may dismount and fight as another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Dismount {
    pub from: String,
    #[serde(rename = "as")]
    pub as_kind: String,
}

/// `carried-only`: terrain that units may enter only aboard a carrier (river only on fleets).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CarriedOnly {
    pub terrain: Vec<String>,
    pub carrier: String,
}

/// `no-end-move-in`: terrain where no unit may end its movement (fords and bridges).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoEndMoveIn {
    pub terrain: Vec<String>,
}

/// A hook with parsed parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum Hook {
    ImpassableArea(ImpassableArea),
    BaggageCarrier(BaggageCarrier),
    ChargeBonus(ChargeBonus),
    Berserk(Berserk),
    Evasion(Evasion),
    NeutralActivation(NeutralActivation),
    SecretCommanderPlacement(SecretCommanderPlacement),
    SetupOption(SetupOption),
    Francisca(Francisca),
    VikingFerocity(VikingFerocity),
    StackingOverride(StackingOverride),
    Dismount(Dismount),
    CarriedOnly(CarriedOnly),
    NoEndMoveIn(NoEndMoveIn),
}

/// A registered hook: id, what it does, and its parameter schema.
pub struct HookSpec {
    pub id: &'static str,
    pub summary: &'static str,
    schema: fn() -> Value,
    parse: fn(Value) -> Result<Hook, serde_json::Error>,
}

macro_rules! hook {
    ($id:literal, $ty:ident, $summary:literal) => {
        HookSpec {
            id: $id,
            summary: $summary,
            schema: || schema_for!($ty).to_value(),
            parse: |v| serde_json::from_value::<$ty>(v).map(Hook::$ty),
        }
    };
}

/// Every hook muster knows. Ids are stable.
pub static HOOKS: &[HookSpec] = &[
    hook!(
        "impassable-area",
        ImpassableArea,
        "columns no unit may enter, except listed counters; an optional bridge with its only access hexes"
    ),
    hook!(
        "baggage-carrier",
        BaggageCarrier,
        "a baggage counter that may carry units of one kind up to a movement allowance (drakkars)"
    ),
    hook!(
        "charge-bonus",
        ChargeBonus,
        "a charge bonus that differs from the system's for some counters"
    ),
    hook!(
        "berserk",
        Berserk,
        "a unit that may charge with a bonus into listed terrain and is pinned after combat"
    ),
    hook!(
        "evasion",
        Evasion,
        "units that may fall back 1-2 hexes before combat on a die roll"
    ),
    hook!(
        "neutral-activation",
        NeutralActivation,
        "a neutral unit that one side may activate from a turn on, or that joins the other side if attacked"
    ),
    hook!(
        "secret-commander-placement",
        SecretCommanderPlacement,
        "commanders are placed in secret and revealed at the end of setup"
    ),
    hook!(
        "setup-option",
        SetupOption,
        "an optional free setup for one side that gives the first move to the other"
    ),
    hook!(
        "francisca",
        Francisca,
        "the Viking francisca (thrown axe) optional rule is in play"
    ),
    hook!(
        "viking-ferocity",
        VikingFerocity,
        "the Viking ferocity rules apply to one side"
    ),
    hook!(
        "stacking-override",
        StackingOverride,
        "some unit kinds of one side stack to their own limit"
    ),
    hook!(
        "dismount",
        Dismount,
        "units of one kind may dismount and fight as another kind"
    ),
    hook!(
        "carried-only",
        CarriedOnly,
        "terrain that units may enter only aboard a carrier (fleets on rivers)"
    ),
    hook!(
        "no-end-move-in",
        NoEndMoveIn,
        "terrain in which no unit may end its movement"
    ),
];

pub fn find(id: &str) -> Option<&'static HookSpec> {
    HOOKS.iter().find(|h| h.id == id)
}

impl HookSpec {
    pub fn schema(&self) -> Value {
        (self.schema)()
    }

    fn validator(&self) -> Option<&'static Validator> {
        static VALIDATORS: OnceLock<Vec<Option<Validator>>> = OnceLock::new();
        let all = VALIDATORS.get_or_init(|| {
            HOOKS
                .iter()
                .map(|h| jsonschema::validator_for(&h.schema()).ok())
                .collect()
        });
        let pos = HOOKS.iter().position(|h| h.id == self.id)?;
        all[pos].as_ref()
    }

    /// Checks parameters against the hook's schema. Returns the parsed hook, or the
    /// problems as (JSON pointer inside `params`, message).
    pub fn parse(&self, params: &Value) -> Result<Hook, Vec<(String, String)>> {
        // A hook without parameters takes `{}`.
        let params = if params.is_null() {
            Value::Object(Default::default())
        } else {
            params.clone()
        };
        if let Some(validator) = self.validator() {
            let errors: Vec<(String, String)> = validator
                .iter_errors(&params)
                .map(|e| (e.instance_path().to_string(), e.to_string()))
                .collect();
            if !errors.is_empty() {
                return Err(errors);
            }
        }
        (self.parse)(params).map_err(|e| vec![(String::new(), e.to_string())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn good_parameters_parse() {
        let hook = find("evasion").unwrap();
        let parsed =
            hook.parse(&json!({"counters": ["a"], "roll_at_least": 5, "retreat_hexes": [1, 2]}));
        assert!(matches!(parsed, Ok(Hook::Evasion(_))));
        assert!(
            find("secret-commander-placement")
                .unwrap()
                .parse(&Value::Null)
                .is_ok()
        );
    }

    #[test]
    fn bad_parameters_name_the_place() {
        let hook = find("charge-bonus").unwrap();
        let errors = hook
            .parse(&json!({"counters": ["a"], "bonus": "two"}))
            .unwrap_err();
        assert_eq!(errors[0].0, "/bonus");
        let errors = hook
            .parse(&json!({"counters": ["a"], "bonus": 1, "extra": 1}))
            .unwrap_err();
        assert!(errors[0].1.contains("extra"), "{errors:?}");
    }
}
