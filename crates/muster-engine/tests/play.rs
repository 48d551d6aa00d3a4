//! The rules at work on play so far, computed from the bundled data: a position's
//! record of play (a side's losses and past acts, a unit's past acts, states, plotted
//! task and facing), results resolved unit by unit, stacking and charges set by special
//! rules, and fire against the hex's protection.

use std::collections::BTreeMap;

mod common;

use common::{hamburg_melee, open_ground, sections, typed, with_scenario};
use muster_engine::{Engine, Position, Unit};
use muster_hex::HexId;
use muster_semantic::ScenarioCx;

/// Hastings' set-up narrowed to a melee: Saxon spearmen `d` on 2020 and Norman pikemen
/// `a` next to them, in the melee phase; and the defender's hex.
fn hastings_melee(cx: &ScenarioCx, set_up: &Position) -> (Position, &'static str) {
    let target = "2020";
    let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), set_up);
    let next = e.map.neighbours(e.hex(target).unwrap())[0].to_string();
    let mut p = set_up.clone();
    p.phase = Some("melee".into());
    p.units = vec![
        typed(cx, "d", "PS", "saxons", target),
        typed(cx, "a", "PP", "normans", &next),
    ];
    (p, target)
}

/// PRESTAGS 10.3-10.32, result by result: in melee a D on a hex with a leader leaves its
/// units undisrupted (10.32) and steps the leader down a grade (10.3: 1L becomes 2L, a
/// 4L is eliminated); in the fire phase the leader takes nothing (10.31) and its units
/// shrug off a D but not a 1/2E. A D befalls the defender, never the attacker.
#[test]
fn prestags_a_leader_takes_the_disruption_of_his_stack() {
    use muster_model::system::ResultEffect;
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (mut p, target) = hastings_melee(cx, &set_up);
            let leader = |kind: &str| Unit {
                id: "leader".into(),
                kind: kind.into(),
                side: Some("saxons".into()),
                hex: target.into(),
                movement: 9.0,
                ..Unit::default()
            };
            let outcome = |p: &Position, id: &str, result: &str, attacking: bool| {
                Engine::new(system, map, p)
                    .outcome(id, result, attacking)
                    .unwrap()
            };
            let alone = outcome(&p, "d", "D", false);
            assert_eq!(alone.codes, ["D"]);
            assert_eq!(alone.effects, [ResultEffect::Disrupted]);
            assert!(alone.ignored.is_empty());
            let on_attacker = outcome(&p, "a", "D", true);
            assert!(on_attacker.codes.is_empty() && on_attacker.effects.is_empty());

            p.units.push(leader("1L"));
            let covered = outcome(&p, "d", "D", false);
            assert_eq!(
                (covered.codes.len(), covered.ignored.clone()),
                (0, vec!["D".to_string()])
            );
            assert!(sections(&covered.rules).contains(&"10.32"), "{covered:?}");
            let stepped = outcome(&p, "leader", "D", false);
            assert_eq!(stepped.becomes.as_deref(), Some("2L"));
            assert_eq!(stepped.status, None);
            assert!(sections(&stepped.rules).contains(&"10.3"));
            p.units[2].kind = "4L".into();
            let fallen = outcome(&p, "leader", "1/2E", false);
            assert_eq!(fallen.status.as_deref(), Some("eliminated"));
            assert_eq!(fallen.becomes, None);

            p.phase = Some("fire".into());
            let unharmed = outcome(&p, "leader", "E", false);
            assert_eq!(unharmed.ignored, ["E"]);
            assert!(sections(&unharmed.rules).contains(&"10.31"));
            assert_eq!(outcome(&p, "d", "D", false).ignored, ["D"]);
            let halved = outcome(&p, "d", "1/2E", false);
            assert_eq!(halved.codes, ["1/2E"]);
            assert!(halved.effects.contains(&ResultEffect::HalfEliminated));
            let e = Engine::new(system, map, &p);
            assert!(matches!(
                e.outcome("d", "X9", false),
                Err(muster_engine::QueryError::Invalid { .. })
            ));
        },
    );
}

/// The position's record of play feeds the rules: PRESTAGS 6.51 (a unit that fired this
/// player-turn may not attack in melee), 18.2 (a unit in contact stays put) and 23.11 (a
/// unit plotted to move defends at half in melee) hold only when the unit's record says
/// so.
#[test]
fn prestags_a_unit_s_record_of_play_is_read() {
    use muster_engine::Done;
    use muster_model::vocab::{Act, Past};
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (mut p, _) = hastings_melee(cx, &set_up);
            let attack =
                |p: &Position| Engine::new(system, map, p).combat(&["a"], "d", &BTreeMap::new());
            assert!(attack(&p).is_ok());
            p.units[1].did = vec![Done {
                act: Act::Fire,
                when: Past::LastPlayerTurn,
            }];
            assert!(attack(&p).is_ok(), "6.51 asks about this player-turn only");
            p.units[1].did[0].when = Past::ThisPlayerTurn;
            let refused = attack(&p).unwrap_err().to_string();
            assert!(
                refused.contains("fire-then-no-melee") && refused.contains("6.51"),
                "{refused}"
            );
            p.units[1].did.clear();

            p.rules_on = vec!["contact".into()];
            let reach = |p: &Position| Engine::new(system, map, p).reach("d").unwrap();
            assert!(!reach(&p).hexes.is_empty());
            p.units[0].states = vec!["contact".into()];
            let held = reach(&p);
            assert!(held.hexes.is_empty(), "{held:?}");
            assert!(sections(&held.rules).contains(&"18.2"));
            p.units[0].states.clear();

            p.rules_on = vec!["simultaneous-movement".into()];
            let defence = |p: &Position| attack(p).unwrap().defence;
            let full = defence(&p);
            p.units[0].plotted = Some("mv".into());
            assert_eq!(defence(&p), full / 2.0, "23.11");
            p.units[0].plotted = Some("ml".into());
            assert_eq!(defence(&p), full);
        },
    );
}

