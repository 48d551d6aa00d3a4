//! Who may charge, attack and be attacked: a scenario's special rules on charges and
//! the permissions' typed conditions, as the engine asks them.

use std::collections::BTreeMap;

mod common;

use common::{place, typed, with_scenario};
use muster_engine::{Engine, Unit};
use muster_hex::HexId;

/// A charge at a unit in `terrain` on `map`: the defender's hex, the attacker's (clear),
/// and the straight two-hex path that ends there, from a clear hex behind it.
fn charge_lane(map: &muster_map::TerrainMap, terrain: &str) -> (String, String, Vec<String>) {
    let grid = map.grid();
    for d in grid
        .hexes()
        .filter(|h| map.terrain_id_at(*h) == Some(terrain))
    {
        for a in map.neighbours(d) {
            let Some(k) = grid.direction(d, a) else {
                continue;
            };
            let behind = map
                .neighbours(a)
                .into_iter()
                .find(|p| grid.direction(a, *p) == Some(k));
            let clear = |h: HexId| map.terrain_id_at(h) == Some("clear");
            if let Some(p) = behind.filter(|p| clear(*p) && clear(a)) {
                return (
                    d.to_string(),
                    a.to_string(),
                    vec![p.to_string(), a.to_string()],
                );
            }
        }
    }
    panic!("no charge lane into {terrain}");
}

/// Brissarthe's special rules as the engine applies them: the Viking cavalry charges
/// for +1 where the kind gives cavalry +2 (`charge-bonus`), and the Berserkers, foot
/// that may not charge by the permissions, charge for +2 at a unit in clear or on a
/// hill, and at none in woods (`berserk`).
#[test]
fn brissarthe_s_charges_follow_its_special_rules() {
    with_scenario("scenarios/lrf/brissarthe.scenario.ron", |cx, set_up| {
        let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
        let of_counter = |c: &str| {
            set_up
                .units
                .iter()
                .find(|u| u.counter.as_deref() == Some(c))
                .cloned()
                .unwrap_or_else(|| panic!("no {c}"))
        };
        let frank = set_up
            .units
            .iter()
            .find(|u| u.side.as_deref() == Some("franks") && u.kind == "infantry")
            .cloned()
            .unwrap();
        let charge = |attacker: &Unit, terrain: &str| {
            let (d, a, path) = charge_lane(map, terrain);
            let mut p = set_up.clone();
            p.units = vec![place(attacker.clone(), &a), place(frank.clone(), &d)];
            let e = Engine::new(system, map, &p);
            let paths = BTreeMap::from([(attacker.id.clone(), path)]);
            let c = e.combat(&[&attacker.id], &frank.id, &paths).unwrap();
            let bonus = c.attackers[0]
                .modifiers
                .iter()
                .find(|m| m.what == "charge")
                .map(|m| m.value);
            let why = c.charges[0].reason.clone();
            let cites = c.rules.iter().map(|r| r.rule.clone()).collect::<Vec<_>>();
            (bonus, why, cites)
        };
        let viking_horse = of_counter("brissarthe-viking-cavalry-3");
        let (bonus, _, cites) = charge(&viking_horse, "clear");
        assert_eq!(bonus, Some(1.0));
        assert!(cites.contains(&"charge-bonus".to_string()), "{cites:?}");
        let other_horse = set_up
            .units
            .iter()
            .find(|u| u.kind == "cavalry" && u.counter != viking_horse.counter)
            .cloned()
            .unwrap();
        let other_horse = Unit {
            side: Some("vikings".into()),
            ..other_horse
        };
        assert_eq!(
            charge(&other_horse, "clear").0,
            Some(2.0),
            "the kind's bonus"
        );

        let berserkers = of_counter("berserkers");
        assert_eq!(charge(&berserkers, "clear").0, Some(2.0));
        assert_eq!(
            charge(&berserkers, "hill").0,
            Some(2.0),
            "a hill, beyond 9.2"
        );
        let (bonus, why, _) = charge(&berserkers, "woods");
        assert_eq!(bonus, None);
        assert!(why.is_some_and(|w| w.contains("berserk")));
        let plain_foot = Unit {
            id: "viking-foot".into(),
            counter: None,
            side: Some("vikings".into()),
            ..frank.clone()
        };
        let (bonus, why, _) = charge(&plain_foot, "clear");
        assert_eq!(bonus, None);
        assert!(why.is_some_and(|w| w.contains("may not charge")));
    });
}

