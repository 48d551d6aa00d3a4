//! `muster export tiled`: a compiled hex map (and a scenario's set-up) as a TMX map with
//! an embedded tileset. The text is built in a fixed order from sorted tables, so the
//! same map gives the same bytes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use muster_hex::{HexGrid, HexId, HexLayout};
use muster_model::map::{MapGrid, MapSource, Overlay};
use muster_model::system::RulesSystem;
use muster_model::table::{TerrainEntry, TerrainTable};

use crate::geometry::{self, SIDE, TILE_HEIGHT, TILE_WIDTH};
use crate::layer;
use crate::setup::SetupPiece;

/// What to export: the compiled table, the source it came from (for its access
/// restrictions, which the table keeps only as blocked hexsides), the tiles to offer
/// and, for a scenario, its counters at the start.
pub struct Input<'a> {
    pub table: &'a TerrainTable,
    pub source: Option<&'a MapSource>,
    /// One tile per terrain type, in this order (see [`system_tiles`]); terrain of the
    /// table that is missing here is added after them.
    pub tiles: Vec<TerrainEntry>,
    pub setup: Option<&'a [SetupPiece]>,
}

/// The TMX text and the tileset picture it names.
pub struct Exported {
    pub tmx: String,
    pub png: Vec<u8>,
    /// The picture's file name, beside the TMX.
    pub image_name: String,
}

/// Every terrain type of `system` as a terrain table entry, in the system's order: each
/// compiled as the base terrain of a one-hex map, so a tile carries exactly the figures
/// a compiled map would.
pub fn system_tiles(system: &RulesSystem) -> Vec<TerrainEntry> {
    system
        .terrain
        .iter()
        .filter_map(|t| {
            let one = MapSource {
                id: String::new(),
                name: String::new(),
                system: system.id.clone(),
                grid: MapGrid::Hex {
                    columns: 1,
                    rows: 1,
                    layout: HexLayout::default(),
                },
                base: t.id.clone(),
                overlays: Vec::new(),
                assumed: Default::default(),
            };
            muster_map::compile(&one, system, "")
                .terrain
                .into_iter()
                .next()
        })
        .collect()
}

/// The picture's name for a TMX path: `jengland.tmx` -> `jengland.terrain.png`.
pub fn image_name(tmx: &Path) -> String {
    let stem = tmx
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "map".into());
    format!("{stem}.terrain.png")
}

/// Writes the picture, then the TMX, each atomically; returns the picture's path.
pub fn write(exported: &Exported, tmx: &Path) -> std::io::Result<PathBuf> {
    let png = tmx.with_file_name(&exported.image_name);
    muster_map::write_atomic(&png, &exported.png)?;
    muster_map::write_atomic(tmx, exported.tmx.as_bytes())?;
    Ok(png)
}

/// Text safe inside an XML attribute: markup escaped, and the characters XML 1.0 does
/// not allow at all replaced by U+FFFD.
pub(crate) fn attr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || matches!(c, '\u{FFFE}' | '\u{FFFF}') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A pixel figure with at most two decimals and no trailing zeros.
fn px(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    if r == 0.0 { "0".into() } else { format!("{r}") }
}

/// A custom property of a given Tiled type.
enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
}

fn properties(out: &mut String, indent: &str, props: &[(&str, Value)]) {
    if props.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}<properties>");
    for (name, value) in props {
        let (ty, v) = match value {
            Value::Str(s) => ("", attr(s)),
            Value::Int(i) => (" type=\"int\"", i.to_string()),
            Value::Float(f) => (" type=\"float\"", format!("{f}")),
            Value::Bool(b) => (" type=\"bool\"", b.to_string()),
        };
        let _ = writeln!(
            out,
            "{indent} <property name=\"{}\"{ty} value=\"{v}\"/>",
            attr(name)
        );
    }
    let _ = writeln!(out, "{indent}</properties>");
}

/// The properties of a terrain tile: its id and the figures of the terrain effects
/// chart. Only `terrain` is read back; the figures come from the system on import.
fn tile_properties(t: &TerrainEntry) -> Vec<(&'static str, Value)> {
    let mut props = vec![("terrain", Value::Str(t.id.clone()))];
    match t.move_cost {
        Some(cost) => props.push(("move_cost", Value::Float(cost))),
        None => props.push(("impassable", Value::Bool(true))),
    }
    if let Some(road) = t.along_road {
        props.push(("along_road", Value::Float(road)));
    }
    props.push(("die_modifier", Value::Int(i64::from(t.die_modifier))));
    props.push(("column_shift", Value::Int(i64::from(t.column_shift))));
    props.push(("no_retreat", Value::Bool(t.no_retreat)));
    if let Some(fp) = t.fire_protection {
        props.push(("fire_protection", Value::Int(i64::from(fp))));
    }
    if !t.prohibited.is_empty() {
        props.push(("prohibited", Value::Str(t.prohibited.join(" "))));
    }
    if !t.allowed.is_empty() {
        props.push(("allowed", Value::Str(t.allowed.join(" "))));
    }
    props
}

