//! The rulebooks' printed examples, computed from the bundled data: the LRF combat
//! example at Fontenoy, PRESTAGS 7.32's rounding, the Viking fleet of Excl 3.41, the
//! minimum move of 5.15 and the lines of sight of 6.32-6.38.

use std::collections::BTreeMap;

mod common;

use common::open_ground;
use muster_engine::{Engine, Position, Unit, from_scenario, odds_column};
use muster_hex::HexId;
use muster_semantic::{FileCx, ScenarioCx};
use muster_testkit::db::{bundled, index};

/// The position of a bundled scenario's set-up, its system and its map, handed to `f`.
fn with_scenario(rel: &str, f: impl FnOnce(&ScenarioCx, Position)) {
    let db = bundled();
    let cx = ScenarioCx::new(FileCx::new(&db, index(&db, rel)).unwrap()).unwrap();
    let position = from_scenario(&cx, 1);
    f(&cx, position);
}

fn unit(position: &Position, id: &str) -> Unit {
    position
        .units
        .iter()
        .find(|u| u.id == id)
        .cloned()
        .unwrap_or_else(|| panic!("no {id} in the set-up"))
}

/// A unit of `kind` for `side` on `hex`, with the kind's printed values.
fn typed(cx: &ScenarioCx, id: &str, kind: &str, side: &str, hex: &str) -> Unit {
    let k = cx.unit_kind(kind).unwrap();
    let (strength, movement) = match &k.stats {
        Some(muster_model::system::KindStats::Counter {
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

fn place(mut u: Unit, hex: &str) -> Unit {
    u.hex = hex.into();
    u
}

/// LRF, "Example of combat": Lothaire's units attack Provence in Fontenoy (0708).
fn fontenoy_example(cx: &ScenarioCx, set_up: &Position, aquitaine_at: &str) -> Position {
    let mut p = set_up.clone();
    let provence = Unit {
        id: "provence".into(),
        kind: "infantry".into(),
        side: Some("allies".into()),
        hex: "0708".into(),
        strength: 2.0,
        movement: 2.0,
        ..Unit::default()
    };
    let counter = cx
        .counters
        .unwrap()
        .armies
        .iter()
        .flat_map(|a| &a.counters)
        .find(|c| c.id == "provence")
        .unwrap();
    assert_eq!(
        f64::from(counter.strength),
        provence.strength,
        "Provence is printed 2FP"
    );
    p.units = vec![
        provence,
        place(unit(set_up, "austrasie-cavalry"), "0707"),
        place(unit(set_up, "bourgogne-infantry"), "0807"),
        place(unit(set_up, "fontenoy-lothaire-bowmen"), "0706"),
        place(unit(set_up, "aquitaine-cavalry"), aquitaine_at),
        place(unit(set_up, "lothaire"), aquitaine_at),
        place(unit(set_up, "fontenoy-neustrie-cavalry-3"), "0611"),
    ];
    p
}

fn paths(unit: &str, hexes: &[&str]) -> BTreeMap<String, Vec<String>> {
    BTreeMap::from([(
        unit.to_string(),
        hexes.iter().map(|h| h.to_string()).collect(),
    )])
}

#[test]
fn fontenoy_combat_example() {
    with_scenario("scenarios/lrf/fontenoy.scenario.ron", |cx, set_up| {
        let p = fontenoy_example(cx, &set_up, "0709");
        let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
        let none = BTreeMap::new();

        // 5FP against 2FP: 2 to 1, with the village and the creek each +1 on the die.
        let c = e
            .combat(
                &["austrasie-cavalry", "bourgogne-infantry"],
                "provence",
                &none,
            )
            .unwrap();
        assert_eq!((c.attack, c.defence, c.ratio.as_str()), (5.0, 2.0, "5:2"));
        assert_eq!(c.column.as_deref(), Some("2/1"));
        let dice: Vec<(String, f64, Option<&str>)> = c
            .die_modifiers
            .iter()
            .map(|m| (m.what.clone(), m.value, m.section.as_deref()))
            .collect();
        // Both cite 9.6, the terrain modifiers of combat.
        assert_eq!(
            dice,
            [
                ("defender in village".to_string(), 1.0, Some("9.6")),
                (
                    "every attacker across the creek".to_string(),
                    1.0,
                    Some("9.6")
                )
            ]
        );

        // The bowmen add 1FP from range: 6 against 2, 3 to 1; the creek still counts.
        let c = e
            .combat(
                &[
                    "austrasie-cavalry",
                    "bourgogne-infantry",
                    "fontenoy-lothaire-bowmen",
                ],
                "provence",
                &none,
            )
            .unwrap();
        assert_eq!((c.attack, c.column.as_deref()), (6.0, Some("3/1")));
        assert!(
            c.attackers
                .iter()
                .any(|s| s.unit == "fontenoy-lothaire-bowmen" && s.at_range)
        );
        assert_eq!(c.die_modifiers.len(), 2);

        // Aquitaine charges through 0710 then 0709: 3 + 2 (charge) + 0 (Lothaire) = 11
        // against 2, 4 to 1; from the defender's side of the creek, the creek's +1 goes.
        let all = [
            "austrasie-cavalry",
            "bourgogne-infantry",
            "fontenoy-lothaire-bowmen",
            "aquitaine-cavalry",
            "lothaire",
        ];
        let c = e
            .combat(
                &all,
                "provence",
                &paths("aquitaine-cavalry", &["0710", "0709"]),
            )
            .unwrap();
        let aquitaine = c
            .attackers
            .iter()
            .find(|s| s.unit == "aquitaine-cavalry")
            .unwrap();
        assert_eq!(aquitaine.base, 3.0);
        assert_eq!(
            aquitaine
                .modifiers
                .iter()
                .map(|m| (m.what.as_str(), m.value, m.section.as_deref()))
                .collect::<Vec<_>>(),
            [("charge", 2.0, Some("9.2"))]
        );
        assert_eq!(
            c.attackers
                .iter()
                .find(|s| s.unit == "lothaire")
                .unwrap()
                .total,
            0.0
        );
        assert_eq!(
            (c.attack, c.defence, c.ratio.as_str(), c.column.as_deref()),
            (11.0, 2.0, "11:2", Some("4/1"))
        );
        assert!(c.charges[0].charge, "{:?}", c.charges);
        let dice: Vec<&str> = c.die_modifiers.iter().map(|m| m.what.as_str()).collect();
        assert_eq!(
            dice,
            ["defender in village"],
            "the creek bonus is cancelled"
        );

        // No charge by 0810, 0809 then 0709: the move turns.
        let c = e
            .combat(
                &["aquitaine-cavalry"],
                "provence",
                &paths("aquitaine-cavalry", &["0810", "0809", "0709"]),
            )
            .unwrap();
        assert!(!c.charges[0].charge);
        assert!(
            c.charges[0]
                .reason
                .as_deref()
                .unwrap()
                .contains("turns at 0809"),
            "{:?}",
            c.charges[0]
        );
        assert_eq!(c.attack, 3.0);
    });
}

#[test]
fn fontenoy_paths_the_book_refuses() {
    with_scenario("scenarios/lrf/fontenoy.scenario.ron", |cx, set_up| {
        // 0810, 0809 then 0808: a straight line, but not towards Fontenoy.
        let p = fontenoy_example(cx, &set_up, "0808");
        let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
        let c = e
            .combat(
                &["aquitaine-cavalry"],
                "provence",
                &paths("aquitaine-cavalry", &["0810", "0809", "0808"]),
            )
            .unwrap();
        let j = &c.charges[0];
        assert!(!j.charge);
        assert!(
            j.reason.as_deref().unwrap().contains("not straight ahead"),
            "{j:?}"
        );
        assert_eq!(c.attack, 3.0);

        // Against Neustrie in 0611: 0811 then 0711, or 0811 then 0712.
        for via in ["0711", "0712"] {
            let p = fontenoy_example(cx, &set_up, via);
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            let c = e
                .combat(
                    &["aquitaine-cavalry"],
                    "fontenoy-neustrie-cavalry-3",
                    &paths("aquitaine-cavalry", &["0811", via]),
                )
                .unwrap();
            let j = &c.charges[0];
            assert!(!j.charge, "{j:?}");
            assert_eq!(
                j.reason.as_deref(),
                Some(format!(
                    "the target in 0611 is not straight ahead of the move (it turns at {via})"
                ))
                .as_deref(),
                "{j:?}"
            );
            assert_eq!(j.section.as_deref(), Some("9.2"));
        }
        // The same straight run that reaches 0611 is a charge: the refusals are the path's.
        let p = fontenoy_example(cx, &set_up, "0612");
        let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
        let c = e
            .combat(
                &["aquitaine-cavalry"],
                "fontenoy-neustrie-cavalry-3",
                &paths("aquitaine-cavalry", &["0614", "0613", "0612"]),
            )
            .unwrap();
        assert!(c.charges[0].charge, "{:?}", c.charges[0]);
        assert_eq!(c.attack, 5.0);
    });
}

#[test]
fn odds_are_rounded_for_the_defender_within_the_bounds() {
    with_scenario("scenarios/lrf/fontenoy.scenario.ron", |cx, _| {
        let t = cx.system.unwrap().combat_results.as_ref().unwrap();
        let col = |a: f64, d: f64| t.odds[odds_column(t, a, d).unwrap()].clone();
        // LRF 9.5: rounded in the defender's favour; 1/2 to 4/1.
        assert_eq!(col(5.0, 2.0), "2/1");
        assert_eq!(col(7.0, 5.0), "1/1");
        assert_eq!(col(1.0, 5.0), "1/2");
        assert_eq!(col(9.0, 1.0), "4/1");
    });
    with_scenario("scenarios/prestags/5-7-hastings.scenario.ron", |cx, _| {
        let t = cx.system.unwrap().combat_results.as_ref().unwrap();
        // PRESTAGS 7.32: 26 against 9 is 2 to 1.
        assert_eq!(t.odds[odds_column(t, 26.0, 9.0).unwrap()], "2-1");
        assert_eq!(t.odds[odds_column(t, 90.0, 9.0).unwrap()], "8-1");
    });
}

#[test]
fn prestags_26_against_9_is_two_to_one() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let mut p = set_up.clone();
            // Nine defending strength points in 2020: PS 4 + MS 3 + MI 2; 26 attacking from
            // five hexes round it: PP 6 + PP 6 + PS 4 + PS 4 + PS 4 + MI 2.
            let target = "2020";
            let e0 = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            let around: Vec<String> = e0
                .map
                .neighbours(e0.hex(target).unwrap())
                .iter()
                .map(|h| h.to_string())
                .collect();
            p.units = vec![
                typed(cx, "d1", "PS", "saxons", target),
                typed(cx, "d2", "MS", "saxons", target),
                typed(cx, "d3", "MI", "saxons", target),
                typed(cx, "a1", "PP", "normans", &around[0]),
                typed(cx, "a2", "PP", "normans", &around[1]),
                typed(cx, "a3", "PS", "normans", &around[2]),
                typed(cx, "a4", "PS", "normans", &around[3]),
                typed(cx, "a5", "PS", "normans", &around[4]),
                typed(cx, "a6", "MI", "normans", &around[4]),
            ];
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            assert!(["clear"].contains(&e.map.terrain_id_at(e.hex(target).unwrap()).unwrap()));
            let c = e
                .combat(
                    &["a1", "a2", "a3", "a4", "a5", "a6"],
                    "d1",
                    &BTreeMap::new(),
                )
                .unwrap();
            assert_eq!((c.attack, c.defence, c.ratio.as_str()), (26.0, 9.0, "26:9"));
            assert_eq!(c.column.as_deref(), Some("2-1"));
            assert_eq!(
                c.defenders.len(),
                3,
                "the units of a hex defend together (7.12)"
            );
        },
    );
}

/// PRESTAGS 7.51's example: two units of strength 2 that between them occupy or touch
/// every hex round a unit of strength 4 attack it at 8:4, 2:1, in melee. Standing there
/// without attacking flanks no one (7.53), and fire never flanks (7.56: the rule asks
/// for the melee phase).
#[test]
fn prestags_a_flank_attack_doubles_two_and_two_against_four() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let target = "2020";
            let e0 = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &set_up);
            let t = e0.hex(target).unwrap();
            // Two hexes on opposite sides of the target: between them they touch all six.
            let around = e0.map.neighbours(t);
            let west = around[0];
            let east = *around
                .iter()
                .find(|h| {
                    e0.map.distance(**h, west) == 2
                        && around
                            .iter()
                            .filter(|x| {
                                e0.map.distance(**x, west) == 1 && e0.map.distance(**x, **h) == 1
                            })
                            .count()
                            == 0
                })
                .expect("a hex opposite");
            let (west, east) = (west.to_string(), east.to_string());
            let mut p = set_up.clone();
            p.units = vec![
                typed(cx, "d", "PS", "saxons", target),
                typed(cx, "a1", "MI", "normans", &west),
                typed(cx, "a2", "MI", "normans", &east),
            ];
            let odds = |p: &Position, attackers: &[&str]| {
                let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), p);
                let c = e.combat(attackers, "d", &BTreeMap::new()).unwrap();
                (
                    c.ratio.clone(),
                    c.column.clone().unwrap_or_default(),
                    c.rules,
                )
            };
            p.phase = Some("melee".into());
            let (ratio, column, rules) = odds(&p, &["a1", "a2"]);
            assert_eq!((ratio.as_str(), column.as_str()), ("8:4", "2-1"));
            assert!(sections(&rules).contains(&"7.51"), "{rules:?}");
            // One of the two attacks alone: no flank, 2:4.
            let (ratio, _, rules) = odds(&p, &["a1"]);
            assert_eq!(ratio, "2:4");
            assert!(!sections(&rules).contains(&"7.51"), "{rules:?}");
            // Outside the melee phase the rule does not apply.
            p.phase = Some("fire".into());
            assert_eq!(odds(&p, &["a1", "a2"]).0, "4:4");
        },
    );
}

