//! `reach` against a deliberately simple second search: every state (hex, movement
//! points left, zone-of-control state) reachable one step at a time, with no priority
//! queue and no pruning, on random positions on every bundled hex map. Step costs are
//! read here again from the compiled terrain table and the system (the table's cost,
//! prohibited terrain and a road-only rule, a movement mode's own costs, a cost
//! rule of the vocabulary), and so is how zones of control stop, forbid and charge a
//! move, and whether a rule holds the unit where it stands. Who may pass or stop where,
//! the zones' hexes and the modes open to a unit come from the engine.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use muster_engine::{Engine, Position, Unit, from_scenario};
use muster_hex::HexId;
use muster_model::system::{KindStats, MoveCost};
use muster_model::vocab::{Act, Condition, Effect, MovementMode, ZocEntry, ZocLeaving};
use muster_semantic::{FileCx, ScenarioCx};
use muster_testkit::db::{bundled, index};

/// One scenario per bundled hex map.
const MAPS: &[&str] = &[
    "scenarios/lrf/fontenoy.scenario.ron",
    "scenarios/lrf/jengland.scenario.ron",
    "scenarios/lrf/brissarthe.scenario.ron",
    "scenarios/lrf/montfaucon.scenario.ron",
    "scenarios/prestags/5-7-hastings.scenario.ron",
];

/// The example game's map (its own project), whose system has a road march that keeps
/// away from enemies, a zone that costs a point to leave, and supply.
const EXAMPLE: &str = "examples/harrow-ford";

/// Positions per map (the figure).
const POSITIONS: usize = 1000;

/// xorshift64*: a small seeded generator, so every run draws the same positions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Zone-of-control state of a move: not in an enemy zone, in the zone it started in,
/// or stopped by entering one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
enum Zoc {
    Free,
    Start,
    Stopped,
}

/// Movement points as thousandths, so states compare exactly.
fn milli(x: f64) -> i64 {
    (x * 1000.0).round() as i64
}

/// What a step costs unit `i`, read from the data without the engine's own reading;
/// `None` where it may not be made. Panics on a rule it does not read, so a new rule in
/// the bundled data cannot pass unread.
fn simple_step(
    e: &Engine,
    i: usize,
    from: HexId,
    to: HexId,
    mode: Option<&MovementMode>,
) -> Option<f64> {
    let (map, system) = (e.map, e.system);
    let u = &e.position.units[i];
    let class = class_of(e, &u.kind);
    let troop = |t: &str| t == "*" || t == u.kind || Some(t) == class;
    let has = |h: HexId, t: &str| {
        map.terrain_id_at(h) == Some(t) || map.feature_ids_at(h).iter().any(|f| *f == t)
    };
    let side = map.hexside(from, to);
    let mut cost = match mode {
        None => {
            let road = side.is_some_and(|s| s.cost_override.is_some());
            let mut open = map.admits(to, &u.kind, class);
            // A road-only rule: only along a road, and there even where the terrain
            // keeps the unit out. Its condition is read here as the bundled systems
            // write it, a troop type and a terrain.
            for rule in &system.rules.effects {
                if !rule.then.contains(&Effect::RoadOnly) {
                    continue;
                }
                let applies = match &rule.when {
                    Some(Condition::All(list)) => list.iter().all(|c| match c {
                        Condition::Troop(t) => troop(t),
                        Condition::InTerrain(t) => has(to, t),
                        other => panic!("the simple search does not read {other:?}"),
                    }),
                    other => panic!("the simple search does not read {other:?}"),
                };
                if applies {
                    open = road;
                }
            }
            if !open {
                return None;
            }
            map.move_cost(from, to)?
        }
        Some(m) => {
            if side.is_some_and(|s| s.blocks_movement) {
                return None;
            }
            let on = |c: &&muster_model::vocab::ModeCost| has(to, &c.on);
            let own = m
                .costs
                .iter()
                .find(|c| map.terrain_id_at(to) == Some(c.on.as_str()));
            let mut c = match own.or_else(|| m.costs.iter().find(on))?.cost {
                MoveCost::Points(x) => x,
                MoveCost::Extra(x) => map.move_cost(from, to)? + x,
                MoveCost::Impassable => return None,
            };
            for f in side.map_or(&[][..], |s| &s.features[..]) {
                match m.costs.iter().find(|c| c.on == *f).map(|c| c.cost) {
                    Some(MoveCost::Impassable) => return None,
                    Some(MoveCost::Extra(x)) => c += x,
                    Some(MoveCost::Points(x)) => c = x,
                    None => {}
                }
            }
            c
        }
    };
    for rule in &system.rules.effects {
        let costs: Vec<&MoveCost> = rule
            .then
            .iter()
            .filter_map(|x| match x {
                Effect::MoveCost(c) => Some(c),
                Effect::NoCrossingCost => panic!("the simple search does not read {x:?}"),
                _ => None,
            })
            .collect();
        if costs.is_empty() {
            continue;
        }
        let holds = match &rule.when {
            None => true,
            Some(Condition::Weather(w)) => e.position.weather.as_deref() == Some(w.as_str()),
            Some(other) => panic!("the simple search does not read {other:?}"),
        };
        for c in costs.into_iter().filter(|_| holds) {
            match c {
                MoveCost::Points(x) => cost = *x,
                MoveCost::Extra(x) => cost += x,
                MoveCost::Impassable => return None,
            }
        }
    }
    Some(cost.max(0.0))
}