/// PRESTAGS 13.0, a unit at a time: a panicked unit may not attack, defends in melee at
/// half its strength, and is eliminated by a D; a unit that is not panicked keeps all
/// three. Each answer cites its rule.
#[test]
fn prestags_a_panicked_unit_flees_the_fight() {
    use muster_model::system::ResultEffect;
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (mut p, _) = hastings_melee(cx, &set_up);
            let attack =
                |p: &Position| Engine::new(system, map, p).combat(&["a"], "d", &BTreeMap::new());
            let outcome = |p: &Position| Engine::new(system, map, p).outcome("d", "D", false);
            let calm = attack(&p).unwrap();
            assert!(!sections(&calm.rules).contains(&"13.0"), "{:?}", calm.rules);
            assert_eq!(outcome(&p).unwrap().effects, [ResultEffect::Disrupted]);

            p.units[0].panicked = true;
            let struck = attack(&p).unwrap();
            assert_eq!(
                struck.defence,
                calm.defence / 2.0,
                "13.0: half melee strength"
            );
            assert!(
                sections(&struck.rules).contains(&"13.0"),
                "{:?}",
                struck.rules
            );
            let fallen = outcome(&p).unwrap();
            assert_eq!(fallen.codes, ["E"], "13.0: a D eliminates a panicked unit");
            assert!(fallen.effects.contains(&ResultEffect::Eliminated));
            assert!(sections(&fallen.rules).contains(&"13.0"));

            p.units[1].panicked = true;
            let refused = attack(&p).unwrap_err().to_string();
            assert!(
                refused.contains("panicked-never-attack") && refused.contains("13.0"),
                "{refused}"
            );
        },
    );
}

/// PRESTAGS 13.0's flight: a panicked unit moves only from hex to hex each further from
/// the nearest enemy than the last, and its reach is the hexes as far from the nearest
/// enemy as it can get; calm, the same unit may also stay near. The rule is cited.
#[test]
fn prestags_a_panicked_unit_runs_from_the_nearest_enemy() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (clear, next) = open_ground(map);
            let mut p = set_up.clone();
            p.phase = Some("movement".into());
            p.units = vec![
                typed(cx, "runner", "HC", "saxons", &clear.to_string()),
                typed(cx, "foe", "PS", "normans", &next.to_string()),
            ];
            let away = |h: &str| map.distance(HexId::parse(h).unwrap(), next);
            let calm = Engine::new(system, map, &p).reach("runner").unwrap();
            assert!(!sections(&calm.rules).contains(&"13.0"));

            p.units[0].panicked = true;
            let fled = Engine::new(system, map, &p).reach("runner").unwrap();
            assert!(sections(&fled.rules).contains(&"13.0"), "{:?}", fled.rules);
            let furthest = fled.hexes.iter().map(|h| away(&h.hex)).max().unwrap();
            assert!(furthest > 1, "{fled:?}");
            for h in &fled.hexes {
                assert_eq!(away(&h.hex), furthest, "only the furthest hexes: {h:?}");
                let steps: Vec<u32> = h.path.iter().map(|x| away(x)).collect();
                assert!(
                    steps.windows(2).all(|w| w[1] > w[0]),
                    "each hex further than the last: {h:?}"
                );
            }
            assert!(
                calm.hexes.iter().any(|h| away(&h.hex) < furthest),
                "calm, it may stay nearer"
            );
            assert!(calm.hexes.len() > fled.hexes.len());
        },
    );
}

/// PRESTAGS 11.3 at Liegnitz: a labelled hex is held by the side whose units stand in
/// it; when they leave, by the side that stood there last (the position's record); with
/// units of both sides in it, by nobody; and, never entered, by nobody. Without
/// `kept_when_left` an empty hex is nobody's.
#[test]
fn prestags_a_hex_is_held_by_its_last_occupant() {
    use muster_engine::HeldBy;
    with_scenario(
        "scenarios/prestags/6-5-liegnitz.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let held = |sys: &muster_model::system::RulesSystem, p: &Position, label: &str| {
                let c = Engine::new(sys, map, p).control();
                let h = c.hexes.into_iter().find(|h| h.label == label).unwrap();
                (h.side, h.by)
            };
            let at_e = |p: &Position| {
                let e = Engine::new(system, map, p);
                let hex = e.control().hexes.into_iter().find(|h| h.label == "E");
                hex.unwrap().hex
            };
            let e_hex = at_e(&set_up);
            let germans = Some("germans".to_string());
            assert_eq!(
                held(system, &set_up, "E"),
                (germans.clone(), HeldBy::Occupied)
            );
            assert_eq!(held(system, &set_up, "C"), (None, HeldBy::Nobody));
            let cites = Engine::new(system, map, &set_up).control().rules;
            assert!(sections(&cites).contains(&"11.3"), "{cites:?}");

            // The Germans leave E: still theirs, by the record the set-up made.
            let mut p = set_up.clone();
            p.units.retain(|u| u.hex != e_hex);
            assert!(
                p.sides
                    .iter()
                    .any(|s| s.id == "germans" && s.controls.contains(&"E".into())),
                "{:?}",
                p.sides
            );
            assert_eq!(held(system, &p, "E"), (germans, HeldBy::HeldLast));
            // Without kept_when_left, an empty hex is nobody's.
            let mut forgetful = system.clone();
            forgetful.rules.control.as_mut().unwrap().kept_when_left = false;
            assert_eq!(held(&forgetful, &p, "E"), (None, HeldBy::Nobody));

            // A Mongol unit walks in: theirs; a German beside it: nobody's.
            p.units.push(typed(cx, "m", "LC", "mongols", &e_hex));
            assert_eq!(
                held(system, &p, "E"),
                (Some("mongols".into()), HeldBy::Occupied)
            );
            p.units.push(typed(cx, "g", "SD", "germans", &e_hex));
            assert_eq!(held(system, &p, "E"), (None, HeldBy::Contested));
        },
    );
}

