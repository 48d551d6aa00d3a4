//! The map compiler and the terrain table API.
//!
//! [`compile`] turns a [`MapSource`] (grid + ordered overlays) and the rules system's
//! terrain chart into a [`TerrainTable`]: every hex with its terrain and edges, every
//! hexside that carries a feature or blocks movement, labels, the grid, the format
//! version and the source hash. Compilation never fails: entries that do not make
//! sense (unknown hex ids, hexes off the grid, non-adjacent hexsides) are skipped, and
//! the validator reports them with spans (`muster compile` refuses to write a map that
//! has errors).
//!
//! [`TerrainMap`] loads a table and answers the questions engines and the validator
//! ask: terrain at a hex, neighbours on the map, the cost to move into a hex, hexside
//! features, distance, edges, labels.
//!
//! **Boundary:** no diagnostics here; the validator owns what is wrong with a source.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Write;
use std::path::Path;

use muster_hex::{HexGrid, HexId, RangeError};
use muster_model::map::{Area, MapGrid, MapSource, Overlay};
use muster_model::system::{CombatEffect, MoveCost, RulesSystem};
use muster_model::table::{
    HexEntry, HexsideEntry, LabelEntry, TableGrid, TerrainEntry, TerrainTable,
};
use sha2::{Digest, Sha256};

pub use muster_hex;

/// The hex grid a map source describes.
pub fn grid_of(source: &MapSource) -> HexGrid {
    match source.grid {
        MapGrid::Hex {
            columns,
            rows,
            layout,
        } => HexGrid::new(columns, rows, layout),
    }
}

/// Why an area could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AreaError {
    /// A hex id in the area is not `CCRR`.
    Malformed(String),
    Range(RangeError),
}

/// The hexes of an area, in the given grid, keeping ids off the grid (the caller decides
/// whether that is an error). Column and row fills are clipped to the grid.
pub fn resolve_area(grid: &HexGrid, area: &Area) -> Result<Vec<HexId>, AreaError> {
    let parse = |s: &String| HexId::parse(s).map_err(|_| AreaError::Malformed(s.clone()));
    Ok(match area {
        Area::All => grid.hexes().collect(),
        Area::Column(c) => (1..=grid.rows)
            .map(|r| HexId::new(*c, r))
            .filter(|h| grid.contains(*h))
            .collect(),
        Area::Row(r) => (1..=grid.columns)
            .map(|c| HexId::new(c, *r))
            .filter(|h| grid.contains(*h))
            .collect(),
        Area::Range(a, b) => {
            HexGrid::straight_range(parse(a)?, parse(b)?).map_err(AreaError::Range)?
        }
        Area::List(items) => items.iter().map(parse).collect::<Result<_, _>>()?,
        Area::Zone { center, radius } => grid.within(parse(center)?, u32::from(*radius)),
    })
}

/// SHA-256 of the source bytes, lowercase hex.
pub fn source_hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn side_key(a: HexId, b: HexId) -> (HexId, HexId) {
    if a <= b { (a, b) } else { (b, a) }
}