#[test]
fn the_viking_fleet_sails_four_hexes_and_moors_for_eleven() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let mut p = set_up.clone();
            p.units = vec![typed(cx, "fleet", "VF", "normans", "2626")];
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            let reach = e.reach("fleet").unwrap();
            assert_eq!(reach.movement, 15.0, "Excl 3.11");
            // Four river hexes up: 2726, 2825, 2925, 2924, one MP each (Excl 3.12).
            let up = reach.at("2924").unwrap();
            assert_eq!(up.path, ["2626", "2726", "2825", "2925", "2924"]);
            let spent = reach.movement - up.mp_left + reach.moor_cost.unwrap();
            assert_eq!(spent, 11.0, "4 hexes sailing and 7 to moor");
            assert!(reach.hexes.iter().all(|h| {
                ["river", "sea", "ford", "bridge"]
                    .contains(&e.map.terrain_id_at(e.hex(&h.hex).unwrap()).unwrap())
            }));

            // Excl 3.16: no two fleets end in one hex.
            p.units.push(typed(cx, "fleet-2", "VF", "normans", "2924"));
            p.units.push(typed(cx, "sd", "SD", "normans", "2924"));
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            assert!(e.reach("fleet").unwrap().at("2924").is_none());

            // The SD unit unloads from the fleet moored in 2924 for 2 MP, then may move two
            // hexes further, and no more.
            let ashore = e.reach_unloading("sd").unwrap();
            assert_eq!(ashore.movement, 4.0);
            let longest = ashore.hexes.iter().map(|h| h.path.len() - 2).max().unwrap();
            assert_eq!(longest, 2, "two hexes beyond the one it unloads into");
            assert!(
                ashore
                    .hexes
                    .iter()
                    .any(|h| h.path.len() == 2 && h.mp_left == 2.0)
            );
            assert!(
                ashore
                    .hexes
                    .iter()
                    .all(|h| e.map.terrain_id_at(e.hex(&h.path[1]).unwrap()) != Some("river"))
            );
        },
    );
}