/// The class of a unit kind, where its printed values give one.
fn class_of<'e>(e: &Engine<'e>, kind: &str) -> Option<&'e str> {
    e.system
        .unit_kinds
        .iter()
        .find(|k| k.id == kind)
        .and_then(|k| match &k.stats {
            Some(KindStats::Counter { class, .. } | KindStats::Leader { class, .. }) => {
                Some(class.as_str())
            }
            _ => None,
        })
}

/// Whether a rule of the system keeps unit `i` from moving at all (`MayNot(Move)`),
/// reading the conditions such rules use in the bundled systems; panics on any other.
fn held(e: &Engine, i: usize) -> bool {
    let u = &e.position.units[i];
    let class = class_of(e, &u.kind);
    let status = u.status.clone().or_else(|| {
        e.system
            .rules
            .status
            .as_ref()
            .map(|l| l.levels[0].id.clone())
    });
    fn holds(c: &Condition, kind: &str, class: Option<&str>, status: Option<&str>) -> bool {
        match c {
            Condition::All(list) => list.iter().all(|c| holds(c, kind, class, status)),
            Condition::Not(inner) => !holds(inner, kind, class, status),
            Condition::Status(s) => status == Some(s.as_str()),
            Condition::Troop(t) => t == "*" || t == kind || Some(t.as_str()) == class,
            other => panic!("the simple search does not read {other:?}"),
        }
    }
    e.system
        .rules
        .effects
        .iter()
        .filter(|r| r.then.contains(&Effect::MayNot(Act::Move)))
        .any(|r| {
            r.when
                .as_ref()
                .is_none_or(|c| holds(c, &u.kind, class, status.as_deref()))
        })
}

/// The best MP left per hex where the unit may end, by exhaustive search.
fn exhaustive(e: &Engine, i: usize, start: HexId) -> BTreeMap<HexId, i64> {
    if held(e, i) {
        return BTreeMap::new();
    }
    let (mp, _) = e.allowance_of(i);
    let zoc_rule = e.system.rules.zones_of_control.as_ref();
    let zoc: HashSet<HexId> = if e.ignores_zoc(i) {
        HashSet::new()
    } else {
        e.zoc_against(i)
    };
    let mut best: BTreeMap<HexId, i64> = BTreeMap::new();
    for mode in e.modes_of(i) {
        let first = if zoc.contains(&start) {
            Zoc::Start
        } else {
            Zoc::Free
        };
        let mut seen: BTreeSet<(HexId, i64, Zoc)> = BTreeSet::new();
        let mut todo = vec![(start, milli(mp), first)];
        while let Some(state) = todo.pop() {
            if !seen.insert(state) {
                continue;
            }
            let (h, left, z) = state;
            if z == Zoc::Stopped {
                continue;
            }
            if let Some(r) = zoc_rule
                && z == Zoc::Start
                && r.leaving == ZocLeaving::Forbidden
            {
                continue;
            }
            let near_enemy = |x: HexId| {
                e.map.neighbours(x).into_iter().any(|y| {
                    e.position.units.iter().any(|u| {
                        u.hex == y.to_string()
                            && u.side.is_some()
                            && u.side != e.position.units[i].side
                    })
                })
            };
            let apart = mode.is_some_and(|m| m.not_adjacent_to_enemy);
            if apart && near_enemy(h) {
                continue;
            }
            for n in e.map.neighbours(h) {
                if !e.may_pass(i, n) || (apart && near_enemy(n)) {
                    continue;
                }
                let Some(cost) = simple_step(e, i, h, n, mode) else {
                    continue;
                };
                let mut cost = milli(cost);
                let into = zoc.contains(&n);
                let from = zoc.contains(&h);
                let mut next = if into { Zoc::Stopped } else { Zoc::Free };
                if let Some(r) = zoc_rule {
                    if from && into && !r.zone_to_zone {
                        continue;
                    }
                    match r.entry {
                        ZocEntry::Stop => {}
                        ZocEntry::Free => next = if into { Zoc::Start } else { Zoc::Free },
                        ZocEntry::Cost(x) => {
                            next = if into { Zoc::Start } else { Zoc::Free };
                            if into {
                                cost += milli(x);
                            }
                        }
                    }
                    if let (true, ZocLeaving::Cost(x)) = (from, r.leaving) {
                        cost += milli(x);
                    }
                }
                if cost <= left {
                    todo.push((n, left - cost, next));
                }
            }
        }
        for (h, left, _) in seen {
            let ends = mode.is_none_or(|m| {
                m.end_on.is_empty() || m.end_on.iter().any(|t| e.map.terrain_id_at(h) == Some(t))
            });
            if h != start && ends && e.may_end(i, h) {
                let b = best.entry(h).or_insert(left);
                *b = (*b).max(left);
            }
        }
    }
    // The minimum move: one hex into passable terrain, whatever it costs.
    if let Some(min) = e
        .system
        .rules
        .movement
        .as_ref()
        .and_then(|m| m.minimum_move.as_ref())
    {
        let status = e.position.units[i].status.clone().or_else(|| {
            e.system
                .rules
                .status
                .as_ref()
                .map(|l| l.levels[0].id.clone())
        });
        if min.status.is_empty() || min.status.iter().any(|s| Some(s) == status.as_ref()) {
            let z2z = zoc_rule.is_none_or(|r| r.zone_to_zone);
            for mode in e.modes_of(i) {
                for n in e.map.neighbours(start) {
                    let zone_to_zone = zoc.contains(&start) && zoc.contains(&n);
                    if e.may_end(i, n)
                        && simple_step(e, i, start, n, mode).is_some()
                        && (z2z || !zone_to_zone)
                    {
                        best.entry(n).or_insert(0);
                    }
                }
            }
        }
    }
    best
}

