//! The map compiler and the terrain table API.
//!
//! [`compile`] turns a [`MapSource`] (grid + ordered overlays) and the rules system's
//! terrain chart into a [`TerrainTable`]: every hex with its terrain, added features and
//! edges, every hexside that carries a feature or blocks movement, labels, the grid,
//! the combine rule, the format version and the source hash. Compilation never fails: entries that do not make
//! sense (unknown hex ids, hexes off the grid, non-adjacent hexsides) are skipped, and
//! the validator reports them with spans (`muster compile` refuses to write a map that
//! has errors).
//!
//! [`TerrainMap`] loads a table and answers the questions engines and the validator
//! ask: terrain at a hex, neighbours on the map, the cost to move into a hex (its
//! terrains combined by [`combine`]), hexside features, distance, edges, labels.
//!
//! **Boundary:** no diagnostics here; the validator owns what is wrong with a source.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// A hash map with a fast hasher, for lookups made in search loops.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
use std::io::Write;
use std::path::Path;

use muster_hex::{HexGrid, HexId, RangeError};
use muster_model::map::{Area, MapGrid, MapSource, Overlay};
use muster_model::scenario::TerrainModification;
use muster_model::system::{CombatEffect, GridKind, MoveCost, RulesSystem};
use muster_model::table::{
    CompiledFeature, HexEntry, HexsideEntry, LabelEntry, Raster, TableGrid, TableTerrain,
    TerrainEntry, TerrainTable,
};
use sha2::{Digest, Sha256};

pub use muster_hex;

pub mod combine;
pub use combine::HexEffects;

/// The widest and deepest a hex map can be: `CCRR` numbers name columns and rows 01 to 99.
pub const MAX_CCRR: u16 = 99;

/// The resources one map may take, set in `muster.toml`'s `[limits]`. Maps beyond them are
/// not compiled (nothing proportional to their size is allocated) and the validator says
/// why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Hexes of a hex map's grid (columns x rows).
    pub max_hexes: u64,
    /// Cells of an open table's raster (width / raster x depth / raster).
    pub max_raster_cells: u64,
}

