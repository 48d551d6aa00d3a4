//! The balance sheet of a scenario (`muster summary`): forces per side, strength,
//! commanders, baggage, reinforcements, morale threshold and what each side could
//! lose, plus how many values in the data are assumed rather than printed.

use std::collections::BTreeMap;

use muster_model::scenario::MoraleThreshold;
use muster_model::system::UnitRole;
use serde::Serialize;

use crate::semantic::ScenarioCx;
use crate::semantic::morale::max_losses;

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
    /// `15 x 12 hexes` or `72 x 48 inch table`.
    pub size: String,
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
    /// Zone-deployed forces (PRESTAGS).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zoned: Option<ZonedSummary>,
    /// Forces on an open table (miniatures).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<TableSummary>,
}

#[derive(Debug, Serialize)]
pub struct ZonedSummary {
    pub units: Vec<NameCount>,
    pub leaders: Vec<NameCount>,
    pub vp_computed: Option<u32>,
    pub vp_printed: u16,
    pub panic_level: u16,
    /// Panic level as a percentage of the printed victory points.
    pub panic_percent: f64,
    pub stacking_limit: u8,
    pub zones: Vec<ZoneSize>,
}

#[derive(Debug, Serialize)]
pub struct ZoneSize {
    pub group: String,
    /// Hexes of the zone on the map (`None` when it cannot be resolved).
    pub hexes: Option<usize>,
}

#[derive(Debug, Serialize)]
pub struct TableSummary {
    /// Units by troop type: units and bases.
    pub troops: Vec<TroopLine>,
    /// Figures by type over all bands.
    pub figures: Vec<NameCount>,
    pub leaders: Vec<String>,
    pub break_point_computed: Option<i64>,
    pub break_point_printed: Option<u16>,
    pub vp_computed: Option<u32>,
    pub vp_printed: Option<u16>,
    pub morale: Option<String>,
    /// Deployment zone areas in square inches.
    pub zones: Vec<(String, f64)>,
}

