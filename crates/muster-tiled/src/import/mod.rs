//! `muster import tiled`: a TMX map painted in Tiled becomes a muster map source. The
//! `tiled` crate reads the map; [`locate`] finds where each element is written, so that
//! every problem is a diagnostic at its line and column. Nothing here panics on any
//! input: a file that cannot be read gives a diagnostic and no map.

pub mod locate;
mod objects;
mod source;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use muster_db::source::SourceFile;
use muster_db::{Diagnostic, Severity};
use muster_hex::{HexGrid, HexId};
use muster_model::map::MapSource;
use muster_model::system::RulesSystem;

use crate::codes;
use crate::export::TILE_PROPERTIES;
use locate::Locator;

/// What an import gives: the map source and its text when the TMX could be read as a
/// hex map, and every problem found.
pub struct Imported {
    pub source: Option<MapSource>,
    /// The source as RON, ready to write as `NAME.map.ron`.
    pub text: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
}

/// The map property names muster writes and reads.
const MAP_PROPERTIES: &[&str] = &["id", "name", "system", "scenario"];

/// Serves the TMX text already read from memory, and any tileset it names from disk.
struct Reader {
    main: PathBuf,
    text: Vec<u8>,
}

impl tiled::ResourceReader for Reader {
    type Resource = std::io::Cursor<Vec<u8>>;
    type Error = std::io::Error;

    fn read_from(&mut self, path: &Path) -> Result<Self::Resource, Self::Error> {
        if path == self.main {
            Ok(std::io::Cursor::new(self.text.clone()))
        } else {
            std::fs::read(path).map(std::io::Cursor::new)
        }
    }
}

/// Reports on one TMX file.
pub(crate) struct Report {
    file: Arc<SourceFile>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    pub fn push(
        &mut self,
        code: &'static str,
        severity: Severity,
        span: Range<usize>,
        message: String,
        help: Option<String>,
    ) {
        self.diagnostics.push(Diagnostic {
            code,
            severity,
            message,
            file: self.file.clone(),
            span,
            label: None,
            labels: Vec::new(),
            help,
            note: None,
        });
    }
}

/// Reads the TMX `text` (read from `path`, shown as `shown`) against `system`, as the
/// map `id`.
pub fn import(path: &Path, shown: &str, text: String, system: &RulesSystem, id: &str) -> Imported {
    let file = Arc::new(SourceFile::new(path, shown, text));
    let mut report = Report {
        file: file.clone(),
        diagnostics: Vec::new(),
    };
    let source = read(&file.text, path, system, id, &mut report);
    let text = source.as_ref().map(|s| source::to_ron(s, shown));
    report.diagnostics.sort_by_key(|d| d.span.start);
    Imported {
        source,
        text,
        diagnostics: report.diagnostics,
    }
}

fn read(
    text: &str,
    path: &Path,
    system: &RulesSystem,
    id: &str,
    report: &mut Report,
) -> Option<MapSource> {
    let locator = match Locator::new(text) {
        Ok(l) => l,
        Err(e) => {
            let pos = e.pos();
            let at = locate::offset_of(text, pos.row, pos.col);
            report.push(
                codes::MALFORMED,
                Severity::Error,
                at..at,
                format!("the file is not well-formed XML: {e}"),
                Some("save the map again from Tiled, or mend the XML by hand".into()),
            );
            return None;
        }
    };
    let map_node = locator.map();
    let mut loader = tiled::Loader::with_reader(Reader {
        main: path.to_path_buf(),
        text: text.as_bytes().to_vec(),
    });
    let map = match loader.load_tmx_map(path) {
        Ok(m) => m,
        Err(e) => {
            report.push(
                codes::MALFORMED,
                Severity::Error,
                Locator::tag(map_node),
                format!("the file is not a TMX map that muster can read: {e}"),
                Some("save the map again from Tiled (File > Save As, `.tmx`)".into()),
            );
            return None;
        }
    };
    let grid = hex_grid(&map, map_node, report)?;
    for p in Locator::properties(map_node) {
        unknown_property(report, &p, MAP_PROPERTIES, "the map");
    }
    let tiles = tile_terrain(&map, &locator, system, report);
    let painted = paint(&map, &locator, &grid, &tiles, report);
    let drawn = objects::read(&map, &locator, &grid, system, report);
    let name = match map.properties.get("name") {
        Some(tiled::PropertyValue::StringValue(s)) if !s.is_empty() => s.clone(),
        _ => id.to_string(),
    };
    let base = source::base(&painted.terrain, system);
    let unpainted: Vec<HexId> = grid
        .hexes()
        .filter(|h| !painted.terrain.contains_key(h))
        .collect();
    if let Some(first) = unpainted.first() {
        report.push(
            codes::UNPAINTED,
            Severity::Warning,
            Locator::tag(map_node),
            format!(
                "{} hex{} of the map ({first} first) {} no terrain tile; they get the base terrain `{base}`",
                unpainted.len(),
                if unpainted.len() == 1 { "" } else { "es" },
                if unpainted.len() == 1 { "has" } else { "have" },
            ),
            Some("paint every hex in a terrain layer".into()),
        );
    }
    Some(source::build(
        id, name, system, &grid, base, &painted, drawn,
    ))
}

