//! Helpers the engine's test files share; each file uses some of them.

#![allow(dead_code)]

use muster_engine::{Position, Unit, from_scenario};
use muster_semantic::{FileCx, ScenarioCx};
use muster_testkit::db::{bundled, index};

/// A clear hex whose six neighbours are clear, and one of them.
pub fn open_ground(map: &muster_map::TerrainMap) -> (muster_hex::HexId, muster_hex::HexId) {
    let h = map
        .grid()
        .hexes()
        .find(|h| {
            map.terrain_id_at(*h) == Some("clear")
                && map.neighbours(*h).len() == 6
                && map
                    .neighbours(*h)
                    .iter()
                    .all(|n| map.terrain_id_at(*n) == Some("clear"))
        })
        .expect("open ground on the map");
    (h, map.neighbours(h)[0])
}

/// The position of a bundled scenario's set-up, its system and its map, handed to `f`.
pub fn with_scenario(rel: &str, f: impl FnOnce(&ScenarioCx, Position)) {
    let db = bundled();
    let cx = ScenarioCx::new(FileCx::new(&db, index(&db, rel)).unwrap()).unwrap();
    let position = from_scenario(&cx, 1);
    f(&cx, position);
}

/// A unit of `kind` for `side` on `hex`, with the kind's printed values.
pub fn typed(cx: &ScenarioCx, id: &str, kind: &str, side: &str, hex: &str) -> Unit {
    let k = cx.unit_kind(kind).unwrap();
    let (strength, movement) = match &k.stats {
        Some(muster_model::system::KindStats::Counter {
            melee, movement, ..
        })
        | Some(muster_model::system::KindStats::Leader {
            melee, movement, ..
        }) => (f64::from(melee.points()), *movement),
        _ => panic!("{kind} has no printed values"),
    };
    Unit {
        id: id.into(),
        kind: kind.into(),
        side: Some(side.into()),
        hex: hex.into(),
        strength,
        movement,
        ..Unit::default()
    }
}

pub fn place(mut u: Unit, hex: &str) -> Unit {
    u.hex = hex.into();
    u
}

/// The sections an answer cites, in order.
pub fn sections(rules: &[muster_engine::RuleRef]) -> Vec<&str> {
    rules.iter().filter_map(|r| r.section.as_deref()).collect()
}

/// Hamburg's set-up narrowed to one melee in open ground: Viking axemen `viking` and
/// German spearmen `german` next to them, in the melee phase.
pub fn hamburg_melee(cx: &ScenarioCx, set_up: &Position) -> Position {
    let (clear, next) = open_ground(cx.map.unwrap());
    let mut p = set_up.clone();
    p.phase = Some("melee".into());
    p.units = vec![
        typed(cx, "viking", "AX", "vikings", &clear.to_string()),
        typed(cx, "german", "SD", "germans", &next.to_string()),
    ];
    p
}