#[test]
fn an_undisrupted_unit_may_always_move_one_hex() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            // A ballista (2 MP) beside the swamp (3 MP) round 0943.
            let mut p = set_up.clone();
            p.units = vec![typed(cx, "bl", "BL", "normans", "1043")];
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            let swamp = e
                .map
                .neighbours(e.hex("1043").unwrap())
                .into_iter()
                .find(|h| e.map.terrain_id_at(*h) == Some("swamp"))
                .unwrap();
            let r = e.reach("bl").unwrap();
            let hex = r.at(&swamp.to_string()).unwrap();
            assert!(hex.minimum_move && hex.mp_left == 0.0, "{hex:?}");
            assert!(r.rules.iter().any(|x| x.section.as_deref() == Some("5.15")));
            // Its other moves pay the chart's entry costs, and cite them (5.11).
            assert!(r.hexes.iter().any(|h| !h.minimum_move));
            assert!(r.rules.iter().any(|x| x.section.as_deref() == Some("5.11")));
            // Disrupted, it has no minimum move: it does not move at all (8.2).
            p.units[0].status = Some("disrupted".into());
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            let r = e.reach("bl").unwrap();
            assert!(r.hexes.is_empty(), "{r:?}");
            assert!(sections(&r.rules).contains(&"8.2"), "{:?}", r.rules);
        },
    );
}

