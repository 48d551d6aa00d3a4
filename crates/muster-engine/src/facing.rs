//! Moving with a facing (PRESTAGS 16.1, 16.11). Where a rule in force forbids a move
//! through a class of a unit's hexsides (`MayNot(Move)` with `Through`), the unit steps
//! only through its other hexsides, and turns in place for the system's `turn_cost`, at
//! most `turn_up_to` hexsides at a time. Its reach is then a search over hex and facing
//! together; each hex keeps the facing that leaves the most MP, and its path.

use std::collections::{BinaryHeap, HashSet};

use muster_hex::HexId;
use muster_model::vocab::{Act, Effect, EffectRule, MovementMode};

use crate::cond::Facts;
use crate::reach::{EPS, Search};
use crate::{Engine, FastMap};

/// How facing binds one unit's move.
pub(crate) struct Faced<'a> {
    pub facing: u8,
    /// Per hexside, counted from the faced one clockwise: whether no step goes through it.
    pub blocked: [bool; 6],
    pub turn_cost: f64,
    pub turn_up_to: u8,
    /// The rules that forbid the steps, and the facing's section.
    pub rules: Vec<&'a EffectRule>,
    pub section: &'a str,
}

/// A hex and the hexside faced there.
type State = (HexId, u8);

/// A state with the MP left on reaching it, ordered for a search that pops the most MP.
struct Open(f64, State);

impl PartialEq for Open {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl Eq for Open {}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0
            .total_cmp(&other.0)
            .then_with(|| other.1.cmp(&self.1))
    }
}

/// A search's states: the most MP left on each, the state each was reached from, and
/// those still to follow.
#[derive(Default)]
struct Frontier {
    left: FastMap<State, f64>,
    parent: FastMap<State, State>,
    open: BinaryHeap<Open>,
}

impl Frontier {
    /// Keeps `mp` for state `s`, reached from `from`, where it beats what `s` had.
    fn relax(&mut self, s: State, mp: f64, from: Option<State>) {
        if mp < -EPS || self.left.get(&s).is_some_and(|l| mp <= *l + EPS) {
            return;
        }
        self.left.insert(s, mp);
        if let Some(p) = from {
            self.parent.insert(s, p);
        }
        self.open.push(Open(mp, s));
    }
}

impl<'a> Engine<'a> {
    /// How facing binds unit `i`'s move from `start`: `None` unless the unit faces a
    /// hexside (0 to 5), the system has `facing`, and a rule in force forbids a move
    /// through at least one class of hexside.
    pub(crate) fn faced(&self, i: usize, start: HexId) -> Option<Faced<'a>> {
        let facing = self.units[i].unit.facing.filter(|f| *f < 6)?;
        let rules_facing = self.system.rules.facing.as_ref()?;
        let mut blocked = [false; 6];
        let mut rules: Vec<&EffectRule> = Vec::new();
        for class in &rules_facing.classes {
            let facts = Facts {
                through: Some(class.id.as_str()),
                ..Facts::at(self, i, start)
            };
            let forbid = self.rules_giving(&facts, |e| *e == Effect::MayNot(Act::Move));
            if forbid.is_empty() {
                continue;
            }
            rules.extend(forbid);
            for side in &class.hexsides {
                if let Some(b) = blocked.get_mut(usize::from(*side)) {
                    *b = true;
                }
            }
        }
        if !blocked.contains(&true) {
            return None;
        }
        rules.sort_by(|a, b| a.id.cmp(&b.id));
        rules.dedup_by(|a, b| std::ptr::eq(*a, *b));
        Some(Faced {
            facing,
            blocked,
            turn_cost: rules_facing.turn_cost.unwrap_or(0.0),
            turn_up_to: rules_facing.turn_up_to.unwrap_or(3),
            rules,
            section: &rules_facing.section,
        })
    }

    /// [`Engine::search`] for a unit that faces: a step goes only through a hexside not
    /// blocked for the facing held, and a turn in place costs `turn_cost`.
    pub(crate) fn search_faced(
        &self,
        i: usize,
        seeds: &[(HexId, f64)],
        start: HexId,
        mode: Option<&MovementMode>,
        zoc: &HashSet<HexId>,
        faced: &Faced,
    ) -> Search {
        let flight = self.flight(i, start);
        let mut at = Frontier::default();
        let first = (start, faced.facing);
        for &(h, mp) in seeds {
            at.relax((h, faced.facing), mp, (h != start).then_some(first));
        }
        let bound = self.zoc_of(i);
        while let Some(Open(mp, (h, f))) = at.open.pop() {
            if at.left.get(&(h, f)).is_some_and(|l| mp + EPS < *l) {
                continue;
            }
            for g in (0..6u8).filter(|g| *g != f) {
                let turn = (g + 6 - f) % 6;
                if turn.min(6 - turn) <= faced.turn_up_to {
                    at.relax((h, g), mp - faced.turn_cost, Some((h, f)));
                }
            }
            for (n, cost) in self.moves_with(i, h, start, mode, zoc, bound) {
                let Some(dir) = self.map.grid().direction(h, n) else {
                    continue;
                };
                if flight.as_ref().is_some_and(|f| !f.away(self, h, n)) {
                    continue;
                }
                if !faced.blocked[usize::from((dir + 6 - f) % 6)] {
                    at.relax((n, f), mp - cost, Some((h, f)));
                }
            }
        }
        let Frontier { left, parent, .. } = at;
        faced_paths(&left, &parent, first)
    }
}

/// Per hex, the most MP left over every facing, with the path of hexes that state was
/// reached by (turns in place leave the hex out again).
fn faced_paths(left: &FastMap<State, f64>, parent: &FastMap<State, State>, first: State) -> Search {
    let mut best: FastMap<HexId, (f64, State)> = FastMap::default();
    for (&s, &mp) in left {
        if best
            .get(&s.0)
            .is_none_or(|(b, at)| mp > *b + EPS || (mp >= *b - EPS && s < *at))
        {
            best.insert(s.0, (mp, s));
        }
    }
    let mut out = Search::default();
    for (h, (mp, s)) in best {
        let mut path = vec![h];
        let mut at = s;
        while let Some(&p) = parent.get(&at) {
            if path.last() != Some(&p.0) {
                path.push(p.0);
            }
            at = p;
            if p == first {
                break;
            }
        }
        path.reverse();
        out.left.insert(h, mp);
        out.paths.insert(h, path);
    }
    out
}
