//! What a designer asks of a scenario before anyone plays it: can each reinforcement
//! get on into the battle ([`hemmed_in`]), and can some unit of a side get to the
//! places its victory asks for in time ([`side_reach`]). Both march one unit alone on
//! the map ([`Engine::march_until`], [`Engine::first_turn_at`]): the other units are
//! not read (enemies move, friends make way), the terrain and the movement rules in
//! force are.
//!
//! Units that share a side, a kind, a status and an allowance move alike, so they march
//! together: one search from all their hexes at once, never one per unit.

use std::collections::HashMap;

use muster_hex::HexId;
use muster_model::scenario::Arrive;
use muster_semantic::ScenarioCx;
use muster_semantic::board::{Board, PieceState};

use crate::{Engine, Position, Unit, from_board};

/// A place a side is asked to get a unit to: any one of `hexes`, by a unit of the troop
/// types `troops` (kind ids, classes or `"*"`) not of the kinds `excluding`, by turn
/// `by_turn`.
#[derive(Debug, Clone, Copy)]
pub struct Target<'t> {
    pub hexes: &'t [HexId],
    pub troops: &'t [String],
    pub excluding: &'t [String],
    pub by_turn: u32,
}

impl Target<'_> {
    fn counts(&self, kind: &str, class: Option<&str>) -> bool {
        let is = |t: &String| t == "*" || t == kind || class == Some(t.as_str());
        self.troops.iter().any(is) && !self.excluding.iter().any(|k| k == kind)
    }
}

/// What a side's march found for each of its targets.
#[derive(Debug, Clone)]
pub struct SideReach {
    /// By target: a turn some unit that counts can stand on one of its hexes. A target
    /// met by its turn holds the first turn of the first group that met it (another
    /// group may be sooner); a target not met holds the first turn any unit that counts
    /// gets there up to the march's last turn, or `None`.
    pub first: Vec<Option<u32>>,
    /// Some unit of the side starts aboard a carrier: where it lands is a move the march
    /// does not make (sailing), so what the side can reach is not known.
    pub carried: bool,
    /// The side has units on the map.
    pub fielded: bool,
    /// Searches run (at most one per group of units that move alike and target), for
    /// work-counting tests.
    pub searches: usize,
    /// Hexes settled over all searches.
    pub settled: usize,
}

impl SideReach {
    /// Whether the march says what the side can reach: it has units on the map and
    /// none of them starts aboard a carrier.
    pub fn judged(&self) -> bool {
        self.fielded && !self.carried
    }

    /// Whether target `t` is met by its turn.
    pub fn met(&self, t: usize, target: &Target) -> bool {
        self.first
            .get(t)
            .copied()
            .flatten()
            .is_some_and(|turn| turn <= target.by_turn)
    }
}

/// Where a unit of a side starts moving: its hex (or its reinforcement's entry hexes),
/// the turn, and the MP it has left then.
type Seed = (HexId, u32, f64);

/// The hexes a reinforcement unit comes on at and the MP it has left there: an edge
/// entry costs the system's entry cost and the hex's own (or takes the whole move where
/// the system has a minimum move); a unit that appears inside the map keeps its
/// allowance.
fn entry_seeds(
    engine: &Engine,
    unit: &Unit,
    entries: &[HexId],
    arrive: Arrive,
    turn: u32,
) -> Vec<Seed> {
    let min_move = engine
        .system
        .rules
        .movement
        .as_ref()
        .is_some_and(|m| m.minimum_move.is_some());
    // The engine holds the unit alone.
    let (mp, _) = engine.allowance_of(0);
    entries
        .iter()
        .filter(|h| engine.map.contains(**h))
        .filter_map(|&h| {
            if arrive == Arrive::Anywhere {
                return Some((h, turn, mp));
            }
            let cost = engine.entry_cost(&unit.id, h).ok().flatten()?;
            if cost <= mp + 1e-9 {
                Some((h, turn, mp - cost))
            } else {
                min_move.then_some((h, turn, 0.0))
            }
        })
        .collect()
}

/// The entry hexes of the reinforcements of side `side` arriving on `turn` with units
/// of counter `counter`, and how they arrive.
fn entries_of(cx: &ScenarioCx, side: &str, turn: u8, counter: &str) -> Vec<(Vec<HexId>, Arrive)> {
    cx.scenario
        .reinforcements
        .iter()
        .filter(|r| {
            r.side == side && r.turn == turn && r.units.iter().any(|u| u.counter == counter)
        })
        .map(|r| {
            let hexes = r
                .entry
                .iter()
                .filter_map(|h| HexId::parse(h).ok())
                .collect();
            (hexes, r.arrive)
        })
        .collect()
}