/// PRESTAGS 8.2: an attack on a hex holding a disrupted unit adds one to the die, once
/// however many there are; 8.3: no unit ever retreats, unless optional 17.0 is on.
#[test]
fn prestags_disruption_helps_the_attacker_and_nobody_retreats() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let target = "2020";
            let e0 = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &set_up);
            let next = e0.map.neighbours(e0.hex(target).unwrap())[0].to_string();
            let mut p = set_up.clone();
            p.phase = Some("melee".into());
            p.units = vec![
                typed(cx, "d1", "PS", "saxons", target),
                typed(cx, "d2", "MS", "saxons", target),
                typed(cx, "a", "PP", "normans", &next),
            ];
            let dice = |p: &Position| {
                let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), p);
                let c = e.combat(&["a"], "d1", &BTreeMap::new()).unwrap();
                c.die_modifiers
                    .iter()
                    .map(|m| (m.what.clone(), m.value, m.section.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(dice(&p), []);
            p.units[1].status = Some("disrupted".into());
            let one = vec![(
                "disrupted-defender".to_string(),
                1.0,
                Some("8.2".to_string()),
            )];
            assert_eq!(dice(&p), one);
            p.units[0].status = Some("disrupted".into());
            assert_eq!(dice(&p), one, "once for the hex");
            // 8.3: no retreat; 17.0 switches that off.
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            let r = e.retreat("a", 1).unwrap();
            assert!(r.hexes.is_empty());
            assert_eq!(sections(&r.rules), ["8.3"]);
            p.rules_on = vec!["retreat-before-combat".into()];
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            assert!(!e.retreat("a", 1).unwrap().hexes.is_empty());
        },
    );
}