/// The tile property names [`tile_properties`] writes: what import knows.
pub const TILE_PROPERTIES: &[&str] = &[
    "terrain",
    "move_cost",
    "impassable",
    "along_road",
    "die_modifier",
    "column_shift",
    "no_retreat",
    "fire_protection",
    "prohibited",
    "allowed",
];

/// The TMX map and its tileset picture for `input`, naming the picture `image_name`.
pub fn export(input: &Input, image_name: &str) -> Exported {
    let table = input.table;
    let grid = HexGrid::new(table.grid.columns, table.grid.rows, table.grid.layout);
    let mut tiles = input.tiles.clone();
    for t in &table.terrain {
        if !tiles.iter().any(|x| x.id == t.id) {
            tiles.push(t.clone());
        }
    }
    let gid = |id: &str| tiles.iter().position(|t| t.id == id).map_or(0, |i| i + 1);
    let mut out = String::new();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        out,
        r#"<map version="1.8" tiledversion="1.8.2" orientation="hexagonal" renderorder="right-down" width="{}" height="{}" tilewidth="{TILE_WIDTH}" tileheight="{TILE_HEIGHT}" infinite="0" hexsidelength="{SIDE}" staggeraxis="x" staggerindex="{}" nextlayerid="{{LAYER}}" nextobjectid="{{OBJECT}}">"#,
        grid.columns,
        grid.rows,
        geometry::stagger_index(grid.layout)
    );
    let mut map_props = vec![("id", Value::Str(table.map.clone()))];
    if let Some(source) = input.source {
        map_props.push(("name", Value::Str(source.name.clone())));
    }
    map_props.push(("system", Value::Str(table.system.clone())));
    if let Some(s) = &table.scenario {
        map_props.push(("scenario", Value::Str(s.clone())));
    }
    properties(&mut out, " ", &map_props);
    let _ = writeln!(
        out,
        r#" <tileset firstgid="1" name="{} terrain" tilewidth="{TILE_WIDTH}" tileheight="{TILE_HEIGHT}" tilecount="{n}" columns="{n}">"#,
        attr(&table.system),
        n = tiles.len()
    );
    let _ = writeln!(
        out,
        r#"  <image source="{}" width="{}" height="{TILE_HEIGHT}"/>"#,
        attr(image_name),
        TILE_WIDTH as usize * tiles.len().max(1)
    );
    for (i, t) in tiles.iter().enumerate() {
        let _ = writeln!(out, r#"  <tile id="{i}">"#);
        properties(&mut out, "   ", &tile_properties(t));
        let _ = writeln!(out, "  </tile>");
    }
    let _ = writeln!(out, " </tileset>");
    let mut layers = 0u32;
    let mut terrain = vec![0usize; grid.len()];
    let mut features: Vec<Vec<usize>> = Vec::new();
    let cell = |hex: HexId| {
        usize::from(hex.row - 1) * usize::from(grid.columns) + usize::from(hex.col - 1)
    };
    for h in &table.hexes {
        let Ok(hex) = HexId::parse(&h.id) else {
            continue;
        };
        if !grid.contains(hex) {
            continue;
        }
        terrain[cell(hex)] = gid(&h.terrain);
        for (k, f) in h.features.iter().enumerate() {
            if features.len() <= k {
                features.push(vec![0; grid.len()]);
            }
            features[k][cell(hex)] = gid(f);
        }
    }
    tile_layer(&mut out, &mut layers, layer::TERRAIN, &grid, &terrain);
    for (k, cells) in features.iter().enumerate() {
        let name = match k {
            0 => layer::FEATURES.to_string(),
            k => format!("{} {}", layer::FEATURES, k + 1),
        };
        tile_layer(&mut out, &mut layers, &name, &grid, cells);
    }
    let mut objects = Objects::default();
    hexside_objects(&mut objects, input, grid.layout);
    objects.layer(&mut out, &mut layers, layer::HEXSIDES);
    for l in &table.labels {
        if let Ok(hex) = HexId::parse(&l.hex) {
            objects.point(
                &l.text,
                geometry::centre(grid.layout, hex),
                vec![("hex", Value::Str(l.hex.clone()))],
            );
        }
    }
    objects.layer(&mut out, &mut layers, layer::LABELS);
    if let Some(setup) = input.setup {
        setup_objects(&mut objects, setup, grid.layout);
        objects.layer(&mut out, &mut layers, layer::SETUP);
    }
    let _ = writeln!(out, "</map>");
    let tmx = out
        .replacen("{LAYER}", &(layers + 1).to_string(), 1)
        .replacen("{OBJECT}", &(objects.next + 1).to_string(), 1);
    let colours: Vec<[u8; 3]> = tiles.iter().map(|t| crate::image::colour(&t.id)).collect();
    Exported {
        tmx,
        png: crate::image::tileset_png(&colours),
        image_name: image_name.to_string(),
    }
}

