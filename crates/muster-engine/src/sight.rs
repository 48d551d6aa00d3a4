//! Line of sight and range, by the system's `line_of_sight` rule: the hexes a straight
//! line between two hex centres passes through, what blocks it there (terrain, by the
//! firer's elevation and the hilltops next to it; occupied hexes, by elevation), and a
//! line along a hexside read by the rule's `along_hexside`.

use muster_hex::HexId;
use muster_model::rules::{HexsideSight, LineOfSight};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cond::elevation;
use crate::{Engine, QueryError, RuleRef};

/// What blocks a line of sight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Blocker {
    pub hex: String,
    /// The blocking terrain, or `occupied`.
    pub what: String,
    /// The other hex of a line along a hexside, blocked too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beside: Option<String>,
}

/// Whether `from` sees `to`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Sight {
    pub from: String,
    pub to: String,
    pub distance: u32,
    pub clear: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked_by: Option<Blocker>,
    /// The hexes between, in order; a pair where the line runs along their hexside.
    pub line: Vec<Vec<String>>,
    pub rules: Vec<RuleRef>,
}

/// The distance between two hexes and, for a unit, whether it is within its range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Range {
    pub from: String,
    pub to: String,
    pub distance: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_range: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<bool>,
}

/// What blocks a line in one hex, and the section that says so.
#[derive(Clone)]
struct Block {
    what: String,
    section: Option<String>,
}

fn cube_round(x: f64, y: f64, z: f64) -> [i32; 2] {
    let (mut rx, mut ry, rz) = (x.round(), y.round(), z.round());
    let (dx, dy, dz) = ((rx - x).abs(), (ry - y).abs(), (rz - z).abs());
    if dx > dy && dx > dz {
        rx = -ry - rz;
    } else if dy > dz {
        ry = -rx - rz;
    }
    [rx as i32, ry as i32]
}

