//! A map source: a grid plus an ordered list of overlays. The map compiler turns it
//! into a [`crate::table::TerrainTable`]; later terrain overlays win, and added
//! features ([`Overlay::AddTerrain`]) stay beside the terrain.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Assumed, HexLayout};

/// `Map(...)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename = "Map")]
pub struct MapSource {
    pub id: String,
    pub name: String,
    /// The rules system whose terrain and features this map uses (id or relative path).
    pub system: String,
    pub grid: MapGrid,
    /// Terrain of every hex no overlay touches.
    pub base: String,
    pub overlays: Vec<Overlay>,
    #[serde(default, skip_serializing_if = "Assumed::is_empty")]
    pub assumed: Assumed,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum MapGrid {
    /// Columns `01..=columns` and rows `01..=rows`.
    Hex {
        columns: u16,
        rows: u16,
        #[serde(default)]
        layout: HexLayout,
    },
    /// An open table, `width` (west to east) by `depth` (north to south) inches, with
    /// the origin at the north-west corner. `raster` is the cell size in inches of the
    /// coarse grid compiled for engines that want one.
    Table {
        width: f64,
        depth: f64,
        #[serde(default)]
        edges: Vec<NamedEdge>,
        raster: f64,
    },
}

/// A table edge with the name scenarios use for it ("the ship's edge").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NamedEdge {
    pub name: String,
    pub side: crate::Edge,
}

/// A point on a table, in inches from the north-west corner.
pub type Point = (f64, f64);

/// An area or line on a table, in inches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Shape {
    Rect {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
    },
    Polygon(Vec<Point>),
    /// A polyline (hedges, walls, roads, streams).
    Line(Vec<Point>),
    Circle {
        x: f64,
        y: f64,
        r: f64,
    },
}

/// A set of hexes in map terms.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Area {
    All,
    Column(u16),
    Row(u16),
    /// A straight run of hexes in one column or row, both ends included.
    Range(String, String),
    List(Vec<String>),
    /// Hexes within `radius` of `center`.
    Zone {
        center: String,
        radius: u16,
    },
}

/// One layer of the map; applied in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub enum Overlay {
    /// Sets the terrain of every hex in `area`.
    Terrain { terrain: String, area: Area },
    /// Adds `terrain` as a further feature of every hex in `area` (a village in woods,
    /// a town on rough ground), keeping the hex's own terrain. Features do not depend
    /// on the order of overlays; the system's `rules.terrain_combine` says how the
    /// terrains of one hex combine.
    AddTerrain { terrain: String, area: Area },
    /// A hexside feature along a chain of hexes (a road from hex to hex): every
    /// hexside between consecutive hexes gets the feature.
    Path { feature: String, hexes: Vec<String> },
    /// A hexside feature on the listed hexsides, each given by the two hexes it separates.
    Hexsides {
        feature: String,
        sides: Vec<(String, String)>,
    },
    /// A hex that may be entered only from the listed neighbours (a bridge reached from
    /// one bank): every other hexside of `hex` blocks movement.
    Access { hex: String, from: Vec<String> },
    /// A name printed on the map (village, ford, lettered hex).
    Label { hex: String, text: String },
    /// The course of a river, upstream first (so engines know its flow).
    Flow { hexes: Vec<String> },
    /// A terrain feature on an open table.
    Feature {
        feature: String,
        shape: Shape,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// Height level of a hill (1 = low rise).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<u8>,
    },
}
