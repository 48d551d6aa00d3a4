//! Pictures of maps and scenarios: an SVG board drawn from the semantic layer's
//! [`Board`], a self-contained HTML page around it, and PNG through resvg (feature
//! `png`). Pure functions of their input: the same project gives the same bytes.
//!
//! The SVG is written by hand (it is text) and is meant to be read by programs too:
//! every hex carries `data-hex` and `data-terrain`, every counter `data-counter`,
//! `data-unit` (the rules engine's id of the unit), `data-side` and `data-hex`, every
//! diagnostic mark `data-code`.

mod hex;
pub mod html;
mod marks;
pub mod palette;
#[cfg(feature = "png")]
mod png;
mod reach;
pub mod svg;
mod table;

use muster_db::Diagnostic;
use muster_db::load::Document;
use muster_db::project::Db;
use muster_map::TerrainMap;
use muster_model::map::MapSource;
use muster_model::system::RulesSystem;
use muster_model::table::TableTerrain;
use muster_semantic::board::Board;
use muster_semantic::{FileCx, ScenarioCx};

pub use marks::{Mark, MarkTarget, spans_examined};
pub use reach::{AttackShade, ReachShade, attack_layer, move_layer, reach_layer, with_reach};

/// What to draw.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The board at the start of this turn (1: the set-up).
    pub turn: u8,
    /// Draw counters and units (zones, entries and objectives are drawn either way).
    pub units: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            turn: 1,
            units: true,
        }
    }
}

/// A drawn map or scenario.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The scenario's or map's name.
    pub title: String,
    /// `scenario` or `map`.
    pub what: &'static str,
    pub svg: String,
    /// The scenario's board (`None` for a map).
    pub board: Option<Board>,
    /// Where each diagnostic is drawn, by its index in the list given.
    pub marks: Vec<Mark>,
    /// Why nothing could be drawn, when the file gives no board (the SVG then says so).
    pub unavailable: Option<String>,
}

/// The map a file is drawn on.
enum Ground<'a> {
    Hex {
        map: &'a TerrainMap,
        source: Option<&'a MapSource>,
    },
    Table(&'a TableTerrain),
}

/// Draws the map or scenario at `index` of the project, with `diagnostics` (of any file)
/// outlined where they can be placed on the board.
pub fn render(db: &Db, index: usize, diagnostics: &[Diagnostic], options: &Options) -> Rendered {
    let file_name = db.files[index].file.name.clone();
    match db.doc(index) {
        Some(Document::Scenario(scenario)) => {
            let Some(cx) = FileCx::new(db, index).and_then(ScenarioCx::new) else {
                return unavailable(&scenario.name, "scenario", "the scenario could not be read");
            };
            let ground = match (cx.map, cx.table) {
                (Some(map), _) => Some(Ground::Hex {
                    map,
                    source: cx.map_source(),
                }),
                (None, Some(table)) => Some(Ground::Table(table)),
                (None, None) => None,
            };
            let Some(ground) = ground else {
                return unavailable(
                    &scenario.name,
                    "scenario",
                    &format!(
                        "the map `{}` could not be compiled; fix its diagnostics first",
                        scenario.map
                    ),
                );
            };
            let mut board = cx.board(options.turn);
            // A side that sets up hidden shows none of its units' positions.
            let hidden: Vec<usize> = (scenario.sides.iter().enumerate())
                .filter(|(_, s)| match &s.forces {
                    muster_model::scenario::Forces::Placed { hidden, .. } => *hidden,
                    muster_model::scenario::Forces::Zoned(_)
                    | muster_model::scenario::Forces::Table(_) => false,
                })
                .map(|(i, _)| i)
                .collect();
            board
                .pieces
                .retain(|p| p.side.is_none_or(|s| !hidden.contains(&s)));
            board
                .unplaced
                .retain(|p| p.side.is_none_or(|s| !hidden.contains(&s)));
            if !options.units {
                board.pieces.clear();
                board
                    .table
                    .retain(|m| matches!(m, muster_semantic::board::TableMark::Area { .. }));
            }
            let files = Files {
                scenario: Some(&cx.file.loaded.file),
                map: cx.map_file(),
            };
            draw(
                &scenario.name,
                "scenario",
                &ground,
                cx.system,
                Some(board),
                &files,
                diagnostics,
            )
        }
        Some(Document::Map(map)) => {
            let ground = match (db.terrain_map(index), db.table(index)) {
                (Some(hex), _) => Some(Ground::Hex {
                    map: hex,
                    source: Some(map),
                }),
                (None, Some(table)) => Some(Ground::Table(table)),
                (None, None) => None,
            };
            let Some(ground) = ground else {
                return unavailable(
                    &map.name,
                    "map",
                    "the map could not be compiled; fix its diagnostics first",
                );
            };
            let system = FileCx::new(db, index).and_then(|f| f.system);
            let files = Files {
                scenario: None,
                map: Some(&db.files[index].file),
            };
            draw(&map.name, "map", &ground, system, None, &files, diagnostics)
        }
        Some(Document::System(_) | Document::Counters(_)) => {
            unavailable(&file_name, "file", "only maps and scenarios can be drawn")
        }
        None => unavailable(&file_name, "file", "the file could not be read"),
    }
}