/// PRESTAGS 6.41 and 6.44: an undisrupted fire unit's defensive fire zone stops an
/// enemy that moves next to it, so no path of the enemy's reach goes on from a hex next
/// to the bowmen; with the facing option, only from the hexes in front of them (16.32);
/// disrupted, the bowmen stop nobody, and spearmen never do.
#[test]
fn prestags_bowmen_stop_enemies_that_come_next_to_them() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (clear, next) = open_ground(map);
            // The bowmen stand two hexes from the mover, across `next`.
            let far = map
                .neighbours(next)
                .into_iter()
                .find(|h| map.distance(*h, clear) == 2)
                .unwrap();
            let mut p = set_up.clone();
            p.phase = Some("movement".into());
            p.units = vec![
                typed(cx, "mover", "HC", "normans", &clear.to_string()),
                typed(cx, "bows", "BW", "saxons", &far.to_string()),
                typed(cx, "lord", "2L", "normans", &clear.to_string()),
            ];
            let next_to_bows = |h: &str| map.distance(HexId::parse(h).unwrap(), far) == 1;
            // Whether some path of the reach moves on from a hex next to the bowmen.
            let passes = |p: &Position| {
                let reach = Engine::new(system, map, p).reach("mover").unwrap();
                assert!(reach.hexes.iter().any(|h| next_to_bows(&h.hex)));
                let on = reach.hexes.iter().any(|h| {
                    let len = h.path.len();
                    h.path[1..len - 1].iter().any(|x| next_to_bows(x))
                });
                (on, reach.rules)
            };
            let (on, rules) = passes(&p);
            assert!(!on, "6.41: it stops next to them");
            assert!(sections(&rules).contains(&"6.41"), "{rules:?}");

            // 16.32 (facing, optional): only the hexes in front of the bowmen stop.
            p.rules_on = vec!["facing".into()];
            let toward = map.grid().direction(far, next).unwrap();
            let zoned = |p: &Position| {
                let reach = Engine::new(system, map, p).reach("mover").unwrap();
                reach.at(&next.to_string()).map(|h| h.enemy_zoc)
            };
            p.units[1].facing = Some(toward);
            assert_eq!(zoned(&p), Some(true), "faced toward it");
            p.units[1].facing = Some((toward + 3) % 6);
            assert_eq!(zoned(&p), Some(false), "16.32: its flank stops nobody");
            p.rules_on.clear();
            assert_eq!(zoned(&p), Some(true), "without the option, every side");

            p.units[1].status = Some("disrupted".into());
            assert!(passes(&p).0, "disrupted bowmen stop nobody");
            p.units[1] = typed(cx, "bows", "PS", "saxons", &far.to_string());
            assert!(passes(&p).0, "spearmen are no fire unit");
        },
    );
}

/// PRESTAGS 17.0-17.5 (optional): a defender attacked in melee may retreat first when
/// its printed allowance is 3 or more above the fastest attacker's, unit by unit (17.5),
/// and not a second time (17.3); a unit that advanced attacks no more (17.4). Without
/// the option nobody retreats (8.3).
#[test]
fn prestags_fast_defenders_retreat_before_melee() {
    use muster_engine::Done;
    use muster_model::vocab::{Act, Past};
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (mut p, target) = hastings_melee(cx, &set_up);
            // Medium cavalry (9) and swordsmen (4) against professional pikemen (4).
            let next = p.units[1].hex.clone();
            p.units[0] = typed(cx, "d", "MC", "saxons", target);
            p.units.push(typed(cx, "s", "SD", "saxons", target));
            let attack = |p: &Position, by: &[&str]| {
                Engine::new(system, map, p)
                    .combat(by, "d", &BTreeMap::new())
                    .unwrap()
            };
            assert!(
                attack(&p, &["a"]).may_retreat.is_empty(),
                "8.3 without 17.0"
            );

            p.rules_on = vec!["retreat-before-combat".into()];
            let fast = attack(&p, &["a"]);
            assert_eq!(fast.may_retreat, ["d"], "17.5: the swordsmen stay");
            assert!(sections(&fast.rules).contains(&"17.0"), "{:?}", fast.rules);

            // Heavy cavalry (7) joins: 9 is only 2 above it.
            p.units.push(typed(cx, "h", "HC", "normans", &next));
            assert!(attack(&p, &["a", "h"]).may_retreat.is_empty());
            p.units.pop();

            p.units[0].did = vec![Done {
                act: Act::Retreat,
                when: Past::ThisPlayerTurn,
            }];
            assert!(attack(&p, &["a"]).may_retreat.is_empty(), "17.3");
            p.units[0].did.clear();
            // 17.3: nor may units in the hex a unit retreated into.
            p.units[2].did = vec![Done {
                act: Act::Retreat,
                when: Past::ThisPlayerTurn,
            }];
            assert!(attack(&p, &["a"]).may_retreat.is_empty(), "17.3, the hex");
            p.units[2].did.clear();

            // 17.1: with every other hex round it held by the enemy, it stays.
            let e = Engine::new(system, map, &p);
            let round: Vec<String> = e
                .map
                .neighbours(e.hex(target).unwrap())
                .into_iter()
                .map(|h| h.to_string())
                .filter(|h| *h != next)
                .collect();
            let before = p.units.len();
            for (k, h) in round.iter().enumerate() {
                p.units
                    .push(typed(cx, &format!("ring{k}"), "PP", "normans", h));
            }
            assert!(attack(&p, &["a"]).may_retreat.is_empty(), "17.1");
            p.units.pop();
            assert_eq!(attack(&p, &["a"]).may_retreat, ["d"], "one hex open");
            p.units.truncate(before);

            p.units[1].did = vec![Done {
                act: Act::Advance,
                when: Past::ThisPlayerTurn,
            }];
            let refused = Engine::new(system, map, &p)
                .combat(&["a"], "d", &BTreeMap::new())
                .unwrap_err()
                .to_string();
            assert!(
                refused.contains("no-attack-after-advance") && refused.contains("17.4"),
                "{refused}"
            );
        },
    );
}

