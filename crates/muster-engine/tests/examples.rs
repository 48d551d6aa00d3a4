//! The rulebooks' printed examples, computed from the bundled data: the LRF combat
//! example at Fontenoy, PRESTAGS 7.32's rounding, the Viking fleet of Excl 3.41, the
//! minimum move of 5.15 and the lines of sight of 6.32-6.38.

use std::collections::BTreeMap;

mod common;

use common::{hamburg_melee, place, sections, typed, with_scenario};
use muster_engine::{Engine, Position, Unit, odds_column};
use muster_hex::HexId;
use muster_semantic::ScenarioCx;

fn unit(position: &Position, id: &str) -> Unit {
    position
        .units
        .iter()
        .find(|u| u.id == id)
        .cloned()
        .unwrap_or_else(|| panic!("no {id} in the set-up"))
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

/// Two hexes on opposite sides of `target`: between them they touch all six around it.
fn opposite(cx: &ScenarioCx, set_up: &Position, target: &str) -> (String, String) {
    let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), set_up);
    let around = e.map.neighbours(e.hex(target).unwrap());
    let west = around[0];
    let east = *around
        .iter()
        .find(|h| {
            e.map.distance(**h, west) == 2
                && !around
                    .iter()
                    .any(|x| e.map.distance(*x, west) == 1 && e.map.distance(*x, **h) == 1)
        })
        .expect("a hex opposite");
    (west.to_string(), east.to_string())
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
            let (west, east) = opposite(cx, &set_up, target);
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

/// PRESTAGS 10.1 with 7.51's two attackers: in melee, the units stacked with friendly
/// leaders gain every leader's combat bonus, attacking or defending (10.11, 10.13), but
/// never more than their own adjusted strength; a leader gives nothing to himself
/// (10.12); outside melee nothing; and a flank attack doubles after the bonus (7.52).
#[test]
fn prestags_leaders_add_their_bonus_in_melee_up_to_the_stack_s_strength() {
    with_scenario(
        "scenarios/prestags/5-7-hastings.scenario.ron",
        |cx, set_up| {
            let target = "2020";
            let (west, east) = opposite(cx, &set_up, target);
            let mut p = set_up.clone();
            p.phase = Some("melee".into());
            p.units = vec![
                typed(cx, "d", "PS", "saxons", target),
                typed(cx, "a1", "MI", "normans", &west),
            ];
            let combat = |p: &Position, attackers: &[&str]| {
                let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), p);
                e.combat(attackers, "d", &BTreeMap::new()).unwrap()
            };
            assert_eq!(combat(&p, &["a1"]).ratio, "2:4");

            // A level 3 leader's 3 is cut to the MI's own 2 (10.11).
            p.units.push(typed(cx, "l3", "3L", "normans", &west));
            let led = combat(&p, &["a1"]);
            assert_eq!(led.ratio, "4:4", "{led:?}");
            assert!(sections(&led.rules).contains(&"10.1"), "{:?}", led.rules);
            let bonus = &led.attackers[0].modifiers;
            assert!(
                bonus
                    .iter()
                    .any(|m| m.value == 2.0 && m.what.contains("l3")),
                "{bonus:?}"
            );

            // A second MI in the hex raises the cap to 4: the whole 3 counts, once for
            // the hex, whichever units attack from it.
            p.units.push(typed(cx, "a3", "MI", "normans", &west));
            assert_eq!(combat(&p, &["a1", "a3"]).ratio, "7:4");
            // Two leaders add both bonuses, 6 and 3, up to the stack's 4.
            p.units.push(typed(cx, "l2", "2L", "normans", &west));
            assert_eq!(combat(&p, &["a1", "a3"]).ratio, "8:4");
            p.units.truncate(3);

            // Defending too (10.13): the PS's 4 and a level 2 leader's 6, cut to 4; the
            // leader's own dot counts 0 beside the spearmen (3.36).
            p.units.push(typed(cx, "dl", "2L", "saxons", target));
            let held = combat(&p, &["a1"]);
            assert_eq!(held.defence, 8.0, "{held:?}");
            // A leader alone gains nothing from himself (10.12): his dot, 1.
            p.units[0] = typed(cx, "x", "PS", "saxons", &east);
            let e = Engine::new(cx.system.unwrap(), cx.map.unwrap(), &p);
            let alone = e.combat(&["a1"], "dl", &BTreeMap::new()).unwrap();
            assert_eq!(alone.defence, 1.0, "{alone:?}");
            p.units[0] = typed(cx, "d", "PS", "saxons", target);
            p.units.pop();

            // Outside melee no bonus (10.13).
            p.phase = Some("fire".into());
            assert_eq!(combat(&p, &["a1"]).ratio, "2:4");
            p.phase = Some("melee".into());

            // 7.52: the flank doubling comes after the bonus, (2 + 2) x 2 with the
            // leader and 2 x 2 across: 12, where doubling first would give 11.
            p.units.push(typed(cx, "a2", "MI", "normans", &east));
            let flank = combat(&p, &["a1", "a2"]);
            assert_eq!(flank.ratio, "12:4", "{flank:?}");
            assert!(sections(&flank.rules).contains(&"7.51"));
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
            // A leader aboard keeps the SD unit within a control radius (10.23).
            p.units.push(typed(cx, "duke", "2L", "normans", "2924"));
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
            let p = hamburg_melee(cx, &set_up);
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
