//! Building a module: boards, pieces, prototypes, set-ups and charts, then
//! `buildFile.xml` around them and the zip.

use std::collections::BTreeMap;

use crate::xml as esc;
use muster_db::load::Document;
use muster_db::project::{Db, Resolution};
use muster_hex::HexId;
use muster_model::FileKind;
use muster_model::system::{RulesSystem, UnitRole};
use muster_semantic::board::{Board, BoardSide, EntryAt, Piece, PieceRole, PieceState, Unplaced};
use muster_semantic::{FileCx, ScenarioCx};

use crate::grid::Grid;
use crate::pieces::{PieceDef, Standing};
use crate::{BATTLEFIELD, HOLDING, SCALE, TO_PLACE, charts, choice, savefile, zipfile};

/// A written module.
#[derive(Debug, Clone)]
pub struct Export {
    pub bytes: Vec<u8>,
    /// The rules system's name.
    pub system: String,
    /// The scenarios that have a set-up, by name.
    pub setups: Vec<String>,
    /// Scenarios left out, each with the reason.
    pub skipped: Vec<String>,
    /// Counters left out of a set-up, each with the scenario and the reason: an error in
    /// the scenario (a hex off the map, too few hexes, no unit to stack on), or a start
    /// in a holding box.
    pub left_out: Vec<String>,
}

/// Prefix of every image and set-up muster writes: what `--into` replaces.
pub const OWN_PREFIX: &str = "muster-";

/// A drawn image file name and its bytes.
fn image(slug: &str, svg: &str) -> Result<(String, Vec<u8>), String> {
    if muster_render::PNG {
        let png = muster_render::png_scaled(svg, SCALE as f32)?;
        Ok((format!("{OWN_PREFIX}{slug}.png"), png))
    } else {
        Ok((format!("{OWN_PREFIX}{slug}.svg"), svg.as_bytes().to_vec()))
    }
}

/// A file-name-safe form of `text` (lower case letters, digits and `-`).
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

fn role_of(system: &RulesSystem, kind: &str) -> PieceRole {
    match system
        .unit_kinds
        .iter()
        .find(|k| k.id == kind)
        .map(|k| k.role)
    {
        Some(UnitRole::Commander) => PieceRole::Commander,
        Some(UnitRole::Baggage) => PieceRole::Baggage,
        Some(UnitRole::Combat) | None => PieceRole::Combat,
    }
}

fn role_word(role: PieceRole) -> &'static str {
    match role {
        PieceRole::Combat => "combat",
        PieceRole::Commander => "commander",
        PieceRole::Baggage => "baggage",
    }
}

fn kind_name(system: &RulesSystem, kind: &str) -> String {
    system
        .unit_kinds
        .iter()
        .find(|k| k.id == kind)
        .map_or_else(|| kind.to_string(), |k| k.name.clone())
}

/// Every piece kind, with its images and the prototypes they use.
#[derive(Default)]
struct Palette {
    defs: BTreeMap<(String, String), PieceDef>,
    order: Vec<(String, String)>,
    images: BTreeMap<String, Vec<u8>>,
    prototypes: BTreeMap<String, String>,
}

impl Palette {
    /// The def of `piece` of `side` (drawn from the piece itself when no counter sheet
    /// gave one), with `reduced` the strength of its reduced side, if any.
    fn def(
        &mut self,
        system: &RulesSystem,
        side: &BoardSide,
        piece: &Piece,
        reduced: Option<String>,
    ) -> Result<&PieceDef, String> {
        let colour = side.colour.clone().unwrap_or_else(|| "neutral".to_string());
        let key = (colour.clone(), piece.counter.clone());
        if !self.defs.contains_key(&key) {
            let board = Board {
                sides: vec![side.clone()],
                ..Board::default()
            };
            let mut alone = piece.clone();
            alone.side = Some(0);
            alone.state = PieceState::Placed;
            let stem = slug(&format!("{}-{}", colour, piece.counter));
            let (full, bytes) = image(&stem, &muster_render::counter_svg(&board, &alone))?;
            self.images.insert(full.clone(), bytes);
            let reduced = match reduced {
                Some(r) => {
                    alone.strength = Some(r);
                    let (name, bytes) = image(
                        &format!("{stem}-reduced"),
                        &muster_render::counter_svg(&board, &alone),
                    )?;
                    self.images.insert(name.clone(), bytes);
                    Some(name)
                }
                None => None,
            };
            let prototype = kind_name(system, &piece.kind);
            self.prototypes
                .insert(prototype.clone(), role_word(piece.role).to_string());
            let def = PieceDef {
                side: side.name.clone(),
                colour,
                counter: piece.counter.clone(),
                kind: piece.kind.clone(),
                prototype,
                name: if piece.name.is_empty() {
                    piece.counter.clone()
                } else {
                    piece.name.clone()
                },
                full,
                reduced,
                gpid: self.order.len() as u32 + 1,
            };
            self.defs.insert(key.clone(), def);
            self.order.push(key.clone());
        }
        Ok(&self.defs[&key])
    }
}

