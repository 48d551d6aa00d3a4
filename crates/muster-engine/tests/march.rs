//! The multi-turn march against a plain second reckoning: a turn's reach taken again
//! from every hex reached, turn after turn; and the work it does, which is one search
//! per group of units that move alike, each settling a hex at most once.

use std::collections::BTreeMap;

use muster_engine::{Engine, Position, from_scenario, side_march};
use muster_hex::HexId;
use muster_semantic::{FileCx, ScenarioCx};
use muster_testkit::db::{bundled, index};

/// The first turn a unit alone on the map can stand on each hex, by repeating
/// `Engine::reach` from every hex of the turn before (no minimum move in LRF).
fn turn_by_turn(base: &Position, cx: &ScenarioCx, id: &str, turns: u32) -> BTreeMap<HexId, u32> {
    let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
    let unit = base.units.iter().find(|u| u.id == id).unwrap().clone();
    let start = HexId::parse(&unit.hex).unwrap();
    let mut first = BTreeMap::from([(start, 1)]);
    let mut frontier = vec![start];
    for turn in 1..=turns {
        let mut next = Vec::new();
        for from in frontier {
            let alone = Position {
                units: vec![muster_engine::Unit {
                    hex: from.to_string(),
                    ..unit.clone()
                }],
                ..base.clone()
            };
            let reach = Engine::new(system, map, &alone).reach(id).unwrap();
            for h in reach.hexes {
                let h = HexId::parse(&h.hex).unwrap();
                if let std::collections::btree_map::Entry::Vacant(e) = first.entry(h) {
                    e.insert(turn);
                    next.push(h);
                }
            }
        }
        frontier = next;
    }
    first
}

#[test]
fn the_march_agrees_with_reach_taken_turn_after_turn() {
    let db = bundled();
    let cx = ScenarioCx::new(
        FileCx::new(&db, index(&db, "scenarios/lrf/jengland.scenario.ron")).unwrap(),
    )
    .unwrap();
    let position = from_scenario(&cx, 1);
    let mut checked = 0;
    for unit in position.units.iter().filter(|u| u.movement > 0.0).take(4) {
        let alone = Position {
            units: vec![unit.clone()],
            ..position.clone()
        };
        let engine = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &alone);
        let start = HexId::parse(&unit.hex).unwrap();
        let march = engine
            .march(&unit.id, &[(start, 1, unit.movement)], 3)
            .unwrap();
        let got: BTreeMap<HexId, u32> = march.reached().collect();
        let want = turn_by_turn(&position, &cx, &unit.id, 3);
        assert_eq!(got, want, "{} from {}", unit.id, unit.hex);
        assert!(
            got.values().any(|t| *t == 3),
            "{} gets somewhere new on turn 3",
            unit.id
        );
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn a_side_marches_once_per_kind_and_settles_each_hex_at_most_once() {
    let db = bundled();
    let cx = ScenarioCx::new(
        FileCx::new(
            &db,
            index(&db, "scenarios/prestags/5-7-hastings.scenario.ron"),
        )
        .unwrap(),
    )
    .unwrap();
    let hexes = cx.map.unwrap().grid().len();
    for side in 0..cx.scenario.sides.len() {
        let position = from_scenario(&cx, 1);
        let id = &cx.scenario.sides[side].id;
        let units = position
            .units
            .iter()
            .filter(|u| u.side.as_ref() == Some(id))
            .count();
        let mut kinds: Vec<(&str, u64)> = position
            .units
            .iter()
            .filter(|u| u.side.as_ref() == Some(id))
            .map(|u| (u.kind.as_str(), u.movement.to_bits()))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        let march = side_march(&cx, side, cx.scenario.turns).unwrap();
        assert!(units > kinds.len(), "the side has units that move alike");
        assert_eq!(march.searches, kinds.len());
        assert!(march.settled <= march.searches * hexes);
    }
}