/// Compiles a map source against its rules system.
pub fn compile(source: &MapSource, system: &RulesSystem, source_hash: &str) -> TerrainTable {
    let grid = grid_of(source);
    let mut terrain: BTreeMap<HexId, String> =
        grid.hexes().map(|h| (h, source.base.clone())).collect();
    let mut sides: BTreeMap<(HexId, HexId), (BTreeSet<String>, bool)> = BTreeMap::new();
    let mut labels = Vec::new();
    let on_grid = |s: &String| HexId::parse(s).ok().filter(|h| grid.contains(*h));

    for overlay in &source.overlays {
        match overlay {
            Overlay::Terrain { terrain: t, area } => {
                for hex in resolve_area(&grid, area).unwrap_or_default() {
                    if let Some(slot) = terrain.get_mut(&hex) {
                        *slot = t.clone();
                    }
                }
            }
            Overlay::Path { feature, hexes } => {
                for pair in hexes.windows(2) {
                    if let (Some(a), Some(b)) = (on_grid(&pair[0]), on_grid(&pair[1]))
                        && grid.adjacent(a, b)
                    {
                        sides
                            .entry(side_key(a, b))
                            .or_default()
                            .0
                            .insert(feature.clone());
                    }
                }
            }
            Overlay::Hexsides {
                feature,
                sides: list,
            } => {
                for (a, b) in list {
                    if let (Some(a), Some(b)) = (on_grid(a), on_grid(b))
                        && grid.adjacent(a, b)
                    {
                        sides
                            .entry(side_key(a, b))
                            .or_default()
                            .0
                            .insert(feature.clone());
                    }
                }
            }
            Overlay::Access { hex, from } => {
                let Some(hex) = on_grid(hex) else { continue };
                let allowed: Vec<HexId> = from.iter().filter_map(on_grid).collect();
                for n in grid.neighbours(hex) {
                    if !allowed.contains(&n) {
                        sides.entry(side_key(hex, n)).or_default().1 = true;
                    }
                }
            }
            Overlay::Label { hex, text } => {
                if let Some(h) = on_grid(hex) {
                    labels.push(LabelEntry {
                        hex: h.to_string(),
                        text: text.clone(),
                    });
                }
            }
        }
    }

    let used: BTreeSet<&String> = terrain.values().collect();
    let terrain_entries = system
        .terrain
        .iter()
        .filter(|t| used.contains(&t.id))
        .map(|t| TerrainEntry {
            id: t.id.clone(),
            move_cost: match t.movement {
                MoveCost::Points(p) | MoveCost::Extra(p) => Some(p),
                MoveCost::Impassable => None,
            },
            along_road: t.along_road,
            die_modifier: t.combat.iter().map(die_mod).sum(),
            column_shift: t.combat.iter().map(col_shift).sum(),
            no_retreat: t.combat.contains(&CombatEffect::NoRetreat),
        })
        .collect();

    let hexes = terrain
        .iter()
        .map(|(h, t)| HexEntry {
            id: h.to_string(),
            terrain: t.clone(),
            edges: grid.edges_of(*h),
        })
        .collect();

    let hexsides = sides
        .into_iter()
        .map(|((a, b), (features, access_blocked))| {
            let kinds: Vec<_> = features
                .iter()
                .filter_map(|f| system.hexside_features.iter().find(|k| &k.id == f))
                .collect();
            let crossing = kinds.iter().any(|k| k.crossing);
            let mut extra = None;
            let mut cost_override = None;
            for k in &kinds {
                match k.movement {
                    Some(MoveCost::Extra(p)) => extra = Some(extra.unwrap_or(0.0) + p),
                    Some(MoveCost::Points(p)) => cost_override = Some(p),
                    _ => {}
                }
            }
            HexsideEntry {
                a: a.to_string(),
                b: b.to_string(),
                blocks_movement: access_blocked
                    || (!crossing && kinds.iter().any(|k| k.blocks_movement)),
                blocks_zoc: !crossing && kinds.iter().any(|k| k.blocks_zoc),
                features: features.into_iter().collect(),
                extra_cost: extra,
                cost_override,
                die_modifier: kinds
                    .iter()
                    .flat_map(|k| k.combat.iter())
                    .map(die_mod)
                    .sum(),
            }
        })
        .collect();

    TerrainTable {
        format_version: muster_model::FORMAT_VERSION,
        map: source.id.clone(),
        system: system.id.clone(),
        source_hash: source_hash.to_string(),
        grid: TableGrid {
            columns: grid.columns,
            rows: grid.rows,
            layout: grid.layout,
            id_scheme: "CCRR".to_string(),
        },
        terrain: terrain_entries,
        hexes,
        hexsides,
        labels,
    }
}

fn die_mod(e: &CombatEffect) -> i8 {
    match e {
        CombatEffect::DieModifier(n) => *n,
        _ => 0,
    }
}

fn col_shift(e: &CombatEffect) -> i8 {
    match e {
        CombatEffect::ColumnShift(n) => *n,
        _ => 0,
    }
}

/// Why a table could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("not a terrain table: {0}")]
    Json(#[from] serde_json::Error),
    #[error("terrain table format {found} is not supported (this muster reads {expected})")]
    Version { found: u32, expected: u32 },
    #[error("bad hex id `{0}` in the table")]
    HexId(String),
}

/// A loaded terrain table with indexes for queries.
#[derive(Debug, Clone)]
pub struct TerrainMap {
    table: TerrainTable,
    grid: HexGrid,
    terrain_of: HashMap<HexId, usize>,
    sides: HashMap<(HexId, HexId), usize>,
}