impl Engine<'_> {
    /// The hexes strictly between `a` and `b` on the line joining their centres: one
    /// hex, or two where the line runs along their common hexside.
    pub fn line_between(&self, a: HexId, b: HexId) -> Vec<Vec<HexId>> {
        let layout = self.map.grid().layout;
        let (p, q) = (layout.axial(a), layout.axial(b));
        let n = self.map.distance(a, b) as i32;
        let mut out = Vec::new();
        for k in 1..n {
            let t = f64::from(k) / f64::from(n);
            let lerp = |u: i32, v: i32| f64::from(u) + (f64::from(v) - f64::from(u)) * t;
            let (x, y) = (lerp(p[0], q[0]), lerp(p[1], q[1]));
            let e = 1e-6;
            let h1 = cube_round(x + e, y + e, -x - y - 2.0 * e);
            let h2 = cube_round(x - e, y - e, -x - y + 2.0 * e);
            let mut step: Vec<HexId> = [h1, h2]
                .into_iter()
                .filter_map(|h| layout.from_axial(h))
                .collect();
            step.dedup();
            out.push(step);
        }
        out
    }

    /// Whether a unit in `from` sees `to` (hex ids or unit ids).
    pub fn sight(&self, from: &str, to: &str) -> Result<Sight, QueryError> {
        let a = self.hex_or_unit(from)?;
        let b = self.hex_or_unit(to)?;
        let line = self.line_between(a, b);
        let mut sight = Sight {
            from: a.to_string(),
            to: b.to_string(),
            distance: self.map.distance(a, b),
            clear: true,
            blocked_by: None,
            line: line
                .iter()
                .map(|s| s.iter().map(HexId::to_string).collect())
                .collect(),
            rules: Vec::new(),
        };
        let Some(los) = &self.system.rules.line_of_sight else {
            sight.rules.push(RuleRef::new(
                "the system has no line-of-sight rule: every line is clear",
                None,
            ));
            return Ok(sight);
        };
        sight
            .rules
            .push(RuleRef::new("line of sight", los.section.as_deref()));
        let mut along_cited = false;
        for step in &line {
            // A line along a hexside cites the rule that reads it, once.
            if let (Some(along), 2, false) = (los.along_hexside, step.len(), along_cited) {
                let how = match along {
                    HexsideSight::ClearIfEitherClear => "clear if either hex is",
                    HexsideSight::BlockedIfEitherBlocked => "blocked if either hex is",
                };
                sight.rules.push(RuleRef::new(
                    format!("a line along a hexside is {how}"),
                    los.along_hexside_section.as_deref(),
                ));
                along_cited = true;
            }
            let blocks: Vec<Option<Block>> =
                step.iter().map(|h| self.blocks(los, a, b, *h)).collect();
            let blocked = match (los.along_hexside, blocks.as_slice()) {
                (_, [one]) => one.clone().map(|w| (step[0], w, None)),
                (Some(HexsideSight::BlockedIfEitherBlocked), [x, y]) => x
                    .clone()
                    .map(|w| (step[0], w, None))
                    .or_else(|| y.clone().map(|w| (step[1], w, None))),
                (_, [Some(x), Some(_)]) => Some((step[0], x.clone(), Some(step[1]))),
                _ => None,
            };
            if let Some((hex, block, beside)) = blocked {
                sight.clear = false;
                let rule = if block.what == "occupied" {
                    "an occupied hex blocks a line of sight".to_string()
                } else {
                    format!("{} blocks a line of sight", block.what)
                };
                sight
                    .rules
                    .push(RuleRef::new(rule, block.section.as_deref()));
                sight.blocked_by = Some(Blocker {
                    hex: hex.to_string(),
                    what: block.what,
                    beside: beside.map(|h| h.to_string()),
                });
                break;
            }
        }
        Ok(sight)
    }

    /// What about hex `h` blocks a line from `a` to `b`, if anything.
    fn blocks(&self, los: &LineOfSight, a: HexId, b: HexId, h: HexId) -> Option<Block> {
        let elevation_id = |x: HexId| {
            los.elevations
                .get(elevation(self, x))
                .map(|e| e.id.as_str())
        };
        let firer = elevation_id(a);
        for block in &los.blocking {
            let Some(t) = block.terrain.iter().find(|t| self.hex_has_own(h, t)) else {
                continue;
            };
            if !block.firer_at.is_empty()
                && !block.firer_at.iter().any(|f| Some(f.as_str()) == firer)
            {
                continue;
            }
            let spared = block.unless_next_to.iter().any(|u| {
                [a, b]
                    .into_iter()
                    .any(|end| self.hex_has_own(end, u) && self.map.grid().adjacent(end, h))
            });
            if !spared {
                return Some(Block {
                    what: t.clone(),
                    section: block.section.clone(),
                });
            }
        }
        if los.units_block && !self.units_at(h).is_empty() {
            let here = elevation_id(h);
            for o in &los.occupied_blocks {
                if Some(o.firer_at.as_str()) != firer
                    || !o.blocked_by.iter().any(|x| Some(x.as_str()) == here)
                {
                    continue;
                }
                let through = o
                    .unless_through_adjacent
                    .as_deref()
                    .is_some_and(|s| here == Some(s) && self.map.grid().adjacent(a, h));
                if !through {
                    return Some(Block {
                        what: "occupied".into(),
                        section: o.section.clone().or_else(|| los.section.clone()),
                    });
                }
            }
            if los.occupied_blocks.is_empty() {
                return Some(Block {
                    what: "occupied".into(),
                    section: los.section.clone(),
                });
            }
        }
        None
    }

    /// The distance from one hex (or unit) to another, and whether a unit is in range.
    pub fn range(&self, from: &str, to: &str) -> Result<Range, QueryError> {
        let a = self.hex_or_unit(from)?;
        let b = self.hex_or_unit(to)?;
        let distance = self.map.distance(a, b);
        let unit_range = self.unit(from).ok().and_then(|i| self.units[i].unit.range);
        Ok(Range {
            from: a.to_string(),
            to: b.to_string(),
            distance,
            unit_range,
            within: unit_range.map(|r| distance <= u32::from(r)),
        })
    }

    /// A hex id, or the hex of the unit of that id.
    pub fn hex_or_unit(&self, text: &str) -> Result<HexId, QueryError> {
        match self.unit(text) {
            Ok(i) => Ok(self.hex_of(i)),
            Err(QueryError::UnitOffMap { id, hex }) => Err(QueryError::UnitOffMap { id, hex }),
            Err(QueryError::UnknownUnit { id, near }) if HexId::parse(text).is_err() => {
                Err(QueryError::NotUnitOrHex { text: id, near })
            }
            Err(e) if HexId::parse(text).is_err() => Err(e),
            Err(_) => self.hex(text),
        }
    }
}