/// Whether some unit of side `side` (an index of the scenario's sides) can get to each
/// of `targets`, moving every turn from its set-up hex (or, for a reinforcement, from
/// its entry in its turn, and for a zoned group that arrives on a map edge, from every
/// hex of that edge in its turn) up to the turn of `board` (the scenario's board at that turn,
/// laid out once for all sides). `None` without a system and a map.
///
/// Units that move alike march together, one guided march
/// ([`Engine::first_turn_at`]) per target their units count for that no group before
/// them has met: a scenario whose targets are all in reach settles the hexes between
/// its units and them, not the whole map once per group.
pub fn side_reach(
    cx: &ScenarioCx,
    board: &Board,
    side: usize,
    targets: &[Target],
) -> Option<SideReach> {
    let (system, map) = (cx.system?, cx.map?);
    let side_id = &cx.scenario.sides.get(side)?.id;
    let last = board.turn;
    // The rest of the position, with one unit at a time in it.
    let mut alone = from_board(cx, board);
    let mut units = std::mem::take(&mut alone.units);
    // Groups of zoned forces that enter on a map edge by the board's turn are not on
    // the board: each of their kinds marches from the edge's hexes in its turn.
    let mut edges: Vec<(Vec<HexId>, u8)> = Vec::new();
    for (kind, entries, turn) in edge_arrivals(cx, side, board.turn) {
        if let Some(&first) = entries.first() {
            units.push(crate::position::unit_of_kind(cx, side, kind, first));
            edges.push((entries, turn));
        }
    }
    let pieces = units.len() - edges.len();
    // Units that move alike, by side, kind, status and allowance: the first of each
    // stands for the others, and the group's seeds are theirs together.
    let mut groups: Vec<(&Unit, Vec<usize>)> = Vec::new();
    let mut index: HashMap<(&str, Option<&str>, u64), usize> = HashMap::new();
    for (k, unit) in units.iter().enumerate() {
        if unit.side.as_ref() != Some(side_id) {
            continue;
        }
        let key = (
            unit.kind.as_str(),
            unit.status.as_deref(),
            unit.movement.to_bits(),
        );
        let g = *index.entry(key).or_insert_with(|| {
            groups.push((unit, Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(k);
    }
    let mut out = SideReach {
        first: vec![None; targets.len()],
        carried: board
            .pieces
            .iter()
            .any(|p| p.side == Some(side) && !p.aboard.is_empty()),
        fielded: !groups.is_empty(),
        searches: 0,
        settled: 0,
    };
    // A target asked twice (the same hexes, troops and turn) is searched for once.
    let mut first_of: HashMap<TargetKey, usize> = HashMap::new();
    let canon: Vec<usize> = targets
        .iter()
        .enumerate()
        .map(|(t, x)| {
            *first_of
                .entry((x.hexes, x.troops, x.excluding, x.by_turn))
                .or_insert(t)
        })
        .collect();
    for (unit, members) in &groups {
        alone.units = vec![(*unit).clone()];
        let engine = Engine::new(system, map, &alone);
        let class = engine.units[0].class;
        let mut seeds: Vec<Seed> = members
            .iter()
            .flat_map(|&k| match k.checked_sub(pieces) {
                None => board
                    .pieces
                    .get(k)
                    .map(|piece| seeds_of(cx, &engine, unit, piece))
                    .unwrap_or_default(),
                Some(e) => edges.get(e).map_or_else(Vec::new, |(entries, turn)| {
                    entry_seeds(&engine, unit, entries, Arrive::Edge, u32::from(*turn))
                }),
            })
            .collect();
        seeds.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(b.2.total_cmp(&a.2)));
        seeds.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        let seeds = &seeds;
        for (t, target) in targets.iter().enumerate() {
            if canon[t] != t || !target.counts(&unit.kind, class) || out.met(t, target) {
                continue;
            }
            let Ok(toward) = engine.first_turn_at(&unit.id, seeds, u32::from(last), target.hexes)
            else {
                continue;
            };
            out.searches += 1;
            out.settled += toward.settled;
            if let Some(turn) = toward.first
                && out.first[t].is_none_or(|f| turn < f)
            {
                out.first[t] = Some(turn);
            }
        }
    }
    for (t, &c) in canon.iter().enumerate() {
        out.first[t] = out.first[c];
    }
    Some(out)
}

/// The kinds of unit side `side`'s zoned groups bring on at a map edge by turn `by`
/// (a group that lists none brings its force's), each with the edge's hexes and the
/// group's turn.
fn edge_arrivals<'c>(cx: &'c ScenarioCx, side: usize, by: u8) -> Vec<(&'c str, Vec<HexId>, u8)> {
    let Some(map) = cx.map else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for zoned in cx.zoned_sides().iter().filter(|z| z.index == side) {
        for group in &zoned.forces.deploy {
            let Some(arrival) = group.arrives.as_ref().filter(|a| a.turn <= by) else {
                continue;
            };
            for kind in group_kinds(zoned.forces, group) {
                out.push((kind, map.grid().edge_hexes(arrival.edge), arrival.turn));
            }
        }
    }
    out
}

/// The unit kinds a zoned group brings, each once: those it lists, or its force's when
/// it lists none.
fn group_kinds<'f>(
    forces: &'f muster_model::scenario::ZonedForces,
    group: &'f muster_model::scenario::Deployment,
) -> Vec<&'f str> {
    let listed = if group.units.is_empty() {
        &forces.units
    } else {
        &group.units
    };
    let mut kinds: Vec<&str> = listed.iter().map(|t| t.kind.as_str()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds
}

/// What makes two targets the same: hexes, troops, kinds left out and turn.
type TargetKey<'t> = (&'t [HexId], &'t [String], &'t [String], u32);

