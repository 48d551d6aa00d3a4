//! A system's typed rules (`muster_model::rules`) as checks, summaries and engines ask
//! about them: which unit kinds a troop name covers and how specifically, the names a
//! rules block may use, which permission decides an action, what a terrain keeps out,
//! how far a result table reaches down the status ladder, which kinds may share a hex.
//! [`combat`] says whom compulsory attacks bind; [`names`] yields every name a rules block refers to, with its place and kind;
//! [`scenario`] says what the rules mean for one scenario (a side without leaders
//! under leader control, the men a force stands for).
//!
//! Nothing here judges: the `rules::*` checks of `muster-check` hold their own
//! findings and ask these queries.

pub mod combat;
pub mod names;
pub mod scenario;
pub mod vocab;

pub use names::{NameKind, NameRef, name_refs};
pub use scenario::{OptionalOn, UnledSide, men_represented, optional_rules_on, unled_sides};

use muster_model::rules::{Action, Allowance, BandResult, Permission, ResultTable, StatusLadder};
use muster_model::system::{GridKind, KindStats, RulesSystem, StackingPolicy, UnitKind, UnitRole};

/// The class printed for a unit kind of the system (PRESTAGS), if any.
pub fn class_of<'a>(system: &'a RulesSystem, kind: &str) -> Option<&'a str> {
    match &system.unit_kinds.iter().find(|k| k.id == kind)?.stats {
        Some(KindStats::Counter { class, .. }) | Some(KindStats::Leader { class, .. }) => {
            Some(class)
        }
        _ => None,
    }
}

/// The classes of the system's unit kinds, each once.
pub fn classes(system: &RulesSystem) -> Vec<&str> {
    let mut out: Vec<&str> = system
        .unit_kinds
        .iter()
        .filter_map(|k| class_of(system, &k.id))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The system's unit kind tags, each once.
pub fn tags(system: &RulesSystem) -> Vec<&str> {
    let mut out: Vec<&str> = system
        .unit_kinds
        .iter()
        .flat_map(|k| k.tags.iter().map(String::as_str))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// How specifically a troop name names a kind: its id (2), its class or one of its tags
/// (1), `"*"` (0).
pub fn specificity(system: &RulesSystem, name: &str, kind: &str) -> Option<u8> {
    let tagged = || {
        system
            .unit_kinds
            .iter()
            .any(|k| k.id == kind && k.tags.iter().any(|t| t == name))
    };
    if name == kind {
        Some(2)
    } else if class_of(system, kind) == Some(name) || tagged() {
        Some(1)
    } else if name == "*" {
        Some(0)
    } else {
        None
    }
}

/// Whether a list of troop names (with exceptions) covers a kind, and how specifically.
pub fn covers(
    system: &RulesSystem,
    troops: &[String],
    except: &[String],
    kind: &str,
) -> Option<u8> {
    if except
        .iter()
        .any(|e| specificity(system, e, kind).is_some())
    {
        return None;
    }
    troops
        .iter()
        .filter_map(|t| specificity(system, t, kind))
        .max()
}

/// Whether a troop name is known: a unit kind id, a class, a tag or `"*"`.
pub fn troop_known(system: &RulesSystem, name: &str) -> bool {
    name == "*"
        || system.unit_kinds.iter().any(|k| k.id == name)
        || classes(system).contains(&name)
        || tags(system).contains(&name)
}

/// The unit kinds a troop name covers.
pub fn kinds_named<'a>(system: &'a RulesSystem, name: &str) -> Vec<&'a UnitKind> {
    system
        .unit_kinds
        .iter()
        .filter(|k| specificity(system, name, &k.id).is_some())
        .collect()
}

/// Whether a list of troop names covers one of these unit kinds.
pub fn names_any(system: &RulesSystem, troops: &[String], kinds: &[&str]) -> bool {
    kinds
        .iter()
        .any(|k| covers(system, troops, &[], k).is_some())
}

/// The table feature kinds and hex terrain types of the system, by id.
pub fn terrain_ids(system: &RulesSystem) -> Vec<&str> {
    let mut out: Vec<&str> = system.terrain.iter().map(|t| t.id.as_str()).collect();
    if let GridKind::Table { features, .. } = &system.grid {
        out.extend(features.iter().map(|f| f.id.as_str()));
    }
    out
}

/// Whether a result cell is made of the combat results table's codes (`D1R`).
pub fn made_of_codes(cell: &str, codes: &[&str]) -> bool {
    if cell.is_empty() || cell == "-" {
        return true;
    }
    codes
        .iter()
        .any(|c| !c.is_empty() && cell.starts_with(c) && made_of_codes(&cell[c.len()..], codes))
}

/// The codes a combat result is made of, in order (`D1R`: `D`, `1`, `R`), the longest
/// code first where two could start it; `None` when the cell is not made of codes. `-`
/// and an empty cell are made of none.
pub fn result_parts<'a>(
    cell: &str,
    codes: &'a [muster_model::system::ResultCode],
) -> Option<Vec<&'a muster_model::system::ResultCode>> {
    if cell.is_empty() || (cell == "-" && !codes.iter().any(|c| c.code == "-")) {
        return Some(Vec::new());
    }
    let mut by_length: Vec<&muster_model::system::ResultCode> =
        codes.iter().filter(|c| !c.code.is_empty()).collect();
    by_length.sort_by_key(|c| std::cmp::Reverse(c.code.len()));
    by_length.iter().find_map(|c| {
        let rest = cell.strip_prefix(c.code.as_str())?;
        let mut parts = vec![*c];
        if rest.is_empty() {
            return Some(parts);
        }
        parts.extend(result_parts(rest, codes).filter(|p| !p.is_empty())?);
        Some(parts)
    })
}

