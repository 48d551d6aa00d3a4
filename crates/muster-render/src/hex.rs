//! A hex map drawn in its own layout: flat-topped hexes in columns, every other column
//! half a hex down, as the printed maps have them.

use std::collections::BTreeMap;
use std::fmt::Write;

use muster_db::Diagnostic;
use muster_hex::{Edge, HexId, HexLayout};
use muster_map::TerrainMap;
use muster_model::map::{MapSource, Overlay};
use muster_model::system::{FeatureDraw, RulesSystem};
use muster_semantic::board::{Board, EntryAt, Piece, PieceRole, PieceState, SupplyAt};

use crate::marks::{Mark, MarkTarget};
use crate::palette;
use crate::svg::{esc, n, points, short};

/// Hex radius (centre to corner) in SVG units.
const S: f64 = 28.0;
/// Room around the map for entry arrows and their text.
const MARGIN: f64 = 96.0;
/// Width of the legend column.
const LEGEND: f64 = 250.0;
/// Side of a counter.
const COUNTER: f64 = 30.0;

pub(crate) fn h() -> f64 {
    S * 3f64.sqrt()
}

pub(crate) struct Geometry {
    pub(crate) layout: HexLayout,
    pub(crate) columns: u16,
    pub(crate) rows: u16,
}

impl Geometry {
    pub(crate) fn centre(&self, hex: HexId) -> (f64, f64) {
        let shifted = match self.layout {
            HexLayout::EvenColumnsDown => hex.col.is_multiple_of(2),
            HexLayout::OddColumnsDown => !hex.col.is_multiple_of(2),
        };
        let x = MARGIN + S + f64::from(hex.col - 1) * 1.5 * S;
        let y = MARGIN
            + h() / 2.0
            + f64::from(hex.row - 1) * h()
            + if shifted { h() / 2.0 } else { 0.0 };
        (x, y)
    }

    pub(crate) fn corners(&self, hex: HexId, radius: f64) -> Vec<(f64, f64)> {
        let (x, y) = self.centre(hex);
        (0..6)
            .map(|k| {
                let angle = f64::from(k) * std::f64::consts::PI / 3.0;
                (x + radius * angle.cos(), y + radius * angle.sin())
            })
            .collect()
    }

    fn map_width(&self) -> f64 {
        2.0 * S + f64::from(self.columns.saturating_sub(1)) * 1.5 * S
    }

    fn map_height(&self) -> f64 {
        h() * f64::from(self.rows) + h() / 2.0
    }

    /// The two ends of the hexside between neighbours `a` and `b`.
    fn hexside(&self, a: HexId, b: HexId) -> ((f64, f64), (f64, f64)) {
        let (ax, ay) = self.centre(a);
        let (bx, by) = self.centre(b);
        let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
        let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt().max(1e-9);
        let (px, py) = (-(by - ay) / len, (bx - ax) / len);
        (
            (mx + px * S / 2.0, my + py * S / 2.0),
            (mx - px * S / 2.0, my - py * S / 2.0),
        )
    }
}

/// The centre of `hex` on a board drawn by [`draw`], in SVG units (one unit is one pixel
/// of a PNG rasterised at scale 1).
pub fn centre(layout: HexLayout, hex: HexId) -> (f64, f64) {
    Geometry {
        layout,
        columns: 0,
        rows: 0,
    }
    .centre(hex)
}

/// One counter drawn alone, centred in a square SVG one counter and a border wide.
pub fn counter_alone(board: &Board, piece: &Piece) -> String {
    let size = COUNTER + 2.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{s}\" height=\"{s}\" viewBox=\"{o} {o} {s} {s}\" font-family=\"'DejaVu Sans', Verdana, Arial, sans-serif\"><g font-size=\"7\" text-anchor=\"middle\">",
        s = n(size),
        o = n(-size / 2.0),
    );
    counter(&mut out, board, piece, &piece.counter, 0.0, 0.0);
    out.push_str("</g></svg>\n");
    out
}

fn outward(edge: Edge) -> (f64, f64) {
    match edge {
        Edge::North => (0.0, -1.0),
        Edge::East => (1.0, 0.0),
        Edge::South => (0.0, 1.0),
        Edge::West => (-1.0, 0.0),
    }
}

fn side_key(board: Option<&Board>, side: Option<usize>) -> String {
    match (board, side) {
        (Some(b), Some(i)) => b
            .sides
            .get(i)
            .map_or("neutral".to_string(), |s| s.id.clone()),
        _ => "neutral".to_string(),
    }
}

fn side_colour(board: &Board, side: Option<usize>) -> String {
    match side {
        Some(i) => palette::side(board.sides.get(i).and_then(|s| s.colour.as_deref()), i),
        None => palette::NEUTRAL.to_string(),
    }
}

