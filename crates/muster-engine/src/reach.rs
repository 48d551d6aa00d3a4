//! Where a unit may end its move this phase: a search over hexes by movement points
//! left, honouring terrain and hexside costs (roads included), the system's movement
//! modes, zones of control (entry, leaving, zone to zone), stacking (friends passed
//! through, enemies never entered), the minimum move and the vocabulary's conditions
//! on movement (`MoveCost`, `MayNot(Enter)`, `MayNot(Move)`, and `Flees`: see
//! [`crate::flee`]).
//!
//! Not read: leaders' movement control (PRESTAGS 10.2) and a movement mode's capacity
//! per turn. A reinforcement's entry is [`Engine::entry_cost`]; moves over several turns
//! are [`Engine::march`].

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap, HashSet};

use muster_hex::HexId;
use muster_model::rules::{Action, Allowance};
use muster_model::system::{MoveCost, StackingPolicy, UnitRole};
use muster_model::vocab::{Act, Effect, EffectRule, MovementMode, ZocEffect, ZocEntry, ZocLeaving};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cond::{Facts, holds, status_of};
use crate::{Engine, QueryError, RuleRef, rule_ref};

/// How enemy zones of control bind one unit ([`Engine::zoc_of`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnitZoc {
    /// The unit ignores enemy zones.
    pub ignores: bool,
    /// What entering one does.
    pub entry: ZocEntry,
    /// What leaving one does.
    pub leaving: ZocLeaving,
    /// It may move straight from one enemy zone to another.
    pub zone_to_zone: bool,
}

/// Every hex a unit may end its move in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Reach {
    pub unit: String,
    pub from: String,
    /// Movement points at the start, after status effects.
    pub movement: f64,
    /// What the unit's carrier spends to moor, where it is one (PRESTAGS Excl 3.32).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moor_cost: Option<f64>,
    /// In hex order.
    pub hexes: Vec<ReachHex>,
    /// Where the system lets units leave the map (its `exit` rule): the map-edge hexes
    /// the unit reaches with the exit's cost still in hand and free to go on (not
    /// stopped by an enemy zone), each with the MP left there before leaving, in hex
    /// order. A scenario's victory may count only some edges or hexes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exits: Vec<ReachHex>,
    pub rules: Vec<RuleRef>,
}

impl Reach {
    /// The entry for a hex, if the unit may end there.
    pub fn at(&self, hex: &str) -> Option<&ReachHex> {
        self.hexes.iter().find(|h| h.hex == hex)
    }
}

/// One hex a unit may end its move in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ReachHex {
    pub hex: String,
    /// Movement points left on arrival.
    pub mp_left: f64,
    /// One cheapest path, the start hex first.
    pub path: Vec<String>,
    /// The movement mode used, if not ordinary movement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Reached only by the minimum move (one hex whatever it costs).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub minimum_move: bool,
    /// The hex is in an enemy zone of control.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub enemy_zoc: bool,
}

/// A search state's priority: most movement points left first, then hex order.
#[derive(PartialEq)]
struct Open(f64, HexId);

impl Eq for Open {}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .total_cmp(&other.0)
            .then_with(|| other.1.cmp(&self.1))
    }
}

pub(crate) const EPS: f64 = 1e-9;

/// The rules behind the cost of one step: the terrain effects chart and movement rules
/// (by index in the engine's `move_rules`). Steps share a few of these, so each is kept once in the engine
/// ([`Engine::cite_sets`]) and a step remembers its index.
#[derive(Debug, Default, Clone, PartialEq, Eq, Hash)]
pub(crate) struct StepCites {
    chart: bool,
    rules: Vec<usize>,
}

/// What one search found: the most MP left on each hex reached, and the hex each was
/// entered from.
#[derive(Default)]
pub(crate) struct Search {
    pub(crate) left: crate::FastMap<HexId, f64>,
    parent: crate::FastMap<HexId, HexId>,
    /// Whole paths, where a search keeps them by hex (a search over hex and facing).
    pub(crate) paths: crate::FastMap<HexId, Vec<HexId>>,
}