/// Where a unit of the board starts its march.
fn seeds_of(
    cx: &ScenarioCx,
    engine: &Engine,
    unit: &Unit,
    piece: &muster_semantic::board::Piece,
) -> Vec<Seed> {
    match piece.state {
        PieceState::Arrived { turn } => {
            let side = unit.side.as_deref().unwrap_or_default();
            entries_of(cx, side, turn, &piece.counter)
                .into_iter()
                .flat_map(|(hexes, arrive)| {
                    entry_seeds(engine, unit, &hexes, arrive, u32::from(turn))
                })
                .collect()
        }
        PieceState::Placed | PieceState::Chosen | PieceState::Choice => {
            let (mp, _) = engine.allowance_of(0);
            vec![(piece.hex, 1, mp)]
        }
    }
}

/// A unit of a reinforcement that comes on but can go no further than its entry hexes.
#[derive(Debug, Clone, PartialEq)]
pub struct Hemmed {
    /// Index of the unit group in the reinforcement's `units`.
    pub group: usize,
    pub counter: String,
    /// The entry hexes it can come on at.
    pub entries: Vec<HexId>,
}

/// For each reinforcement, by index: the units that can come on at some entry hex in
/// their turn but can reach no hex of the map beyond the entry hexes in any number of
/// turns. A unit that cannot come on at all is not listed
/// (`reinforcements::cannot-enter` and `reinforcements::entry-impassable` say so).
///
/// The board of a turn is laid out once for all the reinforcements of that turn, and a
/// reinforcement written again (the same turn, arrival, entries and counters) is judged
/// once: a scenario that repeats one line a thousand times costs one search.
pub fn hemmed_in(cx: &ScenarioCx) -> Vec<Vec<Hemmed>> {
    let reinforcements = &cx.scenario.reinforcements;
    let (Some(system), Some(map)) = (cx.system, cx.map) else {
        return vec![Vec::new(); reinforcements.len()];
    };
    type Key<'s> = (u8, Arrive, &'s [String], Vec<&'s str>);
    let mut boards: HashMap<u8, (Board, Position)> = HashMap::new();
    let mut judged: HashMap<Key<'_>, Vec<Hemmed>> = HashMap::new();
    reinforcements
        .iter()
        .map(|reinforcement| {
            let key: Key<'_> = (
                reinforcement.turn,
                reinforcement.arrive,
                &reinforcement.entry,
                reinforcement
                    .units
                    .iter()
                    .map(|u| u.counter.as_str())
                    .collect(),
            );
            if let Some(found) = judged.get(&key) {
                return found.clone();
            }
            let (board, position) = boards.entry(reinforcement.turn).or_insert_with(|| {
                let board = cx.board(reinforcement.turn);
                let position = from_board(cx, &board);
                (board, position)
            });
            let found = hemmed_on(system, map, reinforcement, board, position);
            judged.insert(key, found.clone());
            found
        })
        .collect()
}