/// PRESTAGS 14.31-14.32 (optional): classes A and B on a slope shrug off a D; a class
/// C unit stacked with them suffers it, and so do they off the slope or without the
/// option.
#[test]
fn prestags_only_foot_hold_steady_on_a_slope() {
    use muster_model::system::ResultEffect;
    with_scenario(
        "scenarios/prestags/4-1-qadisiya.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let hex_of = |terrain: &str| {
                map.grid()
                    .hexes()
                    .find(|h| map.terrain_id_at(*h) == Some(terrain))
                    .unwrap_or_else(|| panic!("no {terrain} hex"))
                    .to_string()
            };
            let mut p = set_up.clone();
            p.phase = Some("melee".into());
            let slope = hex_of("slope");
            p.units = vec![
                typed(cx, "foot", "SD", "persians", &slope),
                typed(cx, "horse", "HC", "persians", &slope),
            ];
            let hit = |p: &Position, id: &str| {
                Engine::new(system, map, p).outcome(id, "D", false).unwrap()
            };
            assert_eq!(hit(&p, "foot").effects, [ResultEffect::Disrupted]);

            p.rules_on = vec!["elevation".into()];
            let steady = hit(&p, "foot");
            assert_eq!(steady.ignored, ["D"], "14.31");
            assert!(sections(&steady.rules).contains(&"14.31"));
            assert_eq!(hit(&p, "horse").effects, [ResultEffect::Disrupted], "14.32");

            let clear = hex_of("clear");
            for u in &mut p.units {
                u.hex = clear.clone();
            }
            assert_eq!(hit(&p, "foot").effects, [ResultEffect::Disrupted]);
        },
    );
}

/// A side's record of play: the Vikings' ferocity of Hamburg (Excl 3.61, 3.71) moves from
/// the first attack's column to a die modifier once the side has attacked in melee, and
/// is lost once its losses reach its threshold (3.9). Their fiercer defence (3.81) waits
/// for the game turn after the first attack: an attack made earlier in the same game
/// turn does not give it.
#[test]
fn hamburg_s_ferocity_follows_the_side_s_record() {
    with_scenario(
        "scenarios/prestags/4-6-hamburg.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let mut p = hamburg_melee(cx, &set_up);
            let ferocity = |p: &Position| {
                let c = Engine::new(system, map, p)
                    .combat(&["viking"], "german", &BTreeMap::new())
                    .unwrap();
                let mut out: Vec<(String, f64)> = c
                    .shifts
                    .iter()
                    .chain(&c.die_modifiers)
                    .filter(|m| m.what.starts_with("viking"))
                    .map(|m| (m.what.clone(), m.value))
                    .collect();
                out.sort_by(|a, b| a.0.cmp(&b.0));
                out
            };
            assert_eq!(ferocity(&p), [("viking-first-attack".to_string(), 1.0)]);
            let vikings = p.sides.iter().position(|s| s.id == "vikings").unwrap();
            p.sides[vikings].acted = vec![muster_model::vocab::Act::Melee];
            assert_eq!(ferocity(&p), [("viking-later-attacks".to_string(), 1.0)]);
            let defence = |p: &Position| {
                let c = Engine::new(system, map, p)
                    .combat(&["german"], "viking", &BTreeMap::new())
                    .unwrap();
                c.die_modifiers
                    .iter()
                    .filter(|m| m.what.starts_with("viking"))
                    .map(|m| (m.what.clone(), m.value))
                    .collect::<Vec<_>>()
            };
            assert_eq!(defence(&p), [], "the first attack's game turn (3.81)");
            let mut next_turn = p.clone();
            next_turn.sides[vikings].acted = vec![];
            next_turn.sides[vikings].acted_earlier_turns = vec![muster_model::vocab::Act::Melee];
            assert_eq!(
                defence(&next_turn),
                [("viking-later-defence".to_string(), -1.0)]
            );
            assert_eq!(
                ferocity(&next_turn),
                [("viking-later-attacks".to_string(), 1.0)],
                "an earlier game turn is an earlier player-turn too"
            );
            p.sides[vikings].morale_threshold = Some(6);
            p.sides[vikings].losses = 5;
            assert_eq!(ferocity(&p).len(), 1, "one short of the threshold");
            p.sides[vikings].losses = 6;
            assert_eq!(ferocity(&p), [], "panicked (3.9)");
        },
    );
}

