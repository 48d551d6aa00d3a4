//! The balance sheet of a scenario (`muster summary`): forces per side, strength,
//! commanders, baggage, reinforcements, morale threshold and what each side could
//! lose, plus how many values in the data are assumed rather than printed.

use std::collections::BTreeMap;

use muster_model::scenario::MoraleThreshold;
use muster_model::system::UnitRole;
use serde::Serialize;

use crate::checks::context::ScenarioCx;
use crate::checks::morale::max_losses;

#[derive(Debug, Serialize)]
pub struct ScenarioSummary {
    pub id: String,
    pub name: String,
    pub map: Option<MapSummary>,
    pub turns: u8,
    pub extra_turns: u8,
    pub deploys_first: String,
    pub plays_first: String,
    pub sides: Vec<SideSummary>,
    pub neutrals: Vec<NameCount>,
    /// Values marked `assumed` in the counters of this scenario's armies and in its map.
    pub assumed: Vec<AssumedValue>,
}

#[derive(Debug, Serialize)]
pub struct MapSummary {
    pub id: String,
    pub columns: u16,
    pub rows: u16,
}

#[derive(Debug, Serialize)]
pub struct SideSummary {
    pub id: String,
    pub name: String,
    pub army: String,
    pub combat_units: usize,
    /// Full strength of the combat units at setup.
    pub combat_strength: u32,
    pub by_kind: Vec<NameCount>,
    pub by_unit: Vec<UnitLine>,
    pub commanders: Vec<String>,
    pub baggage: usize,
    pub reinforcements: Vec<ReinforcementLine>,
    pub morale_threshold: Option<String>,
    /// Everything the side could lose, scored as the system scores losses.
    pub could_lose: Option<u32>,
}

#[derive(Debug, Serialize)]
pub struct NameCount {
    pub name: String,
    pub count: usize,
}

#[derive(Debug, Serialize)]
pub struct UnitLine {
    pub name: String,
    pub kind: String,
    pub strength: u8,
    pub count: usize,
}

#[derive(Debug, Serialize)]
pub struct ReinforcementLine {
    pub turn: u8,
    pub units: Vec<NameCount>,
    pub entry: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct AssumedValue {
    pub item: String,
    pub field: String,
    pub reason: String,
}

pub fn summarize(cx: &ScenarioCx) -> ScenarioSummary {
    let s = cx.scenario;
    let sides = s
        .sides
        .iter()
        .enumerate()
        .map(|(i, side)| {
            let units: Vec<_> = cx
                .groups
                .iter()
                .filter(|g| g.side == Some(i))
                .flat_map(|g| g.units.iter())
                .collect();
            let combat: Vec<_> = units
                .iter()
                .filter(|u| u.role() == Some(UnitRole::Combat))
                .collect();
            let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
            let mut by_unit: BTreeMap<(String, String, u8), usize> = BTreeMap::new();
            for u in &units {
                let kind = u.kind.map_or("?".to_string(), |k| k.id.clone());
                *by_kind.entry(kind.clone()).or_default() += 1;
                let (name, strength) = u.counter.map_or((u.counter_id.to_string(), 0), |c| {
                    (c.name.clone(), c.strength)
                });
                *by_unit.entry((name, kind, strength)).or_default() += 1;
            }
            let army = cx.side_army(i);
            let counter_name = |id: &str| {
                army.and_then(|a| a.counters.iter().find(|c| c.id == id))
                    .map_or(id.to_string(), |c| c.name.clone())
            };
            SideSummary {
                id: side.id.clone(),
                name: side.name.clone(),
                army: side.army.clone(),
                combat_units: combat.len(),
                combat_strength: combat
                    .iter()
                    .filter_map(|u| u.counter)
                    .map(|c| u32::from(c.strength))
                    .sum(),
                by_kind: by_kind
                    .into_iter()
                    .map(|(name, count)| NameCount { name, count })
                    .collect(),
                by_unit: by_unit
                    .into_iter()
                    .map(|((name, kind, strength), count)| UnitLine {
                        name,
                        kind,
                        strength,
                        count,
                    })
                    .collect(),
                commanders: units
                    .iter()
                    .filter(|u| u.role() == Some(UnitRole::Commander))
                    .map(|u| {
                        u.counter
                            .map_or(u.counter_id.to_string(), |c| c.name.clone())
                    })
                    .collect(),
                baggage: units
                    .iter()
                    .filter(|u| u.role() == Some(UnitRole::Baggage))
                    .count(),
                reinforcements: s
                    .reinforcements
                    .iter()
                    .filter(|r| r.side == side.id)
                    .map(|r| ReinforcementLine {
                        turn: r.turn,
                        units: r
                            .units
                            .iter()
                            .map(|g| NameCount {
                                name: counter_name(&g.counter),
                                count: usize::from(g.count),
                            })
                            .collect(),
                        entry: r.entry.clone(),
                    })
                    .collect(),
                morale_threshold: side.morale_threshold.as_ref().map(|t| match t {
                    MoraleThreshold::Fixed(n) => n.to_string(),
                    MoraleThreshold::ByLosses {
                        counter,
                        thresholds,
                    } => format!(
                        "{} by `{}` lost ({})",
                        thresholds.first().copied().unwrap_or_default(),
                        counter,
                        thresholds
                            .iter()
                            .enumerate()
                            .map(|(k, t)| format!("{k}: {t}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                }),
                could_lose: cx
                    .system
                    .and_then(|sys| sys.army_morale.as_ref())
                    .map(|m| max_losses(cx, i, m)),
            }
        })
        .collect();
    let neutrals = cx
        .groups
        .iter()
        .filter(|g| g.side.is_none())
        .flat_map(|g| g.units.iter())
        .map(|u| NameCount {
            name: u
                .counter
                .map_or(u.counter_id.to_string(), |c| c.name.clone()),
            count: 1,
        })
        .collect();
    let mut assumed = Vec::new();
    let armies: Vec<&str> = s
        .sides
        .iter()
        .map(|x| x.army.as_str())
        .chain(s.neutrals.iter().map(|n| n.army.as_str()))
        .collect();
    for army in armies.iter().filter_map(|a| cx.army(a)) {
        for c in &army.counters {
            for (field, reason) in &c.assumed {
                assumed.push(AssumedValue {
                    item: format!("counter `{}`", c.id),
                    field: field.clone(),
                    reason: reason.clone(),
                });
            }
        }
    }
    if let Some(map_doc) = cx.map_source() {
        for (field, reason) in &map_doc.assumed {
            assumed.push(AssumedValue {
                item: format!("map `{}`", map_doc.id),
                field: field.clone(),
                reason: reason.clone(),
            });
        }
    }
    ScenarioSummary {
        id: s.id.clone(),
        name: s.name.clone(),
        map: cx.map.map(|m| MapSummary {
            id: m.table().map.clone(),
            columns: m.grid().columns,
            rows: m.grid().rows,
        }),
        turns: s.turns,
        extra_turns: s.extra_turns,
        deploys_first: s.deploys_first.clone(),
        plays_first: s.plays_first.clone(),
        sides,
        neutrals,
        assumed,
    }
}
