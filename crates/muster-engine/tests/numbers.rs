//! Conditions that measure a unit against the enemy it fights: `NearestOpponent` (no
//! enemy nearer than its target; CdG l. 104 and the raid's l. 96 as a hex game would
//! state them) and `Outnumbers` (its hex's units against the defender's; the raid's
//! l. 94 and 97).

mod common;

use common::{open_ground, typed, with_scenario};
use muster_engine::{Engine, Position, Unit};
use muster_hex::HexId;
use muster_map::TerrainMap;
use muster_model::system::RulesSystem;
use muster_model::vocab::{Act, Condition, Effect, EffectRule};
use std::collections::BTreeMap;

/// The system with one more rule: `then` while `when` holds.
fn with_rule(system: &RulesSystem, id: &str, when: Condition, then: Effect) -> RulesSystem {
    let mut s = system.clone();
    s.rules.effects.push(EffectRule {
        id: id.into(),
        section: "t.1".into(),
        when: Some(when),
        then: vec![then],
        note: None,
    });
    s
}

#[test]
fn a_rule_can_forbid_firing_past_the_nearest_enemy() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (h, _) = open_ground(map);
            let archer = Unit {
                range: Some(3),
                fire: Some(2.0),
                ..typed(cx, "ib", "IB", "saxons", &h.to_string())
            };
            let at = |d: u32| -> Vec<HexId> {
                map.grid()
                    .hexes()
                    .filter(|x| map.distance(h, *x) == d)
                    .collect()
            };
            // A near and a far enemy that the archer may both shoot at, rule or none.
            let mut p = set_up.clone();
            let found = at(2).into_iter().find_map(|near| {
                at(3).into_iter().find_map(|far| {
                    p.units = vec![
                        archer.clone(),
                        typed(cx, "near", "MI", "normans", &near.to_string()),
                        typed(cx, "far", "MI", "normans", &far.to_string()),
                    ];
                    let t = Engine::new(system, map, &p).targets("ib").unwrap();
                    (t == ["near", "far"]).then(|| p.units.clone())
                })
            });
            p.units = found.expect("two targets in range on Hastings' map");

            let rule = with_rule(
                system,
                "nearest-first",
                Condition::Not(Box::new(Condition::NearestOpponent)),
                Effect::MayNot(Act::Fire),
            );
            let e = Engine::new(&rule, map, &p);
            assert_eq!(e.targets("ib").unwrap(), ["near"]);
            let why = e.combat(&["ib"], "far", &BTreeMap::new()).unwrap_err();
            assert!(why.to_string().contains("nearest-first"), "{why}");
            assert!(e.combat(&["ib"], "near", &BTreeMap::new()).is_ok());

            // Two enemies equally near both count as nearest.
            let far = p.units[2].hex.clone();
            p.units[1].hex = at(3)
                .into_iter()
                .map(|x| x.to_string())
                .find(|x| *x != far)
                .unwrap();
            let e = Engine::new(&rule, map, &p);
            let both = e.targets("ib").unwrap();
            assert!(both.contains(&"far".to_string()), "{both:?}");
        },
    );
}

#[test]
fn a_rule_can_hold_back_a_smaller_hex_from_attacking_a_larger_one() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (a, d) = open_ground(map);
            let (a, d) = (a.to_string(), d.to_string());
            let mut p = set_up.clone();
            p.phase = Some("melee".into());
            p.units = vec![
                typed(cx, "mi", "MI", "saxons", &a),
                typed(cx, "n1", "MI", "normans", &d),
                typed(cx, "n2", "MI", "normans", &d),
            ];
            let smaller = Condition::Not(Box::new(Condition::Outnumbers(1.0)));
            let rule = with_rule(
                system,
                "no-small-attacks",
                smaller,
                Effect::MayNot(Act::Attack),
            );
            let attack = |p: &Position| {
                Engine::new(&rule, map, p)
                    .combat(&["mi"], "n1", &BTreeMap::new())
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            };
            // One against two: held back.
            let why = attack(&p).unwrap_err();
            assert!(why.contains("no-small-attacks"), "{why}");
            // Two against two: at least as many, so free to attack.
            p.units.push(typed(cx, "mi2", "MI", "saxons", &a));
            assert_eq!(attack(&p), Ok(()));
            // Two to one is asked with `Outnumbers(2)`: two against two is not.
            let two_to_one = with_rule(
                system,
                "two-to-one",
                Condition::Not(Box::new(Condition::Outnumbers(2.0))),
                Effect::MayNot(Act::Attack),
            );
            let e = Engine::new(&two_to_one, map, &p);
            assert!(e.combat(&["mi"], "n1", &BTreeMap::new()).is_err());
            p.units.retain(|u| u.id != "n2");
            let e = Engine::new(&two_to_one, map, &p);
            assert!(e.combat(&["mi"], "n1", &BTreeMap::new()).is_ok());
        },
    );
}

/// Whether `mi`, attacking `n1` in `p`, gains the +1 to the die of a rule whose
/// condition is `Attacking` and another friendly unit of `kind` within `within` hexes.
fn helped_by_near(
    system: &RulesSystem,
    map: &TerrainMap,
    p: &Position,
    within: f64,
    kind: &str,
) -> bool {
    let when = Condition::All(vec![
        Condition::Attacking,
        Condition::Near {
            within,
            unit: Box::new(Condition::Troop(kind.into())),
        },
    ]);
    let rule = with_rule(system, "near", when, Effect::DieModifier(1));
    let c = Engine::new(&rule, map, p)
        .combat(&["mi"], "n1", &BTreeMap::new())
        .unwrap();
    c.die_modifiers.iter().any(|m| m.value == 1.0)
}

#[test]
fn near_asks_for_another_friendly_unit_within_so_many_hexes() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (a, d) = open_ground(map);
            let mut p = set_up.clone();
            p.phase = Some("melee".into());
            let leader_at = |dist: u32, side: &str| {
                let h = map
                    .grid()
                    .hexes()
                    .find(|x| map.distance(a, *x) == dist && map.distance(d, *x) > 1)
                    .unwrap();
                typed(cx, "lord", "2L", side, &h.to_string())
            };
            let base = vec![
                typed(cx, "mi", "MI", "saxons", &a.to_string()),
                typed(cx, "n1", "MI", "normans", &d.to_string()),
            ];
            let leader = |p: &Position| helped_by_near(system, map, p, 2.0, "2L");
            p.units = base.clone();
            assert!(!leader(&p), "no leader on the map");
            p.units.push(leader_at(2, "saxons"));
            assert!(leader(&p), "a friendly leader two hexes off");
            p.units = base.clone();
            p.units.push(leader_at(3, "saxons"));
            assert!(!leader(&p), "a friendly leader three hexes off");
            p.units = base.clone();
            p.units.push(leader_at(2, "normans"));
            assert!(!leader(&p), "an enemy leader is no friend");
            // Within 0 is the same hex, and the unit itself does not count.
            let stacked = |p: &Position| helped_by_near(system, map, p, 0.0, "MI");
            p.units = base.clone();
            assert!(!stacked(&p), "a unit is not near itself");
            p.units
                .push(typed(cx, "mi2", "MI", "saxons", &a.to_string()));
            assert!(stacked(&p), "a friend in the same hex");
        },
    );
}