pub fn draw(
    title: &str,
    map: &TerrainMap,
    source: Option<&MapSource>,
    system: Option<&RulesSystem>,
    board: Option<&Board>,
    marks: &[Mark],
    diagnostics: &[Diagnostic],
) -> String {
    let grid = map.grid();
    let geo = Geometry {
        layout: grid.layout,
        columns: grid.columns,
        rows: grid.rows,
    };
    let width = (MARGIN * 2.0 + geo.map_width() + LEGEND).ceil();
    let height = (MARGIN * 2.0 + geo.map_height()).max(640.0).ceil();
    let mut out = String::with_capacity(64 * 1024 + grid.len() * 400);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"'DejaVu Sans', Verdana, Arial, sans-serif\" data-map=\"{map}\" data-columns=\"{c}\" data-rows=\"{r}\"",
        w = n(width),
        h = n(height),
        map = esc(&map.table().map),
        c = grid.columns,
        r = grid.rows,
    );
    if let Some(b) = board {
        let _ = write!(out, " data-turn=\"{}\"", b.turn);
    }
    out.push_str(">\n");
    crate::svg::preamble(&mut out, title, width, height, MARGIN);

    let fills = palette::TerrainFills::new(
        map.table().terrain.iter().map(|t| t.id.as_str()).chain(
            system
                .into_iter()
                .flat_map(|s| s.terrain.iter().map(|t| t.id.as_str())),
        ),
    );
    terrain(&mut out, map, &geo, &fills);
    features(&mut out, map, &geo, &fills);
    flows(&mut out, map, &geo);
    hexsides(&mut out, map, system, &geo);
    if let Some(source) = source {
        access(&mut out, source, map, &geo);
    }
    if let Some(board) = board {
        zones(&mut out, board, &geo);
    }
    if let Some(board) = board {
        objectives(&mut out, board, &geo);
        exits(&mut out, board, &geo);
        entries(&mut out, board, &geo);
    }
    let positions = match board {
        Some(board) => counters(&mut out, board, &geo),
        None => Vec::new(),
    };
    if let Some(board) = board.filter(|b| !b.supply.is_empty()) {
        supply(&mut out, board, &geo);
    }
    // Over the counters, and below a hex's stack where it has one, so that no counter
    // hides a name.
    labels(&mut out, map, &geo, board, &positions);
    diagnostic_marks(&mut out, marks, diagnostics, &geo, &positions);
    legend(&mut out, map, system, board, &geo, &fills);
    out.push_str("</svg>\n");
    out
}

fn terrain(out: &mut String, map: &TerrainMap, geo: &Geometry, fills: &palette::TerrainFills) {
    out.push_str("<g id=\"terrain\" stroke=\"#8f8a78\" stroke-width=\"0.8\">\n");
    for entry in &map.table().hexes {
        let Ok(hex) = HexId::parse(&entry.id) else {
            continue;
        };
        let _ = writeln!(
            out,
            "<polygon class=\"hex\" data-hex=\"{id}\" data-terrain=\"{t}\" points=\"{p}\" fill=\"{f}\"><title>{id} {t}</title></polygon>",
            id = entry.id,
            t = esc(&entry.terrain),
            p = points(&geo.corners(hex, S)),
            f = fills.get(&entry.terrain),
        );
    }
    out.push_str(
        "</g>\n<g id=\"hex-numbers\" font-size=\"6.5\" fill=\"#5a5648\" text-anchor=\"middle\">\n",
    );
    for entry in &map.table().hexes {
        let Ok(hex) = HexId::parse(&entry.id) else {
            continue;
        };
        let (x, y) = geo.centre(hex);
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            n(x),
            n(y - h() / 2.0 + 8.0),
            entry.id
        );
    }
    out.push_str("</g>\n");
}

/// The features added to hexes (`AddTerrain`): each a smaller hex of its terrain's
/// fill inside the hex, the first largest. Nothing is written for a map without any.
fn features(out: &mut String, map: &TerrainMap, geo: &Geometry, fills: &palette::TerrainFills) {
    let mut any = false;
    for entry in map.table().hexes.iter().filter(|e| !e.features.is_empty()) {
        let Ok(hex) = HexId::parse(&entry.id) else {
            continue;
        };
        if !any {
            out.push_str("<g id=\"features\" stroke=\"#5a5648\" stroke-width=\"0.8\">\n");
            any = true;
        }
        for (k, feature) in entry.features.iter().enumerate() {
            let radius = S * (0.55 - 0.15 * k.min(3) as f64);
            let _ = writeln!(
                out,
                "<polygon class=\"feature\" data-hex=\"{id}\" data-terrain=\"{t}\" points=\"{p}\" fill=\"{f}\"><title>{id} {own} and {t}</title></polygon>",
                id = entry.id,
                t = esc(feature),
                own = esc(&entry.terrain),
                p = points(&geo.corners(hex, radius)),
                f = fills.get(feature),
            );
        }
    }
    if any {
        out.push_str("</g>\n");
    }
}

fn flows(out: &mut String, map: &TerrainMap, geo: &Geometry) {
    out.push_str("<g id=\"flows\" fill=\"none\" stroke=\"#2f6fb3\" stroke-width=\"2\" stroke-opacity=\"0.7\">\n");
    for flow in &map.table().flows {
        let centres: Vec<(f64, f64)> = flow
            .iter()
            .filter_map(|h| HexId::parse(h).ok())
            .map(|h| geo.centre(h))
            .collect();
        if centres.len() > 1 {
            let _ = writeln!(
                out,
                "<polyline class=\"flow\" points=\"{}\" marker-end=\"url(#arrow)\"/>",
                points(&centres)
            );
        }
    }
    out.push_str("</g>\n");
}

/// Whether a hexside feature is drawn from hex centre to hex centre (`draw: Through`
/// in the system); a feature the system does not declare is drawn on the hexside, the
/// default.
fn drawn_through(system: Option<&RulesSystem>, feature: &str) -> bool {
    system
        .and_then(|s| s.hexside_features.iter().find(|f| f.id == feature))
        .is_some_and(|f| f.draw == FeatureDraw::Through)
}

fn is_crossing(system: Option<&RulesSystem>, feature: &str) -> bool {
    system
        .and_then(|s| s.hexside_features.iter().find(|f| f.id == feature))
        .is_some_and(|f| f.crossing)
}