impl Palette {
    /// The turn marker: a plain counter that says `TURN`.
    fn turn_marker(&mut self) -> Result<&PieceDef, String> {
        let key = ("marker".to_string(), TURN_MARKER.to_string());
        if !self.defs.contains_key(&key) {
            let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"32\" height=\"32\" viewBox=\"0 0 32 32\" font-family=\"'DejaVu Sans', Verdana, Arial, sans-serif\"><rect x=\"1\" y=\"1\" width=\"30\" height=\"30\" rx=\"2.5\" fill=\"#ffffff\" stroke=\"#1a1a1a\"/><text x=\"16\" y=\"19.5\" font-size=\"8\" font-weight=\"bold\" text-anchor=\"middle\">TURN</text></svg>\n";
            let (full, bytes) = image(TURN_MARKER, svg)?;
            self.images.insert(full.clone(), bytes);
            self.prototypes
                .insert("Turn marker".to_string(), "marker".to_string());
            let def = PieceDef {
                side: "Markers".to_string(),
                colour: "marker".to_string(),
                counter: TURN_MARKER.to_string(),
                kind: "marker".to_string(),
                prototype: "Turn marker".to_string(),
                name: "Turn".to_string(),
                full,
                reduced: None,
                gpid: self.order.len() as u32 + 1,
            };
            self.defs.insert(key.clone(), def);
            self.order.push(key.clone());
        }
        Ok(&self.defs[&key])
    }
}

/// The counter id of the turn marker.
pub const TURN_MARKER: &str = "turn-marker";

/// A counter of a counter sheet as the board would show it.
fn sheet_piece(system: &RulesSystem, c: &muster_model::counters::Counter) -> Piece {
    Piece {
        counter: c.id.clone(),
        name: c.name.clone(),
        kind: c.kind.clone(),
        role: role_of(system, &c.kind),
        side: Some(0),
        strength: Some(c.strength.to_string()),
        hex: HexId { col: 1, row: 1 },
        state: PieceState::Placed,
        status: None,
        count: 1,
        aboard: Vec::new(),
        carried: Vec::new(),
        span: 0..0,
        hex_span: None,
    }
}

/// One board of the battlefield.
struct BoardOut {
    name: String,
    image: String,
    grid: Grid,
}

/// Every counter of the system's counter sheets, army by army, into the palette.
fn sheet_counters(db: &Db, system: &RulesSystem, palette: &mut Palette) -> Result<(), String> {
    // Every counter of the system's counter sheets, army by army.
    let mut sheets: Vec<&muster_model::counters::CounterSheet> = (0..db.files.len())
        .filter_map(|i| match db.doc(i) {
            Some(Document::Counters(sheet)) if sheet.system == system.id => Some(sheet),
            _ => None,
        })
        .collect();
    sheets.sort_by(|a, b| a.id.cmp(&b.id));
    for sheet in &sheets {
        for army in &sheet.armies {
            let side = BoardSide {
                id: army.id.clone(),
                name: army.name.clone(),
                colour: Some(army.colour.clone()),
            };
            for c in &army.counters {
                palette.def(
                    system,
                    &side,
                    &sheet_piece(system, c),
                    c.reduced.map(|r| r.to_string()),
                )?;
            }
        }
    }
    Ok(())
}