/// The files whose diagnostics can be placed on the board.
pub(crate) struct Files<'a> {
    pub scenario: Option<&'a std::sync::Arc<muster_db::source::SourceFile>>,
    pub map: Option<&'a std::sync::Arc<muster_db::source::SourceFile>>,
}

fn draw(
    title: &str,
    what: &'static str,
    ground: &Ground<'_>,
    system: Option<&RulesSystem>,
    board: Option<Board>,
    files: &Files<'_>,
    diagnostics: &[Diagnostic],
) -> Rendered {
    let (svg, marks) = match ground {
        Ground::Hex { map, source } => {
            let marks = marks::place_on_hexes(diagnostics, files, board.as_ref(), map);
            let svg = hex::draw(
                title,
                map,
                *source,
                system,
                board.as_ref(),
                &marks,
                diagnostics,
            );
            (svg, marks)
        }
        Ground::Table(table) => {
            let marks = marks::place_on_table(diagnostics, files, board.as_ref());
            let svg = table::draw(title, table, board.as_ref(), &marks, diagnostics);
            (svg, marks)
        }
    };
    Rendered {
        title: title.to_string(),
        what,
        svg,
        board,
        marks,
        unavailable: None,
    }
}

fn unavailable(title: &str, what: &'static str, reason: &str) -> Rendered {
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"480\" height=\"80\" viewBox=\"0 0 480 80\" font-family=\"sans-serif\"><title>{}</title><rect width=\"480\" height=\"80\" fill=\"#f6f3ea\"/><text x=\"16\" y=\"44\" font-size=\"14\" fill=\"#7a2a22\">{}</text></svg>\n",
        svg::esc(title),
        svg::esc(reason)
    );
    Rendered {
        title: title.to_string(),
        what,
        svg,
        board: None,
        marks: Vec::new(),
        unavailable: Some(reason.to_string()),
    }
}

/// The centre of a hex on a board [`render`] draws, in SVG units (PNG pixels at scale 1).
pub fn hex_centre(layout: muster_hex::HexLayout, hex: muster_hex::HexId) -> (f64, f64) {
    hex::centre(layout, hex)
}

/// One counter of `board` drawn alone as a small square SVG (the art of the board's
/// counters), for programs that place counters themselves.
pub fn counter_svg(board: &Board, piece: &muster_semantic::board::Piece) -> String {
    hex::counter_alone(board, piece)
}

/// Rasterises an SVG written by [`render`] at its own size (an error when this build
/// has no PNG output: see [`PNG`]).
pub fn png(svg: &str) -> Result<Vec<u8>, String> {
    png_scaled(svg, 1.0)
}

/// Rasterises an SVG at `scale` times its own size.
pub fn png_scaled(svg: &str, scale: f32) -> Result<Vec<u8>, String> {
    #[cfg(feature = "png")]
    return png::rasterise(svg, scale);
    #[cfg(not(feature = "png"))]
    {
        let _ = (svg, scale);
        Err("this muster was built without PNG output (feature `png`)".to_string())
    }
}

/// Whether this build can write PNG.
pub const PNG: bool = cfg!(feature = "png");
