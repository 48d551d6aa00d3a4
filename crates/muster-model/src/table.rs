//! The compiled terrain table: what a game engine loads. Everything is resolved;
//! nothing needs the system file or the overlays to be re-derived.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::map::{NamedEdge, Shape};
use crate::system::{FeatureClass, TerrainCombine, feature_with_movement};
use crate::{Edge, HexLayout};

/// A compiled map. Hexes and hexsides are sorted, so the JSON is byte-identical on
/// every run for the same source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainTable {
    /// [`crate::FORMAT_VERSION`] at compile time.
    pub format_version: u32,
    pub map: String,
    pub system: String,
    /// SHA-256 of the map source file, hex encoded.
    pub source_hash: String,
    pub grid: TableGrid,
    /// Terrain kinds used, with their movement cost and combat effects.
    pub terrain: Vec<TerrainEntry>,
    pub hexes: Vec<HexEntry>,
    pub hexsides: Vec<HexsideEntry>,
    pub labels: Vec<LabelEntry>,
    /// How the terrains of a hex with features combine (the system's
    /// `rules.terrain_combine`); see `muster_map::combine`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain_combine: Option<TerrainCombine>,
    /// River courses, upstream first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flows: Vec<Vec<String>>,
    /// The scenario whose terrain modifications were applied, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableGrid {
    pub columns: u16,
    pub rows: u16,
    pub layout: HexLayout,
    /// `"CCRR"`: two-digit column then two-digit row, from `0101`.
    pub id_scheme: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainEntry {
    pub id: String,
    /// Movement points to enter; `None` when impassable.
    pub move_cost: Option<f64>,
    /// Cost when entered across a road hexside, if different.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub along_road: Option<f64>,
    pub die_modifier: i8,
    pub column_shift: i8,
    pub no_retreat: bool,
    /// Fire protection strength of the hex, where the system has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fire_protection: Option<u8>,
    /// Unit kinds or classes (the system's ids; `"*"` for every unit) that may not enter
    /// this terrain whatever its `move_cost`, as the system's terrain type lists them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prohibited: Vec<String>,
    /// Unit kinds or classes that may enter even though `prohibited` names them, or
    /// though the terrain is impassable (`move_cost` is `None`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed: Vec<String>,
}

impl TerrainEntry {
    /// Whether a unit of `kind` (with its `class`, if the system gives one) may enter
    /// this terrain: the same rule as the system's own terrain type
    /// ([`crate::system::TerrainType::admits`]), from the compiled table alone.
    pub fn admits(&self, kind: &str, class: Option<&str>) -> bool {
        let names = |list: &[String]| list.iter().any(|p| p == kind || Some(p.as_str()) == class);
        if names(&self.allowed) {
            return true;
        }
        if self.move_cost.is_none() {
            return false;
        }
        !(names(&self.prohibited) || self.prohibited.iter().any(|p| p == "*"))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexEntry {
    pub id: String,
    pub terrain: String,
    /// Further terrain features of the hex (a map's `AddTerrain`), sorted, without the
    /// hex's own terrain.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    /// Map edges this hex lies on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<Edge>,
}

/// A hexside between two hexes of the map, `a` < `b`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexsideEntry {
    pub a: String,
    pub b: String,
    pub features: Vec<String>,
    pub blocks_movement: bool,
    pub blocks_zoc: bool,
    /// Extra movement points for crossing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_cost: Option<f64>,
    /// Movement cost that replaces the hex cost when crossing (road).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_override: Option<f64>,
    /// Die modifier for a defender behind this hexside.
    #[serde(default)]
    pub die_modifier: i8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LabelEntry {
    pub hex: String,
    pub text: String,
}

/// A compiled open table: every feature with its class, movement factor and cover, and
/// a coarse raster of the feature under each cell's centre.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableTerrain {
    pub format_version: u32,
    pub map: String,
    pub system: String,
    pub source_hash: String,
    /// Inches, west to east.
    pub width: f64,
    /// Inches, north to south.
    pub depth: f64,
    pub edges: Vec<NamedEdge>,
    pub features: Vec<CompiledFeature>,
    pub raster: Raster,
}

feature_with_movement! {
    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct CompiledFeature {
        pub feature: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub name: Option<String>,
        pub class: FeatureClass,
        pub shape: Shape,
    }
    between {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub level: Option<u8>,
    }
    after {}
}

/// Cells of `cell` inches, row-major from the north-west corner; each holds the index
/// into `features` of the topmost feature at the cell's centre, or `None` for open ground.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Raster {
    pub cell: f64,
    pub columns: u32,
    pub rows: u32,
    pub cells: Vec<Option<u32>>,
}