/// Writes the module for `scenarios` (indexes into `db`, all of one rules system).
/// With `into`, the bytes of an existing module: its entries and components are kept,
/// except muster's own (images and set-ups named `muster-…`, and the components
/// muster writes, by name), which are replaced.
pub fn export(db: &Db, scenarios: &[usize], into: Option<&[u8]>) -> Result<Export, String> {
    let mut cxs: Vec<ScenarioCx<'_>> = Vec::new();
    for &index in scenarios {
        let Some(cx) = FileCx::new(db, index).and_then(ScenarioCx::new) else {
            return Err(format!(
                "`{}` could not be read as a scenario",
                db.files[index].file.name
            ));
        };
        cxs.push(cx);
    }
    cxs.sort_by(|a, b| a.scenario.id.cmp(&b.scenario.id));
    let Some(system) = cxs.first().and_then(|cx| cx.system) else {
        return Err("no scenario with a rules system to export".to_string());
    };
    if let Some(other) = cxs
        .iter()
        .find(|cx| cx.system.is_none_or(|s| s.id != system.id))
    {
        return Err(format!(
            "`{}` is not a scenario of `{}`: a module holds the scenarios of one rules system",
            other.scenario.id, system.id
        ));
    }
    let mut palette = Palette::default();
    sheet_counters(db, system, &mut palette)?;
    let mut boards: BTreeMap<String, BoardOut> = BTreeMap::new();
    let mut entries: Vec<(String, Vec<u8>)> = Vec::new();
    let mut setups = Vec::new();
    let (mut holding_boards, mut place_boards) = (Vec::new(), Vec::new());
    let mut skipped = Vec::new();
    let mut left_out = Vec::new();
    for cx in &cxs {
        let index = cx.file.index;
        let map_index = match db.resolve(index, &cx.scenario.map, FileKind::Map) {
            Resolution::Found(m) => Some(m),
            _ => None,
        };
        let (Some(map_index), Some(map)) = (map_index, cx.map) else {
            skipped.push(format!(
                "`{}`: its map is not a hex map muster could compile (an open table has no VASSAL hex grid)",
                cx.scenario.name
            ));
            continue;
        };
        let board_name = match db.doc(map_index) {
            Some(Document::Map(m)) => m.name.clone(),
            _ => cx.scenario.map.clone(),
        };
        if !boards.contains_key(&board_name) {
            let drawn = muster_render::render(
                db,
                map_index,
                &[],
                &muster_render::Options {
                    turn: 1,
                    units: false,
                },
            );
            let (name, bytes) = image(&format!("board-{}", slug(&board_name)), &drawn.svg)?;
            palette.images.insert(name.clone(), bytes);
            boards.insert(
                board_name.clone(),
                BoardOut {
                    name: board_name.clone(),
                    image: name,
                    grid: Grid::for_layout(map.grid().layout, SCALE),
                },
            );
        }
        let grid = boards[&board_name].grid;
        let (setup, holding, area) = setup(cx, system, &mut palette, &board_name, &grid)?;
        left_out.extend(left_out_of(cx));
        for (stem, drawn, list) in [
            ("holding", holding, &mut holding_boards),
            ("to-place", area, &mut place_boards),
        ] {
            let (drawn_image, bytes) =
                image(&format!("{stem}-{}", slug(&cx.scenario.id)), &drawn.svg)?;
            palette.images.insert(drawn_image.clone(), bytes);
            list.push((drawn.board, drawn_image));
        }
        let file = format!("{OWN_PREFIX}{}.vsav", slug(&cx.scenario.id));
        entries.push((file.clone(), setup));
        setups.push((cx.scenario.name.clone(), file));
    }
    if setups.is_empty() {
        return Err(format!(
            "no scenario of `{}` is on a hex map: VASSAL modules are written for hex maps ({})",
            system.id,
            skipped.join("; ")
        ));
    }
    let mut chart_list = Vec::new();
    if let Some(svg) = charts::crt(system) {
        let (name, bytes) = image("chart-crt", &svg)?;
        palette.images.insert(name.clone(), bytes);
        chart_list.push(("Combat results".to_string(), name));
    }
    let (name, bytes) = image("chart-terrain", &charts::terrain(system))?;
    palette.images.insert(name.clone(), bytes);
    chart_list.push(("Terrain effects".to_string(), name));

    let parts = Parts {
        system,
        palette: &palette,
        boards: boards.values().collect(),
        holding: &holding_boards,
        to_place: &place_boards,
        setups: &setups,
        charts: &chart_list,
    };
    let build = match into {
        Some(old) => crate::read::merge_build_file(old, &parts.components())?,
        None => parts.build_file(),
    };
    let mut all = vec![
        ("buildFile.xml".to_string(), build.into_bytes()),
        (
            "moduledata".to_string(),
            savefile::metadata(&system.name, "1.0", "made by muster", false),
        ),
    ];
    for (name, bytes) in &palette.images {
        all.push((format!("images/{name}"), bytes.clone()));
    }
    all.extend(entries);
    let bytes = match into {
        Some(old) => zipfile::write_keeping(&all, Some(old), &|name| {
            name.starts_with(OWN_PREFIX)
                || name
                    .strip_prefix("images/")
                    .is_some_and(|n| n.starts_with(OWN_PREFIX))
        })?,
        None => zipfile::write(&all)?,
    };
    Ok(Export {
        bytes,
        system: system.name.clone(),
        setups: setups.into_iter().map(|(name, _)| name).collect(),
        skipped,
        left_out,
    })
}

