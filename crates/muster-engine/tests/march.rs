//! The multi-turn march against a plain second reckoning: a turn's reach taken again
//! from every hex reached, turn after turn; and a side's march towards its targets
//! against its units marched one by one, with the work it saves.

use std::collections::BTreeMap;

use muster_engine::{Engine, Position, Target, from_scenario, side_reach};
use muster_hex::HexId;
use muster_semantic::{FileCx, ScenarioCx};
use muster_testkit::db::{bundled, index};

/// The bundled scenario at `rel`, resolved.
fn scenario<'a>(db: &'a muster_db::project::Db, rel: &str) -> ScenarioCx<'a> {
    ScenarioCx::new(FileCx::new(db, index(db, rel)).unwrap()).unwrap()
}

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
    let cx = scenario(&db, "scenarios/lrf/jengland.scenario.ron");
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

/// For each target, the first turn any unit of the side that counts for it can stand on
/// one of its hexes, each unit marched alone and to the end.
fn one_by_one(cx: &ScenarioCx, side: usize, targets: &[Target]) -> Vec<Option<u32>> {
    let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
    let last = cx.scenario.turns;
    let board = cx.board(last);
    let mut position = muster_engine::from_board(cx, &board);
    let units = std::mem::take(&mut position.units);
    let id = &cx.scenario.sides[side].id;
    let mut first = vec![None::<u32>; targets.len()];
    for (unit, piece) in units.iter().zip(&board.pieces) {
        if unit.side.as_ref() != Some(id) {
            continue;
        }
        // Hastings sets every unit up on the map from the first turn.
        assert_eq!(piece.state, muster_semantic::board::PieceState::Placed);
        let alone = Position {
            units: vec![unit.clone()],
            ..position.clone()
        };
        let engine = Engine::new(system, map, &alone);
        let class = system
            .unit_kinds
            .iter()
            .find(|k| k.id == unit.kind)
            .and_then(|k| match &k.stats {
                Some(muster_model::system::KindStats::Counter { class, .. })
                | Some(muster_model::system::KindStats::Leader { class, .. }) => {
                    Some(class.clone())
                }
                _ => None,
            });
        let (mp, _) = engine.allowance_of(0);
        let march = engine
            .march(&unit.id, &[(piece.hex, 1, mp)], u32::from(last))
            .unwrap();
        for (t, target) in targets.iter().enumerate() {
            let counts = target
                .troops
                .iter()
                .any(|x| x == "*" || *x == unit.kind || class.as_ref() == Some(x))
                && !target.excluding.contains(&unit.kind);
            if !counts {
                continue;
            }
            let turn = target.hexes.iter().filter_map(|h| march.turn_at(*h)).min();
            first[t] = match (first[t], turn) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
    }
    first
}

#[test]
fn a_side_reaches_its_targets_as_its_units_do_one_by_one_with_less_work() {
    let db = bundled();
    let cx = scenario(&db, "scenarios/prestags/5-7-hastings.scenario.ron");
    let grid = cx.map.unwrap().grid();
    let hexes: Vec<HexId> = grid.hexes().collect();
    let all = ["*".to_string()];
    let none: [String; 0] = [];
    let horse = ["B".to_string()];
    // Single hexes spread over the map, some due on turn 1 (most of them out of reach
    // then), some by turn 3 and some for class B only.
    let spots: Vec<[HexId; 1]> = hexes.iter().step_by(97).map(|h| [*h]).collect();
    let mut targets: Vec<Target> = spots
        .iter()
        .enumerate()
        .map(|(k, h)| Target {
            hexes: h,
            troops: if k % 3 == 2 { &horse } else { &all },
            excluding: &none,
            by_turn: if k % 2 == 0 { 1 } else { 3 },
        })
        .collect();
    let kinds = |side: usize| {
        let id = &cx.scenario.sides[side].id;
        let position = from_scenario(&cx, 1);
        let mut kinds: Vec<(String, u64)> = position
            .units
            .iter()
            .filter(|u| u.side.as_ref() == Some(id))
            .map(|u| (u.kind.clone(), u.movement.to_bits()))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        kinds.len()
    };
    let (mut met, mut missed) = (0, 0);
    let board = cx.board(cx.scenario.turns);
    for side in 0..cx.scenario.sides.len() {
        let want = one_by_one(&cx, side, &targets);
        let got = side_reach(&cx, &board, side, &targets).unwrap();
        assert!(got.judged());
        for (t, target) in targets.iter().enumerate() {
            if want[t].is_some_and(|w| w <= target.by_turn) {
                assert!(
                    got.met(t, target),
                    "side {side}, target {t}: {:?}",
                    got.first[t]
                );
                met += 1;
            } else {
                assert_eq!(got.first[t], want[t], "side {side}, target {t}");
                missed += 1;
            }
        }
        assert!(got.searches <= kinds(side) * targets.len());
        assert!(got.settled <= got.searches * hexes.len());
    }
    assert!(met > 0 && missed > 0, "{met} met, {missed} missed");
    // Targets all in reach: each side stops marching once they are met, settling fewer
    // hexes than a march that looks for a target out of reach.
    targets.retain(|t| t.by_turn == 3 && t.troops == all);
    for side in 0..cx.scenario.sides.len() {
        let want = one_by_one(&cx, side, &targets);
        let reachable: Vec<Target> = targets
            .iter()
            .zip(&want)
            .filter(|(t, w)| w.is_some_and(|w| w <= t.by_turn))
            .map(|(t, _)| *t)
            .collect();
        assert!(!reachable.is_empty());
        let quick = side_reach(&cx, &board, side, &reachable).unwrap();
        assert!((0..reachable.len()).all(|t| quick.met(t, &reachable[t])));
        let unmet = [Target {
            hexes: &[],
            troops: &all,
            excluding: &none,
            by_turn: 1,
        }];
        let whole = side_reach(&cx, &board, side, &unmet).unwrap();
        assert_eq!(whole.first, vec![None]);
        assert!(
            quick.settled < whole.settled,
            "side {side}: {} settled for targets in reach, {} for one out of reach",
            quick.settled,
            whole.settled
        );
    }
}

#[test]
fn the_guided_march_finds_the_first_turn_the_whole_march_does_settling_less() {
    let db = bundled();
    let cx = scenario(&db, "scenarios/prestags/5-7-hastings.scenario.ron");
    let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
    let hexes: Vec<HexId> = map.grid().hexes().collect();
    let position = from_scenario(&cx, 1);
    let last = u32::from(cx.scenario.turns);
    let (mut compared, mut guided, mut whole) = (0, 0, 0);
    for (u, unit) in position.units.iter().enumerate().step_by(7) {
        let alone = Position {
            units: vec![unit.clone()],
            ..position.clone()
        };
        let engine = Engine::new(system, map, &alone);
        let (mp, _) = engine.allowance_of(0);
        let seeds = [(HexId::parse(&unit.hex).unwrap(), 1, mp)];
        let march = engine.march(&unit.id, &seeds, last).unwrap();
        // One, two and three target hexes spread over the map, some out of reach.
        for k in 0..6 {
            let targets: Vec<HexId> = (0..=k % 3)
                .map(|j| hexes[(u * 131 + k * 389 + j * 977) % hexes.len()])
                .collect();
            let want = targets.iter().filter_map(|h| march.turn_at(*h)).min();
            let got = engine
                .first_turn_at(&unit.id, &seeds, last, &targets)
                .unwrap();
            assert_eq!(
                got.first, want,
                "{} from {} to {targets:?}",
                unit.id, unit.hex
            );
            compared += 1;
            if want.is_some() {
                guided += got.settled;
                whole += march.settled;
            }
        }
    }
    assert!(compared > 50, "{compared} compared");
    assert!(
        guided * 2 < whole,
        "guided {guided} settled, whole marches {whole}"
    );
}

#[test]
fn a_target_asked_many_times_is_searched_for_once() {
    let db = bundled();
    let cx = scenario(&db, "scenarios/prestags/5-7-hastings.scenario.ron");
    let board = cx.board(cx.scenario.turns);
    let all = ["*".to_string()];
    // A hex no unit reaches on turn 1, listed many times over.
    let far = [HexId::new(1, 1); 40];
    let target = Target {
        hexes: &far,
        troops: &all,
        excluding: &[],
        by_turn: 1,
    };
    let once = side_reach(&cx, &board, 0, &[target]).unwrap();
    let many = side_reach(&cx, &board, 0, &[target; 30]).unwrap();
    assert!(!once.met(0, &target));
    assert_eq!(many.first, vec![once.first[0]; 30]);
    assert_eq!(many.searches, once.searches);
    assert_eq!(many.settled, once.settled);
}

/// A zoned group that enters on a map edge marches from every hex of that edge in its
/// turn: at Dorylaeum the crusaders' main body comes on along the east edge on turn 1,
/// so a far corner of that edge is theirs on turn 1, though every crusader on the board
/// (the E-3 force, round 1030) is a march of several turns away.
#[test]
fn a_zoned_group_arriving_on_an_edge_marches_from_the_edge() {
    let db = bundled();
    let cx = scenario(&db, "scenarios/prestags/6-3-dorylaeum.scenario.ron");
    let crusaders = cx
        .scenario
        .sides
        .iter()
        .position(|s| s.id == "crusaders")
        .unwrap();
    let corner = [HexId::new(36, 1)];
    let all = ["*".to_string()];
    let none: [String; 0] = [];
    let target = Target {
        hexes: &corner,
        troops: &all,
        excluding: &none,
        by_turn: 1,
    };
    let board = cx.board(cx.scenario.turns);
    let got = side_reach(&cx, &board, crusaders, &[target]).unwrap();
    assert!(got.judged());
    assert_eq!(got.first, vec![Some(1)]);
    // The board's crusaders alone: the E-3 force needs more than a turn.
    let position = from_scenario(&cx, 1);
    let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
    let placed: Vec<&muster_engine::Unit> = position
        .units
        .iter()
        .filter(|u| u.side.as_deref() == Some("crusaders"))
        .collect();
    assert!(!placed.is_empty());
    for unit in placed {
        let alone = Position {
            units: vec![unit.clone()],
            ..position.clone()
        };
        let start = HexId::parse(&unit.hex).unwrap();
        let toward = Engine::new(system, map, &alone)
            .first_turn_at(&unit.id, &[(start, 1, unit.movement)], 1, &corner)
            .unwrap();
        assert_eq!(toward.first, None, "{} from {}", unit.id, unit.hex);
    }
}
