//! How many turns a unit needs to reach each hex: one search over hexes whose cost is
//! (turns, movement points spent in the last turn), every turn giving the unit its full
//! allowance again. What a designer asks of a scenario (can the reinforcements get on
//! into the battle, can a side reach its objective in the game's turns) without playing
//! it.
//!
//! The march reads terrain, hexsides and the movement rules in force for the unit in
//! ordinary movement (no movement mode), and the minimum move where the system has one
//! (one hex a turn whatever it costs). It does not read the other units: ask it of an
//! engine whose position holds the unit alone (enemies move, friends make way).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use muster_hex::HexId;

use crate::cond::{Facts, holds};
use crate::{Engine, QueryError};

/// When a unit can first stand on each hex of the map.
#[derive(Debug, Clone)]
pub struct March {
    columns: u16,
    rows: u16,
    /// By hex index (column-major from 0101): the turn and the MP left then, if reached.
    best: Vec<Option<(u32, f64)>>,
    /// Hexes settled, for work-counting tests.
    pub settled: usize,
}

impl March {
    fn index(columns: u16, rows: u16, h: HexId) -> Option<usize> {
        let (c, r) = (h.col, h.row);
        (c >= 1 && r >= 1 && c <= columns && r <= rows)
            .then(|| usize::from(c - 1) * usize::from(rows) + usize::from(r - 1))
    }

    /// The first turn the unit can stand on `hex`, if it can by the march's last turn.
    pub fn turn_at(&self, hex: HexId) -> Option<u32> {
        let i = Self::index(self.columns, self.rows, hex)?;
        self.best.get(i).copied().flatten().map(|(t, _)| t)
    }

    /// Every hex reached, with its first turn, in hex order.
    pub fn reached(&self) -> impl Iterator<Item = (HexId, u32)> + '_ {
        let rows = self.rows;
        self.best.iter().enumerate().filter_map(move |(i, b)| {
            let (t, _) = (*b)?;
            let col = u16::try_from(i / usize::from(rows)).ok()? + 1;
            let row = u16::try_from(i % usize::from(rows)).ok()? + 1;
            Some((HexId::new(col, row), t))
        })
    }
}

/// A search state: least priority first (0 in a plain march; the MP spent plus the
/// guide in a guided one, see [`Engine::first_turn_at`]), then earlier turn, then most
/// MP left, then hex order.
#[derive(PartialEq)]
struct Open(f64, u32, f64, HexId);

impl Eq for Open {}

impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Open {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .0
            .total_cmp(&self.0)
            .then_with(|| other.1.cmp(&self.1))
            .then_with(|| self.2.total_cmp(&other.2))
            .then_with(|| other.3.cmp(&self.3))
    }
}

const EPS: f64 = 1e-9;

/// The label (turn, MP left) after a step costing `cost` from label `(t, left)`, for a
/// unit of allowance `mp`: in the same turn if it can pay, else in the next (up to turn
/// `last`) from a whole allowance, and by the minimum move where `min_move` and the
/// step costs more than a whole allowance; `None` where the step cannot be made.
fn step(
    (t, left): (u32, f64),
    cost: f64,
    mp: f64,
    min_move: bool,
    last: u32,
) -> Option<(u32, f64)> {
    if cost <= left + EPS {
        Some((t, (left - cost).max(0.0)))
    } else if min_move && left + EPS >= mp {
        Some((t, 0.0))
    } else if t >= last {
        None
    } else if cost <= mp + EPS {
        Some((t + 1, (mp - cost).max(0.0)))
    } else {
        min_move.then_some((t + 1, 0.0))
    }
}

/// Whether label `a` (turn, MP left) is at least as good as `b`.
fn no_worse(a: (u32, f64), b: (u32, f64)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 + EPS >= b.1)
}