/// The map's grid, or a diagnostic when it is not a flat-topped hex map muster numbers.
fn hex_grid(map: &tiled::Map, node: roxmltree::Node, report: &mut Report) -> Option<HexGrid> {
    let mut refuse = |attribute: &str, message: String, help: &str| {
        report.push(
            codes::NOT_HEX_MAP,
            Severity::Error,
            Locator::attribute(node, attribute),
            message,
            Some(help.to_string()),
        );
    };
    if map.orientation != tiled::Orientation::Hexagonal {
        refuse(
            "orientation",
            format!("the map is `{}`, not hexagonal", map.orientation),
            "create the map as Hexagonal (Staggered) in Tiled, stagger axis X",
        );
        return None;
    }
    if map.stagger_axis != tiled::StaggerAxis::X {
        refuse(
            "staggeraxis",
            "the map's rows are staggered (`staggeraxis=\"y\"`); muster's hexes are flat-topped, in staggered columns".into(),
            "set Map > Map Properties > Stagger Axis to X",
        );
        return None;
    }
    if map.infinite() {
        refuse(
            "infinite",
            "the map is infinite; muster maps have a fixed number of columns and rows".into(),
            "untick Map > Map Properties > Infinite",
        );
        return None;
    }
    let max = u32::from(muster_map::MAX_CCRR);
    if map.width == 0 || map.height == 0 || map.width > max || map.height > max {
        refuse(
            "width",
            format!(
                "the map is {} x {} hexes; muster numbers hexes `CCRR`, at most {max} x {max}",
                map.width, map.height
            ),
            "resize the map (Map > Resize Map)",
        );
        return None;
    }
    Some(HexGrid::new(
        map.width as u16,
        map.height as u16,
        crate::geometry::layout_of(map.stagger_index),
    ))
}

/// The terrain each tile stands for: `(tileset index, tile id) -> Some(terrain)`, or
/// `None` for a tile without a usable `terrain` property (reported when painted).
type Tiles = BTreeMap<(usize, u32), Option<String>>;

fn tile_terrain(
    map: &tiled::Map,
    locator: &Locator,
    system: &RulesSystem,
    report: &mut Report,
) -> Tiles {
    let mut out = Tiles::new();
    for (ti, tileset) in map.tilesets().iter().enumerate() {
        let mut ids: Vec<u32> = tileset.tiles().map(|(id, _)| id).collect();
        ids.sort_unstable();
        for id in ids {
            let Some(tile) = tileset.get_tile(id) else {
                continue;
            };
            let node = locator.tile(ti, id).or_else(|| locator.tileset(ti));
            let written = node.map(Locator::properties).unwrap_or_default();
            let what = format!("tile {id} of the tileset `{}`", tileset.name);
            for p in &written {
                unknown_property(report, p, TILE_PROPERTIES, &what);
            }
            let terrain = match tile.properties.get("terrain") {
                Some(tiled::PropertyValue::StringValue(t)) => Some(t.clone()),
                _ => None,
            };
            let known = terrain.filter(|t| {
                let found = system.terrain.iter().any(|k| &k.id == t);
                if !found {
                    let at = written.iter().find(|p| p.name == "terrain");
                    let span = at
                        .map_or_else(|| node.map_or(0..0, Locator::tag), |p| p.value_span.clone());
                    let ids = system.terrain.iter().map(|k| k.id.as_str());
                    let help =
                        muster_db::suggest::did_you_mean(t, ids.clone()).unwrap_or_else(|| {
                            format!("the terrain of `{}` is {}", system.id, list(ids))
                        });
                    report.push(
                        codes::UNKNOWN_TERRAIN,
                        Severity::Error,
                        span,
                        format!("{what} is terrain `{t}`, which `{}` has not", system.id),
                        Some(help),
                    );
                }
                found
            });
            out.insert((ti, id), known);
        }
    }
    out
}

/// `` `a`, `b`, `c` ``.
pub(crate) fn list<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    ids.map(|i| format!("`{i}`")).collect::<Vec<_>>().join(", ")
}