/// The permission that decides `action` for a unit of `kind` at `status` (top level:
/// `None`), among the entries without a condition: the most specific troop name wins
/// (id over class over `"*"`), and an entry for the status over one for any status.
pub fn permission_for<'a>(
    system: &'a RulesSystem,
    kind: &str,
    action: Action,
    status: Option<&str>,
) -> Option<(usize, &'a Permission)> {
    system
        .rules
        .permissions
        .iter()
        .enumerate()
        .filter(|(_, p)| p.action == action && !p.is_conditional())
        .filter(|(_, p)| p.status.is_none() || p.status.as_deref() == status)
        .filter_map(|(i, p)| {
            let s = covers(system, &p.troops, &p.except, kind)?;
            Some(((s, p.status.is_some()), i, p))
        })
        .max_by_key(|(key, i, _)| (*key, std::cmp::Reverse(*i)))
        .map(|(_, i, p)| (i, p))
}

/// For `action`, the troop kinds present in a scenario by allowance, from the
/// permissions without a condition (kinds no entry covers are left out).
pub fn allowances_among<'a>(
    system: &RulesSystem,
    kinds: &[&'a str],
    action: Action,
) -> Vec<(Allowance, Vec<&'a str>)> {
    let mut out: Vec<(Allowance, Vec<&str>)> = Vec::new();
    for allowance in [Allowance::Must, Allowance::May, Allowance::Never] {
        let list: Vec<&str> = kinds
            .iter()
            .copied()
            .filter(|k| {
                permission_for(system, k, action, None).is_some_and(|(_, p)| p.allowed == allowance)
            })
            .collect();
        if !list.is_empty() {
            out.push((allowance, list));
        }
    }
    out
}

/// The most levels any band of a table costs, and whether a band sends the unit to a
/// level that removes it.
pub fn table_reach(table: &ResultTable, ladder: Option<&StatusLadder>) -> (u8, bool) {
    let most = table
        .bands
        .iter()
        .filter_map(|b| b.result.levels_lost())
        .max()
        .unwrap_or(0);
    let removes = table.bands.iter().any(|b| match &b.result {
        BandResult::ToLevel(l) => ladder
            .and_then(|ld| ld.levels.iter().find(|x| &x.id == l))
            .is_some_and(|x| x.removes),
        _ => false,
    });
    (most, removes)
}

/// What the terrain itself says, for the exception checks.
pub struct TerrainFacts {
    pub crossing_cost: bool,
    pub cover: Option<bool>,
    /// Whether it keeps out a troop name (by id or class).
    pub keeps_out: Vec<String>,
}

pub fn terrain_facts(system: &RulesSystem, id: &str) -> Option<TerrainFacts> {
    if let GridKind::Table { features, .. } = &system.grid
        && let Some(f) = features.iter().find(|f| f.id == id)
    {
        let mut keeps_out = f.forbidden.clone();
        if f.movement_factor.is_none() {
            keeps_out.push("*".to_string());
        }
        return Some(TerrainFacts {
            crossing_cost: f.crossing_cost.is_some(),
            cover: Some(f.cover),
            keeps_out,
        });
    }
    let t = system.terrain.iter().find(|t| t.id == id)?;
    let mut keeps_out = t.prohibited.clone();
    if t.movement == muster_model::system::MoveCost::Impassable && t.allowed.is_empty() {
        keeps_out.push("*".to_string());
    }
    keeps_out.retain(|k| !t.allowed.contains(k));
    Some(TerrainFacts {
        crossing_cost: false,
        cover: None,
        keeps_out,
    })
}

/// Whether units of two kinds may ever share a hex under the system's stacking rules
/// (the numbers a scenario sets aside).
pub fn may_share_hex(system: &RulesSystem, a: &UnitKind, b: &UnitKind) -> bool {
    match &system.stacking {
        StackingPolicy::Unlimited => true,
        StackingPolicy::UnitsPerHex {
            combat_units,
            riders,
        } => {
            let room = |role: UnitRole| -> u16 {
                if role == UnitRole::Combat {
                    u16::from(*combat_units)
                } else {
                    riders
                        .iter()
                        .filter(|r| r.role == role)
                        .map(|r| u16::from(r.max))
                        .sum()
                }
            };
            if a.role == b.role {
                room(a.role) >= 2
            } else {
                room(a.role) >= 1 && room(b.role) >= 1
            }
        }
        StackingPolicy::PerSideLimit { compatible, .. } => {
            match (class_of(system, &a.id), class_of(system, &b.id)) {
                (Some(x), Some(y)) if x != y => compatible
                    .iter()
                    .any(|g| g.iter().any(|c| c == x) && g.iter().any(|c| c == y)),
                _ => true,
            }
        }
    }
}

/// The movement allowances printed for the system's unit kinds.
pub fn movements(system: &RulesSystem) -> Vec<f64> {
    system
        .unit_kinds
        .iter()
        .filter_map(|k| match &k.stats {
            Some(KindStats::Counter { movement, .. })
            | Some(KindStats::Leader { movement, .. })
            | Some(KindStats::Figure { movement, .. }) => Some(*movement),
            _ => None,
        })
        .collect()
}