/// `StackedWith` reads the units of the hex: a rule for units stacked with a leader (a
/// class E unit, PRESTAGS 10.31) holds for a friend of the leader in its hex, and not
/// for the same unit alone or for the leader itself.
#[test]
fn stacked_with_a_leader_is_read_from_the_hex() {
    use muster_model::vocab::{Condition, Effect, EffectRule};
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let mut system = cx.system.unwrap().clone();
            system.rules.effects.push(EffectRule {
                id: "steadied".into(),
                section: "T1".into(),
                when: Some(Condition::All(vec![
                    Condition::Defending,
                    Condition::StackedWith("E".into()),
                ])),
                then: vec![Effect::OddsShift(-1)],
                note: None,
            });
            let target = "2020";
            let e0 = Engine::new(&system, cx.map.unwrap(), &set_up);
            let next = e0.map.neighbours(e0.hex(target).unwrap())[0].to_string();
            let mut p = set_up.clone();
            p.units = vec![
                typed(cx, "d", "PS", "saxons", target),
                typed(cx, "a", "PP", "normans", &next),
            ];
            let shifts = |p: &Position, defender: &str| {
                let e = Engine::new(&system, cx.map.unwrap(), p);
                let c = e.combat(&["a"], defender, &BTreeMap::new()).unwrap();
                c.shifts.iter().filter(|m| m.what == "steadied").count()
            };
            assert_eq!(shifts(&p, "d"), 0, "alone");
            let leader = |side: &str, hex: &str| Unit {
                id: "leader".into(),
                kind: "2L".into(),
                side: Some(side.into()),
                hex: hex.into(),
                movement: 9.0,
                ..Unit::default()
            };
            p.units.push(leader("normans", &next));
            assert_eq!(shifts(&p, "d"), 0, "an enemy leader next door");
            p.units.pop();
            p.units.push(leader("saxons", target));
            assert_eq!(shifts(&p, "d"), 1, "stacked with a friendly leader");
        },
    );
}

