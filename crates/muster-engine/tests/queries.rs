//! Supply, retreat, range and the errors of a question about a unit or hex that is not
//! there, on the bundled data and the example game.

use std::collections::BTreeMap;

mod common;

use common::open_ground;
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

/// The first unit of `kind` of `side` in the position.
fn first_of(p: &muster_engine::Position, side: &str, kind: &str) -> muster_engine::Unit {
    p.units
        .iter()
        .find(|u| u.side.as_deref() == Some(side) && u.kind == kind)
        .cloned()
        .unwrap_or_else(|| panic!("no {kind} of {side}"))
}

/// The position `p` with only two units, each moved to its hex.
fn face_to_face(
    p: &muster_engine::Position,
    (a, at_a): (&muster_engine::Unit, muster_hex::HexId),
    (b, at_b): (&muster_engine::Unit, muster_hex::HexId),
) -> muster_engine::Position {
    let on = |u: &muster_engine::Unit, h: muster_hex::HexId| muster_engine::Unit {
        hex: h.to_string(),
        ..u.clone()
    };
    muster_engine::Position {
        units: vec![on(a, at_a), on(b, at_b)],
        ..p.clone()
    }
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

/// Supply is a condition combat reads: Harrow Ford halves a unit that cannot trace
/// supply (10.3). The same League foot, attacked by the same Crown foot, defends at full
/// strength within six hexes of a League source and at half beyond them, and the answer
/// cites the rule only then.
#[test]
fn a_unit_out_of_supply_defends_at_half() {
    harrow(|cx, p| {
        let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
        let pick = |side: &str| {
            p.units
                .iter()
                .find(|u| u.side.as_deref() == Some(side) && u.kind == "foot")
                .cloned()
                .unwrap()
        };
        let (defender, attacker) = (pick("league"), pick("crown"));
        let at = |d: &str, a: &str| muster_engine::Position {
            units: vec![
                muster_engine::Unit {
                    hex: d.into(),
                    ..defender.clone()
                },
                muster_engine::Unit {
                    hex: a.into(),
                    ..attacker.clone()
                },
            ],
            ..p.clone()
        };
        // A clear hex with a clear neighbour, in supply or not for the League with the
        // two units standing there.
        let find = |want: bool| {
            map.grid()
                .hexes()
                .filter(|h| map.terrain_id_at(*h) == Some("clear"))
                .find_map(|h| {
                    let n = map
                        .neighbours(h)
                        .into_iter()
                        .find(|n| map.terrain_id_at(*n) == Some("clear"))?;
                    let pos = at(&h.to_string(), &n.to_string());
                    let e = Engine::new(system, map, &pos);
                    (e.supply(&h.to_string(), "league").unwrap().in_supply == want)
                        .then(|| (h.to_string(), n.to_string()))
                })
                .unwrap_or_else(|| panic!("no clear hex with supply {want}"))
        };
        let strength = |(d, a): (String, String)| {
            let pos = at(&d, &a);
            let e = Engine::new(system, map, &pos);
            e.combat(&[&attacker.id], &defender.id, &BTreeMap::new())
                .unwrap()
        };
        let supplied = strength(find(true));
        let cut_off = strength(find(false));
        assert_eq!(supplied.defence, defender.strength, "{supplied:?}");
        assert_eq!(cut_off.defence, defender.strength / 2.0, "{cut_off:?}");
        let cites = |c: &muster_engine::Combat| {
            c.rules
                .iter()
                .any(|r| r.rule == "out-of-supply" && r.section.as_deref() == Some("10.3"))
        };
        assert!(!cites(&supplied) && cites(&cut_off), "{:?}", cut_off.rules);
        // The attacker is in supply in both: only the defender is halved.
        assert_eq!(supplied.attack, cut_off.attack);
    });
}

/// A rule for the attacker's die is read as well as the defender's: Harrow Ford's
/// optional veteran horse (13.1) adds 1 to the die of an attack by horse, and the
/// stubborn levies (14.1) take 1 off an attack on League foot; each only where the
/// scenario switches its option on.
#[test]
fn die_modifiers_of_attacker_and_defender_rules_both_count() {
    harrow(|cx, p| {
        let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
        let pick = |side: &str, kind: &str| first_of(&p, side, kind);
        let (foot, horse) = (pick("league", "foot"), pick("crown", "horse"));
        let (h, n) = open_ground(map);
        let dice = |rules_on: &[&str]| {
            let pos = muster_engine::Position {
                rules_on: rules_on.iter().map(|s| s.to_string()).collect(),
                ..face_to_face(&p, (&foot, h), (&horse, n))
            };
            let c = Engine::new(system, map, &pos)
                .combat(&[&horse.id], &foot.id, &BTreeMap::new())
                .unwrap();
            let mut out: Vec<(String, f64)> = c
                .die_modifiers
                .iter()
                .map(|m| (m.what.clone(), m.value))
                .collect();
            out.sort_by(|a, b| a.0.cmp(&b.0));
            out
        };
        assert_eq!(dice(&[]), []);
        assert_eq!(dice(&["veteran-horse"]), [("veteran-charge".into(), 1.0)]);
        assert_eq!(dice(&["stubborn-levies"]), [("levies-hold".into(), -1.0)]);
        assert_eq!(
            dice(&["veteran-horse", "stubborn-levies"]),
            [("levies-hold".into(), -1.0), ("veteran-charge".into(), 1.0)]
        );
    });
}

/// Zones of control bind units by rules as well as by the system's block: Harrow Ford's
/// zones stop a unit entering and charge 1 MP to leave (8). A rule giving horse a free
/// exit lets the Crown horse leave for nothing, and the answer cites it; a rule
/// `Zoc(Blocked)` on woods keeps every zone out of woods hexes.
#[test]
fn zone_rules_change_entry_leaving_and_reach() {
    use muster_model::vocab::{Condition, Effect, EffectRule, ZocEffect, ZocLeaving};
    harrow(|cx, p| {
        let map = cx.map.unwrap();
        let base = cx.system.unwrap();
        let with = |rule: EffectRule| {
            let mut s = base.clone();
            s.rules.effects.push(rule);
            s
        };
        let free_exit = with(EffectRule {
            id: "horse-slips-away".into(),
            section: "X1".into(),
            when: Some(Condition::Troop("horse".into())),
            then: vec![Effect::ZocLeaving(ZocLeaving::Free)],
            note: None,
        });
        let woods_block = with(EffectRule {
            id: "woods-hide".into(),
            section: "X2".into(),
            when: Some(Condition::InTerrain("woods".into())),
            then: vec![Effect::Zoc(ZocEffect::Blocked)],
            note: None,
        });
        let horse = p.units.iter().find(|u| u.id == "crown-horse").unwrap();
        let foot = p
            .units
            .iter()
            .find(|u| u.side.as_deref() == Some("league") && u.kind == "foot")
            .unwrap();
        // A clear hex whose ring is clear but for one woods hex, the foot on it.
        let (centre, woods) = map
            .grid()
            .hexes()
            .filter(|h| map.terrain_id_at(*h) == Some("clear") && map.neighbours(*h).len() == 6)
            .find_map(|h| {
                let ring = map.neighbours(h);
                let woods: Vec<_> = ring
                    .iter()
                    .filter(|n| map.terrain_id_at(**n) == Some("woods"))
                    .collect();
                let clear = ring
                    .iter()
                    .filter(|n| map.terrain_id_at(**n) == Some("clear"))
                    .count();
                (woods.len() == 1 && clear == 5).then(|| (h, *woods[0]))
            })
            .expect("a clear hex with one woods neighbour");
        let beside = map
            .neighbours(centre)
            .into_iter()
            .find(|n| map.terrain_id_at(*n) == Some("clear") && map.distance(*n, woods) > 1)
            .unwrap();
        let pos = muster_engine::Position {
            units: vec![
                muster_engine::Unit {
                    hex: centre.to_string(),
                    ..foot.clone()
                },
                muster_engine::Unit {
                    hex: beside.to_string(),
                    ..horse.clone()
                },
            ],
            weather: Some("fair".into()),
            ..p.clone()
        };
        // The horse starts in the foot's zone: leaving costs 1 MP, or nothing by rule.
        let left_after_first_step = |system: &muster_model::system::RulesSystem| {
            let e = Engine::new(system, map, &pos);
            let r = e.reach("crown-horse").unwrap();
            let first = r
                .hexes
                .iter()
                .filter(|h| h.path.len() == 2 && !h.enemy_zoc)
                .map(|h| h.mp_left)
                .fold(f64::MIN, f64::max);
            (first, r.rules)
        };
        let (plain, plain_rules) = left_after_first_step(base);
        let (slipped, slip_rules) = left_after_first_step(&free_exit);
        assert_eq!(slipped - plain, 1.0, "{plain} then {slipped}");
        let cites = |rules: &[muster_engine::RuleRef]| {
            rules
                .iter()
                .any(|r| r.rule == "horse-slips-away" && r.section.as_deref() == Some("X1"))
        };
        assert!(!cites(&plain_rules) && cites(&slip_rules), "{slip_rules:?}");
        // The woods hex next to the foot is in its zone, unless a rule blocks it there.
        let horse_at = pos
            .units
            .iter()
            .position(|u| u.id == "crown-horse")
            .unwrap();
        let zone = |system: &muster_model::system::RulesSystem| {
            Engine::new(system, map, &pos).zoc_against(horse_at)
        };
        assert!(zone(base).contains(&woods));
        let blocked = zone(&woods_block);
        assert!(!blocked.contains(&woods) && blocked.contains(&beside));
        assert_eq!(blocked.len() + 1, zone(base).len());
    });
}

/// A rule may name kinds by a tag: tagged `veteran`, the Crown horse gains a rule's +1
/// when it attacks, and the Crown foot, untagged, does not.
#[test]
fn a_rule_picks_units_by_tag() {
    use muster_model::vocab::{Condition, Effect, EffectRule};
    harrow(|cx, p| {
        let map = cx.map.unwrap();
        let mut system = cx.system.unwrap().clone();
        for k in system.unit_kinds.iter_mut().filter(|k| k.id == "horse") {
            k.tags.push("veteran".into());
        }
        system.rules.effects.push(EffectRule {
            id: "veterans-press".into(),
            section: "T2".into(),
            when: Some(Condition::All(vec![
                Condition::Troop("veteran".into()),
                Condition::Attacking,
            ])),
            then: vec![Effect::DieModifier(1)],
            note: None,
        });
        let pick = |side: &str, kind: &str| first_of(&p, side, kind);
        let (h, n) = open_ground(map);
        let defender = pick("league", "foot");
        let modifiers = |attacker: muster_engine::Unit| {
            let pos = muster_engine::Position {
                units: vec![
                    muster_engine::Unit {
                        hex: h.to_string(),
                        ..defender.clone()
                    },
                    muster_engine::Unit {
                        hex: n.to_string(),
                        ..attacker.clone()
                    },
                ],
                rules: Vec::new(),
                rules_on: Vec::new(),
                ..p.clone()
            };
            let c = Engine::new(&system, map, &pos)
                .combat(&[&attacker.id], &defender.id, &BTreeMap::new())
                .unwrap();
            c.die_modifiers
                .iter()
                .map(|m| m.what.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(modifiers(pick("crown", "horse")), ["veterans-press"]);
        assert!(modifiers(pick("crown", "foot")).is_empty());
    });
}

/// A scenario's board carries the rules its special rules put in force: Harrow Ford
/// switches on the system's morning mist (S1) and states its own rule (S2), and the
/// optional rules its `muster.toml` switches on are in play. The mist forbids fire on
/// turn 1 and the rain on turns 3-4 (9.1): musketeers have a target two hexes off on
/// turn 2 only, and a combat query says which rule forbids the others.
#[test]
fn a_scenario_board_carries_its_special_and_optional_rules() {
    harrow(|cx, p| {
        let rule = |id: &str| p.rules.iter().find(|r| r.id == id);
        let mist = rule("morning-mist").expect("the system's rule, switched on");
        assert_eq!(mist.section, "S1");
        let heartens = rule("harrow-heartens").expect("the scenario's own rule");
        assert_eq!(heartens.section, "S2");
        assert!(
            p.rules_on.iter().any(|r| r == "stubborn-levies"),
            "{:?}",
            p.rules_on
        );
        let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
        let (h, n) = open_ground(map);
        let far = map
            .neighbours(n)
            .into_iter()
            .find(|x| map.distance(*x, h) == 2)
            .unwrap();
        let gunner = first_of(&p, "crown", "musketeers");
        let target = first_of(&p, "league", "foot");
        let at_turn = |turn: u8, weather: &str| muster_engine::Position {
            turn,
            weather: Some(weather.into()),
            units: vec![
                muster_engine::Unit {
                    hex: h.to_string(),
                    ..gunner.clone()
                },
                muster_engine::Unit {
                    hex: far.to_string(),
                    ..target.clone()
                },
            ],
            ..p.clone()
        };
        let targets = |turn: u8, weather: &str| {
            let pos = at_turn(turn, weather);
            Engine::new(system, map, &pos).targets(&gunner.id).unwrap()
        };
        assert!(targets(1, "fair").is_empty());
        assert_eq!(targets(2, "fair"), vec![target.id.clone()]);
        assert!(targets(3, "rain").is_empty());
        let pos = at_turn(1, "fair");
        let why = Engine::new(system, map, &pos)
            .combat(&[&gunner.id], &target.id, &BTreeMap::new())
            .unwrap_err();
        assert!(why.to_string().contains("morning-mist"), "{why}");
    });
}

/// A scenario's position starts where its set-up says: Harrow Ford's Crown musketeers
/// set up reduced stand at that status with their counter's reduced strength, and each
/// side holds the labelled hexes its units stand on (the League: Harrow, Harrow Ford
/// and, with the Free Company's pike, Gallows Hill). The League's own rule (S2) then adds one to its foot's attacks while it holds
/// Harrow, and nothing once the position says it holds it no more.
#[test]
fn a_position_starts_with_the_set_up_s_status_and_holdings() {
    harrow(|cx, p| {
        let musketeers = first_of(&p, "crown", "musketeers");
        assert_eq!(musketeers.status.as_deref(), Some("reduced"));
        assert_eq!(musketeers.strength, 1.0, "the counter's reduced side");
        let horse = first_of(&p, "crown", "horse");
        assert_eq!(horse.status.as_deref(), Some("full"));
        assert_eq!(horse.strength, 4.0);
        let held = |side: &str| {
            p.sides
                .iter()
                .find(|s| s.id == side)
                .map(|s| s.controls.clone())
                .unwrap()
        };
        assert_eq!(
            held("league"),
            ["Harrow", "Harrow Ford", "Gallows Hill"].map(String::from)
        );
        assert!(held("crown").is_empty());

        let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
        let (h, n) = open_ground(map);
        let foot = first_of(&p, "league", "foot");
        let mut pos = muster_engine::Position {
            rules_on: Vec::new(),
            ..face_to_face(&p, (&foot, h), (&horse, n))
        };
        let heartened = |pos: &muster_engine::Position, attacker: &str, defender: &str| {
            Engine::new(system, map, pos)
                .combat(&[attacker], defender, &BTreeMap::new())
                .unwrap()
                .die_modifiers
                .iter()
                .filter(|m| m.what == "harrow-heartens")
                .map(|m| m.value)
                .collect::<Vec<f64>>()
        };
        let none: [f64; 0] = [];
        assert_eq!(heartened(&pos, &foot.id, &horse.id), [1.0]);
        assert_eq!(heartened(&pos, &horse.id, &foot.id), none, "not in defence");
        let league = pos.sides.iter().position(|s| s.id == "league").unwrap();
        pos.sides[league].controls.retain(|l| l != "Harrow");
        assert_eq!(heartened(&pos, &foot.id, &horse.id), none);
    });
}