/// The counters the set-up of `cx` leaves out, in words: those its boards could not
/// place, but for the spare counters of the owner's choices (in the "To place" window),
/// and those that start in a holding box.
fn left_out_of(cx: &ScenarioCx<'_>) -> Vec<String> {
    let first = cx.board(1);
    // The later board holds the set-up's unplaced counters again, then reinforcements'.
    let last = cx.board(first.last_turn.max(1));
    let mut spare: Vec<&Unplaced> = choice::groups(cx, &first)
        .iter()
        .flat_map(|g| g.spare.iter().map(|(j, _)| &first.unplaced[*j]))
        .collect();
    let mut out = Vec::new();
    for u in &last.unplaced {
        let same = |s: &&Unplaced| {
            (s.side, &s.what, &s.span, &s.reason) == (u.side, &u.what, &u.span, &u.reason)
        };
        if let Some(k) = spare.iter().position(same) {
            spare.swap_remove(k);
            continue;
        }
        out.push(format!(
            "`{}`: `{}` is not in its set-up: {}",
            cx.scenario.name, u.what, u.reason
        ));
    }
    // Units in a holding box stand on no hex and in no window of the module yet.
    for g in cx.groups() {
        if let muster_model::scenario::Placement::Box(b) = g.at {
            for u in &g.units {
                out.push(format!(
                    "`{}`: `{}` is not in its set-up: it starts in the {}",
                    cx.scenario.name,
                    u.counter_id,
                    b.name()
                ));
            }
        }
    }
    out
}

/// The holding board of a scenario's reinforcements.
struct Holding {
    board: String,
    svg: String,
}

const BOX_H: f64 = 56.0;
const LABEL_W: f64 = 330.0;
const SLOT: f64 = 36.0;
/// A box of the turn track.
const TRACK: f64 = 40.0;
/// Where the reinforcements' boxes begin, below the title and the turn track.
const TOP: f64 = 90.0;

/// The entry hexes named for a reinforcement of `side` on `turn` that comes on at `hex`.
fn entry_hexes(board: &Board, side: Option<usize>, turn: u8, hex: HexId) -> Vec<HexId> {
    for mark in &board.entries {
        if Some(mark.side) != side || mark.turn != turn {
            continue;
        }
        let hexes: Vec<HexId> = match &mark.at {
            EntryAt::Hexes(list) => list.iter().map(|(h, _)| *h).collect(),
            EntryAt::Inside(list) => list.clone(),
            EntryAt::Edge(_) | EntryAt::TableEdge(_) => Vec::new(),
        };
        if hexes.contains(&hex) {
            return hexes;
        }
    }
    vec![hex]
}