/// [`hemmed_in`] for one reinforcement, on the board of its turn.
fn hemmed_on(
    system: &muster_model::system::RulesSystem,
    map: &muster_map::TerrainMap,
    reinforcement: &muster_model::scenario::Reinforcement,
    board: &Board,
    position: &Position,
) -> Vec<Hemmed> {
    let units = &position.units;
    let rest = Position {
        units: Vec::new(),
        ..position.clone()
    };
    let entries: Vec<HexId> = reinforcement
        .entry
        .iter()
        .filter_map(|h| HexId::parse(h).ok())
        .filter(|h| map.contains(*h))
        .collect();
    let mut out = Vec::new();
    for (g, group) in reinforcement.units.iter().enumerate() {
        // The group's first copy on the board of its turn.
        let Some(unit) = board
            .pieces
            .iter()
            .zip(units)
            .find(|(p, _)| {
                p.counter == group.counter
                    && matches!(p.state, PieceState::Arrived { turn } if turn == reinforcement.turn)
            })
            .map(|(_, u)| u)
        else {
            continue;
        };
        let alone = Position {
            units: vec![unit.clone()],
            ..rest.clone()
        };
        let engine = Engine::new(system, map, &alone);
        let Some(from) = penned_at(
            &engine,
            unit,
            &entries,
            reinforcement.arrive,
            reinforcement.turn,
        ) else {
            continue;
        };
        out.push(Hemmed {
            group: g,
            counter: group.counter.clone(),
            entries: from,
        });
    }
    out
}

/// The entry hexes `unit` (alone in `engine`'s position) can come on at in `turn` when
/// it can reach no hex beyond `entries` from them in any number of turns; `None` when it
/// can get further, or cannot come on at all.
fn penned_at(
    engine: &Engine,
    unit: &Unit,
    entries: &[HexId],
    arrive: Arrive,
    turn: u8,
) -> Option<Vec<HexId>> {
    let seeds = entry_seeds(engine, unit, entries, arrive, u32::from(turn));
    if seeds.is_empty() {
        return None;
    }
    // No turn limit: the question is whether any way on exists at all, and the search
    // ends once no hex can be reached sooner.
    let march = engine
        .march_until(&unit.id, &seeds, u32::MAX - 1, |h, _| !entries.contains(&h))
        .ok()?;
    if march.reached().any(|(h, _)| !entries.contains(&h)) {
        return None;
    }
    let mut from: Vec<HexId> = seeds.iter().map(|s| s.0).collect();
    from.sort();
    from.dedup();
    Some(from)
}

/// A kind of unit in a zoned force's group that enters on a map edge (`arrives`): it
/// can come on along the edge in its turn but can reach no hex off the edge in any
/// number of turns.
#[derive(Debug, Clone, PartialEq)]
pub struct HemmedArrival {
    /// The side, by index in the scenario's sides.
    pub side: usize,
    /// The group, by index in the zoned forces' `deploy`.
    pub group: usize,
    /// The unit kind, by id.
    pub kind: String,
    pub edge: muster_hex::Edge,
}

/// [`hemmed_in`] for the groups of zoned forces that enter on a map edge: each kind of
/// unit a group brings is marched alone from every hex of its edge. A group that lists
/// no units brings every kind of its force. The board of each arrival turn is laid out
/// once.
pub fn hemmed_arrivals(cx: &ScenarioCx) -> Vec<HemmedArrival> {
    let (Some(system), Some(map)) = (cx.system, cx.map) else {
        return Vec::new();
    };
    let mut rests: HashMap<u8, Position> = HashMap::new();
    let mut out = Vec::new();
    for side in cx.zoned_sides() {
        for (g, group) in side.forces.deploy.iter().enumerate() {
            let Some(arrival) = &group.arrives else {
                continue;
            };
            let entries = map.grid().edge_hexes(arrival.edge);
            let Some(&first) = entries.first() else {
                continue;
            };
            let rest = rests.entry(arrival.turn).or_insert_with(|| Position {
                units: Vec::new(),
                ..from_board(cx, &cx.board(arrival.turn))
            });
            for kind in group_kinds(side.forces, group) {
                let unit = crate::position::unit_of_kind(cx, side.index, kind, first);
                let alone = Position {
                    units: vec![unit.clone()],
                    ..rest.clone()
                };
                let engine = Engine::new(system, map, &alone);
                if penned_at(&engine, &unit, &entries, Arrive::Edge, arrival.turn).is_some() {
                    out.push(HemmedArrival {
                        side: side.index,
                        group: g,
                        kind: kind.to_string(),
                        edge: arrival.edge,
                    });
                }
            }
        }
    }
    out
}