impl Limits {
    /// 99 x 99, all that `CCRR` can number; a 72 x 48 inch table at a quarter inch.
    pub const DEFAULT: Limits = Limits {
        max_hexes: MAX_CCRR as u64 * MAX_CCRR as u64,
        max_raster_cells: 100_000,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Why a map's size cannot be compiled.
#[derive(Debug, Clone, PartialEq)]
pub enum SizeProblem {
    /// `columns` or `rows` beyond what `CCRR` numbers can name.
    Unnumbered { field: &'static str, value: u16 },
    /// More hexes than [`Limits::max_hexes`].
    TooManyHexes { hexes: u64, limit: u64 },
    /// A table `width`, `depth` or `raster` that is zero, negative or not a number.
    NotPositive { field: &'static str, value: f64 },
    /// More raster cells than [`Limits::max_raster_cells`].
    TooManyCells { cells: f64, limit: u64 },
}

/// What keeps a map's grid from being compiled within `limits` (empty when it can be).
/// Costs nothing proportional to the map's size.
pub fn size_problems(source: &MapSource, limits: &Limits) -> Vec<SizeProblem> {
    let mut out = Vec::new();
    match source.grid {
        MapGrid::Hex { columns, rows, .. } => {
            for (field, value) in [("columns", columns), ("rows", rows)] {
                if value > MAX_CCRR {
                    out.push(SizeProblem::Unnumbered { field, value });
                }
            }
            let hexes = u64::from(columns) * u64::from(rows);
            if out.is_empty() && hexes > limits.max_hexes {
                out.push(SizeProblem::TooManyHexes {
                    hexes,
                    limit: limits.max_hexes,
                });
            }
        }
        MapGrid::Table {
            width,
            depth,
            raster,
            ..
        } => {
            for (field, value) in [("width", width), ("depth", depth), ("raster", raster)] {
                if !(value.is_finite() && value > 0.0) {
                    out.push(SizeProblem::NotPositive { field, value });
                }
            }
            let cells = (width / raster).ceil() * (depth / raster).ceil();
            if out.is_empty() && cells > limits.max_raster_cells as f64 {
                out.push(SizeProblem::TooManyCells {
                    cells,
                    limit: limits.max_raster_cells,
                });
            }
        }
    }
    out
}

/// The hex grid a map source describes (`None` for open tables, and for grids wider or
/// deeper than `CCRR` can number: those are never compiled).
pub fn grid_of(source: &MapSource) -> Option<HexGrid> {
    match source.grid {
        MapGrid::Hex {
            columns,
            rows,
            layout,
        } if columns <= MAX_CCRR && rows <= MAX_CCRR => Some(HexGrid::new(columns, rows, layout)),
        _ => None,
    }
}

/// The hex grid of a map that can be compiled within `limits`.
pub fn grid_within(source: &MapSource, limits: &Limits) -> Option<HexGrid> {
    if !size_problems(source, limits).is_empty() {
        return None;
    }
    grid_of(source)
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

thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn count_work(n: usize) {
    WORK.with(|w| w.set(w.get().saturating_add(n as u64)));
}

/// The work compiling has done on this thread so far: hexes of terrain overlays visited
/// and terrain modification entries read. A measure of cost that does not depend on the
/// machine, for tests that a large map compiles in time proportional to its size.
pub fn compile_work() -> u64 {
    WORK.with(std::cell::Cell::get)
}

/// The terrain of every hex of the grid: the last `Terrain` overlay covering a hex wins,
/// the base where none does. Overlays are read from the last: a hex is set once, an area
/// already met is skipped, and the reading stops when every hex is set, so a map costs
/// its hexes plus its overlays rather than their product.
fn hex_terrain(grid: &HexGrid, source: &MapSource) -> BTreeMap<HexId, String> {
    let mut chosen: Vec<Option<&String>> = vec![None; grid.len()];
    let mut left = chosen.len();
    let mut seen: HashSet<&Area> = HashSet::new();
    for overlay in source.overlays.iter().rev() {
        if left == 0 {
            break;
        }
        let Overlay::Terrain { terrain, area } = overlay else {
            continue;
        };
        if !seen.insert(area) {
            continue;
        }
        let hexes = resolve_area(grid, area).unwrap_or_default();
        count_work(hexes.len());
        for hex in hexes {
            if let Some(slot) = hex_index(grid, hex).and_then(|i| chosen.get_mut(i))
                && slot.is_none()
            {
                *slot = Some(terrain);
                left -= 1;
            }
        }
    }
    grid.hexes()
        .zip(chosen)
        .map(|(h, t)| (h, t.unwrap_or(&source.base).clone()))
        .collect()
}

/// The features `AddTerrain` overlays add to each hex, in any order of overlays: the
/// same area with the same terrain is read once.
fn hex_features(grid: &HexGrid, source: &MapSource) -> BTreeMap<HexId, BTreeSet<String>> {
    let mut out: BTreeMap<HexId, BTreeSet<String>> = BTreeMap::new();
    let mut seen: HashSet<(&String, &Area)> = HashSet::new();
    for overlay in &source.overlays {
        let Overlay::AddTerrain { terrain, area } = overlay else {
            continue;
        };
        if !seen.insert((terrain, area)) {
            continue;
        }
        let hexes = resolve_area(grid, area).unwrap_or_default();
        count_work(hexes.len());
        for hex in hexes.into_iter().filter(|h| grid.contains(*h)) {
            out.entry(hex).or_default().insert(terrain.clone());
        }
    }
    out
}

/// Compiles a hex map source against its rules system.
pub fn compile(source: &MapSource, system: &RulesSystem, source_hash: &str) -> TerrainTable {
    compile_for(source, system, source_hash, None)
}

/// Compiles a hex map with a scenario's terrain modifications applied: ignored terrain
/// becomes the map's base terrain (an ignored added feature is dropped), and ignored
/// hexside features (roads) are removed from their hexsides. Access restrictions and
/// river flows are kept.
pub fn compile_for(
    source: &MapSource,
    system: &RulesSystem,
    source_hash: &str,
    scenario: Option<(&str, &[TerrainModification])>,
) -> TerrainTable {
    let grid =
        grid_of(source).unwrap_or(HexGrid::new(0, 0, muster_hex::HexLayout::EvenColumnsDown));
    let mut terrain = hex_terrain(&grid, source);
    let mut features = hex_features(&grid, source);
    let Drawn {
        mut sides,
        labels,
        flows,
    } = drawn(&grid, source);
    if let Some((_, mods)) = scenario {
        let ignored = Ignored::new(mods);
        for slot in terrain.values_mut() {
            if ignored.ignores(slot) {
                *slot = source.base.clone();
            }
        }
        for added in features.values_mut() {
            added.retain(|f| !ignored.ignores(f));
        }
        for (features, _) in sides.values_mut() {
            features.retain(|f| !ignored.ignores(f));
        }
        // A hexside left with no feature is no longer listed, unless access blocks it.
        sides.retain(|_, (features, access_blocked)| !features.is_empty() || *access_blocked);
    }
    // A feature that is the hex's own terrain adds nothing.
    for (hex, added) in &mut features {
        if let Some(own) = terrain.get(hex) {
            added.remove(own);
        }
    }
    let terrain_entries = terrain_entries(system, &terrain, &features);
    let hexes = terrain
        .iter()
        .map(|(h, t)| HexEntry {
            id: h.to_string(),
            terrain: t.clone(),
            features: features
                .remove(h)
                .map(|f| f.into_iter().collect())
                .unwrap_or_default(),
            edges: grid.edges_of(*h),
        })
        .collect();
    let hexsides = sides
        .into_iter()
        .map(|(side, (features, access_blocked))| {
            hexside_entry(system, side, features, access_blocked)
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
        terrain_combine: system.rules.terrain_combine,
        flows,
        scenario: scenario.map(|(id, _)| id.to_string()),
    }
}

/// The features of each hexside (in a set) and whether access blocks it.
type Sides = BTreeMap<(HexId, HexId), (BTreeSet<String>, bool)>;

/// What the overlays other than terrain put on a hex map: hexside features and access
/// blocks, labels and river courses. Entries off the grid, or hexsides between hexes
/// that are not adjacent, are skipped (the validator reports them).
struct Drawn {
    sides: Sides,
    labels: Vec<LabelEntry>,
    flows: Vec<Vec<String>>,
}

fn drawn(grid: &HexGrid, source: &MapSource) -> Drawn {
    let mut drawn = Drawn {
        sides: BTreeMap::new(),
        labels: Vec::new(),
        flows: Vec::new(),
    };
    let on_grid = |s: &String| HexId::parse(s).ok().filter(|h| grid.contains(*h));
    let feature_on = |sides: &mut Sides, a: &String, b: &String, feature: &String| {
        if let (Some(a), Some(b)) = (on_grid(a), on_grid(b))
            && grid.adjacent(a, b)
        {
            sides
                .entry(side_key(a, b))
                .or_default()
                .0
                .insert(feature.clone());
        }
    };
    for overlay in &source.overlays {
        match overlay {
            // Resolved hex by hex (`hex_terrain`), the last overlay covering a hex winning,
            // and added features beside them (`hex_features`).
            Overlay::Terrain { .. } | Overlay::AddTerrain { .. } => {}
            Overlay::Path { feature, hexes } => {
                for pair in hexes.windows(2) {
                    feature_on(&mut drawn.sides, &pair[0], &pair[1], feature);
                }
            }
            Overlay::Hexsides {
                feature,
                sides: list,
            } => {
                for (a, b) in list {
                    feature_on(&mut drawn.sides, a, b, feature);
                }
            }
            Overlay::Access { hex, from } => {
                let Some(hex) = on_grid(hex) else { continue };
                let allowed: Vec<HexId> = from.iter().filter_map(on_grid).collect();
                for n in grid.neighbours(hex) {
                    if !allowed.contains(&n) {
                        drawn.sides.entry(side_key(hex, n)).or_default().1 = true;
                    }
                }
            }
            Overlay::Label { hex, text } => {
                if let Some(h) = on_grid(hex) {
                    drawn.labels.push(LabelEntry {
                        hex: h.to_string(),
                        text: text.clone(),
                    });
                }
            }
            Overlay::Flow { hexes } => {
                let course: Vec<String> = hexes
                    .iter()
                    .filter_map(on_grid)
                    .map(|h| h.to_string())
                    .collect();
                if !course.is_empty() {
                    drawn.flows.push(course);
                }
            }
            Overlay::Feature { .. } => {}
        }
    }
    drawn
}

/// The terrain and hexside feature ids a scenario's modifications ignore. One test for
/// hex terrain and hexside features alike: a road is terrain the scenario may ignore
/// (see `TerrainModification`).
struct Ignored<'a> {
    ignore: HashSet<&'a str>,
    /// The ids every `IgnoreAllExcept` lists, if there is one.
    keep: Option<HashSet<&'a str>>,
}

impl<'a> Ignored<'a> {
    /// The lists become sets once, before the loops over hexes and hexsides: an id is
    /// ignored when an `Ignore` lists it or an `IgnoreAllExcept` does not (it is kept
    /// only if every `IgnoreAllExcept` lists it).
    fn new(mods: &'a [TerrainModification]) -> Self {
        let mut ignore: HashSet<&str> = HashSet::new();
        let mut keep: Option<HashSet<&str>> = None;
        for m in mods {
            match m {
                TerrainModification::Ignore(list) => {
                    count_work(list.len());
                    ignore.extend(list.iter().map(String::as_str));
                }
                TerrainModification::IgnoreAllExcept(list) => {
                    count_work(list.len());
                    let listed: HashSet<&str> = list.iter().map(String::as_str).collect();
                    keep = Some(match keep {
                        None => listed,
                        Some(mut kept) => {
                            kept.retain(|id| listed.contains(id));
                            kept
                        }
                    });
                }
            }
        }
        Ignored { ignore, keep }
    }

    fn ignores(&self, id: &str) -> bool {
        count_work(1);
        self.ignore.contains(id) || self.keep.as_ref().is_some_and(|k| !k.contains(id))
    }
}

/// The system's terrain types that some hex of the map has, as its terrain or a
/// feature, with their movement cost and combat effects.
fn terrain_entries(
    system: &RulesSystem,
    terrain: &BTreeMap<HexId, String>,
    features: &BTreeMap<HexId, BTreeSet<String>>,
) -> Vec<TerrainEntry> {
    let mut used: BTreeSet<&String> = terrain.values().collect();
    used.extend(features.values().flatten());
    system
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
            fire_protection: t.fire_protection,
            // The troops the terrain keeps out (or lets in) travel with the table: an
            // engine reading only `move_cost` would let them enter.
            prohibited: t.prohibited.clone(),
            allowed: t.allowed.clone(),
        })
        .collect()
}

/// A hexside with what its features do, by the system's hexside feature types: a
/// crossing (bridge) lifts the blocks of the others; extra costs add up.
fn hexside_entry(
    system: &RulesSystem,
    (a, b): (HexId, HexId),
    features: BTreeSet<String>,
    access_blocked: bool,
) -> HexsideEntry {
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
        blocks_movement: access_blocked || (!crossing && kinds.iter().any(|k| k.blocks_movement)),
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
}

/// Compiles an open-table map: features with their class, movement factor and cover
/// from the system, and a raster of `raster` inch cells.
pub fn compile_table(
    source: &MapSource,
    system: &RulesSystem,
    source_hash: &str,
) -> Option<TableTerrain> {
    compile_table_within(source, system, source_hash, &Limits::DEFAULT)
}

/// [`compile_table`] within `limits`: `None`, with nothing allocated for the raster, when
/// the table's size is not positive and finite or its raster has too many cells.
pub fn compile_table_within(
    source: &MapSource,
    system: &RulesSystem,
    source_hash: &str,
    limits: &Limits,
) -> Option<TableTerrain> {
    if !size_problems(source, limits).is_empty() {
        return None;
    }
    let MapGrid::Table {
        width,
        depth,
        edges,
        raster,
    } = &source.grid
    else {
        return None;
    };
    let kinds = match &system.grid {
        GridKind::Table { features, .. } => features.as_slice(),
        GridKind::Hex { .. } => &[],
    };
    let features: Vec<CompiledFeature> = source
        .overlays
        .iter()
        .filter_map(|o| match o {
            Overlay::Feature {
                feature,
                shape,
                name,
                level,
            } => {
                let kind = kinds.iter().find(|k| &k.id == feature)?;
                Some(CompiledFeature {
                    feature: feature.clone(),
                    name: name.clone(),
                    class: kind.class,
                    shape: shape.clone(),
                    movement_factor: kind.movement_factor,
                    cover: kind.cover,
                    level: *level,
                    forbidden: kind.forbidden.clone(),
                    troop_factors: kind.troop_factors.clone(),
                    crossing_cost: kind.crossing_cost,
                    crossing_factor: kind.crossing_factor,
                    march_only: kind.march_only,
                })
            }
            _ => None,
        })
        .collect();
    // Positive and finite, and the cells within the limit: `size_problems` said so.
    let cell = *raster;
    let columns = (width / cell).ceil().clamp(0.0, 65_536.0) as u32;
    let rows = (depth / cell).ceil().clamp(0.0, 65_536.0) as u32;
    let mut cells = Vec::with_capacity((columns * rows) as usize);
    // Each shape prepared once, then cut into rows: a cell asks only the edges that
    // cross its row (see `geometry::Coverage`).
    let coverages: Vec<geometry::Coverage> = features
        .iter()
        .map(|f| geometry::Coverage::new(&f.shape, cell / 2.0))
        .collect();
    for r in 0..rows {
        let y = (f64::from(r) + 0.5) * cell;
        let row: Vec<geometry::RowCoverage> = coverages.iter().map(|c| c.row(y)).collect();
        for c in 0..columns {
            let x = (f64::from(c) + 0.5) * cell;
            let top = row
                .iter()
                .enumerate()
                .rev()
                .find(|(_, f)| f.covers(x))
                .map(|(i, _)| i as u32);
            cells.push(top);
        }
    }
    Some(TableTerrain {
        format_version: muster_model::FORMAT_VERSION,
        map: source.id.clone(),
        system: system.id.clone(),
        source_hash: source_hash.to_string(),
        width: *width,
        depth: *depth,
        edges: edges.clone(),
        features,
        raster: Raster {
            cell,
            columns,
            rows,
            cells,
        },
    })
}

pub mod geometry;

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

/// A hex whose terrain has no entry in the table.
const NO_TERRAIN: u32 = u32::MAX;

/// A hex's position in column-major order (the order of a table's `hexes`).
fn hex_index(grid: &HexGrid, hex: HexId) -> Option<usize> {
    grid.contains(hex)
        .then(|| usize::from(hex.col - 1) * usize::from(grid.rows) + usize::from(hex.row - 1))
}

/// A loaded terrain table with indexes for queries.
#[derive(Debug)]
pub struct TerrainMap {
    table: TerrainTable,
    grid: HexGrid,
    /// Per hex, in [`TerrainMap::hex_index`] order: the index of its terrain entry in
    /// the table, [`NO_TERRAIN`] when the table has no entry of that id.
    terrain_of: Vec<u32>,
    /// The terrain entries of the features of each hex that has any, by hex index.
    features_of: FastMap<usize, Vec<usize>>,
    /// Asked at every step of a movement search, so hashed with a fast hasher.
    sides: FastMap<(HexId, HexId), usize>,
    /// The hex of each label text (the first label with that text), for
    /// [`TerrainMap::label`].
    labels: HashMap<String, Option<HexId>>,
    /// Banks already flooded ([`TerrainMap::bank`]), by edge and barrier terrain.
    banks: std::sync::Mutex<Vec<BankMemo>>,
}

/// A bank already flooded: its edge, its barrier terrain and the hexes reached.
type BankMemo = (muster_hex::Edge, Vec<String>, std::sync::Arc<Bank>);

impl Clone for TerrainMap {
    fn clone(&self) -> Self {
        Self {
            table: self.table.clone(),
            grid: self.grid,
            terrain_of: self.terrain_of.clone(),
            features_of: self.features_of.clone(),
            sides: self.sides.clone(),
            labels: self.labels.clone(),
            banks: Default::default(),
        }
    }
}

/// The hexes of a map reachable from one of its edges without entering a barrier
/// terrain (the bank of a river, say): one flag per hex ([`TerrainMap::bank`]).
#[derive(Debug)]
pub struct Bank {
    grid: HexGrid,
    reached: Vec<bool>,
}

impl Bank {
    /// Whether `hex` is on the map and reachable from the edge.
    pub fn contains(&self, hex: HexId) -> bool {
        hex_index(&self.grid, hex).is_some_and(|i| self.reached.get(i).copied().unwrap_or(false))
    }
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
        let mut terrain_of = vec![NO_TERRAIN; grid.len()];
        let mut entry_of: HashMap<&str, usize> = HashMap::new();
        for (i, t) in table.terrain.iter().enumerate() {
            entry_of.entry(t.id.as_str()).or_insert(i);
        }
        let mut features_of = FastMap::default();
        for hex in &table.hexes {
            let at = id(&hex.id)?;
            if let Some(&i) = entry_of.get(hex.terrain.as_str())
                && let Some(slot) = hex_index(&grid, at).and_then(|k| terrain_of.get_mut(k))
            {
                *slot = u32::try_from(i).unwrap_or(NO_TERRAIN);
            }
            if let Some(k) = hex_index(&grid, at).filter(|_| !hex.features.is_empty()) {
                let entries = hex.features.iter();
                features_of.insert(
                    k,
                    entries
                        .filter_map(|f| entry_of.get(f.as_str()).copied())
                        .collect(),
                );
            }
        }
        let mut sides = FastMap::default();
        for (i, s) in table.hexsides.iter().enumerate() {
            sides.insert(side_key(id(&s.a)?, id(&s.b)?), i);
        }
        let mut labels = HashMap::new();
        for label in &table.labels {
            labels
                .entry(label.text.clone())
                .or_insert_with(|| HexId::parse(&label.hex).ok());
        }
        Ok(Self {
            table,
            grid,
            terrain_of,
            features_of,
            sides,
            labels,
            banks: Default::default(),
        })
    }

    /// The hexes reachable from `edge` without entering terrain whose id is in
    /// `barrier`, flooded once per edge and barrier and shared afterwards (the scenarios
    /// of a project that use one map ask the same question).
    pub fn bank(&self, edge: muster_hex::Edge, barrier: &[String]) -> std::sync::Arc<Bank> {
        let memo = |banks: &Vec<BankMemo>| {
            banks
                .iter()
                .find(|(e, b, _)| *e == edge && b.as_slice() == barrier)
                .map(|(_, _, bank)| std::sync::Arc::clone(bank))
        };
        if let Some(found) = memo(&self.banks.lock().unwrap_or_else(|p| p.into_inner())) {
            return found;
        }
        let bank = std::sync::Arc::new(self.flood(edge, barrier));
        let mut banks = self.banks.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(found) = memo(&banks) {
            return found;
        }
        banks.push((edge, barrier.to_vec(), std::sync::Arc::clone(&bank)));
        bank
    }

    fn flood(&self, edge: muster_hex::Edge, barrier: &[String]) -> Bank {
        let grid = self.grid;
        // The barrier as entries of the terrain list, looked up once.
        let closed: Vec<bool> = self
            .table
            .terrain
            .iter()
            .map(|t| barrier.contains(&t.id))
            .collect();
        let open = |h: HexId| match self.terrain_index_at(h) {
            Some(i) => !closed.get(i).copied().unwrap_or(false),
            None => !self
                .terrain_id_at(h)
                .is_some_and(|t| barrier.iter().any(|b| b == t)),
        };
        let mut reached = vec![false; grid.len()];
        let mut frontier: Vec<HexId> = grid
            .hexes()
            .filter(|h| grid.edges_of(*h).contains(&edge) && open(*h))
            .collect();
        for h in &frontier {
            if let Some(i) = hex_index(&grid, *h) {
                reached[i] = true;
            }
        }
        while let Some(h) = frontier.pop() {
            for n in grid.neighbours(h) {
                if let Some(i) = hex_index(&grid, n)
                    && !reached[i]
                    && open(n)
                {
                    reached[i] = true;
                    frontier.push(n);
                }
            }
        }
        Bank { grid, reached }
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
        self.table.terrain.get(self.terrain_index_at(hex)?)
    }

    /// The index in the table's `terrain` list of the terrain of a hex; `None` off the
    /// map or when the table has no entry of that terrain.
    pub fn terrain_index_at(&self, hex: HexId) -> Option<usize> {
        let i = *self.terrain_of.get(self.hex_index(hex)?)?;
        (i != NO_TERRAIN).then_some(i as usize)
    }

    pub fn terrain_id_at(&self, hex: HexId) -> Option<&str> {
        self.table
            .hexes
            .get(self.hex_index(hex)?)
            .map(|h| h.terrain.as_str())
    }

    fn hex_index(&self, hex: HexId) -> Option<usize> {
        hex_index(&self.grid, hex)
    }

    /// The indexes in the table's `terrain` list of the features added to a hex (empty
    /// when it has none, or when the table has no entry for them).
    pub fn feature_indices_at(&self, hex: HexId) -> &[usize] {
        if self.features_of.is_empty() {
            return &[];
        }
        self.hex_index(hex)
            .and_then(|i| self.features_of.get(&i))
            .map_or(&[], Vec::as_slice)
    }

    /// The ids of the features added to a hex, as the table lists them.
    pub fn feature_ids_at(&self, hex: HexId) -> &[String] {
        self.hex_index(hex)
            .and_then(|i| self.table.hexes.get(i))
            .map_or(&[], |h| h.features.as_slice())
    }

    /// The terrain entries of the features added to a hex (empty when it has none).
    pub fn features_at(&self, hex: HexId) -> Vec<&TerrainEntry> {
        self.feature_indices_at(hex)
            .iter()
            .filter_map(|i| self.table.terrain.get(*i))
            .collect()
    }

    /// What a hex does, its own terrain and its features combined by the table's
    /// `terrain_combine` rule ([`combine::combine`]); `None` off the map or when the
    /// table has no entry for the hex's terrain.
    pub fn effects_at(&self, hex: HexId) -> Option<HexEffects> {
        let base = self.terrain_at(hex)?;
        let features = self.features_at(hex);
        Some(combine::combine(
            base,
            &features,
            self.table.terrain_combine,
        ))
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

    /// The terrain that makes a hex impassable: its own terrain, or else an impassable
    /// feature ([`TerrainMap::is_enterable`]); `None` where the hex can be entered.
    pub fn impassable_terrain_at(&self, hex: HexId) -> Option<&str> {
        if self.is_enterable(hex) || !self.contains(hex) {
            return None;
        }
        let own = self.terrain_id_at(hex);
        if self.terrain_at(hex).is_none_or(|t| t.move_cost.is_none()) {
            return own;
        }
        self.features_at(hex)
            .into_iter()
            .find(|t| t.move_cost.is_none())
            .map(|t| t.id.as_str())
            .or(own)
    }

    /// Whether the terrains of a hex, combined, can be entered at all.
    pub fn is_enterable(&self, hex: HexId) -> bool {
        self.effects_at(hex).is_some_and(|e| e.move_cost.is_some())
    }

    /// Movement points to move from `from` into the adjacent hex `to` (its terrains
    /// combined, [`TerrainMap::effects_at`]); `None` when the move is not possible (not
    /// adjacent, off the map, impassable hex or hexside). A road's cost is the own
    /// terrain's `along_road`, or the road's.
    pub fn move_cost(&self, from: HexId, to: HexId) -> Option<f64> {
        if !self.contains(from) || !self.contains(to) || !self.grid.adjacent(from, to) {
            return None;
        }
        self.cost_into(to, self.hexside(from, to))
    }

    /// [`TerrainMap::move_cost`] for a step its caller has already found to be between
    /// adjacent hexes of the map, with the hexside it crosses
    /// ([`TerrainMap::hexside`]): what a movement search asks at every step, without
    /// looking the hexside up again.
    pub fn cost_into(&self, to: HexId, side: Option<&HexsideEntry>) -> Option<f64> {
        let terrain = self.terrain_at(to)?;
        if side.is_some_and(|s| s.blocks_movement) {
            return None;
        }
        let base = self.effects_at(to)?.move_cost?;
        let along_road = side.and_then(|s| s.cost_override);
        let cost = match along_road {
            Some(road) => terrain.along_road.unwrap_or(road),
            None => base,
        };
        Some(cost + side.and_then(|s| s.extra_cost).unwrap_or(0.0))
    }

    /// Whether a unit of `kind` (with its `class`, if the system gives one) may stand in
    /// `hex`: on the map, and the `prohibited` list of none of its terrains (its own and
    /// its features) keeps it out (or their `allowed` lists let it in).
    pub fn admits(&self, hex: HexId, kind: &str, class: Option<&str>) -> bool {
        self.terrain_at(hex).is_some_and(|t| t.admits(kind, class))
            // An impassable feature counts in the cost (`effects_at`), not here.
            && self
                .features_at(hex)
                .iter()
                .all(|t| t.move_cost.is_none() || t.admits(kind, class))
    }

    /// [`TerrainMap::move_cost`] for a unit of `kind`: `None` also where the terrain of
    /// `to` is prohibited to it. Impassable terrain stays `None` even for the troops its
    /// `allowed` list names, since the table holds no cost for them.
    pub fn move_cost_for(
        &self,
        from: HexId,
        to: HexId,
        kind: &str,
        class: Option<&str>,
    ) -> Option<f64> {
        if !self.admits(to, kind, class) {
            return None;
        }
        self.move_cost(from, to)
    }

    /// The hex carrying a label (`"Fontenoy"`, `"H"`).
    pub fn label(&self, text: &str) -> Option<HexId> {
        self.labels.get(text).copied().flatten()
    }
}

/// Serialises a table as pretty JSON with a trailing newline (byte-identical for
/// identical input).
pub fn to_json<T: serde::Serialize>(table: &T) -> String {
    let mut text = serde_json::to_string_pretty(table).unwrap_or_default();
    text.push('\n');
    text
}

/// Writes `contents` to `path` atomically: a temporary file in the same folder, then a
/// rename over the target, so readers never see a half-written file.
///
/// The temporary file is named `.muster-tmp-<pid>-<random>`; those left in the folder by
/// processes that no longer run (killed mid-write) are removed first.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    remove_stale_temp_files(dir);
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!("{TEMP_PREFIX}{}-", std::process::id()))
        .rand_bytes(8)
        .tempfile_in(dir)?;
    tmp.write_all(contents)?;
    // Temporary files are private; the result should read like any file written here:
    // keep the permissions of the file being replaced, or use the usual 0644.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path).map_or(0o644, |m| m.permissions().mode());
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// How the temporary files of [`write_atomic`] begin: `.muster-tmp-<pid>-<random>`.
pub const TEMP_PREFIX: &str = ".muster-tmp-";

/// Removes the temporary files of [`write_atomic`] in `dir` whose process no longer runs
/// (on systems without `/proc`, those more than a day old). Best effort: a file that
/// cannot be removed is left.
pub fn remove_stale_temp_files(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let proc_fs = Path::new("/proc/self").exists();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(TEMP_PREFIX)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let stale = if proc_fs {
            !Path::new("/proc").join(pid.to_string()).exists()
        } else {
            entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 24 * 60 * 60)
        };
        if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