/// PRESTAGS Excl 3.72 and 3.82: the Vikings' +1 never takes a roll above six, their
/// -1 never below one. The engine reads each face at its modified roll, kept to the
/// table's edge rows by `rolls_beyond: EdgeRow`; without it a six plus one falls past
/// the rows and has no result.
#[test]
fn prestags_a_viking_six_stays_six() {
    use muster_model::vocab::Act;
    with_scenario(
        "scenarios/prestags/4-6-hamburg.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let mut p = hamburg_melee(cx, &set_up);
            let vikings = p.sides.iter().position(|s| s.id == "vikings").unwrap();
            p.sides[vikings].acted_earlier_turns = vec![Act::Melee];
            let read = |system: &muster_model::system::RulesSystem, a: &str, d: &str| {
                let c = Engine::new(system, map, &p)
                    .combat(&[a], d, &BTreeMap::new())
                    .unwrap();
                let by: f64 = c.die_modifiers.iter().map(|m| m.value).sum();
                let face = |n: u8| c.results.iter().find(|r| r.die == n).unwrap();
                let at = |n: u8| c.modified.iter().find(|r| r.die == n).unwrap();
                let read = |n: u8| (at(n).roll, at(n).result.clone());
                let printed = |n: u8| Some(face(n).result.clone());
                (by, read(1), read(6), printed(1), printed(2), printed(6))
            };
            let (by, one, six, _, printed_two, printed_six) = read(system, "viking", "german");
            assert_eq!(by, 1.0, "viking-later-attacks");
            assert_eq!(one, (2, printed_two), "a one reads as a two");
            assert_eq!(six, (6, printed_six), "a six stays six (3.72)");
            let (by, one, _, printed_one, ..) = read(system, "german", "viking");
            assert_eq!(by, -1.0, "viking-later-defence");
            assert_eq!(one, (1, printed_one), "a one stays one (3.82)");

            let mut unbounded = system.clone();
            unbounded.combat_results.as_mut().unwrap().rolls_beyond = None;
            let (_, _, six, ..) = read(&unbounded, "viking", "german");
            assert_eq!(six, (7, None), "past the rows, no result");
        },
    );
}

/// Durazzo's special rule (`stacking-override`, desugared to `StackingLimit(3)` for the
/// Norman HC) lets a third HC join two in a hex where the side's limit is two; a Norman
/// unit of another kind is still held to two, and without the rule so is the HC.
#[test]
fn durazzo_s_horse_stack_three_by_its_special_rule() {
    with_scenario(
        "scenarios/prestags/6-2-durazzo.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let normans = set_up.sides.iter().find(|s| s.id == "normans").unwrap();
            assert_eq!(normans.stacking_limit, Some(2));
            let e0 = Engine::new(system, map, &set_up);
            let open = open_ground(e0.map).0;
            let next = e0.map.neighbours(open)[0].to_string();
            let stack = open.to_string();
            let mut p = set_up.clone();
            p.units = vec![
                typed(cx, "hc1", "HC", "normans", &stack),
                typed(cx, "hc2", "HC", "normans", &stack),
                typed(cx, "hc3", "HC", "normans", &next),
            ];
            let reaches = |p: &Position, id: &str| {
                Engine::new(system, map, p)
                    .reach(id)
                    .unwrap()
                    .hexes
                    .iter()
                    .any(|h| h.hex == stack)
            };
            assert!(reaches(&p, "hc3"), "three HC by the special rule");
            p.units[2] = typed(cx, "pp", "PP", "normans", &next);
            assert!(!reaches(&p, "pp"), "other Normans stack two");
            p.units[2] = typed(cx, "hc3", "HC", "normans", &next);
            p.rules.retain(|r| r.id != "stacking-override");
            assert!(!reaches(&p, "hc3"), "two without the rule");
        },
    );
}

/// PRESTAGS 16.0 (optional facing): a unit attacked in melee through a flank hexside
/// defends at half (16.21), and a unit melees only through its front (16.2). Facing 0
/// is north: a defender facing north is flanked from the south, and an attacker facing
/// south may not attack the hex north of it.
#[test]
fn prestags_facing_halves_a_flanked_defender_and_holds_a_turned_attacker() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (mut p, target) = hastings_melee(cx, &set_up);
            p.rules_on = vec!["facing".into()];
            let d = HexId::parse(target).unwrap();
            let toward = |dir: u8| {
                map.neighbours(d)
                    .into_iter()
                    .find(|n| map.grid().direction(d, *n) == Some(dir))
                    .unwrap()
                    .to_string()
            };
            p.units[0].facing = Some(0);
            p.units[1].hex = toward(3);
            p.units[1].facing = Some(0);
            let attack =
                |p: &Position| Engine::new(system, map, p).combat(&["a"], "d", &BTreeMap::new());
            let flanked = attack(&p).unwrap();
            assert_eq!(flanked.defence, 2.0, "PS 4 halved: {flanked:?}");
            assert!(sections(&flanked.rules).contains(&"16.21"));
            p.units[1].hex = toward(0);
            p.units[1].facing = Some(3);
            let head_on = attack(&p).unwrap();
            assert_eq!(head_on.defence, 4.0);
            assert!(!sections(&head_on.rules).contains(&"16.21"));
            p.units[1].facing = Some(0);
            let turned = attack(&p).unwrap_err().to_string();
            assert!(
                turned.contains("front-melees") && turned.contains("16.2"),
                "{turned}"
            );
            p.rules_on.clear();
            assert_eq!(
                attack(&p).unwrap().defence,
                4.0,
                "without the optional rule"
            );

            // 16.25's own example: heavy cavalry [4] defends at 2 (3.37), at 1 when
            // flanked.
            p.units[0] = Unit {
                facing: Some(0),
                ..typed(cx, "d", "HC", "saxons", target)
            };
            assert_eq!(attack(&p).unwrap().defence, 2.0, "3.37");
            p.rules_on = vec!["facing".into()];
            p.units[1].hex = toward(3);
            let flanked = attack(&p).unwrap();
            assert_eq!(flanked.defence, 1.0, "16.25: {flanked:?}");
            assert!(sections(&flanked.rules).contains(&"3.37"));
        },
    );
}