/// A permission's typed condition (`when`) is asked of the unit where it stands and of
/// its opponent: cavalry forbidden to charge infantry (`Opponent`) is refused at the
/// Frankish foot and charges Frankish horse; an attack forbidden from clear ground
/// (`InTerrain`) is refused there and allowed from a hill. An entry conditioned in words
/// only is one the engine cannot judge, and leaves out.
#[test]
fn a_permission_s_typed_condition_is_asked_of_the_unit_and_its_opponent() {
    use muster_model::rules::{Action, Allowance, Permission};
    use muster_model::vocab::Condition;
    with_scenario("scenarios/lrf/brissarthe.scenario.ron", |cx, set_up| {
        let map = cx.map.unwrap();
        let forbid = |action, when: Option<Condition>, words: Option<&str>| {
            let mut system = cx.system.unwrap().clone();
            system.rules.permissions.push(Permission {
                action,
                troops: vec!["cavalry".into()],
                allowed: Allowance::Never,
                except: vec![],
                status: None,
                when,
                condition: words.map(str::to_string),
                note: None,
            });
            system
        };
        let of = |side: &str, kind: &str| {
            let u = set_up.units.iter().find(|u| u.kind == kind).unwrap();
            Unit {
                id: format!("{side}-{kind}"),
                counter: None,
                side: Some(side.into()),
                ..u.clone()
            }
        };
        let horse = of("vikings", "cavalry");
        let charge_at = |system: &muster_model::system::RulesSystem, target: &Unit| {
            let (d, a, path) = charge_lane(map, "clear");
            let mut p = set_up.clone();
            p.units = vec![place(horse.clone(), &a), place(target.clone(), &d)];
            let e = Engine::new(system, map, &p);
            let paths = BTreeMap::from([(horse.id.clone(), path)]);
            let c = e.combat(&[&horse.id], &target.id, &paths).unwrap();
            c.charges[0].reason.clone()
        };
        let not_foot = forbid(
            Action::Charge,
            Some(Condition::Opponent(Box::new(Condition::Troop(
                "infantry".into(),
            )))),
            None,
        );
        let why = charge_at(&not_foot, &of("franks", "infantry"));
        assert!(why.is_some_and(|w| w.contains("may not charge")));
        assert_eq!(charge_at(&not_foot, &of("franks", "cavalry")), None);
        let in_words = forbid(Action::Charge, None, Some("only on a feast day"));
        assert_eq!(charge_at(&in_words, &of("franks", "infantry")), None);

        let from_clear = forbid(
            Action::Attack,
            Some(Condition::InTerrain("clear".into())),
            None,
        );
        let attack_from = |terrain: &str| {
            let (d, a, _) = charge_lane(map, terrain);
            let mut p = set_up.clone();
            // The attacker stands on `terrain`, the defender next to it.
            p.units = vec![
                place(horse.clone(), &d),
                place(of("franks", "infantry"), &a),
            ];
            let e = Engine::new(&from_clear, map, &p);
            e.combat(&[&horse.id], "franks-infantry", &BTreeMap::new())
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        let refused = attack_from("clear").unwrap_err();
        assert!(refused.contains("may never attack"), "{refused}");
        assert_eq!(attack_from("hill"), Ok(()));
    });
}

/// PRESTAGS Excl 3.28: a sailing fleet cannot be attacked in melee; a moored one can
/// (the kept state `moored`, Excl 3.32). Fire at it is another matter (Excl 3.25): the
/// engine asks the permission that spares the attack made.
#[test]
fn prestags_a_sailing_fleet_is_spared_melee() {
    with_scenario(
        "scenarios/prestags/4-6-hamburg.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let is = |h: HexId, t: &str| map.terrain_id_at(h) == Some(t);
            let (river, bank) = map
                .grid()
                .hexes()
                .filter(|h| is(*h, "river"))
                .find_map(|h| {
                    let bank = map.neighbours(h).into_iter().find(|n| is(*n, "clear"))?;
                    Some((h, bank))
                })
                .expect("Hamburg has a river beside clear ground");
            let mut p = set_up.clone();
            p.phase = Some("melee".into());
            p.units = vec![
                typed(cx, "fleet", "VF", "vikings", &river.to_string()),
                typed(cx, "german", "SD", "germans", &bank.to_string()),
            ];
            let attack = |p: &muster_engine::Position| {
                Engine::new(system, map, p)
                    .combat(&["german"], "fleet", &BTreeMap::new())
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            };
            let refused = attack(&p).unwrap_err();
            assert!(
                refused.contains("may not be attacked in melee"),
                "{refused}"
            );
            let e = Engine::new(system, map, &p);
            assert!(!e.targets("german").unwrap().contains(&"fleet".to_string()));
            p.units[0].states = vec!["moored".into()];
            assert_eq!(attack(&p), Ok(()));
        },
    );
}