fn hex_list(hexes: &[HexId]) -> String {
    hexes
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A scenario's saved game: its pieces on the battlefield and in the holding window.
fn setup(
    cx: &ScenarioCx<'_>,
    system: &RulesSystem,
    palette: &mut Palette,
    board_name: &str,
    grid: &Grid,
) -> Result<(Vec<u8>, Holding, Holding), String> {
    let first = cx.board(1);
    let mut commands = vec!["begin_save".to_string()];
    let mut n = 0usize;
    let choices = choice::groups(cx, &first);
    let area = to_place(cx, system, palette, &first, &choices, &mut commands, &mut n)?;
    for (i, p) in first.pieces.iter().enumerate() {
        if choices.iter().any(|g| g.pieces.contains(&i)) {
            continue;
        }
        let side = side_of(&first, p);
        let def = palette.def(system, &side, p, None)?;
        let standing = match p.state {
            // Every owner's choice is in a group, in the "To place" window.
            PieceState::Placed | PieceState::Chosen | PieceState::Choice => Standing::default(),
            PieceState::Arrived { turn } => Standing {
                placement: "reinforcement".to_string(),
                hexes: hex_list(&entry_hexes(&first, p.side, turn, p.hex)),
                turn: turn.to_string(),
            },
        };
        let (ty, state) = def.encode(BATTLEFIELD, grid.centre(p.hex), &standing);
        n += 1;
        commands.push(savefile::add_piece(&format!("muster{n}"), &ty, &state));
    }
    // Reinforcements after the set-up: one box per side, turn and entry.
    let last = cx.board(first.last_turn.max(1));
    let mut boxes: BTreeMap<(u8, String, String), Vec<&Piece>> = BTreeMap::new();
    for p in &last.pieces {
        if let PieceState::Arrived { turn } = p.state
            && turn > 1
        {
            let side = side_of(&last, p).name;
            let hexes = hex_list(&entry_hexes(&first, p.side, turn, p.hex));
            boxes.entry((turn, side, hexes)).or_default().push(p);
        }
    }
    let turns = first.last_turn.max(1);
    let width = boxes
        .values()
        .map(|v| LABEL_W + SLOT * v.len() as f64 + 20.0)
        .fold(640.0, f64::max)
        .max(24.0 + TRACK * f64::from(turns))
        .ceil();
    let height = (TOP + BOX_H * boxes.len().max(1) as f64 + 10.0).ceil();
    let holding_name = format!("{HOLDING}: {}", cx.scenario.name);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"'DejaVu Sans', Verdana, Arial, sans-serif\" font-size=\"12\"><rect width=\"{width}\" height=\"{height}\" fill=\"#f6f3ea\"/><text x=\"12\" y=\"30\" font-size=\"16\" font-weight=\"bold\">{}</text>",
        esc(&holding_name)
    );
    // The turn track, the marker on turn 1.
    for t in 1..=turns {
        let x = 12.0 + TRACK * f64::from(t - 1);
        svg.push_str(&format!(
            "<rect x=\"{x}\" y=\"42\" width=\"{w}\" height=\"{w}\" fill=\"#ffffff\" stroke=\"#555\"/><text x=\"{}\" y=\"52\" font-size=\"9\">{t}</text>",
            x + 2.0,
            w = TRACK - 4.0,
        ));
    }
    let marker = palette.turn_marker()?;
    let (ty, state) = marker.encode(
        HOLDING,
        (
            (12.0 + (TRACK - 4.0) / 2.0) as i32,
            (42.0 + (TRACK - 4.0) / 2.0) as i32,
        ),
        &Standing {
            placement: "turn marker".to_string(),
            hexes: String::new(),
            turn: "1".to_string(),
        },
    );
    n += 1;
    commands.push(savefile::add_piece(&format!("muster{n}"), &ty, &state));
    if boxes.is_empty() {
        svg.push_str(&format!(
            "<text x=\"12\" y=\"{}\">No reinforcements in this scenario.</text>",
            TOP + 20.0
        ));
    }
    for (b, ((turn, side, hexes), pieces)) in boxes.iter().enumerate() {
        let y = TOP + BOX_H * b as f64;
        svg.push_str(&format!(
            "<rect x=\"6\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#555\"/><text x=\"12\" y=\"{}\">Turn {turn}: {}</text><text x=\"12\" y=\"{}\" font-size=\"10\">enters at {}</text>",
            width - 12.0,
            BOX_H - 4.0,
            y + 20.0,
            esc(side),
            y + 38.0,
            esc(hexes)
        ));
        for (k, p) in pieces.iter().enumerate() {
            let side = side_of(&last, p);
            let def = palette.def(system, &side, p, None)?;
            let at = (
                (LABEL_W + SLOT * k as f64 + SLOT / 2.0) as i32,
                (y + BOX_H / 2.0) as i32,
            );
            let standing = Standing {
                placement: "reinforcement".to_string(),
                hexes: hexes.clone(),
                turn: turn.to_string(),
            };
            let (ty, state) = def.encode(HOLDING, at, &standing);
            n += 1;
            commands.push(savefile::add_piece(&format!("muster{n}"), &ty, &state));
        }
    }
    svg.push_str("</svg>\n");
    commands.push(savefile::board_choice(BATTLEFIELD, board_name));
    commands.push(savefile::board_choice(HOLDING, &holding_name));
    commands.push(savefile::board_choice(TO_PLACE, &area.board));
    commands.push("end_save".to_string());
    let text = commands.join(&savefile::SEPARATOR.to_string());
    let vsav = zipfile::write(&[
        ("savedGame".to_string(), savefile::obfuscate(&text)),
        (
            "savedata".to_string(),
            savefile::metadata(&system.name, "1.0", &cx.scenario.name, true),
        ),
        (
            "moduledata".to_string(),
            savefile::metadata(&system.name, "1.0", "made by muster", false),
        ),
    ])?;
    Ok((
        vsav,
        Holding {
            board: holding_name,
            svg,
        },
        area,
    ))
}