pub(crate) fn unknown_property(
    report: &mut Report,
    p: &locate::PropertyAt,
    known: &[&str],
    what: &str,
) {
    if known.contains(&p.name.as_str()) {
        return;
    }
    let help =
        muster_db::suggest::did_you_mean(&p.name, known.iter().copied()).unwrap_or_else(|| {
            format!(
                "muster reads {}; remove it or rename it",
                list(known.iter().copied())
            )
        });
    report.push(
        codes::UNKNOWN_PROPERTY,
        Severity::Warning,
        p.name_span.clone(),
        format!(
            "{what} has a property `{}` that muster does not read",
            p.name
        ),
        Some(help),
    );
}

/// What the tile layers paint: each hex's terrain (the last terrain layer wins) and its
/// added features.
pub(crate) struct Painted {
    pub terrain: BTreeMap<HexId, String>,
    pub features: BTreeMap<HexId, Vec<String>>,
}

fn paint(
    map: &tiled::Map,
    locator: &Locator,
    grid: &HexGrid,
    tiles: &Tiles,
    report: &mut Report,
) -> Painted {
    let mut painted = Painted {
        terrain: BTreeMap::new(),
        features: BTreeMap::new(),
    };
    // Painted tiles without a terrain: where first, and how many hexes.
    let mut untyped: BTreeMap<(usize, u32), (HexId, usize)> = BTreeMap::new();
    for layer in map.layers() {
        let node = locator.layer(layer.id());
        let what = format!("the layer `{}`", layer.name);
        for p in node.map(Locator::properties).unwrap_or_default() {
            unknown_property(report, &p, &[], &what);
        }
        let features = layer.name.starts_with(crate::layer::FEATURES);
        match layer.layer_type() {
            tiled::LayerType::Tiles(tiled::TileLayer::Finite(cells)) => {
                let counted = node.and_then(|n| locate::data_cells(n, locator.map()));
                if let Some(problem) = short_layer(counted) {
                    report.push(
                        codes::MALFORMED,
                        Severity::Error,
                        node.map_or(0..0, Locator::tag),
                        format!("{what} {problem}"),
                        Some("save the map again from Tiled; muster did not read this layer".into()),
                    );
                    continue;
                }
                for hex in grid.hexes() {
                    let (x, y) = (i32::from(hex.col) - 1, i32::from(hex.row) - 1);
                    let Some(tile) = cells.get_tile(x, y) else { continue };
                    let key = (tile.tileset_index(), tile.id());
                    match tiles.get(&key) {
                        Some(Some(t)) if features => {
                            painted.features.entry(hex).or_default().push(t.clone())
                        }
                        Some(Some(t)) => {
                            painted.terrain.insert(hex, t.clone());
                        }
                        // An unknown terrain is reported at its tile already.
                        Some(None) if has_terrain(map, key) => {}
                        _ => untyped.entry(key).or_insert((hex, 0)).1 += 1,
                    }
                }
            }
            tiled::LayerType::Objects(_) => {}
            _ => report.push(
                codes::IGNORED_LAYER,
                Severity::Warning,
                node.map_or(0..0, |n| Locator::attribute(n, "name")),
                format!("{what} is not a tile or object layer; muster does not read it"),
                Some("muster reads tile layers (terrain, `features`) and the object layers `hexsides` and `labels`".into()),
            ),
        }
    }
    for ((ti, id), (first, n)) in untyped {
        let node = locator.tile(ti, id).or_else(|| locator.tileset(ti));
        let name = map
            .tilesets()
            .get(ti)
            .map(|t| t.name.clone())
            .unwrap_or_default();
        report.push(
            codes::UNTYPED_TILE,
            Severity::Error,
            node.map_or(0..0, Locator::tag),
            format!(
                "tile {id} of the tileset `{name}` is painted on {n} hex{} ({first} first) but has no `terrain` property",
                if n == 1 { "" } else { "es" }
            ),
            Some("give the tile a string property `terrain` naming a terrain type of the system".into()),
        );
    }
    painted
}

/// Whether a tile has a `terrain` string property (whatever it names).
fn has_terrain(map: &tiled::Map, (ti, id): (usize, u32)) -> bool {
    map.tilesets()
        .get(ti)
        .and_then(|t| t.get_tile(id))
        .is_some_and(|t| {
            matches!(
                t.properties.get("terrain"),
                Some(tiled::PropertyValue::StringValue(_))
            )
        })
}

/// Why a tile layer's data does not fit its size, if it does not.
fn short_layer(counted: Option<(usize, usize)>) -> Option<String> {
    match counted {
        Some((found, wanted)) if found == wanted => None,
        Some((found, wanted)) => Some(format!(
            "holds {found} cells where its size asks for {wanted}"
        )),
        None => Some("holds data that muster cannot count".into()),
    }
}