/// A random position: the set-up's units, a dozen of them moved next to a mover placed
/// at random, on either side, some of them reduced in status.
fn random_position(e0: &Engine, base: &Position, rng: &mut Rng) -> Position {
    let mut p = base.clone();
    let hexes: Vec<HexId> = e0.map.grid().hexes().collect();
    let sides: Vec<String> = p.sides.iter().map(|s| s.id.clone()).collect();
    let pool: Vec<Unit> = p.units.clone();
    let centre = hexes[rng.below(hexes.len())];
    let near = e0.map.grid().within(centre, 4);
    let mut units = Vec::new();
    for k in 0..(2 + rng.below(12)) {
        let mut u = pool[rng.below(pool.len())].clone();
        u.id = format!("u{k}");
        u.hex = if k == 0 {
            centre
        } else {
            near[rng.below(near.len())]
        }
        .to_string();
        u.side = Some(sides[rng.below(sides.len())].clone());
        if rng.below(5) == 0
            && let Some(l) = &e0.system.rules.status
        {
            u.status = Some(
                l.levels[rng.below(l.levels.len().saturating_sub(1).max(1))]
                    .id
                    .clone(),
            );
        }
        units.push(u);
    }
    p.units = units;
    p
}

#[test]
fn reach_agrees_with_an_exhaustive_search_on_every_bundled_map() {
    let db = bundled();
    let example = muster_testkit::db::load(&muster_testkit::repo().join(EXAMPLE));
    let harrow = example
        .index_of(
            &muster_testkit::repo()
                .join(EXAMPLE)
                .join("scenarios/harrow/harrow-ford.scenario.ron"),
        )
        .unwrap();
    let scenarios = MAPS
        .iter()
        .map(|rel| (*rel, &db, index(&db, rel)))
        .chain([(EXAMPLE, &example, harrow)]);
    for (rel, db, at) in scenarios {
        let cx = ScenarioCx::new(FileCx::new(db, at).unwrap()).unwrap();
        let base = from_scenario(&cx, 1);
        let (system, map) = (cx.system.unwrap(), cx.map.unwrap());
        let e0 = Engine::new(system, map, &base);
        let mut rng = Rng(0x5EED_0000 + rel.len() as u64);
        let mut moved = 0;
        for _ in 0..POSITIONS {
            let p = random_position(&e0, &base, &mut rng);
            let e = Engine::new(system, map, &p);
            let reach = e.reach("u0").unwrap();
            let start = HexId::parse(&p.units[0].hex).unwrap();
            let want = exhaustive(&e, 0, start);
            let got: BTreeMap<HexId, i64> = reach
                .hexes
                .iter()
                .map(|h| (HexId::parse(&h.hex).unwrap(), milli(h.mp_left)))
                .collect();
            assert_eq!(got, want, "{rel}: {}", serde_json::to_string(&p).unwrap());
            for h in &reach.hexes {
                // Each path is legal: adjacent steps from the start to the hex.
                assert_eq!(h.path.first(), Some(&reach.from));
                assert_eq!(h.path.last(), Some(&h.hex));
            }
            moved += usize::from(!reach.hexes.is_empty());
        }
        assert!(
            moved > POSITIONS / 4,
            "{rel}: too few positions where the unit moves ({moved})"
        );
    }
}
