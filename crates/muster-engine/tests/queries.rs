//! Supply, retreat, range and the errors of a question about a unit or hex that is not
//! there, on the bundled data and the example game.

use std::collections::BTreeMap;

use muster_engine::{Engine, QueryError, from_scenario};
use muster_semantic::{FileCx, ScenarioCx};
use muster_testkit::repo;

fn harrow(f: impl FnOnce(&ScenarioCx, muster_engine::Position)) {
    let root = repo().join("examples/harrow-ford");
    let db = muster_testkit::db::load(&root);
    let at = db
        .index_of(&root.join("scenarios/harrow/harrow-ford.scenario.ron"))
        .unwrap();
    let cx = ScenarioCx::new(FileCx::new(&db, at).unwrap()).unwrap();
    let p = from_scenario(&cx, 1);
    f(&cx, p);
}

#[test]
fn supply_traces_to_a_source_or_says_why_not() {
    harrow(|cx, p| {
        let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
        let crown = p.sides.iter().find(|s| s.id == "crown").unwrap();
        assert!(!crown.supply_sources.is_empty(), "the west edge");
        let source = &crown.supply_sources[0];
        let s = e.supply(source, "crown").unwrap();
        assert!(s.in_supply && s.trace == [source.clone()], "{s:?}");
        assert_eq!(s.rules[0].section.as_deref(), Some("10"));
        // Beyond six hexes of every source: out of supply, with the reason.
        let far = e.map.grid().hexes().find(|h| {
            crown
                .supply_sources
                .iter()
                .all(|x| e.map.distance(*h, e.hex(x).unwrap()) > 6)
        });
        let far = far.expect("the map has hexes over six from the west edge");
        let s = e.supply(&far.to_string(), "crown").unwrap();
        assert!(
            !s.in_supply && s.reason.as_deref().unwrap().contains("within 6 hexes"),
            "{s:?}"
        );
        assert_eq!(
            e.supply("0101", "nobody"),
            Err(QueryError::UnknownSide {
                id: "nobody".into()
            })
        );
    });
}

#[test]
fn a_retreat_keeps_out_of_enemy_zones() {
    harrow(|cx, mut p| {
        let mover = p
            .units
            .iter()
            .position(|u| {
                u.side.as_deref() == Some("crown") && u.kind != "train" && u.kind != "general"
            })
            .unwrap();
        let enemy = p
            .units
            .iter()
            .position(|u| {
                u.side.as_deref() == Some("league") && u.kind != "train" && u.kind != "general"
            })
            .unwrap();
        let map = cx.map.unwrap();
        // The mover in mid-map with no one about, then an enemy two hexes off.
        let centre = map
            .grid()
            .hexes()
            .find(|h| {
                map.neighbours(*h).len() == 6
                    && map.terrain_id_at(*h) == Some("clear")
                    && map
                        .neighbours(*h)
                        .iter()
                        .all(|n| map.terrain_id_at(*n) == Some("clear"))
            })
            .unwrap();
        let id = p.units[mover].id.clone();
        p.units[mover].hex = centre.to_string();
        let others: Vec<usize> = (0..p.units.len())
            .filter(|&k| k != mover && k != enemy)
            .collect();
        for k in others.into_iter().rev() {
            p.units.remove(k);
        }
        let enemy = usize::from(mover == 0);
        p.units[enemy].hex = "0101".into();
        let free = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p)
            .retreat(&id, 1)
            .unwrap();
        assert_eq!(free.hexes.len(), 6, "{free:?}");
        let two_off = map
            .grid()
            .within(centre, 2)
            .into_iter()
            .find(|h| map.distance(*h, centre) == 2 && map.terrain_id_at(*h) == Some("clear"))
            .unwrap();
        p.units[enemy].hex = two_off.to_string();
        let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
        let r = e.retreat(&id, 1).unwrap();
        assert!(r.hexes.len() < 6, "{r:?}");
        assert!(
            r.hexes
                .iter()
                .all(|h| e.map.distance(e.hex(&h.hex).unwrap(), two_off) > 1)
        );
        assert_eq!(r.rules[0].section.as_deref(), Some("8"));
        let two = e.retreat(&id, 2).unwrap();
        assert!(
            two.hexes
                .iter()
                .all(|h| h.path.len() == 3 && e.map.distance(e.hex(&h.hex).unwrap(), centre) == 2)
        );
    });
}