impl TerrainMap {
    pub fn new(table: TerrainTable) -> Result<Self, LoadError> {
        if table.format_version != muster_model::FORMAT_VERSION {
            return Err(LoadError::Version {
                found: table.format_version,
                expected: muster_model::FORMAT_VERSION,
            });
        }
        let id = |s: &str| HexId::parse(s).map_err(|_| LoadError::HexId(s.to_string()));
        let grid = HexGrid::new(table.grid.columns, table.grid.rows, table.grid.layout);
        let mut terrain_of = HashMap::new();
        for hex in &table.hexes {
            if let Some(i) = table.terrain.iter().position(|t| t.id == hex.terrain) {
                terrain_of.insert(id(&hex.id)?, i);
            }
        }
        let mut sides = HashMap::new();
        for (i, s) in table.hexsides.iter().enumerate() {
            sides.insert(side_key(id(&s.a)?, id(&s.b)?), i);
        }
        Ok(Self {
            table,
            grid,
            terrain_of,
            sides,
        })
    }

    /// Parses a compiled table from JSON.
    pub fn from_json(text: &str) -> Result<Self, LoadError> {
        Self::new(serde_json::from_str(text)?)
    }

    /// Reads a compiled table file.
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        let text = std::fs::read_to_string(path).map_err(|source| LoadError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::from_json(&text)
    }

    pub fn table(&self) -> &TerrainTable {
        &self.table
    }

    pub fn grid(&self) -> &HexGrid {
        &self.grid
    }

    pub fn contains(&self, hex: HexId) -> bool {
        self.grid.contains(hex)
    }

    pub fn terrain_at(&self, hex: HexId) -> Option<&TerrainEntry> {
        self.terrain_of.get(&hex).map(|i| &self.table.terrain[*i])
    }

    pub fn terrain_id_at(&self, hex: HexId) -> Option<&str> {
        self.table
            .hexes
            .get(self.hex_index(hex)?)
            .map(|h| h.terrain.as_str())
    }

    fn hex_index(&self, hex: HexId) -> Option<usize> {
        self.contains(hex).then(|| {
            usize::from(hex.col - 1) * usize::from(self.grid.rows) + usize::from(hex.row - 1)
        })
    }

    /// Neighbours of a hex that are on the map.
    pub fn neighbours(&self, hex: HexId) -> Vec<HexId> {
        self.grid.neighbours(hex)
    }

    pub fn distance(&self, a: HexId, b: HexId) -> u32 {
        self.grid.distance(a, b)
    }

    /// The hexside between two adjacent hexes, if it has any feature or blocks movement.
    pub fn hexside(&self, a: HexId, b: HexId) -> Option<&HexsideEntry> {
        self.sides
            .get(&side_key(a, b))
            .map(|i| &self.table.hexsides[*i])
    }

    /// Whether the terrain of a hex can be entered at all.
    pub fn is_enterable(&self, hex: HexId) -> bool {
        self.terrain_at(hex).is_some_and(|t| t.move_cost.is_some())
    }

    /// Movement points to move from `from` into the adjacent hex `to`; `None` when the
    /// move is not possible (not adjacent, off the map, impassable hex or hexside).
    pub fn move_cost(&self, from: HexId, to: HexId) -> Option<f64> {
        if !self.contains(from) || !self.contains(to) || !self.grid.adjacent(from, to) {
            return None;
        }
        let terrain = self.terrain_at(to)?;
        let side = self.hexside(from, to);
        if side.is_some_and(|s| s.blocks_movement) {
            return None;
        }
        let base = terrain.move_cost?;
        let along_road = side.and_then(|s| s.cost_override);
        let cost = match along_road {
            Some(road) => terrain.along_road.unwrap_or(road),
            None => base,
        };
        Some(cost + side.and_then(|s| s.extra_cost).unwrap_or(0.0))
    }

    /// The hex carrying a label (`"Fontenoy"`, `"H"`).
    pub fn label(&self, text: &str) -> Option<HexId> {
        self.table
            .labels
            .iter()
            .find(|l| l.text == text)
            .and_then(|l| HexId::parse(&l.hex).ok())
    }
}

/// Serialises a table as pretty JSON with a trailing newline (byte-identical for
/// identical input).
pub fn to_json(table: &TerrainTable) -> String {
    let mut text = serde_json::to_string_pretty(table).unwrap_or_default();
    text.push('\n');
    text
}

/// Writes `contents` to `path` atomically: a temporary file in the same folder, then a
/// rename over the target, so readers never see a half-written file.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(contents)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
