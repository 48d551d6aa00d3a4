//! Where a unit can move, drawn over a board: `muster render --reach COUNTER` shades
//! every hex the rules engine says the unit may end its move in, with the movement
//! points left, and rings the hex it starts from. The engine's answer comes in as plain
//! hexes and numbers, so this crate needs no engine.

use std::fmt::Write;

use muster_hex::HexId;
use muster_map::TerrainMap;

use crate::hex::Geometry;
use crate::svg::{esc, n, points};

/// A unit's reach as the board shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReachShade {
    pub unit: String,
    pub from: HexId,
    /// Each hex it may end in, with the movement points left.
    pub hexes: Vec<(HexId, f64)>,
}

/// An attack as the board shows it: the attackers' hexes and the defender's, with the
/// column of the results table it is read in.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackShade {
    pub defender: String,
    pub at: HexId,
    pub attackers: Vec<HexId>,
    /// The column read (`3/1`), or why the attack may not be made.
    pub label: String,
}

fn geometry(map: &TerrainMap) -> Geometry {
    let grid = map.grid();
    Geometry {
        layout: grid.layout,
        columns: grid.columns,
        rows: grid.rows,
    }
}

/// `svg` (a board drawn by [`crate::render`] on `map`) with the reach layer on top.
pub fn with_reach(svg: &str, map: &TerrainMap, shade: &ReachShade) -> String {
    let layer = reach_layer(map, shade);
    match svg.rfind("</svg>") {
        Some(at) => format!("{}{layer}{}", &svg[..at], &svg[at..]),
        None => format!("{svg}{layer}"),
    }
}

/// The reach layer alone (`<g id="reach">`), to lay over a board of `map`.
pub fn reach_layer(map: &TerrainMap, shade: &ReachShade) -> String {
    let geo = geometry(map);
    let mut layer = String::new();
    let _ = writeln!(
        layer,
        "<g id=\"reach\" data-unit=\"{}\" pointer-events=\"none\"><title>where {} can move</title>",
        esc(&shade.unit),
        esc(&shade.unit)
    );
    let radius = crate::hex::h() / 3f64.sqrt() - 2.0;
    for (hex, left) in &shade.hexes {
        let (x, y) = geo.centre(*hex);
        let _ = writeln!(
            layer,
            "<g class=\"reach\" data-hex=\"{hex}\" data-mp-left=\"{}\"><polygon points=\"{}\" fill=\"#1f6feb\" fill-opacity=\"0.3\" stroke=\"#1f6feb\" stroke-width=\"1\"/><text x=\"{}\" y=\"{}\" font-size=\"8\" text-anchor=\"middle\" fill=\"#0b3d91\" stroke=\"#fff\" stroke-width=\"2\" paint-order=\"stroke\">{}</text></g>",
            n(*left),
            points(&geo.corners(*hex, radius)),
            n(x),
            n(y + 10.0),
            n(*left)
        );
    }
    let _ = writeln!(
        layer,
        "<polygon class=\"reach-from\" data-hex=\"{}\" points=\"{}\" fill=\"none\" stroke=\"#0b3d91\" stroke-width=\"3\"/>",
        shade.from,
        points(&geo.corners(shade.from, radius))
    );
    layer.push_str("</g>\n");
    layer
}

/// A move's layer (`<g id="move">`): the path a unit takes from its hex (first) to the
/// hex it ends in (last), as a line through the hex centres with the end ringed.
pub fn move_layer(map: &TerrainMap, unit: &str, path: &[HexId]) -> String {
    let geo = geometry(map);
    let Some(&to) = path.last() else {
        return String::new();
    };
    let line: Vec<String> = path
        .iter()
        .map(|h| {
            let (x, y) = geo.centre(*h);
            format!("{},{}", n(x), n(y))
        })
        .collect();
    let (x, y) = geo.centre(to);
    format!(
        "<g id=\"move\" data-unit=\"{u}\" data-to=\"{to}\" pointer-events=\"none\"><title>{u} moves to {to}</title><polyline class=\"path\" points=\"{}\" fill=\"none\" stroke=\"#0b3d91\" stroke-width=\"3\" stroke-dasharray=\"6 3\"/><circle cx=\"{}\" cy=\"{}\" r=\"6\" fill=\"#0b3d91\"/></g>\n",
        line.join(" "),
        n(x),
        n(y),
        u = esc(unit),
    )
}

/// An attack's layer (`<g id="attack">`): the defender's hex ringed in red with the
/// column read, a line from each attacker's hex to it.
pub fn attack_layer(map: &TerrainMap, shade: &AttackShade) -> String {
    let geo = geometry(map);
    let radius = crate::hex::h() / 3f64.sqrt() - 2.0;
    let (x, y) = geo.centre(shade.at);
    let mut layer = String::new();
    let _ = writeln!(
        layer,
        "<g id=\"attack\" data-defender=\"{}\" data-hex=\"{}\" pointer-events=\"none\"><title>an attack on {}: {}</title>",
        esc(&shade.defender),
        shade.at,
        esc(&shade.defender),
        esc(&shade.label)
    );
    for from in &shade.attackers {
        let (ax, ay) = geo.centre(*from);
        let _ = writeln!(
            layer,
            "<line class=\"attacker\" data-hex=\"{from}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#b3261e\" stroke-width=\"3\" stroke-dasharray=\"5 3\"/>",
            n(ax),
            n(ay),
            n(x),
            n(y)
        );
    }
    let _ = writeln!(
        layer,
        "<polygon class=\"defender\" points=\"{}\" fill=\"#b3261e\" fill-opacity=\"0.2\" stroke=\"#b3261e\" stroke-width=\"3\"/><text x=\"{}\" y=\"{}\" font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#b3261e\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">{}</text></g>",
        points(&geo.corners(shade.at, radius)),
        n(x),
        n(y - 14.0),
        esc(&shade.label)
    );
    layer
}
