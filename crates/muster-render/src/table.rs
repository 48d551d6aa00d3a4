//! An open table drawn in inches: features as their shapes, units as bases with their
//! facing, bands of figures as their areas, named edges, a scale bar.

use std::collections::BTreeMap;
use std::fmt::Write;

use muster_db::Diagnostic;
use muster_hex::Edge;
use muster_model::map::Shape;
use muster_model::table::TableTerrain;
use muster_semantic::board::{Board, EntryAt, TableMark};

use crate::marks::{Mark, MarkTarget};
use crate::palette;
use crate::svg::{esc, n, points, short};

/// SVG units per inch.
const PX: f64 = 12.0;
const MARGIN: f64 = 80.0;
const LEGEND: f64 = 250.0;

fn at(p: (f64, f64)) -> (f64, f64) {
    (MARGIN + p.0 * PX, MARGIN + p.1 * PX)
}

fn shape(out: &mut String, shape: &Shape, attrs: &str) {
    match shape {
        Shape::Rect { x, y, w, h } => {
            let (px, py) = at((*x, *y));
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {attrs}/>",
                n(px),
                n(py),
                n(w.max(0.0) * PX),
                n(h.max(0.0) * PX)
            );
        }
        Shape::Polygon(list) => {
            let list: Vec<(f64, f64)> = list.iter().map(|p| at(*p)).collect();
            let _ = write!(out, "<polygon points=\"{}\" {attrs}/>", points(&list));
        }
        Shape::Line(list) => {
            let list: Vec<(f64, f64)> = list.iter().map(|p| at(*p)).collect();
            let _ = write!(
                out,
                "<polyline points=\"{}\" fill=\"none\" {attrs}/>",
                points(&list)
            );
        }
        Shape::Circle { x, y, r } => {
            let (px, py) = at((*x, *y));
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {attrs}/>",
                n(px),
                n(py),
                n(r.max(0.0) * PX)
            );
        }
    }
}

/// A point inside or on a shape, for its text.
fn anchor(shape: &Shape) -> (f64, f64) {
    match shape {
        Shape::Rect { x, y, w, h } => (x + w / 2.0, y + h / 2.0),
        Shape::Circle { x, y, .. } => (*x, *y),
        Shape::Polygon(list) | Shape::Line(list) => {
            if list.is_empty() {
                return (0.0, 0.0);
            }
            let count = list.len() as f64;
            (
                list.iter().map(|p| p.0).sum::<f64>() / count,
                list.iter().map(|p| p.1).sum::<f64>() / count,
            )
        }
    }
}

fn side_colour(board: &Board, side: usize) -> String {
    palette::side(
        board.sides.get(side).and_then(|s| s.colour.as_deref()),
        side,
    )
}

fn side_id(board: &Board, side: usize) -> String {
    board
        .sides
        .get(side)
        .map_or("neutral".to_string(), |s| s.id.clone())
}

