//! The imported map source: terrain as compact areas (whole columns, straight runs in a
//! column, then one list of the hexes left), and its RON text.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use muster_hex::{HexGrid, HexId};
use muster_model::map::{Area, MapGrid, MapSource, Overlay};
use muster_model::system::RulesSystem;

use super::Painted;
use super::objects::Drawn;

/// The base terrain: the one most hexes have (the system's first of equals), else the
/// system's first terrain.
pub fn base(terrain: &BTreeMap<HexId, String>, system: &RulesSystem) -> String {
    let count = |id: &str| terrain.values().filter(|t| *t == id).count();
    system
        .terrain
        .iter()
        .map(|t| (count(&t.id), &t.id))
        .fold(None::<(usize, &String)>, |best, (n, id)| match best {
            Some((b, _)) if b >= n => best,
            _ => Some((n, id)),
        })
        .map(|(_, id)| id.clone())
        .unwrap_or_default()
}

/// The fewest areas of this shape covering `hexes` exactly: each whole column as a
/// `Column`, each run of two or more hexes down a column as a `Range`, the rest as one
/// `List`.
pub fn areas(hexes: &[HexId], grid: &HexGrid) -> Vec<Area> {
    let mut by_column: BTreeMap<u16, Vec<u16>> = BTreeMap::new();
    for h in hexes {
        by_column.entry(h.col).or_default().push(h.row);
    }
    let mut out = Vec::new();
    let mut single = Vec::new();
    for (col, mut rows) in by_column {
        rows.sort_unstable();
        rows.dedup();
        if rows.len() == usize::from(grid.rows) && grid.rows > 1 {
            out.push(Area::Column(col));
            continue;
        }
        let mut i = 0;
        while i < rows.len() {
            let mut j = i;
            while j + 1 < rows.len() && rows[j + 1] == rows[j] + 1 {
                j += 1;
            }
            let (a, b) = (HexId::new(col, rows[i]), HexId::new(col, rows[j]));
            if j > i {
                out.push(Area::Range(a.to_string(), b.to_string()));
            } else {
                single.push(a.to_string());
            }
            i = j + 1;
        }
    }
    if !single.is_empty() {
        out.push(Area::List(single));
    }
    out
}

pub(crate) fn build(
    id: &str,
    name: String,
    system: &RulesSystem,
    grid: &HexGrid,
    base: String,
    painted: &Painted,
    drawn: Drawn,
) -> MapSource {
    let mut overlays = Vec::new();
    // Terrain in the system's order, so the same painting gives the same file.
    for t in system.terrain.iter().filter(|t| t.id != base) {
        let hexes: Vec<HexId> = painted
            .terrain
            .iter()
            .filter(|(_, v)| **v == t.id)
            .map(|(h, _)| *h)
            .collect();
        for area in areas(&hexes, grid) {
            overlays.push(Overlay::Terrain {
                terrain: t.id.clone(),
                area,
            });
        }
    }
    for t in &system.terrain {
        let hexes: Vec<HexId> = painted
            .features
            .iter()
            .filter(|(_, v)| v.contains(&t.id))
            .map(|(h, _)| *h)
            .collect();
        for area in areas(&hexes, grid) {
            overlays.push(Overlay::AddTerrain {
                terrain: t.id.clone(),
                area,
            });
        }
    }
    let text = |h: &HexId| h.to_string();
    for (feature, sides) in drawn.hexsides {
        overlays.push(Overlay::Hexsides {
            feature,
            sides: sides.iter().map(|(a, b)| (text(a), text(b))).collect(),
        });
    }
    for (feature, hexes) in drawn.paths {
        overlays.push(Overlay::Path {
            feature,
            hexes: hexes.iter().map(text).collect(),
        });
    }
    for (hex, from) in drawn.access {
        overlays.push(Overlay::Access {
            hex: text(&hex),
            from: from.iter().map(text).collect(),
        });
    }
    for hexes in drawn.flows {
        overlays.push(Overlay::Flow {
            hexes: hexes.iter().map(text).collect(),
        });
    }
    for (hex, label) in drawn.labels {
        overlays.push(Overlay::Label {
            hex: text(&hex),
            text: label,
        });
    }
    MapSource {
        id: id.to_string(),
        name,
        system: system.id.clone(),
        grid: MapGrid::Hex {
            columns: grid.columns,
            rows: grid.rows,
            layout: grid.layout,
        },
        base,
        overlays,
        assumed: Default::default(),
    }
}