impl Search {
    /// The path to `h`, `start` first.
    fn path_to(&self, h: HexId, start: HexId) -> Vec<HexId> {
        if let Some(path) = self.paths.get(&h) {
            return path.clone();
        }
        let mut path = vec![h];
        let mut at = h;
        while let Some(&p) = self.parent.get(&at) {
            path.push(p);
            at = p;
            if p == start {
                break;
            }
        }
        path.reverse();
        path
    }
}

impl<'a> Engine<'a> {
    /// Where unit `id` may end its move from its hex.
    pub fn reach(&self, id: &str) -> Result<Reach, QueryError> {
        let i = self.unit(id)?;
        let start = self.hex_of(i);
        let (mp, mut rules) = self.allowance_of(i);
        let (mut out, exits) = self.search_all(i, &[(start, mp)], start, &mut rules);
        self.minimum_move(i, start, &mut out, &mut rules);
        self.flee(i, start, &mut out, &mut rules);
        Ok(self.finish(i, start, mp, (out, exits), rules))
    }

    /// Where unit `id`, aboard a moored carrier in its own hex, may end its move after
    /// unloading: the carrier's `unload_cost` takes it into an adjacent hex (not one of
    /// `unload_not_into`), then it moves on with what is left.
    pub fn reach_unloading(&self, id: &str) -> Result<Reach, QueryError> {
        let i = self.unit(id)?;
        let start = self.hex_of(i);
        let carrier = self
            .units_at(start)
            .iter()
            .filter(|&&c| c != i)
            .find_map(|&c| {
                self.system
                    .carriers
                    .iter()
                    .find(|k| k.kind == self.units[c].unit.kind && k.unload_cost.is_some())
            })
            .ok_or_else(|| QueryError::Invalid {
                reason: format!("unit `{id}` is not aboard a carrier that unloads"),
            })?;
        let (mp, mut rules) = self.allowance_of(i);
        let unload = carrier.unload_cost.unwrap_or(0.0);
        rules.push(RuleRef::new(
            format!("unloading from {} costs {unload} MP", carrier.kind),
            None,
        ));
        let seeds: Vec<(HexId, f64)> = self
            .map
            .neighbours(start)
            .into_iter()
            .filter(|n| {
                !carrier
                    .unload_not_into
                    .iter()
                    .any(|t| self.hex_has_own(*n, t))
            })
            .filter(|n| self.step_cost(i, start, *n, None).is_some() && self.may_pass(i, *n))
            .filter(|_| mp - unload >= -EPS)
            .map(|n| (n, mp - unload))
            .collect();
        let found = self.search_all(i, &seeds, start, &mut rules);
        Ok(self.finish(i, start, mp, found, rules))
    }

    fn finish(
        &self,
        i: usize,
        start: HexId,
        mp: f64,
        (found, exits): (HashMap<HexId, ReachHex>, Vec<(HexId, ReachHex)>),
        mut rules: Vec<RuleRef>,
    ) -> Reach {
        let mut hexes: Vec<(HexId, ReachHex)> = found.into_iter().collect();
        hexes.sort_by_key(|(h, _)| *h);
        let mut exits = exits;
        exits.sort_by_key(|(h, _)| *h);
        rules.sort();
        rules.dedup();
        Reach {
            unit: self.units[i].unit.id.clone(),
            from: start.to_string(),
            movement: mp,
            moor_cost: self
                .system
                .carriers
                .iter()
                .find(|c| c.kind == self.units[i].unit.kind)
                .and_then(|c| c.moor_cost),
            hexes: hexes.into_iter().map(|(_, r)| r).collect(),
            exits: exits.into_iter().map(|(_, r)| r).collect(),
            rules,
        }
    }

    /// The unit's movement allowance after the rules in force that multiply it
    /// (`MoveAllowance`: PRESTAGS 10.23, half beyond every friendly leader's control
    /// radius; Excl 3.23, a disrupted fleet at half), and the rules used.
    pub fn allowance_of(&self, i: usize) -> (f64, Vec<RuleRef>) {
        let mut mp = self.units[i].unit.movement;
        let mut rules = Vec::new();
        let here = self.hex_of(i);
        let facts = Facts::at(self, i, here);
        for r in self.rules_giving(&facts, |e| matches!(e, Effect::MoveAllowance(_))) {
            for e in &r.then {
                if let Effect::MoveAllowance(f) = e {
                    mp *= f;
                }
            }
            rules.push(rule_ref(r));
        }
        (mp, rules)
    }