pub fn draw(
    title: &str,
    table: &TableTerrain,
    board: Option<&Board>,
    marks: &[Mark],
    diagnostics: &[Diagnostic],
) -> String {
    let (tw, td) = (table.width.max(1.0) * PX, table.depth.max(1.0) * PX);
    let width = (MARGIN * 2.0 + tw + LEGEND).ceil();
    let height = (MARGIN * 2.0 + td + 40.0).max(480.0).ceil();
    let mut out = String::with_capacity(64 * 1024);
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"'DejaVu Sans', Verdana, Arial, sans-serif\" data-map=\"{m}\" data-width-inches=\"{tw}\" data-depth-inches=\"{td}\">",
        w = n(width),
        h = n(height),
        m = esc(&table.map),
        tw = n(table.width),
        td = n(table.depth),
    );
    crate::svg::preamble(&mut out, title, width, height, MARGIN);
    let _ = writeln!(
        out,
        "<rect id=\"table\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#eef0d6\" stroke=\"#8f8a78\" stroke-width=\"1.5\"/>",
        n(MARGIN),
        n(MARGIN),
        n(tw),
        n(td)
    );
    // Features: areas first, lines over them.
    out.push_str("<g id=\"features\">\n");
    let is_line = |s: &Shape| matches!(s, Shape::Line(_));
    for pass in [false, true] {
        for feature in table.features.iter().filter(|f| is_line(&f.shape) == pass) {
            let colour = palette::feature(feature.class);
            let name = feature
                .name
                .clone()
                .unwrap_or_else(|| feature.feature.clone());
            let _ = write!(
                out,
                "<g class=\"feature\" data-feature=\"{}\"><title>{}</title>",
                esc(&feature.feature),
                esc(&name)
            );
            let attrs = if pass {
                format!("stroke=\"{colour}\" stroke-width=\"4\" stroke-linecap=\"round\"")
            } else {
                format!(
                    "fill=\"{colour}\" fill-opacity=\"0.85\" stroke=\"#6f6a58\" stroke-width=\"0.8\""
                )
            };
            shape(&mut out, &feature.shape, &attrs);
            if let Some(label) = &feature.name {
                let (x, y) = at(anchor(&feature.shape));
                let _ = write!(
                    out,
                    "<text x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
                    n(x),
                    n(y),
                    esc(&short(label, 28))
                );
            }
            out.push_str("</g>\n");
        }
    }
    out.push_str("</g>\n");
    edges(&mut out, table, board, tw, td);
    let mut centres = Vec::new();
    if let Some(board) = board {
        centres = marks_of_board(&mut out, board);
    }
    diagnostic_marks(&mut out, marks, diagnostics, &centres);
    scale_bar(&mut out, td);
    legend(&mut out, table, board, tw);
    out.push_str("</svg>\n");
    out
}

fn edge_points(edge: Edge, tw: f64, td: f64) -> ((f64, f64), (f64, f64)) {
    let (cx, cy) = (MARGIN + tw / 2.0, MARGIN + td / 2.0);
    match edge {
        Edge::North => ((cx, MARGIN - 45.0), (cx, MARGIN - 3.0)),
        Edge::South => ((cx, MARGIN + td + 45.0), (cx, MARGIN + td + 3.0)),
        Edge::West => ((MARGIN - 60.0, cy), (MARGIN - 3.0, cy)),
        Edge::East => ((MARGIN + tw + 60.0, cy), (MARGIN + tw + 3.0, cy)),
    }
}

