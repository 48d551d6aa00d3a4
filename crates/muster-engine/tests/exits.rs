//! Leaving the map: the edge hexes a unit's `reach` may leave from, by the system's
//! `exit` rule (PRESTAGS 11.4: one MP to leave).

mod common;

use common::{typed, with_scenario};
use muster_engine::{Engine, Position};
use muster_hex::HexId;

#[test]
fn prestags_a_unit_leaves_the_map_with_a_movement_point_in_hand() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let edge = |h: &str| map.neighbours(HexId::parse(h).unwrap()).len() < 6;
            let mut p = set_up.clone();
            p.units = vec![typed(cx, "lc", "LC", "normans", "0203")];
            let reach = |p: &Position| Engine::new(system, map, p).reach("lc").unwrap();

            let r = reach(&p);
            assert!(r.exits.iter().any(|x| x.hex == "0103"), "{:?}", r.exits);
            for x in &r.exits {
                assert!(edge(&x.hex), "{} is no edge hex", x.hex);
                assert!(x.mp_left >= 1.0, "11.42: {x:?}");
                assert_eq!(x.path.first().map(String::as_str), Some("0203"));
                assert_eq!(x.path.last(), Some(&x.hex));
            }
            assert!(r.rules.iter().any(|x| x.section.as_deref() == Some("11.4")));

            // An enemy fire unit's zone stops a unit entering it (6.41): no exit from there.
            let next = map.neighbours(HexId::parse("0203").unwrap());
            let zone_exit = r
                .exits
                .iter()
                .find(|x| x.hex != "0203")
                .unwrap()
                .hex
                .clone();
            let zone = HexId::parse(&zone_exit).unwrap();
            let archer_at = map
                .neighbours(zone)
                .into_iter()
                .find(|h| *h != HexId::parse("0203").unwrap() && !next.contains(h))
                .unwrap();
            p.units
                .push(typed(cx, "bw", "BW", "saxons", &archer_at.to_string()));
            let held = reach(&p);
            let zoc = map.neighbours(archer_at);
            assert!(
                !held.exits.iter().any(|x| x.hex == zone_exit),
                "{:?}",
                held.exits
            );
            assert!(
                held.exits
                    .iter()
                    .all(|x| !zoc.contains(&HexId::parse(&x.hex).unwrap()))
            );
            p.units.pop();

            // Short of the MP, no exit; on the edge with one MP, the start hex itself.
            p.units[0].movement = 0.0;
            assert_eq!(reach(&p).exits, []);
            p.units[0].hex = "0103".into();
            p.units[0].movement = 2.0;
            let on_edge = reach(&p);
            let here = on_edge.exits.iter().find(|x| x.hex == "0103").unwrap();
            assert_eq!(here.path, ["0103"]);
        },
    );
}

#[test]
fn a_system_without_an_exit_rule_has_no_exits() {
    with_scenario("scenarios/lrf/jengland.scenario.ron", |cx, set_up| {
        let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
        assert!(system.rules.exit.is_none());
        let e = Engine::new(system, map, &set_up);
        let reaches: Vec<_> = (set_up.units.iter())
            .filter_map(|u| e.reach(&u.id).ok())
            .collect();
        assert!(reaches.iter().any(|r| !r.hexes.is_empty()));
        for r in reaches {
            assert_eq!(r.exits, [], "{}", r.unit);
        }
    });
}