#[test]
fn questions_about_what_is_not_there_are_errors() {
    harrow(|cx, p| {
        let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
        let first = p.units[0].id.clone();
        match e.reach(&format!("{first}x")) {
            Err(QueryError::UnknownUnit { near, .. }) => assert!(near.contains(&first)),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            e.sight("9999", &first),
            Err(QueryError::OffMap { .. })
        ));
        // Where a unit or a hex may be given, text that is neither says so.
        for text in ["nonsense", "07x8"] {
            assert!(matches!(
                e.range(text, &first),
                Err(QueryError::NotUnitOrHex { .. })
            ));
        }
        let e2 = e.sight(&format!("{first}x"), "0101").unwrap_err();
        assert!(
            matches!(&e2, QueryError::NotUnitOrHex { near, .. } if near.contains(&first)),
            "{e2:?}"
        );
        let mut off = p.clone();
        off.units[0].hex = "9999".into();
        let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &off);
        assert!(matches!(
            e.reach(&first),
            Err(QueryError::UnitOffMap { .. })
        ));
        assert!(matches!(
            e.combat(&[&first], &first, &BTreeMap::new()),
            Err(QueryError::UnitOffMap { .. })
        ));
    });
}

#[test]
fn a_range_is_a_distance_and_a_unit_s_range() {
    harrow(|cx, p| {
        let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
        let r = e.range("0101", "0104").unwrap();
        assert_eq!((r.distance, r.within), (3, None));
    });
}

#[test]
fn a_position_reads_back_from_its_json() {
    harrow(|_, p| {
        let text = serde_json::to_string_pretty(&p).unwrap();
        let back: muster_engine::Position = serde_json::from_str(&text).unwrap();
        assert_eq!(back, p);
        assert!(!p.units.is_empty());
    });
}

/// The weather of the position's turn is a condition `reach` reads: Harrow Ford's rain
/// (9.1) makes every hex cost 2, so the Crown horse (6 MP) goes at most three hexes in
/// rain, fewer places than in fair weather, and every step of every path costs 2. The
/// answer cites the rain's rule, and not the chart's costs it replaces.
#[test]
fn reach_reads_the_weather_of_the_turn() {
    harrow(|cx, p| {
        let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
        let horse = p.units.iter().find(|u| u.id == "crown-horse").unwrap();
        assert_eq!(horse.movement, 6.0);
        let alone = |weather: &str, turn: u8| muster_engine::Position {
            units: vec![horse.clone()],
            weather: Some(weather.to_string()),
            turn,
            ..p.clone()
        };
        let (fair, rain) = (alone("fair", 1), alone("rain", 3));
        let dry = Engine::new(system, map, &fair)
            .reach("crown-horse")
            .unwrap();
        let wet = Engine::new(system, map, &rain)
            .reach("crown-horse")
            .unwrap();
        assert!(
            wet.hexes.len() < dry.hexes.len(),
            "{} in rain, {} in fair weather",
            wet.hexes.len(),
            dry.hexes.len()
        );
        for h in wet.hexes.iter().filter(|h| !h.minimum_move) {
            let steps = h.path.len() - 1;
            assert!(steps <= 3, "{h:?}");
            assert_eq!(6.0 - h.mp_left, 2.0 * steps as f64, "{h:?}");
        }
        // Every hex reached in rain is reached in fair weather too.
        for h in &wet.hexes {
            assert!(dry.hexes.iter().any(|d| d.hex == h.hex), "{}", h.hex);
        }
        // Each answer cites the cost rules it applied: the rain (9.1) in rain, where it
        // replaces the chart's costs; the chart, not the rain, in fair weather.
        let cited = |r: &muster_engine::Reach, rule: &str| r.rules.iter().any(|x| x.rule == rule);
        let chart = "terrain and hexside movement costs";
        assert!(
            cited(&wet, "rain") && !cited(&wet, chart),
            "{:?}",
            wet.rules
        );
        assert!(
            cited(&dry, chart) && !cited(&dry, "rain"),
            "{:?}",
            dry.rules
        );
        let rain = wet.rules.iter().find(|x| x.rule == "rain").unwrap();
        assert_eq!(rain.section.as_deref(), Some("9.1"));
    });
}
