//! Supply and retreat. A supply trace runs from a hex to a source of the side within the
//! system's `supply.trace_length`, never into blocked terrain, across blocked hexsides,
//! into enemy units (where the rule says so) or into an enemy zone of control with no
//! friend in it (where zones block supply). A retreat of N hexes moves away from the
//! unit's hex each step, into hexes it may enter, never into an enemy or, where the
//! system says so, an enemy zone of control.

use std::collections::{HashMap, VecDeque};

use muster_hex::HexId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::{Engine, QueryError, RuleRef};

/// Whether a hex is in supply for a side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Supply {
    pub hex: String,
    pub side: String,
    pub in_supply: bool,
    /// The trace to the nearest source, the hex first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trace: Vec<String>,
    /// Why there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub rules: Vec<RuleRef>,
}

/// The hexes a unit may retreat to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Retreat {
    pub unit: String,
    pub from: String,
    pub hexes: Vec<RetreatHex>,
    pub rules: Vec<RuleRef>,
}

/// One end of a legal retreat, with a path to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RetreatHex {
    pub hex: String,
    pub path: Vec<String>,
}

impl Engine<'_> {
    /// Whether a unit of `side` on `hex` is in supply, as the condition `InSupply` asks
    /// it: always, where the system has no supply rule (nothing can cut a unit off);
    /// else by the trace of [`Engine::supply`], once per hex and side. Zones of control
    /// take every unit as in supply, so that a zone rule conditioned on supply cannot
    /// ask for the trace it is part of.
    pub fn in_supply(&self, hex: HexId, side: &str) -> bool {
        if self.system.rules.supply.is_none() || self.tracing_supply.get() {
            return true;
        }
        let key = (hex, side.to_string());
        if let Some(&known) = self.supply_memo.borrow().get(&key) {
            return known;
        }
        self.tracing_supply.set(true);
        let known = self
            .supply(&hex.to_string(), side)
            .is_ok_and(|s| s.in_supply);
        self.tracing_supply.set(false);
        self.supply_memo.borrow_mut().insert(key, known);
        known
    }

    /// Whether `hex` can trace supply to a source of `side`.
    pub fn supply(&self, hex: &str, side: &str) -> Result<Supply, QueryError> {
        let start = self.hex(hex)?;
        let own = self
            .position
            .sides
            .iter()
            .find(|s| s.id == side)
            .ok_or_else(|| QueryError::UnknownSide {
                id: side.to_string(),
            })?;
        let mut out = Supply {
            hex: start.to_string(),
            side: side.to_string(),
            in_supply: false,
            trace: Vec::new(),
            reason: None,
            rules: Vec::new(),
        };
        let Some(rule) = &self.system.rules.supply else {
            out.reason = Some("the system has no supply rule".into());
            return Ok(out);
        };
        out.rules.push(RuleRef::new("supply", Some(&rule.section)));
        let sources: Vec<HexId> = own
            .supply_sources
            .iter()
            .filter_map(|s| HexId::parse(s).ok())
            .collect();
        if sources.is_empty() {
            out.reason = Some(format!("side `{side}` has no supply source"));
            return Ok(out);
        }
        let zoc = self.enemy_zoc(Some(side));
        let zoc_blocks = self
            .system
            .rules
            .zones_of_control
            .as_ref()
            .is_some_and(|z| z.blocks_supply);
        if zoc_blocks {
            out.rules.push(RuleRef::new(
                "zones of control block supply",
                self.system
                    .rules
                    .zones_of_control
                    .as_ref()
                    .map(|z| z.section.as_str()),
            ));
        }
        let enemy_at = |h: HexId| {
            self.units_at(h).iter().any(|&o| {
                self.units[o]
                    .unit
                    .side
                    .as_deref()
                    .is_some_and(|s| s != side)
            })
        };
        let friend_at = |h: HexId| {
            self.units_at(h)
                .iter()
                .any(|&o| self.units[o].unit.side.as_deref() == Some(side))
        };
        let open = |from: HexId, h: HexId| {
            let terrain = rule
                .blocked_by_terrain
                .iter()
                .any(|t| self.hex_has_own(h, t));
            let side = self.map.hexside(from, h).is_some_and(|s| {
                s.features
                    .iter()
                    .any(|f| rule.blocked_by_hexsides.contains(f))
            });
            let enemy = rule.blocked_by_enemy_units && enemy_at(h);
            let zone = zoc_blocks && zoc.contains(&h) && !friend_at(h);
            !(terrain || side || enemy || zone)
        };
        let mut parent: HashMap<HexId, HexId> = HashMap::new();
        let mut depth: HashMap<HexId, u8> = HashMap::from([(start, 0)]);
        let mut queue = VecDeque::from([start]);
        while let Some(h) = queue.pop_front() {
            if sources.contains(&h) {
                let mut trace = vec![h];
                let mut at = h;
                while let Some(&p) = parent.get(&at) {
                    trace.push(p);
                    at = p;
                }
                trace.reverse();
                out.in_supply = true;
                out.trace = trace.iter().map(HexId::to_string).collect();
                return Ok(out);
            }
            let d = depth[&h];
            if d >= rule.trace_length {
                continue;
            }
            for n in self.map.neighbours(h) {
                if !depth.contains_key(&n) && open(h, n) {
                    depth.insert(n, d + 1);
                    parent.insert(n, h);
                    queue.push_back(n);
                }
            }
        }
        out.reason = Some(format!(
            "no source of `{side}` within {} hexes by an open trace",
            rule.trace_length
        ));
        Ok(out)
    }

    /// Where unit `id` may end a retreat of `hexes` hexes: nowhere, citing the rule,
    /// where a rule in force says it may not retreat.
    pub fn retreat(&self, id: &str, hexes: u8) -> Result<Retreat, QueryError> {
        let i = self.unit(id)?;
        let start = self.hex_of(i);
        let mut rules = Vec::new();
        let facts = crate::cond::Facts::at(self, i, start);
        let forbidding: Vec<RuleRef> = self
            .rules_giving(&facts, |e| {
                *e == muster_model::vocab::Effect::MayNot(muster_model::vocab::Act::Retreat)
            })
            .into_iter()
            .map(crate::rule_ref)
            .collect();
        if !forbidding.is_empty() {
            return Ok(Retreat {
                unit: id.to_string(),
                from: start.to_string(),
                hexes: Vec::new(),
                rules: forbidding,
            });
        }
        let zoc = self.zoc_against(i);
        let no_zoc = self
            .system
            .rules
            .zones_of_control
            .as_ref()
            .filter(|z| z.no_retreat_into);
        if let Some(z) = no_zoc {
            rules.push(RuleRef::new(
                "no retreat into an enemy zone of control",
                Some(&z.section),
            ));
        }
        let ok = |from: HexId, n: HexId| {
            self.map.distance(start, n) > self.map.distance(start, from)
                && self.step_cost(i, from, n, None).is_some()
                && !self.map.terrain_at(n).is_some_and(|t| t.no_retreat)
                && self.may_pass(i, n)
                && !(no_zoc.is_some() && zoc.contains(&n) && !self.ignores_zoc(i))
        };
        let mut paths: Vec<Vec<HexId>> = vec![vec![start]];
        for _ in 0..hexes {
            let mut next = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for p in &paths {
                let last = *p.last().unwrap_or(&start);
                for n in self.map.neighbours(last) {
                    if ok(last, n) && seen.insert(n) {
                        let mut q = p.clone();
                        q.push(n);
                        next.push(q);
                    }
                }
            }
            paths = next;
        }
        let mut out: Vec<RetreatHex> = paths
            .into_iter()
            .filter(|p| p.last().is_some_and(|h| *h != start && self.may_end(i, *h)))
            .map(|p| RetreatHex {
                hex: p.last().map(HexId::to_string).unwrap_or_default(),
                path: p.iter().map(HexId::to_string).collect(),
            })
            .collect();
        out.sort_by(|a, b| a.hex.cmp(&b.hex));
        Ok(Retreat {
            unit: id.to_string(),
            from: start.to_string(),
            hexes: out,
            rules,
        })
    }
}
