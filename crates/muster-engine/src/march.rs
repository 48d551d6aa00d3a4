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

/// A search state: earlier turn first, then most MP left, then hex order.
#[derive(PartialEq)]
struct Open(u32, f64, HexId);

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
            .cmp(&self.0)
            .then_with(|| self.1.total_cmp(&other.1))
            .then_with(|| other.2.cmp(&self.2))
    }
}

const EPS: f64 = 1e-9;

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
                open.push(Open(t, left, h));
            }
        }
        while let Some(Open(t, left, h)) = open.pop() {
            let Some(k) = March::index(columns, rows, h) else {
                continue;
            };
            if march.best[k].is_some_and(|b| b != (t, left)) {
                continue;
            }
            march.settled += 1;
            for n in self.map.neighbours(h) {
                let Some(cost) = self.step_cost(i, h, n, None) else {
                    continue;
                };
                let next = if cost <= left + EPS {
                    (t, (left - cost).max(0.0))
                } else if min_move && left + EPS >= mp {
                    (t, 0.0)
                } else if t >= last {
                    continue;
                } else if cost <= mp + EPS {
                    (t + 1, (mp - cost).max(0.0))
                } else if min_move {
                    (t + 1, 0.0)
                } else {
                    continue;
                };
                let Some(nk) = March::index(columns, rows, n) else {
                    continue;
                };
                if march.best[nk].is_none_or(|b| !no_worse(b, next)) {
                    march.best[nk] = Some(next);
                    open.push(Open(next.0, next.1, n));
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