/// The side of piece `p` on `board` (a neutral side for neutrals).
fn side_of(board: &Board, p: &Piece) -> BoardSide {
    p.side
        .and_then(|i| board.sides.get(i))
        .cloned()
        .unwrap_or_else(|| BoardSide {
            id: "neutral".to_string(),
            name: "Neutral".to_string(),
            colour: None,
        })
}

/// The "To place" board of a set-up: one box per owner's-choice group, naming the side,
/// how the owner places them and the hexes they may go to, with the group's counters in
/// it (their `Hexes` property the same list). Their commands go into `commands`.
fn to_place(
    cx: &ScenarioCx<'_>,
    system: &RulesSystem,
    palette: &mut Palette,
    first: &Board,
    groups: &[choice::ChoiceGroup],
    commands: &mut Vec<String>,
    n: &mut usize,
) -> Result<Holding, String> {
    let name = format!("{TO_PLACE}: {}", cx.scenario.name);
    let width = groups
        .iter()
        .map(|g| LABEL_W + SLOT * g.len() as f64 + 20.0)
        .fold(640.0, f64::max)
        .ceil();
    let height = (TOP - 40.0 + BOX_H * groups.len().max(1) as f64 + 10.0).ceil();
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"'DejaVu Sans', Verdana, Arial, sans-serif\" font-size=\"12\"><rect width=\"{width}\" height=\"{height}\" fill=\"#f6f3ea\"/><text x=\"12\" y=\"30\" font-size=\"16\" font-weight=\"bold\">{}</text>",
        esc(&format!("{name} (owner's choice)"))
    );
    if groups.is_empty() {
        svg.push_str(
            "<text x=\"12\" y=\"70\">Nothing to place: every counter starts on its hex.</text>",
        );
    }
    for (b, group) in groups.iter().enumerate() {
        let y = TOP - 40.0 + BOX_H * b as f64;
        let side = group
            .members(first)
            .next()
            .map(|p| side_of(first, p).name)
            .unwrap_or_default();
        let hexes = hex_list(&group.hexes);
        svg.push_str(&format!(
            "<rect x=\"6\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#555\"/><text x=\"12\" y=\"{}\">{}</text><text x=\"12\" y=\"{}\" font-size=\"10\">{} {}</text>",
            width - 12.0,
            BOX_H - 4.0,
            y + 20.0,
            esc(&side),
            y + 38.0,
            esc(&group.rule),
            esc(&hexes)
        ));
        for (k, p) in group.members(first).enumerate() {
            let def = palette.def(system, &side_of(first, p), p, None)?;
            let at = (
                (LABEL_W + SLOT * k as f64 + SLOT / 2.0) as i32,
                (y + BOX_H / 2.0) as i32,
            );
            let standing = Standing {
                placement: "owner's choice".to_string(),
                hexes: hexes.clone(),
                turn: String::new(),
            };
            let (ty, state) = def.encode(TO_PLACE, at, &standing);
            *n += 1;
            commands.push(savefile::add_piece(&format!("muster{n}"), &ty, &state));
        }
    }
    svg.push_str("</svg>\n");
    Ok(Holding { board: name, svg })
}

/// What `buildFile.xml` is made of.
pub(crate) struct Parts<'a> {
    system: &'a RulesSystem,
    palette: &'a Palette,
    boards: Vec<&'a BoardOut>,
    holding: &'a [(String, String)],
    /// The "To place" boards of owner's choices, one per set-up.
    to_place: &'a [(String, String)],
    setups: &'a [(String, String)],
    charts: &'a [(String, String)],
}