#[test]
fn woods_block_a_line_of_sight_and_a_hilltop_clears_one() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let mut p = set_up.clone();
            p.units.clear();
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            // 6.32: woods round 0405; 0402 to 0408 looks straight down column 04 through them.
            let s = e.sight("0402", "0408").unwrap();
            assert!(!s.clear);
            assert_eq!(s.blocked_by.as_ref().unwrap().what, "woods");
            // The answer cites the rule (6.34) and the block that stopped it (6.32).
            assert_eq!(sections(&s.rules), ["6.34", "6.32"]);
            // 6.36: the hill round 1804 (hilltop radius 1, slope radius 2). From the
            // hilltop 1803 across the slope 1802 to 1801, the slope is next to the firer's
            // hilltop: clear.
            assert_eq!(e.map.terrain_id_at(e.hex("1803").unwrap()), Some("hilltop"));
            assert_eq!(e.map.terrain_id_at(e.hex("1802").unwrap()), Some("slope"));
            let s = e.sight("1803", "1801").unwrap();
            assert!(s.clear, "{s:?}");
            assert_eq!(sections(&s.rules), ["6.34"]);
            // Two slope hexes between ground-level ends: blocked by the slope.
            let s = e.sight("1801", "1807").unwrap();
            assert!(!s.clear);
            assert_eq!(s.blocked_by.as_ref().unwrap().what, "slope");
            assert_eq!(sections(&s.rules), ["6.34", "6.36"]);
            // A line along a hexside cites the rule that reads it (6.38).
            let a = e.hex("1010").unwrap();
            let b = e
                .map
                .grid()
                .within(a, 2)
                .into_iter()
                .find(|&b| e.line_between(a, b).iter().any(|step| step.len() == 2))
                .unwrap();
            let s = e.sight("1010", &b.to_string()).unwrap();
            assert!(sections(&s.rules).contains(&"6.38"), "{s:?}");
            // A line through hex centres only does not cite it.
            let s = e.sight("1010", "1012").unwrap();
            assert!(!sections(&s.rules).contains(&"6.38"), "{s:?}");
            // A unit on a clear line blocks a ground-level firer (6.37).
            assert!(e.sight("1010", "1012").unwrap().clear);
            p.units = vec![typed(cx, "in-the-way", "MI", "normans", "1011")];
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            let s = e.sight("1010", "1012").unwrap();
            assert_eq!(s.blocked_by.as_ref().unwrap().what, "occupied", "{s:?}");
            assert_eq!(sections(&s.rules), ["6.34", "6.37"]);
        },
    );
}

/// The sections an answer cites, in order.
fn sections(rules: &[muster_engine::RuleRef]) -> Vec<&str> {
    rules.iter().filter_map(|r| r.section.as_deref()).collect()
}

/// Excl 2.0: bowmen (Ff) enter a stream hex only along a road, and a move that does so
/// cites the exception; one that never touches a stream does not.
#[test]
fn fire_units_enter_a_stream_only_along_a_road_and_say_so() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let map = cx.map.unwrap();
            let stream = |h: HexId| map.terrain_id_at(h) == Some("stream");
            let road = |a: HexId, b: HexId| {
                map.hexside(a, b)
                    .is_some_and(|s| s.features.iter().any(|f| f == "road"))
            };
            // A stream hex with a road into it from a hex that is no stream.
            let (from, into) = map
                .grid()
                .hexes()
                .flat_map(|h| map.neighbours(h).into_iter().map(move |n| (h, n)))
                .find(|&(h, n)| !stream(h) && stream(n) && road(h, n))
                .expect("Hastings has a road into a stream hex");
            let mut p = set_up.clone();
            p.units = vec![typed(cx, "bw", "BW", "normans", &from.to_string())];
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            let r = e.reach("bw").unwrap();
            let there = r.at(&into.to_string()).expect("along the road");
            assert_eq!(there.path, [from.to_string(), into.to_string()]);
            assert!(sections(&r.rules).contains(&"Excl 2.0"), "{:?}", r.rules);
            // Every stream hex it ends in was entered along a road.
            for h in r.hexes.iter().filter(|h| stream(e.hex(&h.hex).unwrap())) {
                let n = h.path.len();
                let (a, b) = (
                    e.hex(&h.path[n - 2]).unwrap(),
                    e.hex(&h.path[n - 1]).unwrap(),
                );
                assert!(road(a, b) || h.minimum_move, "{h:?}");
            }
        },
    );
}