/// A tile layer in Tiled's CSV encoding: one line per row, `0` for no tile.
fn tile_layer(out: &mut String, layers: &mut u32, name: &str, grid: &HexGrid, cells: &[usize]) {
    *layers += 1;
    let _ = writeln!(
        out,
        r#" <layer id="{layers}" name="{}" width="{}" height="{}">"#,
        attr(name),
        grid.columns,
        grid.rows
    );
    let _ = writeln!(out, r#"  <data encoding="csv">"#);
    let rows: Vec<String> = cells
        .chunks(usize::from(grid.columns).max(1))
        .map(|row| {
            row.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let _ = writeln!(out, "{}", rows.join(",\n"));
    let _ = writeln!(out, "</data>");
    let _ = writeln!(out, " </layer>");
}

/// Objects gathered for the next object layer, numbered across the map.
#[derive(Default)]
struct Objects {
    next: u32,
    text: String,
}

impl Objects {
    fn open(&mut self, name: &str, at: (f64, f64)) {
        self.next += 1;
        let _ = writeln!(
            self.text,
            r#"  <object id="{}" name="{}" x="{}" y="{}">"#,
            self.next,
            attr(name),
            px(at.0),
            px(at.1)
        );
    }

    fn point(&mut self, name: &str, at: (f64, f64), props: Vec<(&str, Value)>) {
        self.open(name, at);
        properties(&mut self.text, "   ", &props);
        let _ = writeln!(self.text, "   <point/>\n  </object>");
    }

    fn polyline(&mut self, name: &str, points: &[(f64, f64)], props: Vec<(&str, Value)>) {
        let Some(&first) = points.first() else { return };
        self.open(name, first);
        properties(&mut self.text, "   ", &props);
        let relative: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{},{}", px(x - first.0), px(y - first.1)))
            .collect();
        let _ = writeln!(
            self.text,
            "   <polyline points=\"{}\"/>\n  </object>",
            relative.join(" ")
        );
    }

    /// Writes the gathered objects as an object layer (always, even when empty, so a
    /// designer finds where to draw).
    fn layer(&mut self, out: &mut String, layers: &mut u32, name: &str) {
        *layers += 1;
        let _ = writeln!(out, r#" <objectgroup id="{layers}" name="{}">"#, attr(name));
        out.push_str(&std::mem::take(&mut self.text));
        let _ = writeln!(out, " </objectgroup>");
    }
}

/// Hexside features as lines along their hexsides, access restrictions as points on
/// their hex, river courses as lines through hex centres.
fn hexside_objects(objects: &mut Objects, input: &Input, layout: HexLayout) {
    for side in &input.table.hexsides {
        let (Ok(a), Ok(b)) = (HexId::parse(&side.a), HexId::parse(&side.b)) else {
            continue;
        };
        for f in &side.features {
            objects.polyline(
                f,
                &geometry::hexside(layout, a, b),
                vec![
                    ("feature", Value::Str(f.clone())),
                    ("hexes", Value::Str(format!("{a} {b}"))),
                ],
            );
        }
    }
    for overlay in input.source.map(|s| s.overlays.as_slice()).unwrap_or(&[]) {
        if let Overlay::Access { hex, from } = overlay
            && let Ok(h) = HexId::parse(hex)
        {
            objects.point(
                "access",
                geometry::centre(layout, h),
                vec![
                    ("access", Value::Str(hex.clone())),
                    ("from", Value::Str(from.join(" "))),
                ],
            );
        }
    }
    for course in &input.table.flows {
        let points: Vec<(f64, f64)> = course
            .iter()
            .filter_map(|h| HexId::parse(h).ok())
            .map(|h| geometry::centre(layout, h))
            .collect();
        objects.polyline(
            "flow",
            &points,
            vec![("flow", Value::Str(course.join(" ")))],
        );
    }
}

/// A scenario's counters at the start, each a point on its hex (a stack fans out a
/// little so every counter can be picked).
fn setup_objects(objects: &mut Objects, setup: &[SetupPiece], layout: HexLayout) {
    let mut on_hex: std::collections::BTreeMap<HexId, u32> = Default::default();
    for piece in setup {
        let n = on_hex.entry(piece.hex).or_default();
        let (x, y) = geometry::centre(layout, piece.hex);
        let shift = f64::from(*n % 8) * 3.0;
        *n += 1;
        let mut props = vec![
            ("counter", Value::Str(piece.counter.clone())),
            ("kind", Value::Str(piece.kind.clone())),
            ("side", Value::Str(piece.side.clone())),
            ("hex", Value::Str(piece.hex.to_string())),
        ];
        if let Some(s) = &piece.strength {
            props.push(("strength", Value::Str(s.clone())));
        }
        if piece.count > 1 {
            props.push(("count", Value::Int(i64::from(piece.count))));
        }
        objects.point(&piece.name, (x - 9.0 + shift, y - 9.0 + shift), props);
    }
}