/// PRESTAGS 3.36-3.37: a unit with a dot for its melee strength never attacks in melee
/// and defends at 1 alone but at 0 beside a unit with a strength; a bracketed strength
/// attacks in full and defends at half.
#[test]
fn prestags_dots_and_brackets_in_melee() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (mut p, target) = hastings_melee(cx, &set_up);
            let next = p.units[1].hex.clone();
            let combat = |p: &Position, by: &str, at: &str| {
                Engine::new(system, map, p).combat(&[by], at, &BTreeMap::new())
            };
            p.units[0] = typed(cx, "d", "BW", "saxons", target);
            assert_eq!(combat(&p, "a", "d").unwrap().defence, 1.0, "a dot alone");
            p.units.push(typed(cx, "s", "PS", "saxons", target));
            let beside = combat(&p, "a", "d").unwrap();
            assert_eq!(
                beside.defence, 4.0,
                "the PS's 4 and the dot's 0: {beside:?}"
            );
            assert!(sections(&beside.rules).contains(&"3.36"));
            p.units.pop();

            p.units[1] = typed(cx, "a", "BW", "normans", &next);
            p.units[0] = typed(cx, "d", "PS", "saxons", target);
            let refused = combat(&p, "a", "d").unwrap_err().to_string();
            assert!(refused.contains("dot-no-melee-attack"), "{refused}");

            p.units[1] = typed(cx, "a", "HC", "normans", &next);
            let horse = combat(&p, "a", "d").unwrap();
            assert_eq!(horse.attack, 4.0, "3.37: brackets attack in full");
            assert!(!sections(&horse.rules).contains(&"3.37"));
        },
    );
}

/// PRESTAGS 6.22: against fire the hex defends, not its units: bowmen firing at one
/// unit or at two stacked in clear meet the clear hex's protection (2), whatever the
/// unit's plot (23.12) or facing (16.33), in woods the woods' (4); a fleet carries its
/// own 4 wherever it floats (Excl 3.25). A melee attack on the same hex is still
/// strength against strength.
#[test]
fn prestags_fire_meets_the_hex_s_protection() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let bowmen = |hex: &str| Unit {
                range: Some(2),
                fire: Some(2.0),
                ..typed(cx, "bowmen", "BW", "normans", hex)
            };
            // A target hex of `terrain` with a hex two away to shoot from.
            let lane = |terrain: &str, from: &str| {
                map.grid()
                    .hexes()
                    .filter(|h| map.terrain_id_at(*h) == Some(terrain))
                    .find_map(|d| {
                        let a = map.grid().hexes().find(|a| {
                            map.distance(*a, d) == 2 && map.terrain_id_at(*a) == Some(from)
                        })?;
                        Some((d.to_string(), a.to_string()))
                    })
                    .unwrap_or_else(|| panic!("no {terrain} hex two from {from}"))
            };
            let fire = |p: &Position| {
                let c = Engine::new(system, map, p)
                    .combat(&["bowmen"], "d1", &BTreeMap::new())
                    .unwrap();
                (c.attack, c.defence, c.protection.map(|m| m.what))
            };
            let (d, a) = lane("clear", "clear");
            let mut p = set_up.clone();
            p.units = vec![bowmen(&a), typed(cx, "d1", "PS", "saxons", &d)];
            let one = fire(&p);
            assert_eq!(one, (2.0, 2.0, Some("fire protection of clear".into())));
            p.units.push(typed(cx, "d2", "MS", "saxons", &d));
            assert_eq!(fire(&p), one, "two units defend as the hex");

            // 23.12 and 16.33: a unit plotted to move, or fired on through its flank,
            // still meets the fire with the hex's full protection.
            p.units.truncate(2);
            p.rules_on = vec!["simultaneous-movement".into(), "facing".into()];
            p.units[1].plotted = Some("mv".into());
            for facing in 0..6 {
                p.units[1].facing = Some(facing);
                assert_eq!(fire(&p), one, "facing {facing}");
            }
            p.rules_on.clear();
            p.units[1].plotted = None;
            p.units[1].facing = None;

            let (d, a) = lane("woods", "clear");
            p.units = vec![bowmen(&a), typed(cx, "d1", "PS", "saxons", &d)];
            assert_eq!(fire(&p).1, 4.0);

            let (d, a) = lane("river", "clear");
            p.units = vec![bowmen(&a), typed(cx, "d1", "VF", "saxons", &d)];
            let (_, defence, what) = fire(&p);
            assert_eq!(defence, 4.0, "{what:?}");
            assert!(
                what.as_deref()
                    .is_some_and(|w| w.contains("fleet-protection")),
                "{what:?}"
            );

            let (d, _) = lane("clear", "clear");
            let next = map.neighbours(HexId::parse(&d).unwrap())[0].to_string();
            p.units = vec![
                typed(cx, "a", "PP", "normans", &next),
                typed(cx, "d1", "PS", "saxons", &d),
            ];
            let melee = Engine::new(system, map, &p)
                .combat(&["a"], "d1", &BTreeMap::new())
                .unwrap();
            assert_eq!((melee.defence, melee.protection), (4.0, None));
        },
    );
}