/// A RON string literal.
fn s(text: &str) -> String {
    ron::to_string(text).unwrap_or_else(|_| "\"\"".into())
}

fn strings(list: &[String]) -> String {
    list.iter().map(|t| s(t)).collect::<Vec<_>>().join(", ")
}

fn area(a: &Area) -> String {
    match a {
        Area::All => "All".into(),
        Area::Column(c) => format!("Column({c})"),
        Area::Row(r) => format!("Row({r})"),
        Area::Range(a, b) => format!("Range({}, {})", s(a), s(b)),
        Area::List(l) => format!("List([{}])", strings(l)),
        Area::Zone { center, radius } => format!("Zone(center: {}, radius: {radius})", s(center)),
    }
}

fn overlay(o: &Overlay) -> String {
    match o {
        Overlay::Terrain { terrain, area: a } => {
            format!("Terrain(terrain: {}, area: {})", s(terrain), area(a))
        }
        Overlay::AddTerrain { terrain, area: a } => {
            format!("AddTerrain(terrain: {}, area: {})", s(terrain), area(a))
        }
        Overlay::Path { feature, hexes } => {
            format!("Path(feature: {}, hexes: [{}])", s(feature), strings(hexes))
        }
        Overlay::Hexsides { feature, sides } => {
            let sides: Vec<String> = sides
                .iter()
                .map(|(a, b)| format!("({}, {})", s(a), s(b)))
                .collect();
            format!(
                "Hexsides(feature: {}, sides: [{}])",
                s(feature),
                sides.join(", ")
            )
        }
        Overlay::Access { hex, from } => {
            format!("Access(hex: {}, from: [{}])", s(hex), strings(from))
        }
        Overlay::Label { hex, text } => format!("Label(hex: {}, text: {})", s(hex), s(text)),
        Overlay::Flow { hexes } => format!("Flow(hexes: [{}])", strings(hexes)),
        // An import draws hex maps only.
        Overlay::Feature { .. } => String::new(),
    }
}

/// The map source as RON, in the layout of the bundled maps, headed by where it came
/// from.
pub fn to_ron(source: &MapSource, from: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Imported from {} by `muster import tiled`.",
        muster_db::text::escape(from).replace('\n', " ")
    );
    let _ = writeln!(out, "Map(");
    let _ = writeln!(out, "    id: {},", s(&source.id));
    let _ = writeln!(out, "    name: {},", s(&source.name));
    let _ = writeln!(out, "    system: {},", s(&source.system));
    if let MapGrid::Hex {
        columns,
        rows,
        layout,
    } = &source.grid
    {
        let _ = writeln!(
            out,
            "    grid: Hex(columns: {columns}, rows: {rows}, layout: {layout:?}),"
        );
    }
    let _ = writeln!(out, "    base: {},", s(&source.base));
    let _ = writeln!(out, "    overlays: [");
    for o in &source.overlays {
        let _ = writeln!(out, "        {},", overlay(o));
    }
    let _ = writeln!(out, "    ],");
    let _ = writeln!(out, ")");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_hex::HexLayout;

    #[test]
    fn areas_are_columns_runs_and_one_list() {
        let grid = HexGrid::new(5, 4, HexLayout::EvenColumnsDown);
        let hexes: Vec<HexId> = [
            "0101", "0102", "0103", "0104", "0202", "0203", "0204", "0301", "0403",
        ]
        .iter()
        .map(|h| HexId::parse(h).unwrap())
        .collect();
        assert_eq!(
            areas(&hexes, &grid),
            vec![
                Area::Column(1),
                Area::Range("0202".into(), "0204".into()),
                Area::List(vec!["0301".into(), "0403".into()]),
            ]
        );
        let mut covered: Vec<HexId> = areas(&hexes, &grid)
            .iter()
            .flat_map(|a| muster_map::resolve_area(&grid, a).unwrap())
            .collect();
        covered.sort();
        assert_eq!(covered, hexes);
    }
}
