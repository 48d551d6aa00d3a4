//! What a designer asks of a scenario before anyone plays it: can each reinforcement
//! get on into the battle ([`arrival`]), and from which turn can some unit of a side
//! stand on each hex ([`side_march`]). Both are [`Engine::march`]es of one unit alone on
//! the map: the other units are not read (enemies move, friends make way), the terrain
//! and the movement rules in force are.
//!
//! Units that share a side, a kind, a status and an allowance move alike, so they march
//! together: one search from all their hexes at once, never one per unit.

use std::collections::HashMap;

use muster_hex::HexId;
use muster_model::scenario::Arrive;
use muster_semantic::ScenarioCx;
use muster_semantic::board::PieceState;

use crate::{Engine, Position, Unit, from_board};

/// The first turn some unit of a side can stand on each hex.
#[derive(Debug, Clone)]
pub struct SideMarch {
    /// One march per group of units that move alike: their kind, class and the first
    /// turn on each hex they reach.
    groups: Vec<(String, Option<String>, HashMap<HexId, u32>)>,
    /// Some unit of the side starts aboard a carrier: where it lands is a move the march
    /// does not make (sailing), so what the side can reach is not known.
    pub carried: bool,
    /// Searches run (one per group of units that move alike), for work-counting tests.
    pub searches: usize,
    /// Hexes settled over all searches.
    pub settled: usize,
}

impl SideMarch {
    /// The first turn some unit of the side of these troop types (kind ids, classes or
    /// `"*"`), not of the kinds `excluding`, can stand on `hex`.
    pub fn turn_at(&self, hex: HexId, troops: &[String], excluding: &[String]) -> Option<u32> {
        self.groups
            .iter()
            .filter(|(kind, class, _)| {
                let is = |t: &String| t == "*" || t == kind || class.as_ref() == Some(t);
                troops.iter().any(is) && !excluding.contains(kind)
            })
            .filter_map(|(_, _, first)| first.get(&hex).copied())
            .min()
    }

    /// Whether the march says what the side can reach: it has units on the map and
    /// none of them starts aboard a carrier.
    pub fn judged(&self) -> bool {
        !self.groups.is_empty() && !self.carried
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

/// The first turn some unit of side `side` (an index of the scenario's sides) can stand
/// on each hex, moving every turn from its set-up hex (or, for a reinforcement, from its
/// entry in its turn) up to turn `last`. `None` without a system and a map.
pub fn side_march(cx: &ScenarioCx, side: usize, last: u8) -> Option<SideMarch> {
    let (system, map) = (cx.system?, cx.map?);
    let side_id = &cx.scenario.sides.get(side)?.id;
    let board = cx.board(last);
    let mut position = from_board(cx, &board);
    let units = std::mem::take(&mut position.units);
    // Units that move alike, by side, kind, status and allowance, with their seeds.
    let mut groups: Vec<(&Unit, Vec<Seed>)> = Vec::new();
    let mut index: HashMap<(&str, Option<&str>, u64), usize> = HashMap::new();
    for (unit, piece) in units.iter().zip(&board.pieces) {
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
        let alone = Position {
            units: vec![unit.clone()],
            ..position.clone()
        };
        let engine = Engine::new(system, map, &alone);
        let seeds = seeds_of(cx, &engine, unit, piece);
        groups[g].1.extend(seeds);
    }
    let carried = board
        .pieces
        .iter()
        .any(|p| p.side == Some(side) && !p.aboard.is_empty());
    let mut out = SideMarch {
        carried,
        groups: Vec::new(),
        searches: 0,
        settled: 0,
    };
    for (unit, seeds) in &groups {
        let alone = Position {
            units: vec![(*unit).clone()],
            ..position.clone()
        };
        let engine = Engine::new(system, map, &alone);
        let Ok(march) = engine.march(&unit.id, seeds, u32::from(last)) else {
            continue;
        };
        out.searches += 1;
        out.settled += march.settled;
        let class = engine.units[0].class.map(str::to_string);
        out.groups
            .push((unit.kind.clone(), class, march.reached().collect()));
    }
    Some(out)
}

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

/// The units of reinforcement `r` that can come on at some entry hex in their turn but
/// can reach no hex of the map beyond the entry hexes in any number of turns. A unit
/// that cannot come on at all is not listed (`reinforcements::cannot-enter` and
/// `reinforcements::entry-impassable` say so).
pub fn hemmed_in(cx: &ScenarioCx, r: usize) -> Vec<Hemmed> {
    let (Some(system), Some(map)) = (cx.system, cx.map) else {
        return Vec::new();
    };
    let Some(reinforcement) = cx.scenario.reinforcements.get(r) else {
        return Vec::new();
    };
    let board = cx.board(reinforcement.turn);
    let mut rest = from_board(cx, &board);
    let units = std::mem::take(&mut rest.units);
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
            .zip(&units)
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
        let seeds = entry_seeds(
            &engine,
            unit,
            &entries,
            reinforcement.arrive,
            u32::from(reinforcement.turn),
        );
        if seeds.is_empty() {
            continue;
        }
        // No turn limit: the question is whether any way on exists at all, and the search
        // ends once no hex can be reached sooner.
        let Ok(march) = engine.march(&unit.id, &seeds, u32::MAX - 1) else {
            continue;
        };
        if march.reached().any(|(h, _)| !entries.contains(&h)) {
            continue;
        }
        let mut from: Vec<HexId> = seeds.iter().map(|s| s.0).collect();
        from.sort();
        from.dedup();
        out.push(Hemmed {
            group: g,
            counter: group.counter.clone(),
            entries: from,
        });
    }
    out
}
