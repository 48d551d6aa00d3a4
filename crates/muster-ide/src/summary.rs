//! The balance sheet of a scenario (`muster summary`): forces per side, strength,
//! commanders, baggage, where every unit sets up (by counter id), reinforcements,
//! morale threshold and what each side could lose, the victory conditions and special
//! rules in words, plus how many values in the data are assumed rather than printed.

use std::collections::BTreeMap;

use muster_model::map::Area;
use muster_model::scenario::{
    Arrival, BandEntry, Deployment, Forces, Goal, MoraleThreshold, Outcome, Placement, Region,
    Share, VictoryCondition, VictoryLevel, Zone,
};
use muster_model::system::UnitRole;
use serde::Serialize;

use muster_semantic::ScenarioCx;
use muster_semantic::morale::max_losses;

mod natural;
mod placed;
mod rule_lines;
mod victory_tests;
mod vocab_lines;
pub use natural::natural_cmp;
use placed::{BoxLine, boxes, placed_lines};
use rule_lines::rule_lines;

#[derive(Debug, Serialize)]
pub struct ScenarioSummary {
    pub id: String,
    pub name: String,
    pub map: Option<MapSummary>,
    pub turns: u8,
    pub extra_turns: u8,
    /// The side that sets up first; `None` when both set up at once
    /// (`simultaneous_setup`) or the scenario does not say.
    pub deploys_first: Option<String>,
    pub simultaneous_setup: bool,
    pub plays_first: String,
    pub sides: Vec<SideSummary>,
    pub neutrals: Vec<NameCount>,
    /// Where the neutral units set up.
    pub neutral_setup: Vec<SetupLine>,
    /// The victory conditions in words, in the scenario's order.
    pub victory: Vec<VictoryLine>,
    pub special_rules: Vec<SpecialRuleLine>,
    /// The system's typed rules as they bear on this scenario, in words: the sequence
    /// of play, unit status, result tables, what the troop types present may do, and
    /// what follows for its sides (a side without leaders, the men a force stands for).
    pub rules: Vec<RuleLine>,
    /// The system's notes: facts kept as data for engines, in the system's words.
    pub notes: Vec<String>,
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
    /// Combat units that set up on the map for certain: units in holding boxes and the
    /// units of a group the owner picks from (`choose`) are left out, and listed in
    /// `setup` and `boxes`.
    pub combat_units: usize,
    /// Strength of those combat units at setup, each by the status it starts at (a unit
    /// starting reduced counts its reduced strength).
    pub combat_strength: u32,
    pub by_kind: Vec<NameCount>,
    pub by_unit: Vec<UnitLine>,
    pub commanders: Vec<String>,
    pub baggage: usize,
    pub reinforcements: Vec<ReinforcementLine>,
    pub morale_threshold: Option<String>,
    /// Everything the side could lose, scored as the system scores losses.
    pub could_lose: Option<u32>,
    /// Where each unit sets up: one line per counter of each setup group (placed
    /// forces), per unit kind of each deployment group (zoned forces), per unit or band
    /// (table forces).
    pub setup: Vec<SetupLine>,
    /// The side sets up hidden from the other player.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hidden: bool,
    /// The side's holding boxes with the units that start in them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub boxes: Vec<BoxLine>,
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
    /// The scenario's sample deployment, stack by stack.
    pub sample: Vec<SampleLine>,
}

#[derive(Debug, Serialize)]
pub struct ZoneSize {
    pub group: String,
    /// Hexes of the zone on the map (`None` when it cannot be resolved).
    pub hexes: Option<usize>,
    /// Where the group sets up (or enters), in words.
    pub placement: String,
}

#[derive(Debug, Serialize)]
pub struct SampleLine {
    pub hex: String,
    pub units: Vec<NameCount>,
    /// Units carried by the fleet in the hex.
    pub aboard: Vec<NameCount>,
}

/// Where some units set up.
#[derive(Debug, Serialize)]
pub struct SetupLine {
    /// The setup group, deployment group, unit or band, from 1: lines of one group
    /// share its hexes, the owner choosing which unit goes where.
    pub group: usize,
    /// Counter id (placed forces), unit kind (zoned forces), unit or band id (table).
    pub counter: String,
    pub name: String,
    pub count: usize,
    /// The status level (by name) the units start at, when not the ladder's first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The hexes named for the group: the list, every hex of a range or of a spaced
    /// run; empty when the place is not a list of hexes.
    pub hexes: Vec<String>,
    /// Where, in words.
    pub placement: String,
    /// Table units: centre of the front edge, inches from the north-west corner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<(f64, f64)>,
    /// Table units: degrees clockwise from north.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facing: Option<f64>,
}