/// LRF 9.4 as the engine resolves a result: baggage ignores R and T, a unit stacked
/// with baggage ignores R but still takes its step loss, and a unit alone takes all.
#[test]
fn lrf_baggage_shrugs_off_retreats() {
    with_scenario("scenarios/lrf/brissarthe.scenario.ron", |cx, set_up| {
        let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
        let unit = |id: &str, kind: &str, hex: &str| Unit {
            id: id.into(),
            kind: kind.into(),
            side: Some("vikings".into()),
            hex: hex.into(),
            strength: 1.0,
            ..Unit::default()
        };
        let mut p = set_up.clone();
        p.units = vec![
            unit("baggage", "baggage", "0808"),
            unit("guard", "infantry", "0808"),
            unit("alone", "infantry", "0810"),
        ];
        let e = Engine::new(system, map, &p);
        let took = |id: &str, result: &str| {
            let o = e.outcome(id, result, false).unwrap();
            (o.codes, o.ignored)
        };
        let s = |list: &[&str]| list.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(took("baggage", "DRT"), (s(&[]), s(&["R", "T"])));
        assert_eq!(took("guard", "D1R"), (s(&["1"]), s(&["R"])));
        assert_eq!(took("alone", "D1R"), (s(&["1", "R"]), s(&[])));
        let cites = e.outcome("guard", "D1R", false).unwrap().rules;
        assert!(sections(&cites).contains(&"9.4"), "{cites:?}");
    });
}

/// LRF 9.4: baggage always defends at 1, never modified by the terrain. Alone in woods
/// it meets its attacker at 1 with no column shift; infantry in the same woods defends
/// with the woods' shift; infantry stacked with baggage, attacked, adds the baggage's 1
/// to its own and keeps the woods.
#[test]
fn lrf_baggage_defends_at_one_whatever_the_terrain() {
    with_scenario("scenarios/lrf/brissarthe.scenario.ron", |cx, set_up| {
        let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
        let woods = map
            .grid()
            .hexes()
            .find(|h| {
                map.terrain_id_at(*h) == Some("woods")
                    && map
                        .neighbours(*h)
                        .iter()
                        .any(|n| map.terrain_id_at(*n) == Some("clear"))
            })
            .expect("Brissarthe has woods next to clear ground");
        let clear = map
            .neighbours(woods)
            .into_iter()
            .find(|n| map.terrain_id_at(*n) == Some("clear"))
            .unwrap();
        let unit = |id: &str, kind: &str, side: &str, hex: HexId, strength: f64| Unit {
            id: id.into(),
            kind: kind.into(),
            side: Some(side.into()),
            hex: hex.to_string(),
            strength,
            ..Unit::default()
        };
        let mut p = set_up.clone();
        let attacker = unit("franks", "infantry", "franks", clear, 3.0);
        let fight = |p: &Position, defender: &str| {
            let c = Engine::new(system, map, p)
                .combat(&["franks"], defender, &BTreeMap::new())
                .unwrap();
            let shifts: f64 = c.shifts.iter().map(|m| m.value).sum();
            (c.defence, shifts, c.rules)
        };
        p.units = vec![
            attacker.clone(),
            unit("wagons", "baggage", "vikings", woods, 2.0),
        ];
        let (defence, shifts, rules) = fight(&p, "wagons");
        assert_eq!((defence, shifts), (1.0, 0.0), "{rules:?}");
        assert!(
            rules
                .iter()
                .any(|r| r.rule.contains("baggage-defends-at-1")),
            "{rules:?}"
        );
        p.units = vec![
            attacker.clone(),
            unit("spears", "infantry", "vikings", woods, 2.0),
        ];
        assert_eq!(fight(&p, "spears").1, -1.0);
        p.units = vec![
            attacker,
            unit("wagons", "baggage", "vikings", woods, 2.0),
            unit("spears", "infantry", "vikings", woods, 2.0),
        ];
        let (defence, shifts, _) = fight(&p, "spears");
        assert_eq!((defence, shifts), (3.0, -1.0));
    });
}

/// PRESTAGS 16.1 and 16.11 (optional facing): a unit moves only into its front hexes,
/// and turns in place for one MP. Facing north, spearmen in open ground reach the hex
/// north of them with as much left as without the rule, and the hex south with one MP
/// less (the turn); the answer cites 16.1 and the turning cost.
#[test]
fn prestags_a_faced_unit_turns_to_move_behind_it() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (h, _) = open_ground(map);
            let toward = |dir: u8| {
                map.neighbours(h)
                    .into_iter()
                    .find(|n| map.grid().direction(h, *n) == Some(dir))
                    .unwrap()
                    .to_string()
            };
            let mut p = set_up.clone();
            // Stacked with a leader: within a control radius, at its whole allowance.
            p.units = vec![
                Unit {
                    facing: Some(0),
                    ..typed(cx, "d", "PS", "saxons", &h.to_string())
                },
                typed(cx, "earl", "2L", "saxons", &h.to_string()),
            ];
            let left = |p: &Position| {
                let r = Engine::new(system, map, p).reach("d").unwrap();
                let at = |hex: &str| r.hexes.iter().find(|x| x.hex == hex).map(|x| x.mp_left);
                let cited: Vec<String> = sections(&r.rules).iter().map(|s| s.to_string()).collect();
                (at(&toward(0)), at(&toward(3)), cited)
            };
            let (north, south, _) = left(&p);
            let (north, south) = (north.unwrap(), south.unwrap());
            p.rules_on = vec!["facing".into()];
            let (faced_north, faced_south, cites) = left(&p);
            assert_eq!(faced_north, Some(north));
            assert_eq!(faced_south, Some(south - 1.0));
            assert!(
                cites.contains(&"16.1".to_string()) && cites.contains(&"16.0".to_string()),
                "{cites:?}"
            );
            let r = Engine::new(system, map, &p).reach("d").unwrap();
            let behind = r.hexes.iter().find(|x| x.hex == toward(3)).unwrap();
            assert_eq!(behind.path, [h.to_string(), toward(3)]);
        },
    );
}