impl Engine<'_> {
    /// Where unit `id` can stand, and from which turn, moving turn after turn from the
    /// `seeds` (a hex, the turn it is there and the MP it has left that turn) up to turn
    /// `last`. Each further turn gives it its whole allowance (after its status's
    /// effects); a step it cannot pay from a whole allowance is the minimum move where
    /// the system has one, and closed otherwise.
    pub fn march(
        &self,
        id: &str,
        seeds: &[(HexId, u32, f64)],
        last: u32,
    ) -> Result<March, QueryError> {
        self.march_until(id, seeds, last, |_, _| false)
    }

    /// [`Engine::march`] that ends early: `stop` is told each hex as it is settled, with
    /// the first turn the unit can stand there (hexes come in order of turn), and the
    /// search ends when it says so. The march then holds the hexes settled so far, and
    /// possibly some hexes seen but not yet settled.
    pub fn march_until(
        &self,
        id: &str,
        seeds: &[(HexId, u32, f64)],
        last: u32,
        stop: impl FnMut(HexId, u32) -> bool,
    ) -> Result<March, QueryError> {
        self.search_turns(id, seeds, last, |_, _| 0.0, stop)
    }

    /// The march's search: labels settle in order of `priority` (given a hex and its
    /// label), then turn, then MP left; `stop` as in [`Engine::march_until`].
    fn search_turns(
        &self,
        id: &str,
        seeds: &[(HexId, u32, f64)],
        last: u32,
        mut priority: impl FnMut(HexId, (u32, f64)) -> f64,
        mut stop: impl FnMut(HexId, u32) -> bool,
    ) -> Result<March, QueryError> {
        let i = self.unit(id)?;
        let (mp, _) = self.allowance_of(i);
        let min_move = self
            .system
            .rules
            .movement
            .as_ref()
            .is_some_and(|m| m.minimum_move.is_some());
        let grid = self.map.grid();
        let (columns, rows) = (grid.columns, grid.rows);
        let mut march = March {
            columns,
            rows,
            best: vec![None; usize::from(columns) * usize::from(rows)],
            settled: 0,
        };
        let mut open = BinaryHeap::new();
        for &(h, t, left) in seeds {
            let Some(k) = March::index(columns, rows, h) else {
                continue;
            };
            if t <= last && march.best[k].is_none_or(|b| !no_worse(b, (t, left))) {
                march.best[k] = Some((t, left));
                open.push(Open(priority(h, (t, left)), t, left, h));
            }
        }
        while let Some(Open(_, t, left, h)) = open.pop() {
            let Some(k) = March::index(columns, rows, h) else {
                continue;
            };
            if march.best[k].is_some_and(|b| b != (t, left)) {
                continue;
            }
            march.settled += 1;
            if stop(h, t) {
                break;
            }
            for n in grid.neighbour_iter(h) {
                let Some(cost) = self.step_cost(i, h, n, None) else {
                    continue;
                };
                let Some(next) = step((t, left), cost, mp, min_move, last) else {
                    continue;
                };
                let Some(nk) = March::index(columns, rows, n) else {
                    continue;
                };
                if march.best[nk].is_none_or(|b| !no_worse(b, next)) {
                    march.best[nk] = Some(next);
                    open.push(Open(priority(n, next), next.0, next.1, n));
                }
            }
        }
        Ok(march)
    }

    /// What unit `id` spends to come onto the map at `hex` from off it: the system's
    /// `arrivals.entry_cost` and the hex's own cost for the unit, with the movement rules
    /// in force; `None` where the unit may not enter that hex.
    pub fn entry_cost(&self, id: &str, hex: HexId) -> Result<Option<f64>, QueryError> {
        let i = self.unit(id)?;
        let p = &self.units[i];
        if !self.map.admits(hex, &p.unit.kind, p.class) {
            return Ok(None);
        }
        let Some(mut cost) = self.map.effects_at(hex).and_then(|e| e.move_cost) else {
            return Ok(None);
        };
        let facts = Facts {
            unit: i,
            hex: Some(hex),
            ..Facts::default()
        };
        let rules = self
            .move_rules
            .iter()
            .filter(|r| r.when.as_ref().is_none_or(|c| holds(self, c, &facts)));
        for e in rules.flat_map(|r| r.then.iter()) {
            use muster_model::system::MoveCost;
            use muster_model::vocab::{Act, Effect};
            match e {
                Effect::MoveCost(MoveCost::Points(x)) => cost = *x,
                Effect::MoveCost(MoveCost::Extra(x)) => cost += x,
                Effect::MoveCost(MoveCost::Impassable) | Effect::MayNot(Act::Enter) => {
                    return Ok(None);
                }
                _ => {}
            }
        }
        let extra = self
            .system
            .rules
            .arrivals
            .as_ref()
            .and_then(|a| a.entry_cost)
            .unwrap_or(0.0);
        Ok(Some(cost.max(0.0) + extra))
    }
}