/// A map window with its boards.
fn map_xml(name: &str, boards: &str, launch: bool) -> String {
    format!(
        "<VASSAL.build.module.Map allowMultiple=\"false\" backgroundcolor=\"255,255,255\" buttonName=\"{n}\" edgeHeight=\"0\" edgeWidth=\"0\" hideKey=\"\" hotkey=\"\" icon=\"\" launch=\"{launch}\" mapName=\"{n}\" markMoved=\"Never\" markUnmovedHotkey=\"\" markUnmovedIcon=\"\" markUnmovedText=\"\" markUnmovedTooltip=\"\" moveKey=\"\" showKey=\"\" thickness=\"3\">\n<VASSAL.build.module.map.BoardPicker addColumnText=\"Add column\" addRowText=\"Add row\" boardPrompt=\"Select board\" slotHeight=\"125\" slotScale=\"0.2\" slotWidth=\"350\" title=\"Choose Boards\">\n{boards}</VASSAL.build.module.map.BoardPicker>\n<VASSAL.build.module.map.StackMetrics bottom=\"40,0\" disabled=\"false\" down=\"39,0\" exSepX=\"6\" exSepY=\"18\" top=\"38,0\" unexSepX=\"2\" unexSepY=\"4\" up=\"37,0\"/>\n<VASSAL.build.module.map.ForwardToKeyBuffer/>\n<VASSAL.build.module.map.Scroller/>\n<VASSAL.build.module.map.ForwardToChatter/>\n<VASSAL.build.module.map.MenuDisplayer/>\n<VASSAL.build.module.map.MapCenterer/>\n<VASSAL.build.module.map.StackExpander/>\n<VASSAL.build.module.map.PieceMover/>\n<VASSAL.build.module.map.KeyBufferer/>\n<VASSAL.build.module.map.ImageSaver/>\n<VASSAL.build.module.map.CounterDetailViewer/>\n<VASSAL.build.module.map.Zoomer/>\n</VASSAL.build.module.Map>\n",
        n = esc(name),
    )
}