fn hexsides(out: &mut String, map: &TerrainMap, system: Option<&RulesSystem>, geo: &Geometry) {
    let mut sides = String::new();
    let mut roads = String::new();
    for entry in &map.table().hexsides {
        let (Ok(a), Ok(b)) = (HexId::parse(&entry.a), HexId::parse(&entry.b)) else {
            continue;
        };
        for feature in &entry.features {
            let key = format!("{}-{}", entry.a, entry.b);
            if drawn_through(system, feature) {
                let (ax, ay) = geo.centre(a);
                let (bx, by) = geo.centre(b);
                let _ = writeln!(
                    roads,
                    "<line class=\"road\" data-hexside=\"{key}\" data-feature=\"{f}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                    n(ax),
                    n(ay),
                    n(bx),
                    n(by),
                    f = esc(feature)
                );
            } else if is_crossing(system, feature) {
                let (ax, ay) = geo.centre(a);
                let (bx, by) = geo.centre(b);
                let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
                let (dx, dy) = ((bx - ax) * 0.22, (by - ay) * 0.22);
                let _ = writeln!(
                    sides,
                    "<line class=\"hexside bridge\" data-hexside=\"{key}\" data-feature=\"{f}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#7a5a2e\" stroke-width=\"7\"/>",
                    n(mx - dx),
                    n(my - dy),
                    n(mx + dx),
                    n(my + dy),
                    f = esc(feature)
                );
            } else {
                let ((x1, y1), (x2, y2)) = geo.hexside(a, b);
                let _ = writeln!(
                    sides,
                    "<line class=\"hexside\" data-hexside=\"{key}\" data-feature=\"{f}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{c}\" stroke-width=\"4\" stroke-linecap=\"round\"><title>{key} {f}</title></line>",
                    n(x1),
                    n(y1),
                    n(x2),
                    n(y2),
                    f = esc(feature),
                    c = palette::hexside(feature)
                );
            }
        }
    }
    let _ = write!(
        out,
        "<g id=\"roads\" stroke=\"#8b6b3b\" stroke-width=\"3\" stroke-linecap=\"round\" fill=\"none\">\n{roads}</g>\n<g id=\"hexsides\">\n{sides}</g>\n"
    );
}