fn edges(out: &mut String, table: &TableTerrain, board: Option<&Board>, tw: f64, td: f64) {
    out.push_str("<g id=\"edges\" font-size=\"10\" fill=\"#333\">\n");
    // Entries gathered by the edge they come on.
    let mut by_edge: BTreeMap<&str, Vec<(usize, String)>> = BTreeMap::new();
    if let Some(board) = board {
        for entry in &board.entries {
            if let EntryAt::TableEdge(name) = &entry.at {
                let text = if entry.turn > 0 {
                    format!("T{}: {}", entry.turn, entry.units)
                } else {
                    entry.units.clone()
                };
                by_edge
                    .entry(name.as_str())
                    .or_default()
                    .push((entry.side, text));
            }
        }
    }
    for named in &table.edges {
        let ((sx, sy), (ex, ey)) = edge_points(named.side, tw, td);
        let _ = writeln!(
            out,
            "<g class=\"table-edge\" data-edge=\"{}\" data-side=\"{}\"><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-style=\"italic\">{} edge</text>",
            esc(&named.name),
            named.side,
            n((sx + ex) / 2.0),
            n(match named.side {
                Edge::North => MARGIN - 6.0,
                Edge::South => MARGIN + td + 14.0,
                Edge::West | Edge::East => (sy + ey) / 2.0 - 20.0,
            }),
            esc(&named.name)
        );
        if let (Some(board), Some(list)) = (board, by_edge.get(named.name.as_str())) {
            let colour = list
                .first()
                .map_or("#333".to_string(), |(s, _)| side_colour(board, *s));
            let _ = write!(
                out,
                "<line class=\"entry\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{colour}\" stroke-width=\"2.5\" marker-end=\"url(#arrow)\"><title>{}</title></line>",
                n(sx),
                n(sy),
                n(ex),
                n(ey),
                esc(&list
                    .iter()
                    .map(|(_, t)| t.as_str())
                    .collect::<Vec<_>>()
                    .join("; "))
            );
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
}

/// Draws the board's marks; returns the centre and radius of each table mark.
fn marks_of_board(out: &mut String, board: &Board) -> Vec<Option<(f64, f64, f64)>> {
    let mut centres = vec![None; board.table.len()];
    out.push_str("<g id=\"areas\">\n");
    for mark in &board.table {
        if let TableMark::Area { side, what, area } = mark {
            let colour = side_colour(board, *side);
            let _ = write!(
                out,
                "<g class=\"area\" data-side=\"{}\"><title>{}</title>",
                esc(&side_id(board, *side)),
                esc(what)
            );
            shape(
                out,
                area,
                &format!(
                    "fill=\"{colour}\" fill-opacity=\"0.15\" stroke=\"{colour}\" stroke-dasharray=\"6 4\""
                ),
            );
            let (x, y) = at(anchor(area));
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"9\" text-anchor=\"middle\" fill=\"{colour}\">{}</text></g>",
                n(x),
                n(y),
                esc(&short(what, 30))
            );
        }
    }
    out.push_str("</g>\n");
    battles(out, board);
    out.push_str("<g id=\"units\" font-size=\"7\" text-anchor=\"middle\">\n");
    for (k, mark) in board.table.iter().enumerate() {
        match mark {
            TableMark::Unit {
                side,
                id,
                name,
                troop,
                bases,
                at: front,
                facing,
                width,
                depth,
                battle,
                ..
            } => {
                let colour = side_colour(board, *side);
                let ink = if palette::dark_text_on(&colour) {
                    "#1a1a1a"
                } else {
                    "#ffffff"
                };
                let (x, y) = at(*front);
                let (w, d) = (width * PX, depth * PX);
                let facing = if facing.is_finite() { *facing } else { 0.0 };
                let rad = facing.to_radians();
                let (bx, by) = (x - rad.sin() * d / 2.0, y + rad.cos() * d / 2.0);
                centres[k] = Some((bx, by, w.max(d) / 2.0 + 4.0));
                let mut tip = format!(
                    "{name} ({id}): {bases} bases of {troop}, facing {}°",
                    n(facing)
                );
                if let Some(b) = battle {
                    let _ = write!(tip, ", {b}");
                }
                let _ = writeln!(
                    out,
                    "<g class=\"unit\" data-unit=\"{}\" data-side=\"{}\" data-troop=\"{}\"{} transform=\"translate({},{}) rotate({})\"><title>{}</title><rect x=\"{}\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"{colour}\" stroke=\"#1a1a1a\" stroke-width=\"0.8\"/><line x1=\"{}\" y1=\"0\" x2=\"{}\" y2=\"0\" stroke=\"#1a1a1a\" stroke-width=\"2.2\"/><text y=\"{}\" font-size=\"{}\" fill=\"{ink}\"{}>{}</text></g>",
                    esc(id),
                    esc(&side_id(board, *side)),
                    esc(troop),
                    battle
                        .as_ref()
                        .map_or(String::new(), |b| format!(" data-battle=\"{}\"", esc(b))),
                    n(x),
                    n(y),
                    n(facing),
                    esc(&tip),
                    n(-w / 2.0),
                    n(w),
                    n(d),
                    n(-w / 2.0),
                    n(w / 2.0),
                    n(d / 2.0 + 2.5),
                    n((d * 0.45).clamp(5.0, 8.0)),
                    // Text of a unit facing south reads upright.
                    if (90.0..270.0).contains(&facing.rem_euclid(360.0)) {
                        format!(" transform=\"rotate(180 0 {})\"", n(d / 2.0))
                    } else {
                        String::new()
                    },
                    esc(&short(name, (w / 5.0).max(4.0) as usize))
                );
            }
            TableMark::Band {
                side,
                id,
                name,
                figures,
                area,
                ..
            } => {
                let colour = side_colour(board, *side);
                let (x, y) = at(anchor(area));
                centres[k] = Some((x, y, 20.0));
                let _ = write!(
                    out,
                    "<g class=\"band\" data-band=\"{}\" data-side=\"{}\"><title>{}: {}</title>",
                    esc(id),
                    esc(&side_id(board, *side)),
                    esc(name),
                    esc(figures)
                );
                shape(
                    out,
                    area,
                    &format!(
                        "fill=\"{colour}\" fill-opacity=\"0.3\" stroke=\"{colour}\" stroke-width=\"1.5\""
                    ),
                );
                let _ = writeln!(
                    out,
                    "<text x=\"{}\" y=\"{}\" font-size=\"9\">{}</text><text x=\"{}\" y=\"{}\" font-size=\"8\">{}</text></g>",
                    n(x),
                    n(y),
                    esc(name),
                    n(x),
                    n(y + 11.0),
                    esc(&short(figures, 30))
                );
            }
            TableMark::Area { .. } => {}
        }
    }
    out.push_str("</g>\n");
    centres
}

/// Each battle (command) as a dashed frame around its units, with its name.
fn battles(out: &mut String, board: &Board) {
    let mut frames: BTreeMap<(usize, &str), (f64, f64, f64, f64)> = BTreeMap::new();
    for mark in &board.table {
        let TableMark::Unit {
            side,
            at: front,
            facing,
            width,
            depth,
            battle: Some(battle),
            ..
        } = mark
        else {
            continue;
        };
        let (x, y) = at(*front);
        let (w, d) = (width * PX, depth * PX);
        let rad = if facing.is_finite() {
            facing.to_radians()
        } else {
            0.0
        };
        let (sin, cos) = rad.sin_cos();
        let frame = frames.entry((*side, battle.as_str())).or_insert((
            f64::MAX,
            f64::MAX,
            f64::MIN,
            f64::MIN,
        ));
        // The corners of the unit's footprint, turned to its facing.
        for (lx, ly) in [(-w / 2.0, 0.0), (w / 2.0, 0.0), (w / 2.0, d), (-w / 2.0, d)] {
            let (cx, cy) = (x + lx * cos - ly * sin, y + lx * sin + ly * cos);
            frame.0 = frame.0.min(cx - 4.0);
            frame.1 = frame.1.min(cy - 4.0);
            frame.2 = frame.2.max(cx + 4.0);
            frame.3 = frame.3.max(cy + 4.0);
        }
    }
    out.push_str(
        "<g id=\"battles\" fill=\"none\" stroke-width=\"1.2\" stroke-dasharray=\"2 3\">\n",
    );
    for ((side, name), (x0, y0, x1, y1)) in frames {
        let colour = side_colour(board, side);
        let _ = writeln!(
            out,
            "<g class=\"battle\" data-battle=\"{}\" data-side=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\" stroke=\"{colour}\"/><text x=\"{}\" y=\"{}\" font-size=\"8\" fill=\"{colour}\" stroke=\"none\">{}</text></g>",
            esc(name),
            esc(&side_id(board, side)),
            n(x0),
            n(y0),
            n(x1 - x0),
            n(y1 - y0),
            n(x0 + 3.0),
            n(y0 - 2.0),
            esc(&short(name, 40))
        );
    }
    out.push_str("</g>\n");
}

fn diagnostic_marks(
    out: &mut String,
    marks: &[Mark],
    diagnostics: &[Diagnostic],
    centres: &[Option<(f64, f64, f64)>],
) {
    out.push_str("<g id=\"diagnostics\" fill=\"none\" stroke-width=\"3\">\n");
    for mark in marks {
        let MarkTarget::TableUnit(k) = mark.target else {
            continue;
        };
        let (Some(d), Some(Some((x, y, r)))) = (diagnostics.get(mark.diagnostic), centres.get(k))
        else {
            continue;
        };
        let colour = palette::severity(d.severity);
        let _ = writeln!(
            out,
            "<g class=\"diagnostic\" data-index=\"{}\" data-code=\"{}\" data-severity=\"{}\"><title>{}: {}</title><circle cx=\"{}\" cy=\"{}\" r=\"{}\" stroke=\"{colour}\"/></g>",
            mark.diagnostic,
            d.code,
            d.severity,
            d.code,
            esc(&d.message),
            n(*x),
            n(*y),
            n(*r)
        );
    }
    out.push_str("</g>\n");
}

fn scale_bar(out: &mut String, td: f64) {
    let y = MARGIN + td + 30.0;
    let _ = writeln!(
        out,
        "<g id=\"scale\" font-size=\"9\" fill=\"#333\"><rect x=\"{x}\" y=\"{y}\" width=\"{half}\" height=\"5\" fill=\"#333\"/><rect x=\"{mid}\" y=\"{y}\" width=\"{half}\" height=\"5\" fill=\"#fff\" stroke=\"#333\"/><text x=\"{x}\" y=\"{ty}\">0</text><text x=\"{mid}\" y=\"{ty}\">6\"</text><text x=\"{end}\" y=\"{ty}\">12 inches</text></g>",
        x = n(MARGIN),
        y = n(y),
        half = n(6.0 * PX),
        mid = n(MARGIN + 6.0 * PX),
        end = n(MARGIN + 12.0 * PX),
        ty = n(y + 16.0),
    );
}

fn legend(out: &mut String, table: &TableTerrain, board: Option<&Board>, tw: f64) {
    let mut y = MARGIN;
    let _ = writeln!(
        out,
        "<g id=\"legend\" font-size=\"11\" fill=\"#1f1f1f\" transform=\"translate({},0)\">",
        n(MARGIN * 1.5 + tw)
    );
    if let Some(board) = board {
        y = crate::svg::legend_weather(out, board, y);
        for (i, side) in board.sides.iter().enumerate() {
            let _ = writeln!(
                out,
                "<g class=\"legend-side\" data-side=\"{}\"><rect y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" stroke=\"#222\"/><text x=\"20\" y=\"{}\">{}</text></g>",
                esc(&side.id),
                n(y - 11.0),
                side_colour(board, i),
                n(y),
                esc(&short(&side.name, 30))
            );
            y += 18.0;
        }
        y += 8.0;
    }
    let mut seen: Vec<(&str, muster_model::system::FeatureClass)> = Vec::new();
    for f in &table.features {
        if !seen.iter().any(|(id, _)| *id == f.feature) {
            seen.push((&f.feature, f.class));
        }
    }
    seen.sort_by(|a, b| a.0.cmp(b.0));
    if !seen.is_empty() {
        let _ = writeln!(
            out,
            "<text y=\"{}\" font-weight=\"bold\">Features</text>",
            n(y)
        );
        y += 18.0;
    }
    for (id, class) in seen {
        let _ = writeln!(
            out,
            "<g class=\"legend-feature\" data-feature=\"{}\"><rect y=\"{}\" width=\"14\" height=\"14\" fill=\"{}\" stroke=\"#8f8a78\"/><text x=\"20\" y=\"{}\">{}</text></g>",
            esc(id),
            n(y - 11.0),
            palette::feature(class),
            n(y),
            esc(&short(id, 30))
        );
        y += 18.0;
    }
    out.push_str("</g>\n");
}