impl Parts<'_> {
    /// muster's components of the module, each one line of XML: (element, name, xml).
    pub(crate) fn components(&self) -> Vec<(String, String, String)> {
        let mut out = Vec::new();
        let mut prototypes = String::new();
        for (name, role) in &self.palette.prototypes {
            let (ty, state) = crate::pieces::prototype(role);
            prototypes.push_str(&format!(
                "<VASSAL.build.module.PrototypeDefinition description=\"\" name=\"{}\">{}</VASSAL.build.module.PrototypeDefinition>\n",
                esc(name),
                esc(&savefile::add_piece("null", &ty, &state))
            ));
        }
        out.push((
            "VASSAL.build.module.PrototypesContainer".to_string(),
            String::new(),
            format!(
                "<VASSAL.build.module.PrototypesContainer>\n{prototypes}</VASSAL.build.module.PrototypesContainer>\n"
            ),
        ));
        let mut boards = String::new();
        for b in &self.boards {
            boards.push_str(&format!(
                "<VASSAL.build.module.map.boardPicker.Board image=\"{}\" name=\"{}\" reversible=\"false\">{}</VASSAL.build.module.map.boardPicker.Board>\n",
                esc(&b.image),
                esc(&b.name),
                b.grid.xml()
            ));
        }
        out.push((
            "VASSAL.build.module.Map".to_string(),
            BATTLEFIELD.to_string(),
            map_xml(BATTLEFIELD, &boards, false),
        ));
        for (map, drawn) in [(HOLDING, self.holding), (TO_PLACE, self.to_place)] {
            let mut list = String::new();
            for (name, image) in drawn {
                list.push_str(&format!(
                    "<VASSAL.build.module.map.boardPicker.Board image=\"{}\" name=\"{}\" reversible=\"false\"/>\n",
                    esc(image),
                    esc(name)
                ));
            }
            out.push((
                "VASSAL.build.module.Map".to_string(),
                map.to_string(),
                map_xml(map, &list, true),
            ));
        }
        let mut slots = String::new();
        let mut by_side: BTreeMap<&str, Vec<&PieceDef>> = BTreeMap::new();
        for key in &self.palette.order {
            let def = &self.palette.defs[key];
            by_side.entry(def.side.as_str()).or_default().push(def);
        }
        for (side, defs) in by_side {
            slots.push_str(&format!(
                "<VASSAL.build.widget.ListWidget divider=\"150\" entryName=\"{}\" height=\"0\" scale=\"1.0\" width=\"0\">\n",
                esc(side)
            ));
            for def in defs {
                let (ty, state) = def.encode("null", (0, 0), &Standing::default());
                slots.push_str(&format!(
                    "<VASSAL.build.widget.PieceSlot entryName=\"{}\" gpid=\"{}\" height=\"32\" width=\"32\">{}</VASSAL.build.widget.PieceSlot>\n",
                    esc(&def.name),
                    def.gpid,
                    esc(&savefile::add_piece("null", &ty, &state))
                ));
            }
            slots.push_str("</VASSAL.build.widget.ListWidget>\n");
        }
        out.push((
            "VASSAL.build.module.PieceWindow".to_string(),
            "Counters".to_string(),
            format!(
                "<VASSAL.build.module.PieceWindow allowMultiple=\"false\" buttonText=\"Counters\" hidden=\"false\" hotkey=\"\" icon=\"\" name=\"Counters\" scale=\"1.0\" tooltip=\"\">\n<VASSAL.build.widget.TabWidget entryName=\"Counters\">\n{slots}</VASSAL.build.widget.TabWidget>\n</VASSAL.build.module.PieceWindow>\n"
            ),
        ));
        let mut charts = String::new();
        for (name, image) in self.charts {
            charts.push_str(&format!(
                "<VASSAL.build.widget.Chart chartName=\"{}\" description=\"\" fileName=\"{}\"/>\n",
                esc(name),
                esc(image)
            ));
        }
        out.push((
            "VASSAL.build.module.ChartWindow".to_string(),
            "Charts".to_string(),
            format!(
                "<VASSAL.build.module.ChartWindow description=\"\" hotkey=\"\" icon=\"\" name=\"Charts\" text=\"Charts\" tooltip=\"\">\n<VASSAL.build.widget.TabWidget entryName=\"Charts\">\n{charts}</VASSAL.build.widget.TabWidget>\n</VASSAL.build.module.ChartWindow>\n"
            ),
        ));
        let mut setups = String::new();
        for (name, file) in self.setups {
            setups.push_str(&format!(
                "<VASSAL.build.module.PredefinedSetup description=\"\" file=\"{}\" isMenu=\"false\" name=\"{}\" useFile=\"true\"/>\n",
                esc(file),
                esc(name)
            ));
        }
        out.push((
            "VASSAL.build.module.PredefinedSetup".to_string(),
            "Scenarios".to_string(),
            format!(
                "<VASSAL.build.module.PredefinedSetup description=\"\" file=\"\" isMenu=\"true\" name=\"Scenarios\" useFile=\"false\">\n{setups}</VASSAL.build.module.PredefinedSetup>\n"
            ),
        ));
        out
    }

    fn build_file(&self) -> String {
        let mut out = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<VASSAL.build.GameModule ModuleOther1=\"\" ModuleOther2=\"\" VassalVersion=\"{}\" description=\"{}\" name=\"{}\" nextPieceSlotId=\"{}\" version=\"1.0\">\n",
            crate::VASSAL_VERSION,
            esc(&format!("{}: made by muster", self.system.name)),
            esc(&self.system.name),
            self.palette.order.len() + 1,
        );
        out.push_str("<VASSAL.build.module.BasicCommandEncoder/>\n<VASSAL.build.module.Documentation/>\n<VASSAL.build.module.Chatter/>\n<VASSAL.build.module.KeyNamer/>\n<VASSAL.build.module.GlobalOptions autoReport=\"Always\" centerOnMove=\"Use Preferences Setting\" chatterHTMLSupport=\"Never\" hotKeysOnClosedWindows=\"Never\" inventoryForAll=\"Always\" nonOwnerUnmaskable=\"Use Preferences Setting\" playerIdFormat=\"$PlayerName$\" promptString=\"Opponents can unmask pieces\" sendToLocationMoveTrails=\"Never\" storeLeadingZeroIntegersAsStrings=\"false\"/>\n");
        out.push_str("<VASSAL.build.module.PlayerRoster buttonKeyStroke=\"\" buttonText=\"Retire\" buttonToolTip=\"Switch sides, become observer, or release faction\">\n");
        let mut sides: Vec<&str> = self
            .palette
            .defs
            .values()
            .map(|d| d.side.as_str())
            .collect();
        sides.sort_unstable();
        sides.dedup();
        for side in sides {
            out.push_str(&format!("<entry>{}</entry>\n", esc(side)));
        }
        out.push_str("</VASSAL.build.module.PlayerRoster>\n");
        for (_, _, xml) in self.components() {
            out.push_str(&xml);
        }
        out.push_str("</VASSAL.build.GameModule>\n");
        out
    }
}

#[cfg(test)]
mod tests;