fn access(out: &mut String, source: &MapSource, map: &TerrainMap, geo: &Geometry) {
    out.push_str("<g id=\"access\" stroke=\"#222\" stroke-width=\"1.6\" fill=\"none\">\n");
    for overlay in &source.overlays {
        let Overlay::Access { hex, from } = overlay else {
            continue;
        };
        let Ok(target) = HexId::parse(hex)
            .map_err(|_| ())
            .and_then(|h| if map.contains(h) { Ok(h) } else { Err(()) })
        else {
            continue;
        };
        let (tx, ty) = geo.centre(target);
        let _ = writeln!(
            out,
            "<g class=\"access\" data-hex=\"{hex}\"><title>{hex} is entered only from {}</title><circle cx=\"{}\" cy=\"{}\" r=\"{}\" stroke-dasharray=\"3 2\"/>",
            esc(&from.join(", ")),
            n(tx),
            n(ty),
            n(S * 0.7)
        );
        for f in from.iter().filter_map(|f| HexId::parse(f).ok()) {
            let (fx, fy) = geo.centre(f);
            let _ = writeln!(
                out,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" marker-end=\"url(#arrow)\"/>",
                n(fx + (tx - fx) * 0.35),
                n(fy + (ty - fy) * 0.35),
                n(fx + (tx - fx) * 0.7),
                n(fy + (ty - fy) * 0.7)
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
}

fn zones(out: &mut String, board: &Board, geo: &Geometry) {
    out.push_str("<g id=\"zones\">\n");
    for zone in &board.zones {
        let colour = side_colour(board, Some(zone.side));
        let _ = writeln!(
            out,
            "<g class=\"zone\" data-side=\"{}\" data-zone=\"{}\" fill=\"{colour}\" fill-opacity=\"0.3\" stroke=\"{colour}\" stroke-width=\"1\"><title>{} deployment zone {}</title>",
            esc(&side_key(Some(board), Some(zone.side))),
            esc(&zone.label),
            esc(&board
                .sides
                .get(zone.side)
                .map_or(String::new(), |s| s.name.clone())),
            esc(&zone.label),
        );
        for hex in &zone.hexes {
            let _ = writeln!(
                out,
                "<polygon data-hex=\"{hex}\" points=\"{}\"/>",
                points(&geo.corners(*hex, S - 1.5))
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
}

/// Labels of the map. Drawn after the counters: a label on a hex with counters goes
/// below the stack (the lowest edge of its counters), where none of them hides it.
fn labels(
    out: &mut String,
    map: &TerrainMap,
    geo: &Geometry,
    board: Option<&Board>,
    positions: &[Option<(f64, f64)>],
) {
    // The lowest counter edge on each hex that holds counters.
    let mut stack_bottom: BTreeMap<HexId, f64> = BTreeMap::new();
    if let Some(board) = board {
        for (piece, at) in board.pieces.iter().zip(positions) {
            if let Some((_, y)) = at {
                let bottom = y + COUNTER / 2.0;
                stack_bottom
                    .entry(piece.hex)
                    .and_modify(|b| *b = b.max(bottom))
                    .or_insert(bottom);
            }
        }
    }
    out.push_str("<g id=\"labels\" text-anchor=\"middle\" fill=\"#1f1f1f\" stroke=\"#f6f3ea\" stroke-width=\"2.5\" paint-order=\"stroke\" font-weight=\"bold\">\n");
    for label in &map.table().labels {
        let Ok(hex) = HexId::parse(&label.hex) else {
            continue;
        };
        let (x, y) = geo.centre(hex);
        // A lettered hex (PRESTAGS) is printed large; names small.
        let size = if label.text.chars().count() <= 2 {
            15.0
        } else {
            9.0
        };
        // The baseline: a glyph's top is at most one font size above it.
        let baseline = match stack_bottom.get(&hex) {
            Some(bottom) => bottom + 1.0 + size,
            None => y + size / 2.5,
        };
        let _ = writeln!(
            out,
            "<text class=\"label\" data-hex=\"{}\" x=\"{}\" y=\"{}\" font-size=\"{}\">{}</text>",
            label.hex,
            n(x),
            n(baseline),
            n(size),
            esc(&label.text)
        );
    }
    out.push_str("</g>\n");
}

fn objectives(out: &mut String, board: &Board, geo: &Geometry) {
    out.push_str("<g id=\"objectives\" fill=\"none\" stroke-width=\"3\">\n");
    for objective in &board.objectives {
        let (x, y) = geo.centre(objective.hex);
        let colour = match objective.side {
            Some(_) => side_colour(board, objective.side),
            None => "#c8a000".to_string(),
        };
        let _ = writeln!(
            out,
            "<circle class=\"objective\" data-hex=\"{}\" data-side=\"{}\" cx=\"{}\" cy=\"{}\" r=\"{}\" stroke=\"{colour}\" stroke-dasharray=\"5 3\"><title>{}: {}</title></circle>",
            objective.hex,
            esc(&side_key(Some(board), objective.side)),
            n(x),
            n(y),
            n(S * 0.82),
            objective.hex,
            esc(&objective.text)
        );
    }
    out.push_str("</g>\n");
}

/// The stretch of the map edge beside an edge hex: as wide as its column (north and
/// south) or as tall as its hex (west and east), so that neighbouring hexes join up.
fn edge_beside(geo: &Geometry, edge: Edge, hex: HexId) -> ((f64, f64), (f64, f64)) {
    let (cx, cy) = geo.centre(hex);
    let ((x1, y1), (x2, y2)) = edge_line(geo, edge);
    let clamp_x = |x: f64| x.clamp(x1.min(x2), x1.max(x2));
    let clamp_y = |y: f64| y.clamp(y1.min(y2), y1.max(y2));
    match edge {
        // The first and last columns reach the map's corners.
        Edge::North | Edge::South => (
            (
                if hex.col == 1 {
                    x1.min(x2)
                } else {
                    clamp_x(cx - 0.75 * S)
                },
                y1,
            ),
            (
                if hex.col == geo.columns {
                    x1.max(x2)
                } else {
                    clamp_x(cx + 0.75 * S)
                },
                y1,
            ),
        ),
        Edge::West | Edge::East => ((x1, clamp_y(cy - h() / 2.0)), (x1, clamp_y(cy + h() / 2.0))),
    }
}

/// The two ends of a map edge.
fn edge_line(geo: &Geometry, edge: Edge) -> ((f64, f64), (f64, f64)) {
    let (left, top) = (MARGIN, MARGIN);
    let (right, bottom) = (MARGIN + geo.map_width(), MARGIN + geo.map_height());
    match edge {
        Edge::North => ((left, top - 4.0), (right, top - 4.0)),
        Edge::South => ((left, bottom + 4.0), (right, bottom + 4.0)),
        Edge::West => ((left - 4.0, top), (left - 4.0, bottom)),
        Edge::East => ((right + 4.0, top), (right + 4.0, bottom)),
    }
}

fn exits(out: &mut String, board: &Board, geo: &Geometry) {
    out.push_str("<g id=\"exits\" stroke-width=\"5\" stroke-dasharray=\"10 6\">\n");
    for exit in &board.exit_edges {
        let colour = side_colour(board, Some(exit.side));
        let hexes: Vec<String> = exit.hexes.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            out,
            "<g class=\"exit\" data-side=\"{}\" data-edge=\"{}\" data-hexes=\"{}\" stroke=\"{colour}\"><title>{}: {} off the {} edge, from {}</title>",
            esc(&side_key(Some(board), Some(exit.side))),
            exit.edge,
            hexes.join(" "),
            esc(&board
                .sides
                .get(exit.side)
                .map_or(String::new(), |s| s.name.clone())),
            esc(&exit.text),
            exit.edge,
            hex_list(&hexes),
        );
        for hex in &exit.hexes {
            let ((x1, y1), (x2, y2)) = edge_beside(geo, exit.edge, *hex);
            let _ = writeln!(
                out,
                "<line class=\"exit-hex\" data-hex=\"{hex}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                n(x1),
                n(y1),
                n(x2),
                n(y2),
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
}

/// Where a hex's supply mark stands: low on its left, clear of a label in the middle,
/// of the hex number at the top and of a counter's name and strength.
fn supply_spot(geo: &Geometry, hex: HexId) -> (f64, f64) {
    let (x, y) = geo.centre(hex);
    (x - S * 0.55, y + h() * 0.3)
}

/// One supply mark: an `S` in a ring of the side's colour.
fn supply_ring(out: &mut String, (x, y): (f64, f64), colour: &str) {
    let _ = write!(
        out,
        "<circle cx=\"{x}\" cy=\"{y}\" r=\"6.5\" fill=\"#fff\" stroke=\"{colour}\" stroke-width=\"2\"/><text x=\"{x}\" y=\"{ty}\" font-size=\"8\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{colour}\">S</text>",
        x = n(x),
        y = n(y),
        ty = n(y + 3.0),
    );
}

/// Supply sources: a ring on a hex or a label's hex, a dotted line along a map edge
/// (outside the exits' dashes).
fn supply(out: &mut String, board: &Board, geo: &Geometry) {
    out.push_str("<g id=\"supply\">\n");
    for source in &board.supply {
        let colour = match source.side {
            Some(_) => side_colour(board, source.side),
            None => palette::NEUTRAL.to_string(),
        };
        let side = esc(&side_key(Some(board), source.side));
        let owner = source
            .side
            .and_then(|i| board.sides.get(i))
            .map_or("A side the scenario does not have", |s| s.name.as_str());
        match &source.at {
            SupplyAt::Hex(hex) | SupplyAt::Label(_, hex) => {
                let (kind, what) = match &source.at {
                    SupplyAt::Label(label, _) => ("label", format!("{label} ({hex})")),
                    _ => ("hex", format!("hex {hex}")),
                };
                let _ = write!(
                    out,
                    "<g class=\"supply\" data-source=\"{kind}\" data-side=\"{side}\" data-hex=\"{hex}\"><title>{}</title>",
                    esc(&format!("{owner} traces supply to {what}")),
                );
                supply_ring(out, supply_spot(geo, *hex), &colour);
                out.push_str("</g>\n");
            }
            SupplyAt::Edge(edge, hexes) => {
                let ids: Vec<String> = hexes.iter().map(ToString::to_string).collect();
                let _ = writeln!(
                    out,
                    "<g class=\"supply\" data-source=\"edge\" data-side=\"{side}\" data-edge=\"{edge}\" data-hexes=\"{}\" stroke=\"{colour}\" stroke-width=\"3\" stroke-dasharray=\"2 3\"><title>{}</title>",
                    ids.join(" "),
                    esc(&format!(
                        "{owner} traces supply to the {edge} edge ({})",
                        hex_list(&ids)
                    )),
                );
                let (ox, oy) = outward(*edge);
                for hex in hexes {
                    let ((x1, y1), (x2, y2)) = edge_beside(geo, *edge, *hex);
                    let _ = writeln!(
                        out,
                        "<line class=\"supply-hex\" data-hex=\"{hex}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                        n(x1 + ox * 6.0),
                        n(y1 + oy * 6.0),
                        n(x2 + ox * 6.0),
                        n(y2 + oy * 6.0),
                    );
                }
                out.push_str("</g>\n");
            }
        }
    }
    out.push_str("</g>\n");
}

/// The legend's supply entries, for the kinds of source the board has.
fn legend_supply(out: &mut String, board: &Board, mut y: f64) -> f64 {
    let _ = writeln!(
        out,
        "<text y=\"{}\" font-weight=\"bold\">Supply sources</text>",
        n(y)
    );
    y += 18.0;
    if board
        .supply
        .iter()
        .any(|s| matches!(s.at, SupplyAt::Hex(_) | SupplyAt::Label(..)))
    {
        out.push_str("<g class=\"legend-supply\" data-source=\"hex\">");
        supply_ring(out, (7.0, y - 4.0), "#222");
        let _ = writeln!(
            out,
            "<text x=\"20\" y=\"{}\">a hex units trace supply to</text></g>",
            n(y)
        );
        y += 18.0;
    }
    if board
        .supply
        .iter()
        .any(|s| matches!(s.at, SupplyAt::Edge(..)))
    {
        let _ = writeln!(
            out,
            "<g class=\"legend-supply\" data-source=\"edge\"><line x1=\"0\" y1=\"{ly}\" x2=\"14\" y2=\"{ly}\" stroke=\"#222\" stroke-width=\"3\" stroke-dasharray=\"2 3\"/><text x=\"20\" y=\"{}\">a map edge units trace supply to</text></g>",
            n(y),
            ly = n(y - 4.0),
        );
        y += 18.0;
    }
    y
}

/// `0101 to 1101` for a run along an edge, or the hexes one by one.
fn hex_list(hexes: &[String]) -> String {
    match hexes {
        [] => "no hex".to_string(),
        [one] => format!("hex {one}"),
        [first, .., last] => format!("{} hexes, {first} to {last}", hexes.len()),
    }
}

fn arrow_text(out: &mut String, x: f64, y: f64, edge: Edge, text: &str) {
    let (anchor, dx, dy) = match edge {
        Edge::North => ("middle", 0.0, -6.0),
        Edge::South => ("middle", 0.0, 14.0),
        Edge::West => ("end", -4.0, 4.0),
        Edge::East => ("start", 4.0, 4.0),
    };
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"{anchor}\" font-size=\"10\" stroke=\"none\" fill=\"#1f1f1f\">{}</text>",
        n(x + dx),
        n(y + dy),
        esc(text)
    );
}

fn entries(out: &mut String, board: &Board, geo: &Geometry) {
    out.push_str("<g id=\"entries\" stroke-width=\"2.5\" fill=\"none\">\n");
    for entry in &board.entries {
        let colour = side_colour(board, Some(entry.side));
        let text = if entry.turn > 0 {
            format!("T{}: {}", entry.turn, entry.units)
        } else {
            entry.units.clone()
        };
        let side = esc(&side_key(Some(board), Some(entry.side)));
        match &entry.at {
            EntryAt::Hexes(hexes) => {
                for (k, (hex, edge)) in hexes.iter().enumerate() {
                    let (cx, cy) = geo.centre(*hex);
                    let (ox, oy) = outward(*edge);
                    let (sx, sy) = (cx + ox * S * 2.6, cy + oy * S * 2.6);
                    let _ = writeln!(
                        out,
                        "<g class=\"entry\" data-side=\"{side}\" data-turn=\"{}\" data-hex=\"{hex}\" stroke=\"{colour}\"><title>{}</title><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" marker-end=\"url(#arrow)\"/>",
                        entry.turn,
                        esc(&text),
                        n(sx),
                        n(sy),
                        n(cx + ox * S * 0.95),
                        n(cy + oy * S * 0.95)
                    );
                    if k == 0 {
                        arrow_text(out, sx, sy, *edge, &text);
                    }
                    out.push_str("</g>\n");
                }
            }
            EntryAt::Inside(hexes) => {
                // Units that appear on the map: a ring in the side's colour on each hex,
                // with no arrow from an edge they do not cross.
                for (k, hex) in hexes.iter().enumerate() {
                    let (cx, cy) = geo.centre(*hex);
                    let _ = writeln!(
                        out,
                        "<g class=\"entry inside\" data-side=\"{side}\" data-turn=\"{}\" data-hex=\"{hex}\" stroke=\"{colour}\"><title>{}</title><circle cx=\"{}\" cy=\"{}\" r=\"{}\" stroke-dasharray=\"4 3\"/>",
                        entry.turn,
                        esc(&text),
                        n(cx),
                        n(cy),
                        n(S * 0.8)
                    );
                    if k == 0 {
                        let _ = writeln!(
                            out,
                            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\" stroke=\"none\" fill=\"#1f1f1f\">{}</text>",
                            n(cx),
                            n(cy - S * 0.95),
                            esc(&text)
                        );
                    }
                    out.push_str("</g>\n");
                }
            }
            EntryAt::Edge(edge) => {
                let ((x1, y1), (x2, y2)) = edge_line(geo, *edge);
                let (mx, my) = ((x1 + x2) / 2.0, (y1 + y2) / 2.0);
                let (ox, oy) = outward(*edge);
                let (sx, sy) = (mx + ox * S * 2.4, my + oy * S * 2.4);
                let _ = writeln!(
                    out,
                    "<g class=\"entry\" data-side=\"{side}\" data-turn=\"{}\" data-edge=\"{edge}\" stroke=\"{colour}\"><title>{}</title><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" marker-end=\"url(#arrow)\"/>",
                    entry.turn,
                    esc(&text),
                    n(sx),
                    n(sy),
                    n(mx),
                    n(my)
                );
                arrow_text(out, sx, sy, *edge, &text);
                out.push_str("</g>\n");
            }
            EntryAt::TableEdge(_) => {}
        }
    }
    out.push_str("</g>\n");
}

/// What is drawn inside a counter's box, from its kind.
enum Symbol {
    Cavalry,
    Infantry,
    Missile,
    Ship,
    Letters(String),
}

fn symbol(piece: &Piece) -> Symbol {
    let kind = piece.kind.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| kind.contains(w));
    if has(&["bow", "archer", "javelin", "sling", "missile"]) {
        Symbol::Missile
    } else if has(&["cav", "horse", "knight", "mounted", "rider"]) {
        Symbol::Cavalry
    } else if has(&[
        "inf", "foot", "spear", "militia", "warrior", "huscarl", "levy", "pike",
    ]) {
        Symbol::Infantry
    } else if has(&["ship", "fleet", "drakkar", "boat", "longship"]) {
        Symbol::Ship
    } else {
        let name = if piece.name.is_empty() {
            &piece.kind
        } else {
            &piece.name
        };
        Symbol::Letters(
            name.chars()
                .filter(|c| c.is_alphanumeric())
                .take(2)
                .collect::<String>()
                .to_uppercase(),
        )
    }
}

/// Each counter's centre on the board, by its index in `Board::pieces`.
fn counters(out: &mut String, board: &Board, geo: &Geometry) -> Vec<Option<(f64, f64)>> {
    let mut by_hex: BTreeMap<HexId, Vec<usize>> = BTreeMap::new();
    for (i, piece) in board.pieces.iter().enumerate() {
        by_hex.entry(piece.hex).or_default().push(i);
    }
    let mut positions = vec![None; board.pieces.len()];
    let ids = board.unit_ids();
    out.push_str("<g id=\"counters\" font-size=\"7\" text-anchor=\"middle\">\n");
    for (hex, stack) in &by_hex {
        let (cx, cy) = geo.centre(*hex);
        let count = stack.len();
        let spread = (count.min(6) as f64 - 1.0) * 2.5;
        for (k, &i) in stack.iter().enumerate() {
            let step = k.min(5) as f64 * 5.0;
            let (x, y) = (cx - spread + step, cy + spread - step);
            positions[i] = Some((x, y));
            counter(out, board, &board.pieces[i], &ids[i], x, y);
        }
        // The units the stack stands for (a piece may stand for many).
        let units: u32 = stack
            .iter()
            .map(|&i| u32::from(board.pieces[i].count))
            .sum();
        if units > 1 {
            let (x, y) = (
                cx - spread + (count.min(6) - 1) as f64 * 5.0,
                cy + spread - (count.min(6) - 1) as f64 * 5.0,
            );
            let _ = writeln!(
                out,
                "<g class=\"stack\" data-hex=\"{hex}\" data-count=\"{units}\"><circle cx=\"{}\" cy=\"{}\" r=\"6.5\" fill=\"#fff\" stroke=\"#222\"/><text x=\"{}\" y=\"{}\" font-size=\"8\" font-weight=\"bold\">{units}</text></g>",
                n(x + COUNTER / 2.0),
                n(y - COUNTER / 2.0),
                n(x + COUNTER / 2.0),
                n(y - COUNTER / 2.0 + 3.0)
            );
        }
    }
    out.push_str("</g>\n");
    positions
}

fn counter(out: &mut String, board: &Board, piece: &Piece, unit: &str, x: f64, y: f64) {
    let fill = side_colour(board, piece.side);
    let ink = if palette::dark_text_on(&fill) {
        "#1a1a1a"
    } else {
        "#ffffff"
    };
    let side_name = piece
        .side
        .and_then(|i| board.sides.get(i))
        .map_or("neutral".to_string(), |s| s.name.clone());
    let role = match piece.role {
        PieceRole::Combat => "combat",
        PieceRole::Commander => "commander",
        PieceRole::Baggage => "baggage",
    };
    let state = match piece.state {
        PieceState::Placed => "placed".to_string(),
        PieceState::Chosen => "chosen".to_string(),
        PieceState::Choice => "choice".to_string(),
        PieceState::Arrived { turn } => format!("arrived-t{turn}"),
    };
    let mut tip = format!(
        "{} ({}), {side_name}",
        if piece.name.is_empty() {
            &piece.counter
        } else {
            &piece.name
        },
        piece.counter
    );
    if let Some(s) = &piece.strength {
        let _ = write!(tip, ", strength {s}");
    }
    let _ = write!(tip, ", {}", piece.hex);
    match piece.state {
        PieceState::Placed => {}
        PieceState::Chosen => tip.push_str(" (one of the places the scenario leaves to the owner)"),
        PieceState::Choice => tip.push_str(
            " (one of its group's hexes: the owner chooses which of the group's units stands on which)",
        ),
        PieceState::Arrived { turn } => {
            let _ = write!(tip, " (arrives on turn {turn})");
        }
    }
    if !piece.aboard.is_empty() {
        let _ = write!(tip, "; aboard: {}", piece.aboard.join(", "));
    }
    if piece.count > 1 {
        let _ = write!(tip, "; this counter stands for {} units", piece.count);
    }
    let half = COUNTER / 2.0;
    // Dashed: where the counter stands is the owner's choice (the legend says so).
    let dash = match piece.state {
        PieceState::Chosen | PieceState::Choice | PieceState::Arrived { .. } => {
            " stroke-dasharray=\"4 1.5\""
        }
        PieceState::Placed => "",
    };
    let _ = write!(
        out,
        "<g class=\"counter\" data-counter=\"{c}\" data-unit=\"{u}\" data-side=\"{s}\" data-hex=\"{hex}\" data-role=\"{role}\" data-state=\"{state}\" transform=\"translate({x},{y})\"><title>{tip}</title><rect x=\"{m}\" y=\"{m}\" width=\"{w}\" height=\"{w}\" rx=\"2.5\" fill=\"{fill}\" stroke=\"#1a1a1a\" stroke-width=\"1\"{dash}/>",
        c = esc(&piece.counter),
        u = esc(unit),
        s = esc(&side_key(Some(board), piece.side)),
        hex = piece.hex,
        x = n(x),
        y = n(y),
        tip = esc(&tip),
        m = n(-half),
        w = n(COUNTER),
    );
    let name = if piece.name.is_empty() {
        &piece.counter
    } else {
        &piece.name
    };
    let _ = write!(
        out,
        "<text y=\"-8.5\" font-size=\"5.5\" fill=\"{ink}\">{}</text>",
        esc(&short(name, 11))
    );
    match piece.role {
        PieceRole::Commander => {
            // A pennant on a staff.
            let _ = write!(
                out,
                "<path d=\"M-6,5 L-6,-6 L7,-3 L-6,0\" fill=\"{ink}\" stroke=\"{ink}\" stroke-width=\"1\"/>"
            );
        }
        PieceRole::Baggage => {
            let _ = write!(
                out,
                "<rect x=\"-8\" y=\"-5\" width=\"16\" height=\"7\" fill=\"none\" stroke=\"{ink}\"/><circle cx=\"-4\" cy=\"4\" r=\"2\" fill=\"{ink}\"/><circle cx=\"4\" cy=\"4\" r=\"2\" fill=\"{ink}\"/>"
            );
        }
        PieceRole::Combat => {
            let _ = write!(
                out,
                "<rect x=\"-8\" y=\"-6\" width=\"16\" height=\"10\" fill=\"none\" stroke=\"{ink}\" stroke-width=\"1\"/>"
            );
            match symbol(piece) {
                Symbol::Cavalry => {
                    let _ = write!(
                        out,
                        "<line x1=\"-8\" y1=\"4\" x2=\"8\" y2=\"-6\" stroke=\"{ink}\"/>"
                    );
                }
                Symbol::Infantry => {
                    let _ = write!(
                        out,
                        "<path d=\"M-8,-6 L8,4 M-8,4 L8,-6\" stroke=\"{ink}\"/>"
                    );
                }
                Symbol::Missile => {
                    let _ = write!(
                        out,
                        "<path d=\"M-8,-6 L8,4 M-8,4 L8,-6\" stroke=\"{ink}\"/><path d=\"M-4,-6 Q0,-2 4,-6\" fill=\"none\" stroke=\"{ink}\"/>"
                    );
                }
                Symbol::Ship => {
                    let _ = write!(
                        out,
                        "<path d=\"M-6,0 L6,0 L4,3 L-4,3 z M0,0 L0,-5 L4,-1\" fill=\"none\" stroke=\"{ink}\"/>"
                    );
                }
                Symbol::Letters(text) => {
                    let _ = write!(
                        out,
                        "<text y=\"1.5\" font-size=\"6\" fill=\"{ink}\">{}</text>",
                        esc(&text)
                    );
                }
            }
        }
    }
    if let Some(strength) = &piece.strength {
        let _ = write!(
            out,
            "<text y=\"12.5\" font-size=\"7\" font-weight=\"bold\" fill=\"{ink}\">{}</text>",
            esc(strength)
        );
    }
    out.push_str("</g>\n");
}

fn diagnostic_marks(
    out: &mut String,
    marks: &[Mark],
    diagnostics: &[Diagnostic],
    geo: &Geometry,
    positions: &[Option<(f64, f64)>],
) {
    out.push_str("<g id=\"diagnostics\" fill=\"none\" stroke-width=\"3\">\n");
    for mark in marks {
        let Some(d) = diagnostics.get(mark.diagnostic) else {
            continue;
        };
        let colour = palette::severity(d.severity);
        let title = format!("{}: {}", d.code, d.message);
        match mark.target {
            MarkTarget::Hex(hex) => {
                let (x, y) = geo.centre(hex);
                let _ = writeln!(
                    out,
                    "<g class=\"diagnostic\" data-index=\"{i}\" data-code=\"{code}\" data-severity=\"{sev}\" data-hex=\"{hex}\"><title>{t}</title><polygon points=\"{p}\" stroke=\"{colour}\"/><text x=\"{x}\" y=\"{y}\" font-size=\"7\" text-anchor=\"middle\" fill=\"{colour}\" stroke=\"#fff\" stroke-width=\"2\" paint-order=\"stroke\">{code}</text></g>",
                    i = mark.diagnostic,
                    code = d.code,
                    sev = d.severity,
                    t = esc(&title),
                    p = points(&geo.corners(hex, S - 2.0)),
                    x = n(x),
                    y = n(y + h() / 2.0 - 5.0),
                );
            }
            MarkTarget::Counter(index) => {
                let Some(Some((x, y))) = positions.get(index) else {
                    continue;
                };
                let half = COUNTER / 2.0 + 3.0;
                let _ = writeln!(
                    out,
                    "<g class=\"diagnostic\" data-index=\"{i}\" data-code=\"{code}\" data-severity=\"{sev}\" data-counter-index=\"{index}\"><title>{t}</title><rect x=\"{rx}\" y=\"{ry}\" width=\"{w}\" height=\"{w}\" rx=\"4\" stroke=\"{colour}\"/><text x=\"{x}\" y=\"{ty}\" font-size=\"7\" text-anchor=\"middle\" fill=\"{colour}\" stroke=\"#fff\" stroke-width=\"2\" paint-order=\"stroke\">{code}</text></g>",
                    i = mark.diagnostic,
                    code = d.code,
                    sev = d.severity,
                    t = esc(&title),
                    rx = n(x - half),
                    ry = n(y - half),
                    w = n(half * 2.0),
                    x = n(*x),
                    ty = n(y + half + 8.0),
                );
            }
            MarkTarget::TableUnit(_) | MarkTarget::Nowhere => {}
        }
    }
    out.push_str("</g>\n");
}

fn legend(
    out: &mut String,
    map: &TerrainMap,
    system: Option<&RulesSystem>,
    board: Option<&Board>,
    geo: &Geometry,
    fills: &palette::TerrainFills,
) {
    let x = MARGIN * 1.5 + geo.map_width();
    let mut y = MARGIN;
    let _ = writeln!(
        out,
        "<g id=\"legend\" font-size=\"11\" fill=\"#1f1f1f\" transform=\"translate({},0)\">",
        n(x)
    );
    if let Some(b) = board {
        let _ = writeln!(
            out,
            "<text y=\"{}\" font-weight=\"bold\">Turn {}</text>",
            n(y),
            b.turn
        );
        y += 20.0;
        y = crate::svg::legend_weather(out, b, y);
        for (i, side) in b.sides.iter().enumerate() {
            let colour = side_colour(b, Some(i));
            let _ = writeln!(
                out,
                "<g class=\"legend-side\" data-side=\"{}\"><rect y=\"{}\" width=\"14\" height=\"14\" fill=\"{colour}\" stroke=\"#222\"/><text x=\"20\" y=\"{}\">{}</text></g>",
                esc(&side.id),
                n(y - 11.0),
                n(y),
                esc(&short(&side.name, 30))
            );
            y += 18.0;
        }
        if b.pieces.iter().any(|p| p.side.is_none()) {
            let _ = writeln!(
                out,
                "<g class=\"legend-side\" data-side=\"neutral\"><rect y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" stroke=\"#222\"/><text x=\"20\" y=\"{}\">Neutral</text></g>",
                n(y - 11.0),
                palette::NEUTRAL,
                n(y)
            );
            y += 18.0;
        }
        y += 8.0;
    }
    let _ = writeln!(
        out,
        "<text y=\"{}\" font-weight=\"bold\">Terrain</text>",
        n(y)
    );
    y += 18.0;
    for entry in &map.table().terrain {
        let name = system
            .and_then(|s| s.terrain.iter().find(|t| t.id == entry.id))
            .map_or(entry.id.clone(), |t| t.name.clone());
        let _ = writeln!(
            out,
            "<g class=\"legend-terrain\" data-terrain=\"{}\"><rect y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" stroke=\"#8f8a78\"/><text x=\"20\" y=\"{}\">{}</text></g>",
            esc(&entry.id),
            n(y - 11.0),
            fills.get(&entry.id),
            n(y),
            esc(&short(&name, 30))
        );
        y += 18.0;
    }
    let mut features: Vec<&str> = map
        .table()
        .hexsides
        .iter()
        .flat_map(|s| s.features.iter().map(String::as_str))
        .collect();
    features.sort_unstable();
    features.dedup();
    if !features.is_empty() {
        y += 8.0;
        let _ = writeln!(
            out,
            "<text y=\"{}\" font-weight=\"bold\">Hexsides</text>",
            n(y)
        );
        y += 18.0;
        for feature in features {
            let name = system
                .and_then(|s| s.hexside_features.iter().find(|f| f.id == feature))
                .map_or(feature.to_string(), |f| f.name.clone());
            let (colour, width) = if drawn_through(system, feature) {
                ("#8b6b3b", 3)
            } else if is_crossing(system, feature) {
                ("#7a5a2e", 7)
            } else {
                (palette::hexside(feature), 4)
            };
            let _ = writeln!(
                out,
                "<g class=\"legend-feature\" data-feature=\"{}\"><line x1=\"0\" y1=\"{ly}\" x2=\"14\" y2=\"{ly}\" stroke=\"{colour}\" stroke-width=\"{width}\"/><text x=\"20\" y=\"{}\">{}</text></g>",
                esc(feature),
                n(y),
                esc(&short(&name, 30)),
                ly = n(y - 4.0),
            );
            y += 18.0;
        }
    }
    if let Some(b) = board.filter(|b| !b.supply.is_empty()) {
        y = legend_supply(out, b, y + 8.0);
    }
    if board.is_some() {
        y += 8.0;
        let lines = [
            "dashed counter: the owner chooses where it stands",
            "dashed ring: an objective",
            "arrow: where reinforcements enter",
            "shading: a deployment zone",
            "red outline: a diagnostic (hover for it)",
        ];
        for line in lines {
            let _ = writeln!(
                out,
                "<text y=\"{}\" font-size=\"9\" fill=\"#444\">{}</text>",
                n(y),
                esc(line)
            );
            y += 13.0;
        }
    }
    out.push_str("</g>\n");
}