/// What a guided march found: the first turn on a target, and the work it did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Toward {
    /// The first turn the unit can stand on one of the targets, if it can by the
    /// march's last turn.
    pub first: Option<u32>,
    /// Hexes settled, for work-counting tests.
    pub settled: usize,
}

impl Engine<'_> {
    /// The first turn unit `id` can stand on any hex of `targets`, marching from `seeds`
    /// as [`Engine::march`] does up to turn `last`.
    ///
    /// The search is guided towards the targets (A*). A label's cost is the MP spent
    /// since turn 0, counting what each turn left unspent (`turn x allowance - MP
    /// left`), which orders labels as the march does; its guide is the hex distance to
    /// the nearest target times the least a step can cost
    /// ([`Engine::least_step`]). The guide never overestimates and drops by at most one
    /// step's cost per step, so the first target settled is reached on the first turn
    /// possible, and the search settles the hexes towards the targets rather than every
    /// hex nearer than they are.
    pub fn first_turn_at(
        &self,
        id: &str,
        seeds: &[(HexId, u32, f64)],
        last: u32,
        targets: &[HexId],
    ) -> Result<Toward, QueryError> {
        let i = self.unit(id)?;
        let (mp, _) = self.allowance_of(i);
        let grid = self.map.grid();
        let (columns, rows) = (grid.columns, grid.rows);
        let cells = usize::from(columns) * usize::from(rows);
        // Each target hex once: the guide measures to every one of them.
        let mut targets = targets.to_vec();
        targets.sort_unstable();
        targets.dedup();
        let targets = &targets[..];
        let mut target = vec![false; cells];
        for h in targets {
            if let Some(k) = March::index(columns, rows, *h) {
                target[k] = true;
            }
        }
        // A step moves the cost on by at least the least step cost, or by the whole
        // allowance for a minimum move (less a hair for the searches' rounding).
        let per_step = (self.least_step().min(mp) - 1e-6).max(0.0);
        let mut guide_of = vec![f64::NAN; cells];
        let priority = |h: HexId, (t, left): (u32, f64)| {
            let Some(k) = March::index(columns, rows, h) else {
                return f64::INFINITY;
            };
            if guide_of[k].is_nan() {
                let d = targets.iter().map(|t| grid.distance(h, *t)).min();
                guide_of[k] = f64::from(d.unwrap_or(0)) * per_step;
            }
            f64::from(t) * mp - left + guide_of[k]
        };
        let mut first = None;
        let march = self.search_turns(id, seeds, last, priority, |h, t| {
            let on = March::index(columns, rows, h).is_some_and(|k| target[k]);
            if on {
                first = Some(t);
            }
            on
        })?;
        Ok(Toward {
            first,
            settled: march.settled,
        })
    }

    /// The least one step in ordinary movement can cost any unit: the lowest of every
    /// cost the map's table gives (terrain, along a road, across a hexside) and every
    /// cost a movement rule in force sets, 0 where a negative cost or a rule that
    /// lowers a cost could take a step below them.
    pub fn least_step(&self) -> f64 {
        use muster_model::system::MoveCost;
        use muster_model::vocab::Effect;
        let table = self.map.table();
        let mut least = f64::INFINITY;
        for t in &table.terrain {
            for c in [t.move_cost, t.along_road].into_iter().flatten() {
                least = least.min(c);
            }
        }
        for s in &table.hexsides {
            if let Some(c) = s.cost_override {
                least = least.min(c);
            }
            if s.extra_cost.is_some_and(|x| x < 0.0) {
                least = 0.0;
            }
        }
        for e in self.move_rules.iter().flat_map(|r| r.then.iter()) {
            match e {
                Effect::MoveCost(MoveCost::Points(x)) => least = least.min(*x),
                Effect::MoveCost(MoveCost::Extra(x)) if *x < 0.0 => least = 0.0,
                // A crossing cost waived may leave less than any cost of the table.
                Effect::NoCrossingCost => least = 0.0,
                _ => {}
            }
        }
        if least.is_finite() {
            least.max(0.0)
        } else {
            0.0
        }
    }
}
