//! A rules system: unit kinds, the terrain effects chart, hexside features, the
//! combat results table, the stacking policy and the army morale scoring.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Assumed, HexLayout};

/// `System(...)`: everything a scenario of this game takes for granted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename = "System")]
pub struct RulesSystem {
    /// Short id that scenarios use to name this system (`"lrf"`).
    pub id: String,
    pub name: String,
    /// Where the rules come from (title, publisher, edition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub grid: GridKind,
    pub unit_kinds: Vec<UnitKind>,
    pub terrain: Vec<TerrainType>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hexside_features: Vec<HexsideFeatureType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat_results: Option<CombatResultsTable>,
    pub stacking: StackingPolicy,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub army_morale: Option<ArmyMoraleScoring>,
    #[serde(default, skip_serializing_if = "Assumed::is_empty")]
    pub assumed: Assumed,
}

/// The playing surface the system's maps use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum GridKind {
    /// Hex map with printed `CCRR` numbers.
    Hex { layout: HexLayout },
    /// Open table measured in inches (miniatures).
    Table,
}

/// What a unit kind is for; drives stacking and morale scoring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum UnitRole {
    /// Fights and holds a hex on its own.
    Combat,
    /// A leader: adds to the unit it stacks with.
    Commander,
    /// Baggage, camps, ships treated as baggage.
    Baggage,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitKind {
    pub id: String,
    pub name: String,
    pub role: UnitRole,
    #[serde(default)]
    pub mounted: bool,
    /// Has a range value and may fire.
    #[serde(default)]
    pub missile: bool,
    /// May charge for a strength bonus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge_bonus: Option<u8>,
}

/// Cost of entering a hex or crossing a hexside.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum MoveCost {
    /// Movement points spent.
    Points(f64),
    /// Extra points on top of the hex cost (hexside features).
    Extra(f64),
    /// May not be entered or crossed.
    Impassable,
}

/// One effect of terrain on combat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CombatEffect {
    /// Added to the attacker's die roll when this terrain defends.
    DieModifier(i8),
    /// Columns shifted on the results table (negative favours the defender).
    ColumnShift(i8),
    /// A unit here may not retreat.
    NoRetreat,
    /// Cancels a charge into this terrain.
    NoCharge,
}

/// A row of the terrain effects chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainType {
    pub id: String,
    pub name: String,
    pub movement: MoveCost,
    /// Cost when entered along a road hexside, if different.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub along_road: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub combat: Vec<CombatEffect>,
    #[serde(default, skip_serializing_if = "Assumed::is_empty")]
    pub assumed: Assumed,
}

/// A feature drawn on a hexside (river, creek, road, bridge).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexsideFeatureType {
    pub id: String,
    pub name: String,
    /// Cost of crossing, on top of (or instead of) the hex entered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement: Option<MoveCost>,
    #[serde(default)]
    pub blocks_movement: bool,
    #[serde(default)]
    pub blocks_zoc: bool,
    /// Cancels `blocks_movement` and `blocks_zoc` of other features on the same hexside.
    #[serde(default)]
    pub crossing: bool,
    /// Combat effects when the defender is behind this hexside.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub combat: Vec<CombatEffect>,
    #[serde(default, skip_serializing_if = "Assumed::is_empty")]
    pub assumed: Assumed,
}

/// The combat results table as printed: one column per odds ratio, one row per die roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatResultsTable {
    /// Column headings, lowest odds first (`"1/2"`, ..., `"4/1"`).
    pub odds: Vec<String>,
    pub rows: Vec<CrtRow>,
    /// Result codes and what they mean (`D1` = defender loses one step).
    pub results: Vec<ResultCode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrtRow {
    pub die: u8,
    pub results: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultCode {
    pub code: String,
    pub meaning: String,
}

/// How many units may share a hex.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum StackingPolicy {
    /// At most `combat_units` combat units per hex; riders (commanders, baggage) may
    /// join a friendly combat unit, up to `max` of each role.
    UnitsPerHex {
        combat_units: u8,
        riders: Vec<Rider>,
    },
    /// No limit enforced by the system (scenario or play-time rules decide).
    Unlimited,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rider {
    pub role: UnitRole,
    pub max: u8,
    /// May stand alone in a hex (without a combat unit).
    #[serde(default)]
    pub may_stand_alone: bool,
}

/// How an army's losses are scored against its morale threshold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArmyMoraleScoring {
    /// Points added on top of its strength when a commander is eliminated.
    pub commander_bonus: u8,
    /// Points added on top of its strength when a baggage unit is eliminated.
    pub baggage_bonus: u8,
}