/// A scenario's hooks reach the engine as the rules they desugar into: Hamburg's Viking
/// ferocity (Excl 3.61) gives a Viking melee attack a column before the first attack has
/// been made, and nothing to an attack on Vikings; its `no-end-move-in` keeps every unit
/// from ending a move on a ford, though it may pass one.
#[test]
fn hamburg_s_hooks_are_rules_the_engine_applies() {
    with_scenario(
        "scenarios/prestags/4-6-hamburg.scenario.ron",
        |cx, set_up| {
            let ids: Vec<&str> = set_up.rules.iter().map(|r| r.id.as_str()).collect();
            for id in [
                "viking-first-attack",
                "viking-later-attacks",
                "viking-later-defence",
                "no-end-move-in",
            ] {
                assert!(ids.contains(&id), "{ids:?}");
            }
            let e0 = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &set_up);
            let clear = open_ground(e0.map).0;
            let next = e0.map.neighbours(clear)[0].to_string();
            let mut p = set_up.clone();
            p.phase = Some("melee".into());
            p.units = vec![
                typed(cx, "viking", "AX", "vikings", &clear.to_string()),
                typed(cx, "german", "SD", "germans", &next),
            ];
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            let by_vikings = e.combat(&["viking"], "german", &BTreeMap::new()).unwrap();
            let shift: Vec<_> = by_vikings
                .shifts
                .iter()
                .map(|m| (m.what.as_str(), m.value, m.section.as_deref()))
                .collect();
            assert!(
                shift.contains(&("viking-first-attack", 1.0, Some("Excl 3.61"))),
                "{shift:?}"
            );
            let on_vikings = e.combat(&["german"], "viking", &BTreeMap::new()).unwrap();
            assert!(
                on_vikings
                    .shifts
                    .iter()
                    .chain(&on_vikings.die_modifiers)
                    .all(|m| !m.what.starts_with("viking")),
                "{on_vikings:?}"
            );
            // No unit ends a move on a ford, though one may cross it.
            let ford = e0
                .map
                .grid()
                .hexes()
                .find(|h| e0.map.terrain_id_at(*h) == Some("ford"))
                .expect("Hamburg's map has a ford");
            let mut q = set_up.clone();
            q.units = vec![typed(
                cx,
                "walker",
                "SD",
                "germans",
                &e0.map.neighbours(ford)[0].to_string(),
            )];
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &q);
            assert!(!e.may_end(0, ford));
            let mut without = q.clone();
            without.rules.retain(|r| r.id != "no-end-move-in");
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &without);
            assert!(e.may_end(0, ford));
        },
    );
}

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

/// A side's record of play: the Vikings' ferocity of Hamburg (Excl 3.61, 3.71) moves from
/// the first attack's column to a die modifier once the side has attacked in melee, and
/// is lost once its losses reach its threshold (3.9).
#[test]
fn hamburg_s_ferocity_follows_the_side_s_record() {
    with_scenario(
        "scenarios/prestags/4-6-hamburg.scenario.ron",
        |cx, set_up| {
            let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
            let e0 = Engine::new(system, map, &set_up);
            let clear = open_ground(e0.map).0;
            let next = e0.map.neighbours(clear)[0].to_string();
            let mut p = set_up.clone();
            p.phase = Some("melee".into());
            p.units = vec![
                typed(cx, "viking", "AX", "vikings", &clear.to_string()),
                typed(cx, "german", "SD", "germans", &next),
            ];
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
            p.sides[vikings].morale_threshold = Some(6);
            p.sides[vikings].losses = 5;
            assert_eq!(ferocity(&p).len(), 1, "one short of the threshold");
            p.sides[vikings].losses = 6;
            assert_eq!(ferocity(&p), [], "panicked (3.9)");
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
        },
    );
}

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

/// PRESTAGS 6.22: against fire the hex defends, not its units: bowmen firing at one
/// unit or at two stacked in clear meet the clear hex's protection (2), in woods the
/// woods' (4); a fleet carries its own 4 wherever it floats (Excl 3.25). A melee attack
/// on the same hex is still strength against strength.
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

            let (d, a) = lane("woods", "clear");
            p.units = vec![bowmen(&a), typed(cx, "d1", "PS", "saxons", &d)];
            assert_eq!(fire(&p).1, 4.0);

            let (d, a) = lane("river", "clear");
            p.units = vec![bowmen(&a), typed(cx, "d1", "VF", "saxons", &d)];
            let (_, defence, what) = fire(&p);
            assert_eq!(defence, 4.0, "{what:?}");
            assert!(what.is_some_and(|w| w.contains("VF")));

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