/// PRESTAGS Excl 3.23: a disrupted fleet moves at half its allowance, by the rule
/// `disrupted-fleet-at-half`; an undisrupted fleet, and a disrupted unit of another
/// kind, keep their printed allowance.
#[test]
fn prestags_a_disrupted_fleet_moves_at_half() {
    with_scenario(
        "scenarios/prestags/4-6-hamburg.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (here, _) = open_ground(map);
            let mut p = set_up.clone();
            p.units = vec![
                typed(cx, "fleet", "VF", "vikings", &here.to_string()),
                typed(cx, "spears", "PS", "germans", &here.to_string()),
                typed(cx, "count", "2L", "germans", &here.to_string()),
            ];
            let allowance = |p: &Position, i: usize| {
                let (mp, rules) = Engine::new(system, map, p).allowance_of(i);
                (mp, rules.into_iter().map(|r| r.rule).collect::<Vec<_>>())
            };
            assert_eq!(allowance(&p, 0), (15.0, vec![]));
            for u in &mut p.units {
                u.status = Some("disrupted".into());
            }
            let (mp, rules) = allowance(&p, 0);
            assert_eq!(mp, 7.5);
            assert!(
                rules.iter().any(|r| r.contains("disrupted-fleet-at-half")),
                "{rules:?}"
            );
            assert_eq!(allowance(&p, 1), (3.0, vec![]));
        },
    );
}

/// PRESTAGS 6.33: fire units may not fire from a stream or ford hex (the rule
/// `no-fire-from-water`); the same bowmen in clear ground fire at the same target.
#[test]
fn prestags_no_fire_from_a_ford() {
    with_scenario(
        "scenarios/prestags/4-6-hamburg.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let grid = map.grid();
            // A clear target hex with a ford and a clear hex both two hexes from it.
            let (target, ford, clear) = grid
                .hexes()
                .filter(|d| map.terrain_id_at(*d) == Some("clear"))
                .find_map(|d| {
                    let two = |t: &str| {
                        grid.hexes()
                            .find(|a| map.distance(*a, d) == 2 && map.terrain_id_at(*a) == Some(t))
                    };
                    Some((d, two("ford")?, two("clear")?))
                })
                .expect("Hamburg's map has a ford two hexes from clear ground");
            let mut p = set_up.clone();
            let bowmen = |hex: HexId| Unit {
                range: Some(2),
                fire: Some(2.0),
                ..typed(cx, "bowmen", "BW", "vikings", &hex.to_string())
            };
            let fire = |p: &Position| {
                Engine::new(system, map, p).combat(&["bowmen"], "d1", &BTreeMap::new())
            };
            p.units = vec![
                bowmen(ford),
                typed(cx, "d1", "PS", "germans", &target.to_string()),
            ];
            let refused = fire(&p).expect_err("no fire from a ford");
            let reason = refused.to_string();
            assert!(
                reason.contains("no-fire-from-water") && reason.contains("6.33"),
                "{reason}"
            );
            p.units[0] = bowmen(clear);
            assert!(fire(&p).is_ok(), "{:?}", fire(&p).err());
        },
    );
}

/// PRESTAGS 10.2-10.23: a unit beginning its move beyond every friendly leader's
/// control radius moves at half its allowance; a 2L controls two hexes around it. 10.22:
/// where a side's leadership note is `Mt. Ex.` (El Mansura's Arabs), its mounted units
/// are exempt, and its foot are not; the French, with no such note, are not exempt.
#[test]
fn prestags_units_beyond_a_leader_s_radius_move_at_half() {
    with_scenario(
        "scenarios/prestags/6-6-el-mansura.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let (here, _) = open_ground(map);
            let at = |d: u32| {
                map.grid()
                    .hexes()
                    .find(|h| map.distance(*h, here) == d)
                    .unwrap()
                    .to_string()
            };
            let h = here.to_string();
            let allowance = |p: &Position, id: &str| {
                let e = Engine::new(system, map, p);
                let i = p.units.iter().position(|u| u.id == id).unwrap();
                let (mp, rules) = e.allowance_of(i);
                (
                    mp,
                    sections(&rules)
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>(),
                )
            };
            let mut p = set_up.clone();
            p.units = vec![typed(cx, "foot", "MI", "french", &h)];
            assert_eq!(allowance(&p, "foot"), (1.5, vec!["10.23".to_string()]));
            p.units.push(typed(cx, "king", "2L", "french", &at(2)));
            assert_eq!(allowance(&p, "foot"), (3.0, vec![]));
            p.units[1].hex = at(3);
            assert_eq!(allowance(&p, "foot").0, 1.5);
            // An enemy leader controls nobody on this side.
            p.units[1] = typed(cx, "emir", "2L", "arabs", &h);
            assert_eq!(allowance(&p, "foot").0, 1.5);

            p.units = vec![
                typed(cx, "riders", "MC", "arabs", &h),
                typed(cx, "foot", "MI", "arabs", &at(4)),
                typed(cx, "knights", "HC", "french", &at(8)),
            ];
            assert_eq!(allowance(&p, "riders"), (9.0, vec![]), "Mt. Ex.");
            assert_eq!(allowance(&p, "foot").0, 1.5);
            assert_eq!(allowance(&p, "knights").0, 3.5);
            // A unit the position gives no side is not judged.
            p.units[2].side = None;
            assert_eq!(allowance(&p, "knights").0, 7.0);
        },
    );
}