#[derive(Debug, Serialize)]
pub struct TroopLine {
    pub troop: String,
    pub units: usize,
    pub bases: u32,
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
                army: side.army.clone().unwrap_or_default(),
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
                zoned: zoned_summary(cx, i),
                table: table_summary(cx, i),
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
        .filter_map(|x| x.army.as_deref())
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
    // The `// assumed: reason` comment convention, for values without an `assumed` map.
    for (name, file) in [Some(&cx.file.loaded.file), cx.map_file()]
        .into_iter()
        .flatten()
        .map(|f| (f.name.clone(), f))
    {
        for span in crate::suppress::comments(file) {
            let body = file.text[span.clone()].trim_start_matches('/').trim();
            if let Some(reason) = body.strip_prefix("assumed:") {
                assumed.push(AssumedValue {
                    item: format!("{name}:{}", file.line_col(span.start).line),
                    field: "comment".to_string(),
                    reason: reason.trim().to_string(),
                });
            }
        }
    }
    if let Some(system) = cx.system {
        let mut push = |item: String, map: &muster_model::Assumed| {
            for (field, reason) in map {
                assumed.push(AssumedValue {
                    item: item.clone(),
                    field: field.clone(),
                    reason: reason.clone(),
                });
            }
        };
        push(format!("system `{}`", system.id), &system.assumed);
        for k in &system.unit_kinds {
            push(format!("unit kind `{}`", k.id), &k.assumed);
        }
        for t in &system.terrain {
            push(format!("terrain `{}`", t.id), &t.assumed);
        }
        for f in &system.hexside_features {
            push(format!("hexside feature `{}`", f.id), &f.assumed);
        }
        if let muster_model::system::GridKind::Table { features, .. } = &system.grid {
            for f in features {
                push(format!("table feature `{}`", f.id), &f.assumed);
            }
        }
    }
    for side in cx.zoned_sides() {
        for (k, d) in side.forces.deploy.iter().enumerate() {
            for (field, reason) in &d.assumed {
                assumed.push(AssumedValue {
                    item: format!(
                        "side `{}` deployment {}",
                        cx.scenario.sides[side.index].id,
                        d.id.clone().unwrap_or_else(|| (k + 1).to_string())
                    ),
                    field: field.clone(),
                    reason: reason.clone(),
                });
            }
        }
    }
    ScenarioSummary {
        id: s.id.clone(),
        name: s.name.clone(),
        map: cx
            .map
            .map(|m| MapSummary {
                id: m.table().map.clone(),
                size: format!("{} x {} hexes", m.grid().columns, m.grid().rows),
            })
            .or_else(|| {
                cx.table.map(|t| MapSummary {
                    id: t.map.clone(),
                    size: format!("{} x {} inch table", t.width, t.depth),
                })
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

fn zoned_summary(cx: &ScenarioCx, index: usize) -> Option<ZonedSummary> {
    let side = cx.zoned_sides().into_iter().find(|s| s.index == index)?;
    let f = side.forces;
    let (leaders, units): (Vec<_>, Vec<_>) = f
        .units
        .iter()
        .partition(|u| !cx.counts_for_stacking(&u.kind));
    let count = |list: Vec<&muster_model::scenario::TypeCount>| {
        list.into_iter()
            .map(|u| NameCount {
                name: u.kind.clone(),
                count: usize::from(u.count),
            })
            .collect()
    };
    let zones = f
        .deploy
        .iter()
        .enumerate()
        .map(|(k, d)| {
            let group = d.id.clone().unwrap_or_else(|| format!("group {}", k + 1));
            let hexes = match (&d.zone, &d.arrives) {
                (Some(zone), _) => cx
                    .zone_hexes(zone)
                    .ok()
                    .filter(|_| cx.map.is_some())
                    .map(|h| h.len()),
                (None, _) => None,
            };
            ZoneSize { group, hexes }
        })
        .collect();
    Some(ZonedSummary {
        units: count(units),
        leaders: count(leaders),
        vp_computed: cx.vp_of(&f.units),
        vp_printed: f.victory_points,
        panic_level: f.panic_level,
        panic_percent: if f.victory_points == 0 {
            0.0
        } else {
            (f64::from(f.panic_level) * 1000.0 / f64::from(f.victory_points)).round() / 10.0
        },
        stacking_limit: f.stacking_limit,
        zones,
    })
}

fn table_summary(cx: &ScenarioCx, index: usize) -> Option<TableSummary> {
    let side = cx.table_sides().into_iter().find(|s| s.index == index)?;
    let f = side.forces;
    let mut troops: BTreeMap<String, (usize, u32)> = BTreeMap::new();
    for u in &f.units {
        let e = troops.entry(u.troop.clone()).or_default();
        e.0 += 1;
        e.1 += u32::from(u.bases);
    }
    let mut figures: BTreeMap<String, usize> = BTreeMap::new();
    for fig in f.bands.iter().flat_map(|b| b.figures.iter()) {
        *figures.entry(fig.kind.clone()).or_default() += usize::from(fig.count);
    }
    let all_figures: Vec<_> = f
        .bands
        .iter()
        .flat_map(|b| b.figures.iter().cloned())
        .collect();
    let area = |shape: &muster_model::map::Shape| match shape {
        muster_model::map::Shape::Rect { w, h, .. } => w * h,
        muster_model::map::Shape::Circle { r, .. } => std::f64::consts::PI * r * r,
        muster_model::map::Shape::Polygon(p) => {
            (0..p.len())
                .map(|i| p[i].0 * p[(i + 1) % p.len()].1 - p[(i + 1) % p.len()].0 * p[i].1)
                .sum::<f64>()
                .abs()
                / 2.0
        }
        muster_model::map::Shape::Line(_) => 0.0,
    };
    Some(TableSummary {
        troops: troops
            .into_iter()
            .map(|(troop, (units, bases))| TroopLine {
                troop,
                units,
                bases,
            })
            .collect(),
        figures: figures
            .into_iter()
            .map(|(name, count)| NameCount { name, count })
            .collect(),
        leaders: f
            .battles
            .iter()
            .filter_map(|b| b.leader.as_ref())
            .map(|l| {
                format!(
                    "{} ({:?}{})",
                    l.name,
                    l.role,
                    if l.exceptional { ", exceptional" } else { "" }
                )
            })
            .collect(),
        break_point_computed: if f.units.is_empty() {
            None
        } else {
            crate::semantic::derived::break_point(cx, f)
        },
        break_point_printed: f.break_point.as_ref().map(|b| b.printed),
        vp_computed: if all_figures.is_empty() {
            None
        } else {
            cx.vp_of(&all_figures)
        },
        vp_printed: f.victory_points,
        morale: f
            .morale
            .as_ref()
            .map(|m| format!("fails at {} figures lost ({}%)", m.figures, m.loss_percent)),
        zones: f
            .zones
            .iter()
            .map(|z| (z.id.clone(), area(&z.area)))
            .collect(),
    })
}
