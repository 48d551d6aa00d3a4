//! Carriers at work: what a fleet may do where it stands (moor, unmoor, take units
//! aboard), by the rules in force and the units aboard it (PRESTAGS Excl 3.3-3.4).

mod common;

use common::{sections, typed, with_scenario};
use muster_engine::{Engine, act_named};
use muster_hex::HexId;
use muster_model::vocab::Act;

#[test]
fn prestags_a_fleet_unmoors_only_with_a_unit_aboard() {
    with_scenario(
        "scenarios/prestags/4-6-hamburg.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());

            // The set-up brings the sample's 14 units aboard the five fleets, each on its
            // fleet's hex; none of the fleets is moored yet.
            let fleets: Vec<&str> = (set_up.units.iter())
                .filter(|u| u.kind == "VF")
                .map(|u| u.hex.as_str())
                .collect();
            assert_eq!(fleets.len(), 5);
            let aboard = (set_up.units.iter())
                .filter(|u| u.kind != "VF" && fleets.contains(&u.hex.as_str()))
                .count();
            assert_eq!(
                aboard, 14,
                "Hamburg's sample puts 13 units and a leader aboard"
            );
            let e = Engine::new(system, map, &set_up);
            let sailing = e.may("VF", Act::Unmoor).unwrap();
            assert!(!sailing.allowed);
            assert!(sailing.reason.unwrap().contains("moored"));
            let load = e.may("VF", Act::Load).unwrap();
            assert!(!load.allowed);
            assert_eq!(sections(&load.rules), ["Excl 3.31"]);

            // A fleet moored on the river with an SD unit aboard unmoors for 5 MP.
            let is = |h: HexId, t: &str| map.terrain_id_at(h) == Some(t);
            let river = map.grid().hexes().find(|h| is(*h, "river")).unwrap();
            let sea = map.grid().hexes().find(|h| is(*h, "sea")).unwrap();
            let mut p = set_up.clone();
            p.units = vec![
                typed(cx, "fleet", "VF", "vikings", &river.to_string()),
                typed(cx, "crew", "SD", "vikings", &river.to_string()),
            ];
            p.units[0].states = vec!["moored".into()];
            let unmoor = |p: &muster_engine::Position| {
                Engine::new(system, map, p)
                    .may("fleet", Act::Unmoor)
                    .unwrap()
            };
            let crewed = unmoor(&p);
            assert!(crewed.allowed, "{crewed:?}");
            assert_eq!(crewed.cost, Some(5.0), "Excl 3.33");
            // Excl 3.33: with nobody aboard it is trapped. An enemy in the hex is no crew.
            p.units[1].side = Some("germans".into());
            let trapped = unmoor(&p);
            assert!(!trapped.allowed);
            assert_eq!(sections(&trapped.rules), ["Excl 3.33"]);

            // Excl 3.34: moored and disrupted, it takes no units aboard; undisrupted, it may.
            let load = |p: &muster_engine::Position| {
                Engine::new(system, map, p).may("fleet", Act::Load).unwrap()
            };
            assert!(load(&p).allowed);
            p.units[0].status = Some("disrupted".into());
            let disrupted = load(&p);
            assert!(!disrupted.allowed);
            assert_eq!(sections(&disrupted.rules), ["Excl 3.34"]);
            // It may still unmoor with a unit aboard (Excl 3.34).
            p.units[1].side = Some("vikings".into());
            assert!(unmoor(&p).allowed);

            // Excl 3.31-3.32: a fleet moors on the river for 7 MP, never at sea.
            let moor = |hex: HexId| {
                let mut p = set_up.clone();
                p.units = vec![typed(cx, "fleet", "VF", "vikings", &hex.to_string())];
                Engine::new(system, map, &p)
                    .may("fleet", Act::Moor)
                    .unwrap()
            };
            let on_river = moor(river);
            assert!(
                on_river.allowed && on_river.cost == Some(7.0),
                "{on_river:?}"
            );
            let at_sea = moor(sea);
            assert!(!at_sea.allowed);
            assert_eq!(sections(&at_sea.rules), ["Excl 3.31"]);

            // Excl 3.5: the moored fleet's own 4 defends only while nobody is aboard.
            p.units[0].status = None;
            let german = |hex: HexId| {
                let bank = map.neighbours(hex).into_iter().find(|n| !is(*n, "river"));
                typed(cx, "german", "SD", "germans", &bank.unwrap().to_string())
            };
            p.units.push(german(river));
            p.phase = Some("melee".into());
            let fleet_defends = |p: &muster_engine::Position| {
                let c =
                    Engine::new(system, map, p).combat(&["german"], "fleet", &Default::default());
                let c = c.unwrap();
                let own = c.defenders.iter().find(|d| d.unit == "fleet").unwrap();
                (own.total, c.defence)
            };
            let sd = p.units[1].strength;
            assert_eq!(fleet_defends(&p), (0.0, sd), "the SD aboard defends alone");
            p.units.remove(1);
            assert_eq!(
                fleet_defends(&p),
                (4.0, 4.0),
                "the empty fleet defends at 4"
            );

            // A carrier's act asked of a unit that is no carrier, and an act muster does
            // not know.
            p.units
                .push(typed(cx, "crew", "SD", "vikings", &river.to_string()));
            let e = Engine::new(system, map, &p);
            // Excl 3.5: a fleet never attacks, by the system's permissions, nor fires.
            for act in [Act::Melee, Act::Attack, Act::Fire] {
                let fleet = e.may("fleet", act).unwrap();
                assert!(!fleet.allowed, "{act:?}");
                assert!(fleet.reason.unwrap().contains("never"), "{act:?}");
            }
            assert!(e.may("crew", Act::Melee).unwrap().allowed);
            let no_bow = e.may("crew", Act::Fire).unwrap();
            assert!(!no_bow.allowed && no_bow.reason.unwrap().contains("no range"));
            let crew = e.may("crew", Act::Moor).unwrap();
            assert!(!crew.allowed && crew.reason.unwrap().contains("no carrier"));
            let sail = act_named("Sail").unwrap_err().to_string();
            assert!(sail.contains("`Unmoor`"), "{sail}");
            assert_eq!(act_named("Unmoor"), Ok(Act::Unmoor));
        },
    );
}