#[derive(Debug, Serialize)]
pub struct VictoryLine {
    /// The condition's variant (`FewestLosses`).
    pub kind: &'static str,
    pub text: String,
}

#[derive(Debug, Serialize)]
pub struct SpecialRuleLine {
    pub hook: String,
    pub params: serde_json::Value,
    /// The parameters compactly, `key: value, ...`.
    pub params_text: String,
    /// The author's text.
    pub text: String,
    /// What a built-in hook desugars into, in words, a rule a line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct CounterCount {
    pub counter: String,
    pub name: String,
    pub count: usize,
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
    /// Strength at setup: the reduced strength for units starting reduced.
    pub strength: u8,
    pub count: usize,
    /// The status level (by name) these units start at, when not the ladder's first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct ReinforcementLine {
    pub turn: u8,
    pub units: Vec<CounterCount>,
    pub entry: Vec<String>,
}

/// One of the system's typed rules, in words.
#[derive(Debug, Serialize)]
pub struct RuleLine {
    /// What it is about (`unit status`, `charge`).
    pub topic: String,
    pub text: String,
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
            let ladder = cx.status_ladder();
            let units: Vec<_> = cx
                .side_groups(i)
                .filter(|g| on_map_for_certain(g))
                .flat_map(|g| g.units.iter())
                .collect();
            let combat: Vec<_> = units
                .iter()
                .filter(|u| u.role() == Some(UnitRole::Combat))
                .collect();
            let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
            let mut by_unit: BTreeMap<(String, String, u8, Option<String>), usize> =
                BTreeMap::new();
            for u in &units {
                let kind = u.kind.map_or("?".to_string(), |k| k.id.clone());
                *by_kind.entry(kind.clone()).or_default() += 1;
                let name = u
                    .counter
                    .map_or(u.counter_id.to_string(), |c| c.name.clone());
                let strength = u.starting_strength(ladder).unwrap_or(0);
                let status = status_name(ladder, u.status);
                *by_unit.entry((name, kind, strength, status)).or_default() += 1;
            }
            let counter_name = |army: Option<&muster_model::counters::Army>, id: &str| {
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
                    .filter_map(|u| u.starting_strength(ladder))
                    .map(u32::from)
                    .sum(),
                by_kind: natural_counts(by_kind),
                by_unit: {
                    let mut lines: Vec<UnitLine> = by_unit
                        .into_iter()
                        .map(|((name, kind, strength, status), count)| UnitLine {
                            name,
                            kind,
                            strength,
                            count,
                            status,
                        })
                        .collect();
                    lines.sort_by(|a, b| {
                        natural_cmp(&a.name, &b.name)
                            .then_with(|| natural_cmp(&a.kind, &b.kind))
                            .then(a.strength.cmp(&b.strength))
                    });
                    lines
                },
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
                reinforcements: cx
                    .side_reinforcements(i)
                    .map(|r| ReinforcementLine {
                        turn: r.turn,
                        units: r
                            .units
                            .iter()
                            .map(|g| CounterCount {
                                counter: g.counter.clone(),
                                name: counter_name(cx.reinforcement_army(r), &g.counter),
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
                setup: side_setup(cx, i),
                hidden: matches!(side.forces, Forces::Placed { hidden: true, .. }),
                boxes: boxes(cx, i),
                zoned: zoned_summary(cx, i),
                table: table_summary(cx, i),
            }
        })
        .collect();
    let neutrals = cx
        .groups()
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
    for army in cx.armies_in_play() {
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
    // The `// assumed: reason` comment convention, for values without an `assumed` map,
    // in the scenario and every file it uses.
    for file in [
        Some(&cx.file.loaded.file),
        cx.map_file(),
        cx.counters_file(),
        cx.system_file(),
    ]
    .into_iter()
    .flatten()
    {
        for c in crate::provenance::assumed_comments(file) {
            assumed.push(AssumedValue {
                item: format!("{}:{}", file.name, c.line),
                field: "comment".to_string(),
                reason: c.reason,
            });
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
        push(
            format!("system `{}` rules", system.id),
            &system.rules.assumed,
        );
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
        simultaneous_setup: s.simultaneous_setup,
        plays_first: s.plays_first.clone(),
        sides,
        neutrals,
        neutral_setup: s
            .neutrals
            .iter()
            .enumerate()
            .flat_map(|(k, n)| placed_lines(cx, (k + 1, cx.army(&n.army)), &n.units, &n.at, None))
            .collect(),
        victory: s
            .victory
            .iter()
            .map(|v| VictoryLine {
                kind: victory_kind(v),
                text: victory_text(cx, v),
            })
            .collect(),
        special_rules: s
            .special_rules
            .iter()
            .enumerate()
            .map(|(i, r)| SpecialRuleLine {
                hook: r.hook.clone(),
                params: r.params.clone(),
                params_text: vocab_lines::special_rule_words(cx, i)
                    .unwrap_or_else(|| params_text(&r.params)),
                text: r.text.clone(),
                rules: vocab_lines::hook_rule_words(cx, i),
            })
            .collect(),
        rules: {
            let mut lines = rule_lines(cx);
            lines.extend(vocab_lines::vocab_lines(cx));
            lines
        },
        notes: cx.system.map(|sys| sys.notes.clone()).unwrap_or_default(),
        assumed,
    }
}

fn zoned_summary(cx: &ScenarioCx, index: usize) -> Option<ZonedSummary> {
    let side = cx.zoned_side(index)?;
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
            ZoneSize {
                group,
                hexes,
                placement: deployment_text(cx, d),
            }
        })
        .collect();
    let sample = f
        .sample
        .iter()
        .map(|st| SampleLine {
            hex: st.hex.clone(),
            units: st
                .units
                .iter()
                .map(|u| NameCount {
                    name: u.kind.clone(),
                    count: usize::from(u.count),
                })
                .collect(),
            aboard: st
                .aboard
                .iter()
                .map(|u| NameCount {
                    name: u.kind.clone(),
                    count: usize::from(u.count),
                })
                .collect(),
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
        sample,
    })
}

fn table_summary(cx: &ScenarioCx, index: usize) -> Option<TableSummary> {
    let side = cx.table_side(index)?;
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
        troops: {
            let mut lines: Vec<TroopLine> = troops
                .into_iter()
                .map(|(troop, (units, bases))| TroopLine {
                    troop,
                    units,
                    bases,
                })
                .collect();
            lines.sort_by(|a, b| natural_cmp(&a.troop, &b.troop));
            lines
        },
        figures: natural_counts(figures),
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
            muster_semantic::derived::break_point(cx, f)
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

/// Name of the side with this id, for sentences (the id when there is no such side).
fn side_name<'a>(cx: &'a ScenarioCx, id: &'a str) -> &'a str {
    cx.scenario.side(id).map_or(id, |s| s.name.as_str())
}

/// A counter named anywhere in the scenario's armies, as `Name (id)`.
fn counter_label(cx: &ScenarioCx, id: &str) -> String {
    cx.armies_in_play()
        .into_iter()
        .flat_map(|a| a.counters.iter())
        .find(|c| c.id == id)
        .map_or_else(|| format!("`{id}`"), |c| format!("{} ({id})", c.name))
}

/// Name of a unit kind of the system (the id when the system has no such kind).
fn kind_name(cx: &ScenarioCx, id: &str) -> String {
    cx.unit_kind(id).map_or(id.to_string(), |k| k.name.clone())
}

fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

fn level_words(level: VictoryLevel) -> &'static str {
    match level {
        VictoryLevel::Draw => "a draw",
        VictoryLevel::Minor => "a minor victory",
        VictoryLevel::Major => "a major victory",
        VictoryLevel::Decisive => "a decisive victory",
    }
}

/// A set of hexes in words.
pub fn area_text(area: &Area) -> String {
    match area {
        Area::All => "every hex".to_string(),
        Area::Column(c) => format!("column {c:02}"),
        Area::Row(r) => format!("row {r:02}"),
        Area::Range(a, b) => format!("{a}-{b}"),
        Area::List(hexes) => hexes.join(", "),
        Area::Zone { center, radius } => {
            format!("within {} of {center}", plural(*radius, "hex", "hexes"))
        }
    }
}

/// A deployment zone in words.
pub fn zone_text(zone: &Zone) -> String {
    match zone {
        Zone::Near { label, radius } => format!(
            "within {} of {label} ({label}-{radius})",
            plural(*radius, "hex", "hexes")
        ),
        Zone::AnyOf(zones) => zones.iter().map(zone_text).collect::<Vec<_>>().join(" or "),
        Zone::Excluding { zone, region } => {
            format!("{}, except {}", zone_text(zone), region_text(region))
        }
        Zone::AllSea => "all-sea hexes".to_string(),
        Zone::Hexes(area) => format!("hexes {}", area_text(area)),
    }
}

fn region_text(region: &Region) -> String {
    match region {
        Region::Bank { edge, barrier } => format!(
            "the hexes reached from the {edge} edge without crossing {}",
            barrier.join(" or ")
        ),
    }
}

fn arrival_text(a: &Arrival) -> String {
    format!("enters at the {} edge on turn {}", a.edge, a.turn)
}

/// Where a deployment group sets up or enters, what carries it and what it must hold.
fn deployment_text(cx: &ScenarioCx, d: &Deployment) -> String {
    let mut parts = Vec::new();
    match (&d.zone, &d.arrives) {
        (Some(zone), _) => parts.push(zone_text(zone)),
        (None, Some(a)) => parts.push(arrival_text(a)),
        (None, None) => parts.push("enters during play".to_string()),
    }
    if let (Some(_), Some(a)) = (&d.zone, &d.arrives) {
        parts.push(arrival_text(a));
    }
    if let Some(kind) = &d.aboard {
        parts.push(format!("aboard {} ({kind})", kind_name(cx, kind)));
    }
    if let Some(share) = d.vp_share {
        parts.push(match share {
            Share::Half => "holds half the force's victory points".to_string(),
        });
    }
    parts.join("; ")
}

/// The units of a deployment group: those listed, else the whole force less what the
/// other groups list.
fn deployment_units(
    f: &muster_model::scenario::ZonedForces,
    k: usize,
    rest: &std::cell::OnceCell<Vec<(String, usize)>>,
) -> Vec<(String, usize)> {
    let d = &f.deploy[k];
    if !d.units.is_empty() {
        return d
            .units
            .iter()
            .map(|u| (u.kind.clone(), usize::from(u.count)))
            .collect();
    }
    rest.get_or_init(|| rest_of(f)).clone()
}

/// The force less what the groups list (a group that lists nothing takes the rest), by
/// kind in the order the force first names them, worked out once per force: each line
/// is one look-up of its kind. A force that names a kind on many lines has one line of
/// it left, so each group that lists nothing costs the kinds, not the lines.
fn rest_of(f: &muster_model::scenario::ZonedForces) -> Vec<(String, usize)> {
    let mut left: Vec<(String, usize)> = Vec::new();
    let mut first: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for u in &f.units {
        let i = *first.entry(u.kind.as_str()).or_insert_with(|| {
            left.push((u.kind.clone(), 0));
            left.len() - 1
        });
        left[i].1 += usize::from(u.count);
    }
    for u in f.deploy.iter().flat_map(|d| d.units.iter()) {
        if let Some(&i) = first.get(u.kind.as_str()) {
            left[i].1 = left[i].1.saturating_sub(usize::from(u.count));
        }
    }
    left.retain(|e| e.1 > 0);
    left
}

fn shape_text(shape: &muster_model::map::Shape) -> String {
    use muster_model::map::Shape;
    match shape {
        Shape::Rect { x, y, w, h } => format!("the {w} x {h} in. rectangle at ({x}, {y})"),
        Shape::Circle { x, y, r } => format!("the circle of radius {r} in. around ({x}, {y})"),
        Shape::Polygon(p) => format!("a polygon of {} corners", p.len()),
        Shape::Line(p) => format!("a line of {} points", p.len()),
    }
}

fn band_entry_text(entry: &BandEntry) -> String {
    match entry {
        BandEntry::OnTable(shape) => format!("on the table in {}", shape_text(shape)),
        BandEntry::AtEdge { edge, turn } => match turn {
            Some(t) => format!("enters at the {edge} edge on turn {t}"),
            None => format!("enters at the {edge} edge on a turn rolled on a die"),
        },
        BandEntry::Rolled { edges } => format!(
            "enters on a rolled turn at a rolled edge among {}",
            edges.join(", ")
        ),
    }
}

/// Whether every unit of a group sets up on the map: not in a holding box, and not a
/// group the owner picks some of.
fn on_map_for_certain(g: &muster_semantic::GroupCx) -> bool {
    let boxed = match g.at {
        Placement::Box(_) => true,
        Placement::Hexes(_)
        | Placement::Range(..)
        | Placement::OnUnit { .. }
        | Placement::Spaced { .. } => false,
    };
    !boxed && g.choose.is_none()
}

/// The name of a starting status level, when one is given (its id if the ladder lacks it).
fn status_name(
    ladder: Option<&muster_model::rules::StatusLadder>,
    status: Option<&str>,
) -> Option<String> {
    let s = status?;
    Some(
        ladder
            .and_then(|l| l.levels.iter().find(|x| x.id == s))
            .map_or(s.to_string(), |x| x.name.clone()),
    )
}

/// Where each unit of side `index` sets up.
fn side_setup(cx: &ScenarioCx, index: usize) -> Vec<SetupLine> {
    let Some(side) = cx.scenario.sides.get(index) else {
        return Vec::new();
    };
    match &side.forces {
        Forces::Placed { setup, .. } => setup
            .iter()
            .enumerate()
            .flat_map(|(k, g)| {
                let army = cx.group_army(index, g.army.as_deref());
                placed_lines(cx, (k + 1, army), &g.units, &g.at, g.choose)
            })
            .collect(),
        Forces::Zoned(f) => {
            let rest = std::cell::OnceCell::new();
            f.deploy
                .iter()
                .enumerate()
                .flat_map(|(k, d)| {
                    let placement = deployment_text(cx, d);
                    deployment_units(f, k, &rest)
                        .into_iter()
                        .map(move |(kind, count)| SetupLine {
                            group: k + 1,
                            name: kind_name(cx, &kind),
                            counter: kind,
                            count,
                            status: None,
                            hexes: Vec::new(),
                            placement: placement.clone(),
                            at: None,
                            facing: None,
                        })
                })
                .collect()
        }
        Forces::Table(f) => {
            let units = f.units.iter().map(|u| SetupLine {
                group: 0,
                counter: u.id.clone(),
                name: u.name.clone(),
                count: 1,
                status: None,
                hexes: Vec::new(),
                placement: format!(
                    "{} in {} at ({}, {}), facing {}°",
                    plural(u.bases, "base", "bases"),
                    format!("{:?}", u.formation).to_lowercase(),
                    u.at.0,
                    u.at.1,
                    u.facing
                ),
                at: Some(u.at),
                facing: Some(u.facing),
            });
            let bands = f.bands.iter().map(|b| SetupLine {
                group: 0,
                counter: b.id.clone(),
                name: b.name.clone(),
                count: b.figures.iter().map(|x| usize::from(x.count)).sum(),
                status: None,
                hexes: Vec::new(),
                placement: band_entry_text(&b.entry),
                at: None,
                facing: None,
            });
            units
                .chain(bands)
                .enumerate()
                .map(|(k, line)| SetupLine {
                    group: k + 1,
                    ..line
                })
                .collect()
        }
    }
}

fn victory_kind(v: &VictoryCondition) -> &'static str {
    match v {
        VictoryCondition::ArmyMorale { .. } => "ArmyMorale",
        VictoryCondition::FewestLosses { .. } => "FewestLosses",
        VictoryCondition::LargestMargin { .. } => "LargestMargin",
        VictoryCondition::ExitUnits { .. } => "ExitUnits",
        VictoryCondition::Otherwise { .. } => "Otherwise",
        VictoryCondition::ExtraTurns { .. } => "ExtraTurns",
        VictoryCondition::ShiftOnEliminations { .. } => "ShiftOnEliminations",
        VictoryCondition::Goals { .. } => "Goals",
        VictoryCondition::IfBoth(_) => "IfBoth",
        VictoryCondition::WinsIfAllMet { .. } => "WinsIfAllMet",
        VictoryCondition::IfNeither(_) => "IfNeither",
        VictoryCondition::Achieves { .. } => "Achieves",
        VictoryCondition::FirstTo { .. } => "FirstTo",
    }
}

/// What breaks each side, for the army morale condition: its morale threshold, else
/// the printed break point or the figures at which its morale fails.
fn breaking_points(cx: &ScenarioCx) -> Vec<String> {
    cx.scenario
        .sides
        .iter()
        .filter_map(|side| {
            let at = match (&side.morale_threshold, &side.forces) {
                (Some(MoraleThreshold::Fixed(n)), _) => n.to_string(),
                (
                    Some(MoraleThreshold::ByLosses {
                        counter,
                        thresholds,
                    }),
                    _,
                ) => format!(
                    "{} as units of {} are lost",
                    thresholds
                        .iter()
                        .map(u16::to_string)
                        .collect::<Vec<_>>()
                        .join("/"),
                    counter_label(cx, counter)
                ),
                (None, Forces::Table(t)) => match (&t.break_point, &t.morale) {
                    (Some(b), _) => format!("break point {}", b.printed),
                    (None, Some(m)) => format!("{} figures lost", m.figures),
                    (None, None) => return None,
                },
                (None, Forces::Placed { .. } | Forces::Zoned(_)) => return None,
            };
            Some(format!("{}: {at}", side.name))
        })
        .collect()
}

/// One victory condition in words, sides named by their names.
pub fn victory_text(cx: &ScenarioCx, v: &VictoryCondition) -> String {
    let outcome = |o: &Outcome| match o {
        Outcome::Draw => "a draw".to_string(),
        Outcome::Wins(side) => format!("victory for {}", side_name(cx, side)),
    };
    match v {
        VictoryCondition::ArmyMorale { before_turn } => {
            let mut text =
                "An army at or past its morale threshold gives the other side a major victory"
                    .to_string();
            if let Some(t) = before_turn {
                text += &format!(", before turn {t}");
            }
            let points = breaking_points(cx);
            if !points.is_empty() {
                text += &format!(" ({})", points.join("; "));
            }
            text + "."
        }
        VictoryCondition::FewestLosses { after_turn, level } => format!(
            "At the end of turn {after_turn}, the side with fewer losses wins ({}); equal losses are a draw.",
            level_words(*level)
        ),
        VictoryCondition::LargestMargin { after_turn, level } => format!(
            "At the end of turn {after_turn}, the side whose morale threshold exceeds its losses by more wins ({}); equal margins are a draw.",
            level_words(*level)
        ),
        VictoryCondition::ExitUnits {
            side,
            counter,
            hexes,
            after_turn,
            tiers,
        } => format!(
            "At the end of turn {after_turn}, {} scores by units of {} exited through {}: {}.",
            side_name(cx, side),
            counter_label(cx, counter),
            area_text(hexes),
            tiers
                .iter()
                .map(|t| format!("{} or more for {}", t.at_least, level_words(t.level)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        VictoryCondition::Otherwise { side, level } => format!(
            "Otherwise, {} for {}.",
            level_words(*level),
            side_name(cx, side)
        ),
        VictoryCondition::ExtraTurns {
            side,
            requires,
            turns,
            counter,
            count,
            level,
        } => format!(
            "After {} or better, {} may play {} more {}; eliminating {} of {} in them gives {}.",
            level_words(*requires),
            side_name(cx, side),
            turns,
            if *turns == 1 { "turn" } else { "turns" },
            plural(*count, "unit", "units"),
            counter_label(cx, counter),
            level_words(*level)
        ),
        VictoryCondition::ShiftOnEliminations {
            side,
            counters,
            count,
        } => format!(
            "Eliminating {} among {} moves the result one level in favour of {}.",
            plural(*count, "unit", "units"),
            counters
                .iter()
                .map(|c| counter_label(cx, c))
                .collect::<Vec<_>>()
                .join(", "),
            side_name(cx, side)
        ),
        VictoryCondition::Goals { side, any_of } => format!(
            "Victory for {} by {}.",
            side_name(cx, side),
            any_of
                .iter()
                .map(|all| all
                    .iter()
                    .map(|g| goal_text(cx, g))
                    .collect::<Vec<_>>()
                    .join(" and "))
                .collect::<Vec<_>>()
                .join(", or by ")
        ),
        VictoryCondition::IfBoth(o) => {
            format!("If both sides fulfil their goals: {}.", outcome(o))
        }
        VictoryCondition::WinsIfAllMet { side } => format!(
            "Outright victory for {} if every one of their goal alternatives is met, whatever the other side achieved.",
            side_name(cx, side)
        ),
        VictoryCondition::IfNeither(o) => {
            format!("If neither side fulfils its goals: {}.", outcome(o))
        }
        VictoryCondition::Achieves {
            side,
            level,
            test,
            by_turn,
        } => victory_tests::achieves_text(cx, side, *level, test, *by_turn),
        VictoryCondition::FirstTo { level, races, tie } => {
            victory_tests::first_to_text(cx, *level, races, tie.as_ref())
        }
    }
}

/// One goal in words, as what a side does ("controlling A").
pub fn goal_text(cx: &ScenarioCx, goal: &Goal) -> String {
    let excluding = |kinds: &[String]| {
        if kinds.is_empty() {
            String::new()
        } else {
            format!(" (not counting {})", kinds.join(", "))
        }
    };
    let by_turn = |t: &Option<u8>| t.map_or(String::new(), |t| format!(" by turn {t}"));
    match goal {
        Goal::Level(level) => format!("reaching a {level} victory"),
        Goal::Control {
            labels,
            consecutive_turns,
        } => {
            let mut text = format!(
                "controlling {} {}",
                if labels.len() == 1 { "hex" } else { "hexes" },
                labels.join(" and ")
            );
            if *consecutive_turns > 0 {
                text += &format!(" for {consecutive_turns} consecutive turns");
            }
            text
        }
        Goal::ControlHex { hex } => format!("controlling hex {hex}"),
        Goal::Exit {
            units,
            edge,
            near,
            by_road,
            by_turn: turn,
            excluding: kinds,
        } => {
            let mut text = format!(
                "exiting {} off the {edge} edge",
                plural(*units, "unit", "units")
            );
            if let Some((label, radius)) = near {
                text += &format!(" within {} of {label}", plural(*radius, "hex", "hexes"));
            }
            if let Some(n) = by_road {
                text += &format!(", {n} of them by road");
            }
            text + &by_turn(turn) + &excluding(kinds)
        }
        Goal::InSea {
            units,
            by_turn: turn,
            excluding: kinds,
        } => format!(
            "having {} in all-sea hexes{}{}",
            plural(*units, "unit", "units"),
            by_turn(turn),
            excluding(kinds)
        ),
        Goal::Eliminate { side, group } => format!(
            "eliminating the whole `{group}` group of {}",
            side_name(cx, side)
        ),
        Goal::Escort { kind, edge } => {
            format!("getting the {kind} figures off the table at the {edge} edge")
        }
        Goal::Prevent => "preventing the other side's goals".to_string(),
    }
}

/// Hook parameters compactly: `key: value, ...`, strings unquoted. Written into one
/// string as it goes: a list of a million numbers is one string, not a million.
pub fn params_text(params: &serde_json::Value) -> String {
    use serde_json::Value;
    use std::fmt::Write;
    fn value(out: &mut String, v: &Value) {
        match v {
            Value::String(s) => out.push_str(s),
            Value::Array(items) => {
                out.push('[');
                for (k, item) in items.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    value(out, item);
                }
                out.push(']');
            }
            Value::Object(map) => {
                out.push('{');
                entries(out, map);
                out.push('}');
            }
            other => {
                let _ = write!(out, "{other}");
            }
        }
    }
    fn entries(out: &mut String, map: &serde_json::Map<String, Value>) {
        for (k, (key, v)) in map.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            out.push_str(key);
            out.push_str(": ");
            value(out, v);
        }
    }
    let mut out = String::new();
    match params {
        Value::Null => {}
        Value::Object(map) => entries(&mut out, map),
        other => value(&mut out, other),
    }
    out
}

/// Counts by name, names in natural order.
fn natural_counts(counts: BTreeMap<String, usize>) -> Vec<NameCount> {
    let mut out: Vec<NameCount> = counts
        .into_iter()
        .map(|(name, count)| NameCount { name, count })
        .collect();
    out.sort_by(|a, b| natural_cmp(&a.name, &b.name));
    out
}