    /// The movement modes open to a unit, ordinary movement (`None`) first.
    pub fn modes_of(&self, i: usize) -> Vec<Option<&'a MovementMode>> {
        let start = self.hex_of(i);
        let facts = Facts::at(self, i, start);
        let mut out = vec![None];
        for m in &self.system.rules.movement_modes {
            let who = m.who.as_ref().is_none_or(|c| holds(self, c, &facts));
            let on = m.start_on.is_empty() || m.start_on.iter().any(|t| self.hex_has(start, t));
            if who && on {
                out.push(Some(m));
            }
        }
        out
    }

    fn search_all(
        &self,
        i: usize,
        seeds: &[(HexId, f64)],
        start: HexId,
        rules: &mut Vec<RuleRef>,
    ) -> (HashMap<HexId, ReachHex>, Vec<(HexId, ReachHex)>) {
        if let Some(r) = self.held_by(i, start) {
            rules.push(rule_ref(r));
            return (HashMap::new(), Vec::new());
        }
        if let Some(faced) = self.faced(i, start) {
            rules.extend(faced.rules.iter().map(|r| rule_ref(r)));
            rules.push(RuleRef::new(
                format!("turning in place costs {} MP", faced.turn_cost),
                Some(faced.section),
            ));
        }
        let zoc = self.enemy_zoc(self.units[i].unit.side.as_deref());
        if let Some(z) = &self.system.rules.zones_of_control {
            rules.push(RuleRef::new("zones of control", Some(&z.section)));
            rules.extend(self.zoc_rules_of(i).into_iter().map(rule_ref));
        }
        // Per hex, the best search that may end there: its MP left and its mode's index.
        let modes = self.modes_of(i);
        let mut searches = Vec::with_capacity(modes.len());
        let mut best: crate::FastMap<HexId, (f64, usize)> = crate::FastMap::default();
        let mut best_exit: crate::FastMap<HexId, (f64, usize)> = crate::FastMap::default();
        let exit_cost = self.system.rules.exit.as_ref().map(|x| x.cost);
        if let Some(cost) = exit_cost {
            rules.push(RuleRef::new(
                format!("leaving the map costs {cost} MP"),
                self.system
                    .rules
                    .exit
                    .as_ref()
                    .and_then(|x| x.section.as_deref()),
            ));
        }
        let bound = self.zoc_of(i);
        // Entering an enemy zone that stops the unit ends its move there.
        let stopped = |h: HexId| {
            h != start
                && zoc.contains(&h)
                && bound.is_some_and(|b| !b.ignores && b.entry == ZocEntry::Stop)
        };
        for (k, mode) in modes.iter().enumerate() {
            if let Some(m) = mode {
                rules.push(RuleRef::new(
                    format!("movement mode {}", m.id),
                    Some(&m.section),
                ));
            }
            let found = self.search(i, seeds, start, *mode, &zoc);
            let exits = found.left.iter().filter(|(h, mp)| {
                exit_cost.is_some_and(|c| **mp + EPS >= c)
                    && self.map.grid().is_edge(**h)
                    && !stopped(**h)
            });
            for (&h, &mp) in exits {
                if best_exit.get(&h).is_none_or(|(b, _)| mp > b + EPS) {
                    best_exit.insert(h, (mp, k));
                }
            }
            for (&h, &mp) in &found.left {
                let mp = mp.max(0.0);
                if h == start || !self.may_end(i, h) {
                    continue;
                }
                if let Some(m) = mode
                    && !m.end_on.is_empty()
                    && !m.end_on.iter().any(|t| self.hex_has(h, t))
                {
                    continue;
                }
                match best.get(&h) {
                    Some((b, _)) if b + EPS >= mp => {}
                    _ => {
                        best.insert(h, (mp, k));
                    }
                }
            }
            searches.push(found);
        }
        // Only the hexes kept are written out, each with its path; the rules behind the
        // cost of each step on those paths are cited.
        let unloaded: Vec<HexId> = seeds
            .iter()
            .map(|(h, _)| *h)
            .filter(|h| *h != start)
            .collect();
        // Each search's paths form a tree: a path is followed back only as far as a hex
        // an earlier path already passed.
        let mut cited: std::collections::BTreeSet<u32> = std::collections::BTreeSet::new();
        let mut passed: HashSet<(HexId, usize), foldhash::fast::RandomState> = HashSet::default();
        let mut write = |h: HexId, mp: f64, k: usize| {
            let path = searches[k].path_to(h, start);
            for w in path.windows(2).rev() {
                let (a, b) = (w[0], w[1]);
                if !passed.insert((b, k)) {
                    break;
                }
                if a == start && unloaded.contains(&b) {
                    continue;
                }
                if let Some((_, set)) = self.step(i, a, b, modes[k]) {
                    cited.insert(set);
                }
            }
            let reach = ReachHex {
                hex: h.text(),
                mp_left: mp,
                path: path.into_iter().map(HexId::text).collect(),
                mode: modes[k].map(|m| m.id.clone()),
                minimum_move: false,
                enemy_zoc: zoc.contains(&h),
            };
            (h, reach)
        };
        let out = (best.into_iter())
            .map(|(h, (mp, k))| write(h, mp, k))
            .collect();
        let exits = (best_exit.into_iter())
            .map(|(h, (mp, k))| write(h, mp, k))
            .collect();
        rules.extend(self.cited(&cited));
        (out, exits)
    }

    /// The rules some steps cited (their cite sets, by index), as references.
    fn cited(&self, sets: &std::collections::BTreeSet<u32>) -> Vec<RuleRef> {
        let all = self.cite_sets.borrow();
        let mut cites = StepCites {
            chart: sets.contains(&1),
            ..StepCites::default()
        };
        for set in sets
            .iter()
            .filter_map(|&k| all.0.get((k as usize).checked_sub(2)?))
        {
            cites.chart |= set.chart;
            cites.rules.extend(&set.rules);
        }
        cites.rules.sort_unstable();
        cites.rules.dedup();
        let mut out = Vec::new();
        if cites.chart {
            out.push(RuleRef::new(
                "terrain and hexside movement costs",
                self.system.movement_section.as_deref(),
            ));
        }
        for r in cites.rules.iter().filter_map(|&k| self.move_rules.get(k)) {
            out.push(rule_ref(r));
        }
        out
    }

    /// One search in one mode from the seeds (hex, MP left), each entered from `start`:
    /// the most MP left on each hex reached, and the step into it.
    fn search(
        &self,
        i: usize,
        seeds: &[(HexId, f64)],
        start: HexId,
        mode: Option<&MovementMode>,
        zoc: &HashSet<HexId>,
    ) -> Search {
        if let Some(faced) = self.faced(i, start) {
            return self.search_faced(i, seeds, start, mode, zoc, &faced);
        }
        let flight = self.flight(i, start);
        let mut left: crate::FastMap<HexId, f64> = crate::FastMap::default();
        let mut parent: crate::FastMap<HexId, HexId> = crate::FastMap::default();
        let mut open = BinaryHeap::new();
        for &(h, mp) in seeds {
            if left.get(&h).is_none_or(|l| mp > *l + EPS) {
                left.insert(h, mp);
                if h != start {
                    parent.insert(h, start);
                }
                open.push(Open(mp, h));
            }
        }
        let bound = self.zoc_of(i);
        while let Some(Open(mp, h)) = open.pop() {
            if left.get(&h).is_some_and(|l| mp + EPS < *l) {
                continue;
            }
            for (n, cost) in self.moves_with(i, h, start, mode, zoc, bound) {
                let after = mp - cost;
                if after < -EPS || flight.as_ref().is_some_and(|f| !f.away(self, h, n)) {
                    continue;
                }
                if left.get(&n).is_none_or(|l| after > *l + EPS) {
                    left.insert(n, after);
                    parent.insert(n, h);
                    open.push(Open(after, n));
                }
            }
        }
        Search {
            left,
            parent,
            paths: Default::default(),
        }
    }

    /// The hexes a unit at `h` may step into next, with what each step costs (zones of
    /// control included). A unit that has entered an enemy zone that stops it (any hex
    /// but its start) goes no further.
    pub fn moves_from(
        &self,
        i: usize,
        h: HexId,
        start: HexId,
        mode: Option<&MovementMode>,
        zoc: &HashSet<HexId>,
    ) -> Vec<(HexId, f64)> {
        self.moves_with(i, h, start, mode, zoc, self.zoc_of(i))
    }

    /// [`Engine::moves_from`] with how zones bind the unit already known, as a search
    /// asks it once and not at every hex.
    pub(crate) fn moves_with(
        &self,
        i: usize,
        h: HexId,
        start: HexId,
        mode: Option<&MovementMode>,
        zoc: &HashSet<HexId>,
        rules: Option<UnitZoc>,
    ) -> Vec<(HexId, f64)> {
        let in_zoc = |x: HexId| rules.is_some_and(|z| !z.ignores) && zoc.contains(&x);
        if let Some(z) = rules {
            if in_zoc(h) && h != start && z.entry == ZocEntry::Stop {
                return Vec::new();
            }
            if in_zoc(h) && z.leaving == ZocLeaving::Forbidden {
                return Vec::new();
            }
        }
        if mode.is_some_and(|m| m.not_adjacent_to_enemy) && self.next_to_enemy(i, h) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for n in self.map.grid().neighbour_iter(h) {
            if !self.may_pass(i, n) {
                continue;
            }
            if mode.is_some_and(|m| m.not_adjacent_to_enemy) && self.next_to_enemy(i, n) {
                continue;
            }
            let Some(mut cost) = self.step_cost(i, h, n, mode) else {
                continue;
            };
            if let Some(z) = rules {
                if in_zoc(h) && in_zoc(n) && !z.zone_to_zone {
                    continue;
                }
                if let (true, ZocEntry::Cost(x)) = (in_zoc(n), z.entry) {
                    cost += x;
                }
                if let (true, ZocLeaving::Cost(x)) = (in_zoc(h), z.leaving) {
                    cost += x;
                }
            }
            out.push((n, cost));
        }
        out
    }

    fn next_to_enemy(&self, i: usize, h: HexId) -> bool {
        self.map
            .neighbours(h)
            .into_iter()
            .any(|n| self.units_at(n).iter().any(|&o| self.enemies(i, o)))
    }

    /// Whether a unit ignores enemy zones of control (`Zoc(Ignores)`).
    pub fn ignores_zoc(&self, i: usize) -> bool {
        let facts = Facts::at(self, i, self.hex_of(i));
        !self
            .rules_giving(&facts, |e| *e == Effect::Zoc(ZocEffect::Ignores))
            .is_empty()
    }

    /// How enemy zones of control bind unit `i`: the system's `zones_of_control`, with
    /// the unit's own rules (`ZocEntry`, `ZocLeaving`, `Zoc(ZoneToZone)`,
    /// `Zoc(Ignores)`, asked where it stands) in place of its entry, leaving and
    /// zone-to-zone; the last rule that says one wins. `None` where the system has no
    /// zones.
    pub fn zoc_of(&self, i: usize) -> Option<UnitZoc> {
        let z = self.system.rules.zones_of_control.as_ref()?;
        let mut out = UnitZoc {
            ignores: false,
            entry: z.entry,
            leaving: z.leaving,
            zone_to_zone: z.zone_to_zone,
        };
        let rules = self.zoc_rules_of(i);
        for e in rules.iter().flat_map(|r| r.then.iter()) {
            match e {
                Effect::Zoc(ZocEffect::Ignores) => out.ignores = true,
                Effect::Zoc(ZocEffect::ZoneToZone) => out.zone_to_zone = true,
                Effect::ZocEntry(x) => out.entry = *x,
                Effect::ZocLeaving(x) => out.leaving = *x,
                _ => {}
            }
        }
        Some(out)
    }

    /// The rules in force that change how zones bind unit `i` ([`Engine::zoc_of`]).
    fn zoc_rules_of(&self, i: usize) -> Vec<&EffectRule> {
        let facts = Facts::at(self, i, self.hex_of(i));
        self.rules_giving(&facts, |e| {
            matches!(
                e,
                Effect::Zoc(ZocEffect::Ignores | ZocEffect::ZoneToZone)
                    | Effect::ZocEntry(_)
                    | Effect::ZocLeaving(_)
            )
        })
    }

    /// The hexes in a zone of control of the unit's enemies.
    pub fn zoc_against(&self, i: usize) -> HashSet<HexId> {
        (*self.enemy_zoc(self.units[i].unit.side.as_deref())).clone()
    }

    /// What one step from `from` into the adjacent `to` costs a unit, by terrain,
    /// hexside, mode and the rules in force; `None` where it may not be made. Zones of
    /// control and the units on the hexes are not counted here.
    ///
    /// Worked out once per engine for all units of one kind, status and side: nothing
    /// else about a unit enters the cost (its kind gives its class; the conditions read
    /// its kind, class, status and side, and the position, which the engine holds
    /// still).
    pub fn step_cost(
        &self,
        i: usize,
        from: HexId,
        to: HexId,
        mode: Option<&MovementMode>,
    ) -> Option<f64> {
        self.step(i, from, to, mode).map(|(cost, _)| cost)
    }

    /// [`Engine::step_cost`] with the index of the rules the cost came from in
    /// [`Engine::cite_sets`].
    fn step(
        &self,
        i: usize,
        from: HexId,
        to: HexId,
        mode: Option<&MovementMode>,
    ) -> Option<(f64, u32)> {
        let modes = &self.system.rules.movement_modes;
        let m = mode.map_or(0, |m| {
            modes
                .iter()
                .position(|x| std::ptr::eq(x, m))
                .map_or(usize::MAX, |k| k + 1)
        });
        let key = (self.units.get(i)?.profile, from, to, m);
        if let Some(step) = self.step_memo.borrow().get(&key) {
            return *step;
        }
        let step = self
            .work_out_step(i, from, to, mode)
            .map(|(cost, cites)| (cost, self.cite_set(cites)));
        // A mode that is not the system's own is not remembered.
        if m != usize::MAX {
            self.step_memo.borrow_mut().insert(key, step);
        }
        step
    }

    /// The index of a cite set: 0 for none, 1 for the chart alone (what nearly every
    /// step cites, so it is told without a look-up), else 2 + its place in
    /// [`Engine::cite_sets`], added if new.
    fn cite_set(&self, cites: StepCites) -> u32 {
        if cites.rules.is_empty() {
            return u32::from(cites.chart);
        }
        let mut sets = self.cite_sets.borrow_mut();
        if let Some(&k) = sets.1.get(&cites) {
            return k;
        }
        let k = u32::try_from(sets.0.len() + 2).unwrap_or(u32::MAX);
        sets.0.push(cites.clone());
        sets.1.insert(cites, k);
        k
    }

    /// The cost of one step, and the rules it came from.
    fn work_out_step(
        &self,
        i: usize,
        from: HexId,
        to: HexId,
        mode: Option<&MovementMode>,
    ) -> Option<(f64, StepCites)> {
        // What this step's cost came from.
        let mut chart = false;
        let mut fired: Vec<usize> = Vec::new();
        let p = &self.units[i];
        let side = self.map.hexside(from, to);
        if side.is_some_and(|s| s.blocks_movement)
            || !self.map.contains(from)
            || !self.map.grid().adjacent(from, to)
        {
            return None;
        }
        let crossing: Vec<&str> = side.map_or(Vec::new(), |s| {
            s.features.iter().map(String::as_str).collect()
        });
        let facts = Facts {
            unit: i,
            hex: Some(to),
            crossing,
            mode: mode.map(|m| m.id.as_str()),
            ..Facts::default()
        };
        let holding: Vec<(usize, &EffectRule)> = self
            .move_rules
            .iter()
            .enumerate()
            .filter(|(_, r)| r.when.as_ref().is_none_or(|c| holds(self, c, &facts)))
            .map(|(k, r)| (k, *r))
            .collect();
        let mut cost = match mode {
            None => {
                let along_road = side.is_some_and(|s| s.cost_override.is_some());
                // A rule that lets the unit in only along a road (PRESTAGS Excl 2.0):
                // off the road it keeps the unit out, along one it opens even a terrain
                // that keeps the unit out.
                let road_only: Vec<usize> = holding
                    .iter()
                    .filter(|(_, r)| r.then.contains(&Effect::RoadOnly))
                    .map(|(k, _)| *k)
                    .collect();
                if !road_only.is_empty() && !along_road {
                    return None;
                }
                let admitted = self.map.admits(to, &p.unit.kind, p.class);
                if !admitted && road_only.is_empty() {
                    return None;
                }
                fired.extend(&road_only);
                let mut c = self.map.cost_into(to, side)?;
                chart = true;
                for (k, r) in &holding {
                    if r.then.contains(&Effect::NoCrossingCost) {
                        let spared = side.and_then(|s| s.extra_cost).unwrap_or(0.0);
                        c -= spared;
                        if spared != 0.0 {
                            fired.push(*k);
                        }
                    }
                }
                c
            }
            Some(m) => {
                let terrain = self.map.terrain_id_at(to)?;
                let own = m.costs.iter().find(|c| c.on == terrain).or_else(|| {
                    m.costs
                        .iter()
                        .find(|c| self.map.feature_ids_at(to).contains(&c.on))
                })?;
                let mut c = match own.cost {
                    MoveCost::Points(x) => x,
                    MoveCost::Extra(x) => self.map.move_cost(from, to)? + x,
                    MoveCost::Impassable => return None,
                };
                for f in &facts.crossing {
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
        for (k, r) in holding {
            for e in &r.then {
                match e {
                    Effect::MoveCost(MoveCost::Points(x)) => {
                        // A fixed cost replaces whatever the step cost before it.
                        cost = *x;
                        chart = false;
                        fired.clear();
                    }
                    Effect::MoveCost(MoveCost::Extra(x)) => cost += x,
                    Effect::MoveCost(MoveCost::Impassable) | Effect::MayNot(Act::Enter) => {
                        return None;
                    }
                    _ => continue,
                }
                fired.push(k);
            }
        }
        fired.sort_unstable();
        fired.dedup();
        let cites = StepCites {
            chart,
            rules: fired,
        };
        Some((cost.max(0.0), cites))
    }

    /// Whether a unit may move through a hex: never into an enemy's, into a friend's
    /// only where the rules let it pass or it may stop there.
    pub fn may_pass(&self, i: usize, h: HexId) -> bool {
        let here = self.units_at(h);
        if here.iter().any(|&o| o != i && self.enemies(i, o)) {
            return false;
        }
        let friends = here.iter().any(|&o| o != i);
        !friends
            || self.allowance(i, Action::MoveThroughFriends) == Some(Allowance::May)
            || self.may_stack(i, h)
    }

    /// Whether a unit may end its move in a hex: no rule keeps it from ending a move
    /// there (`MayNot(EndMove)`), no enemy is there, the stacking rule holds with the
    /// friends there, and no two carriers share it.
    pub fn may_end(&self, i: usize, h: HexId) -> bool {
        if !self.end_rules.is_empty() {
            let facts = Facts::at(self, i, h);
            let held = |r: &&EffectRule| r.when.as_ref().is_none_or(|c| holds(self, c, &facts));
            if self.end_rules.iter().any(held) {
                return false;
            }
        }
        self.may_stack(i, h)
    }

    /// Whether a unit may stand in a hex with the units there: no enemy, the stacking
    /// rule holds, and no two carriers share it.
    fn may_stack(&self, i: usize, h: HexId) -> bool {
        let others: Vec<usize> = self
            .units_at(h)
            .iter()
            .copied()
            .filter(|&o| o != i)
            .collect();
        if others.iter().any(|&o| self.enemies(i, o)) {
            return false;
        }
        let me = &self.units[i];
        if let Some(c) = self.system.carriers.iter().find(|c| c.kind == me.unit.kind) {
            let n = others
                .iter()
                .filter(|&&o| self.units[o].unit.kind == c.kind)
                .count();
            if n + 1 > usize::from(c.per_hex) {
                return false;
            }
        }
        // A rule in force for the unit there (`StackingLimit`, PRESTAGS scenarios'
        // `stacking-override`) sets its limit in place of the system's or the side's;
        // the highest, where several hold.
        let facts = Facts::at(self, i, h);
        let by_rule = self
            .stack_rules
            .iter()
            .filter(|r| r.when.as_ref().is_none_or(|c| holds(self, c, &facts)))
            .flat_map(|r| &r.then)
            .filter_map(|e| match e {
                Effect::StackingLimit(n) => Some(*n),
                _ => None,
            })
            .max();
        match &self.system.stacking {
            StackingPolicy::Unlimited => by_rule.is_none_or(|l| others.len() < usize::from(l)),
            StackingPolicy::UnitsPerHex {
                combat_units,
                riders,
            } => match me.role() {
                UnitRole::Combat => {
                    let n = others
                        .iter()
                        .filter(|&&o| self.units[o].role() == UnitRole::Combat)
                        .count();
                    n < usize::from(by_rule.unwrap_or(*combat_units))
                }
                role => riders.iter().find(|r| r.role == role).is_some_and(|r| {
                    let same = others
                        .iter()
                        .filter(|&&o| self.units[o].role() == role)
                        .count();
                    let host = others
                        .iter()
                        .any(|&o| self.units[o].role() == UnitRole::Combat);
                    same < usize::from(r.max) && (host || r.may_stand_alone)
                }),
            },
            StackingPolicy::PerSideLimit {
                not_counted,
                compatible,
            } => {
                let counts = |o: usize| {
                    !self.units[o]
                        .class
                        .is_some_and(|c| not_counted.iter().any(|n| n == c))
                };
                let limit = by_rule.or_else(|| {
                    self.position
                        .sides
                        .iter()
                        .find(|s| Some(&s.id) == me.unit.side.as_ref())
                        .and_then(|s| s.stacking_limit)
                });
                let n = others.iter().filter(|&&o| counts(o)).count() + usize::from(counts(i));
                if limit.is_some_and(|l| n > usize::from(l)) {
                    return false;
                }
                let classes: Vec<&str> = others
                    .iter()
                    .chain(std::iter::once(&i))
                    .filter_map(|&o| self.units[o].class)
                    .collect();
                compatible.is_empty()
                    || compatible
                        .iter()
                        .any(|g| classes.iter().all(|c| g.iter().any(|x| x == c)))
            }
        }
    }

    /// The first rule in force that keeps unit `i` on `start` (`MayNot(Move)`).
    fn held_by(&self, i: usize, start: HexId) -> Option<&'a EffectRule> {
        let facts = Facts::at(self, i, start);
        self.rules_giving(&facts, |e| *e == Effect::MayNot(Act::Move))
            .first()
            .copied()
    }

    /// PRESTAGS 5.15 and the like: a unit whose status allows it may always move one
    /// hex into passable terrain, and no further.
    fn minimum_move(
        &self,
        i: usize,
        start: HexId,
        out: &mut HashMap<HexId, ReachHex>,
        rules: &mut Vec<RuleRef>,
    ) {
        let Some(min) = self
            .system
            .rules
            .movement
            .as_ref()
            .and_then(|m| m.minimum_move.as_ref())
        else {
            return;
        };
        let status = status_of(self, i);
        if !min.status.is_empty() && !min.status.iter().any(|s| Some(s.as_str()) == status) {
            return;
        }
        // A unit a rule holds in place has no minimum move either.
        if self.held_by(i, start).is_some() {
            return;
        }
        rules.push(RuleRef::new("minimum move", min.section.as_deref()));
        let zoc = self.zoc_against(i);
        let bound = self.zoc_of(i);
        let zone_to_zone = bound.is_none_or(|z| z.zone_to_zone || z.ignores);
        // A unit that faces takes its one hex through a hexside open to its facing.
        let faced = self.faced(i, start);
        let shut = |n: HexId| {
            faced.as_ref().is_some_and(|f| {
                self.map
                    .grid()
                    .direction(start, n)
                    .is_some_and(|d| f.blocked[usize::from((d + 6 - f.facing) % 6)])
            })
        };
        for mode in self.modes_of(i) {
            for n in self.map.neighbours(start) {
                if out.contains_key(&n)
                    || shut(n)
                    || !self.may_end(i, n)
                    || self.step_cost(i, start, n, mode).is_none()
                    || (!zone_to_zone && zoc.contains(&start) && zoc.contains(&n))
                {
                    continue;
                }
                out.insert(
                    n,
                    ReachHex {
                        hex: n.to_string(),
                        mp_left: 0.0,
                        path: vec![start.to_string(), n.to_string()],
                        mode: mode.map(|m| m.id.clone()),
                        minimum_move: true,
                        enemy_zoc: zoc.contains(&n),
                    },
                );
            }
        }
    }
}
