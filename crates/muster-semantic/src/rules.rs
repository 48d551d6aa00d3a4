//! A system's typed rules (`muster_model::rules`) as checks and summaries read them:
//! the names a rules block may use, the coverage of result bands and force ratios,
//! walks down the status ladder, which permission applies to a troop type, the
//! contradictions between rules, and what the rules mean for one scenario (a side
//! without leaders under leader control, the men a force stands for).
//!
//! Every problem is a [`Finding`] naming its place in the system file; the `rules::*`
//! checks only turn findings into reports.

use std::collections::BTreeMap;

use muster_model::rules::{
    Action, Actor, Allowance, AttackKind, BandResult, BeyondFloor, ForceRatio, MoraleEvent,
    Permission, Proximity, ResultBand, ResultIndex, ResultTable, Rules, StateEffect, StatusLadder,
    TerrainEffect, TurnPart, VictoryOrder,
};
use muster_model::scenario::Forces;
use muster_model::system::{GridKind, KindStats, RulesSystem, StackingPolicy, UnitKind, UnitRole};

use crate::ScenarioCx;
use muster_db::place::Place;
use muster_db::suggest::did_you_mean;

/// A problem in a system's rules.
#[derive(Debug, Clone)]
pub struct Finding {
    /// Place of the value at fault.
    pub place: Place,
    pub message: String,
    pub help: Option<String>,
    /// A second place and what it says.
    pub label: Option<(Place, String)>,
}

impl Finding {
    fn new(place: Place, message: impl Into<String>) -> Self {
        Self {
            place,
            message: message.into(),
            help: None,
            label: None,
        }
    }
    fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    fn label(mut self, place: Place, text: impl Into<String>) -> Self {
        self.label = Some((place, text.into()));
        self
    }
}

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
fn classes(system: &RulesSystem) -> Vec<&str> {
    let mut out: Vec<&str> = system
        .unit_kinds
        .iter()
        .filter_map(|k| class_of(system, &k.id))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// How specifically a troop name names a kind: its id (2), its class (1), `"*"` (0).
fn specificity(system: &RulesSystem, name: &str, kind: &str) -> Option<u8> {
    if name == kind {
        Some(2)
    } else if class_of(system, kind) == Some(name) {
        Some(1)
    } else if name == "*" {
        Some(0)
    } else {
        None
    }
}

/// Whether a list of troop names (with exceptions) covers a kind, and how specifically.
fn covers(system: &RulesSystem, troops: &[String], except: &[String], kind: &str) -> Option<u8> {
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

/// Whether a troop name is known: a unit kind id, a class or `"*"`.
pub fn troop_known(system: &RulesSystem, name: &str) -> bool {
    name == "*" || system.unit_kinds.iter().any(|k| k.id == name) || classes(system).contains(&name)
}

/// The table feature kinds and hex terrain types of the system, by id.
fn terrain_ids(system: &RulesSystem) -> Vec<&str> {
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

// ---------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------

/// Troop types, status levels, result tables, terrain and result codes that the rules
/// block names but the system does not define.
pub fn unknown_names(system: &RulesSystem) -> Vec<Finding> {
    let rules = &system.rules;
    let mut out = Vec::new();
    let kinds: Vec<&str> = system.unit_kinds.iter().map(|k| k.id.as_str()).collect();
    let class_list = classes(system);
    let mut troop = |place: Place, name: &str| {
        if !troop_known(system, name) {
            let help = did_you_mean(name, kinds.iter().chain(class_list.iter()).copied())
                .unwrap_or_else(|| {
                    let mut known = kinds.join(", ");
                    if !class_list.is_empty() {
                        known += &format!("; classes {}", class_list.join(", "));
                    }
                    format!(
                        "troop types of system `{}`: {known}; `*` for all",
                        system.id
                    )
                });
            out.push(Finding::new(place, format!("unknown troop type `{name}`")).help(help));
        }
    };
    let list = |base: Place, names: &[String]| {
        names
            .iter()
            .enumerate()
            .map(|(k, n)| (base.index(k), n.clone()))
            .collect::<Vec<_>>()
    };
    let mut troops: Vec<(Place, String)> = Vec::new();
    for (i, p) in rules.permissions.iter().enumerate() {
        troops.extend(list(
            Place::rules().field("permissions").index(i).field("troops"),
            &p.troops,
        ));
        troops.extend(list(
            Place::rules().field("permissions").index(i).field("except"),
            &p.except,
        ));
    }
    for (i, e) in rules.terrain_exceptions.iter().enumerate() {
        troops.extend(list(
            Place::rules()
                .field("terrain_exceptions")
                .index(i)
                .field("troops"),
            &e.troops,
        ));
    }
    if let Some(m) = &rules.morale {
        for (i, t) in m.triggers.iter().enumerate() {
            troops.extend(list(
                Place::rules()
                    .field("morale")
                    .field("triggers")
                    .index(i)
                    .field("troops"),
                &t.troops,
            ));
            troops.extend(list(
                Place::rules()
                    .field("morale")
                    .field("triggers")
                    .index(i)
                    .field("exempt"),
                &t.exempt,
            ));
        }
        troops.extend(list(
            Place::rules().field("morale").field("never_test"),
            &m.never_test,
        ));
    }
    if let Some(d) = &rules.defensive_fire {
        troops.extend(list(
            Place::rules().field("defensive_fire").field("troops"),
            &d.troops,
        ));
    }
    if let Some(e) = rules
        .leader_control
        .as_ref()
        .and_then(|c| c.exemption.as_ref())
    {
        troops.extend(list(
            Place::rules()
                .field("leader_control")
                .field("exemption")
                .field("troops"),
            &e.troops,
        ));
    }
    if let Some(c) = &rules.leader_control {
        troops.extend(list(
            Place::rules()
                .field("leader_control")
                .field("always_in_control"),
            &c.always_in_control,
        ));
    }
    if let Some(m) = &rules.morale {
        for (i, md) in m.modifiers.iter().enumerate() {
            troops.extend(list(
                Place::rules()
                    .field("morale")
                    .field("modifiers")
                    .index(i)
                    .field("from"),
                &md.from,
            ));
            troops.extend(list(
                Place::rules()
                    .field("morale")
                    .field("modifiers")
                    .index(i)
                    .field("to"),
                &md.to,
            ));
        }
    }
    for (i, im) in rules.immunities.iter().enumerate() {
        troops.extend(list(
            Place::rules().field("immunities").index(i).field("troops"),
            &im.troops,
        ));
    }
    for (i, se) in rules.status_effects.iter().enumerate() {
        troops.extend(list(
            Place::rules()
                .field("status_effects")
                .index(i)
                .field("troops"),
            &se.troops,
        ));
    }
    for (i, d) in rules.fixed_defences.iter().enumerate() {
        troops.extend(list(
            Place::rules()
                .field("fixed_defences")
                .index(i)
                .field("troops"),
            &d.troops,
        ));
    }
    for (i, e) in rules.eliminated_with.iter().enumerate() {
        troops.extend(list(
            Place::rules()
                .field("eliminated_with")
                .index(i)
                .field("troops"),
            &e.troops,
        ));
        troops.extend(list(
            Place::rules()
                .field("eliminated_with")
                .index(i)
                .field("with"),
            &e.with,
        ));
    }
    if let Some(p) = &rules.panic {
        for (i, n) in p.spared_near.iter().enumerate() {
            troops.extend(list(
                Place::rules()
                    .field("panic")
                    .field("spared_near")
                    .index(i)
                    .field("leaders"),
                &n.leaders,
            ));
        }
        if let Some(r) = &p.rally {
            for (i, n) in r.by.iter().enumerate() {
                troops.extend(list(
                    Place::rules()
                        .field("panic")
                        .field("rally")
                        .field("by")
                        .index(i)
                        .field("leaders"),
                    &n.leaders,
                ));
            }
        }
    }
    for (place, name) in troops {
        troop(place, &name);
    }

    // Status levels.
    let mut levels: Vec<(Place, String)> = Vec::new();
    if let Some(ladder) = &rules.status {
        if let Some(f) = &ladder.floor {
            levels.push((Place::rules().field("status").field("floor"), f.clone()));
        }
        for (i, r) in ladder.recovery.iter().enumerate() {
            levels.extend(list(
                Place::rules()
                    .field("status")
                    .field("recovery")
                    .index(i)
                    .field("from"),
                &r.from,
            ));
        }
    }
    for (i, p) in rules.permissions.iter().enumerate() {
        if let Some(s) = &p.status {
            levels.push((
                Place::rules().field("permissions").index(i).field("status"),
                s.clone(),
            ));
        }
    }
    if let Some(m) = rules
        .movement
        .as_ref()
        .and_then(|m| m.minimum_move.as_ref())
    {
        levels.extend(list(
            Place::rules()
                .field("movement")
                .field("minimum_move")
                .field("status"),
            &m.status,
        ));
    }
    for (i, se) in rules.status_effects.iter().enumerate() {
        levels.push((
            Place::rules()
                .field("status_effects")
                .index(i)
                .field("status"),
            se.status.clone(),
        ));
    }
    for (t, table) in rules.result_tables.iter().enumerate() {
        for (b, band) in table.bands.iter().enumerate() {
            if let BandResult::ToLevel(level) = &band.result {
                levels.push((
                    Place::rules()
                        .field("result_tables")
                        .index(t)
                        .field("bands")
                        .index(b)
                        .field("result")
                        .variant("ToLevel"),
                    level.clone(),
                ));
            }
        }
    }
    if let Some(bp) = &system.break_point {
        for (i, s) in bp.status_points.iter().enumerate() {
            levels.push((
                Place::top("break_point")
                    .field("status_points")
                    .index(i)
                    .field("level"),
                s.level.clone(),
            ));
        }
    }
    for (place, level) in levels {
        match &rules.status {
            None => out.push(
                Finding::new(
                    place,
                    format!("status level `{level}` named, but the system has no status ladder"),
                )
                .help("give the levels in `rules: (status: (levels: [...]))`"),
            ),
            Some(ladder) if ladder.index_of(&level).is_none() => {
                let ids: Vec<&str> = ladder.levels.iter().map(|l| l.id.as_str()).collect();
                out.push(
                    Finding::new(place, format!("unknown status level `{level}`")).help(
                        did_you_mean(&level, ids.iter().copied())
                            .unwrap_or_else(|| format!("status levels: {}", ids.join(", "))),
                    ),
                );
            }
            Some(_) => {}
        }
    }

    // Result tables.
    let tables: Vec<&str> = rules.result_tables.iter().map(|t| t.id.as_str()).collect();
    let mut table_refs: Vec<(Place, String)> = Vec::new();
    if let Some(l) = &rules.leader_loss {
        table_refs.extend(list(
            Place::rules().field("leader_loss").field("after"),
            &l.after,
        ));
    }
    if let Some(c) = &rules.charge_stop {
        table_refs.push((
            Place::rules().field("charge_stop").field("table"),
            c.table.clone(),
        ));
    }
    for (place, id) in table_refs {
        if !tables.contains(&id.as_str()) {
            out.push(
                Finding::new(place, format!("unknown result table `{id}`")).help(
                    did_you_mean(&id, tables.iter().copied()).unwrap_or_else(|| {
                        if tables.is_empty() {
                            "the system has no `result_tables`".to_string()
                        } else {
                            format!("result tables: {}", tables.join(", "))
                        }
                    }),
                ),
            );
        }
    }

    // Terrain.
    let terrain = terrain_ids(system);
    let mut terrain_refs: Vec<(Place, String)> = Vec::new();
    for (i, e) in rules.terrain_exceptions.iter().enumerate() {
        terrain_refs.extend(list(
            Place::rules()
                .field("terrain_exceptions")
                .index(i)
                .field("terrain"),
            &e.terrain,
        ));
    }
    if let Some(los) = &rules.line_of_sight {
        terrain_refs.extend(list(
            Place::rules().field("line_of_sight").field("concealing"),
            &los.concealing,
        ));
        for (i, b) in los.blocking.iter().enumerate() {
            terrain_refs.extend(list(
                Place::rules()
                    .field("line_of_sight")
                    .field("blocking")
                    .index(i)
                    .field("terrain"),
                &b.terrain,
            ));
        }
        for (i, e) in los.elevations.iter().enumerate() {
            terrain_refs.extend(list(
                Place::rules()
                    .field("line_of_sight")
                    .field("elevations")
                    .index(i)
                    .field("terrain"),
                &e.terrain,
            ));
        }
    }
    for (place, id) in terrain_refs {
        if !terrain.contains(&id.as_str()) {
            out.push(Finding::new(place, format!("unknown terrain `{id}`")).help(
                did_you_mean(&id, terrain.iter().copied()).unwrap_or_else(|| {
                    format!("terrain of system `{}`: {}", system.id, terrain.join(", "))
                }),
            ));
        }
    }

    // Result codes of the combat results table.
    let codes: Vec<&str> = system
        .combat_results
        .iter()
        .flat_map(|c| c.results.iter().map(|r| r.code.as_str()))
        .collect();
    let mut code_refs: Vec<(Place, String)> = Vec::new();
    for (t, table) in rules.result_tables.iter().enumerate() {
        for (b, band) in table.bands.iter().enumerate() {
            if let BandResult::Code(code) = &band.result {
                code_refs.push((
                    Place::rules()
                        .field("result_tables")
                        .index(t)
                        .field("bands")
                        .index(b)
                        .field("result")
                        .variant("Code"),
                    code.clone(),
                ));
            }
        }
    }
    if let Some(m) = &rules.morale {
        for (i, t) in m.triggers.iter().enumerate() {
            if let MoraleEvent::CombatResult(code) = &t.event {
                code_refs.push((
                    Place::rules()
                        .field("morale")
                        .field("triggers")
                        .index(i)
                        .field("event")
                        .variant("CombatResult"),
                    code.clone(),
                ));
            }
        }
    }
    for (i, im) in rules.immunities.iter().enumerate() {
        code_refs.extend(list(
            Place::rules().field("immunities").index(i).field("results"),
            &im.results,
        ));
    }
    let eliminated_by = |base: Place, effects: &[StateEffect]| {
        effects
            .iter()
            .enumerate()
            .filter_map(|(k, e)| match e {
                StateEffect::EliminatedBy(code) => {
                    Some((base.index(k).variant("EliminatedBy"), code.clone()))
                }
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    for (i, se) in rules.status_effects.iter().enumerate() {
        code_refs.extend(eliminated_by(
            Place::rules()
                .field("status_effects")
                .index(i)
                .field("effects"),
            &se.effects,
        ));
    }
    if let Some(p) = &rules.panic {
        code_refs.extend(eliminated_by(
            Place::rules().field("panic").field("effects"),
            &p.effects,
        ));
    }
    for (place, code) in code_refs {
        if codes.is_empty() || !made_of_codes(&code, &codes) {
            out.push(
                Finding::new(
                    place,
                    format!("result `{code}` is not made of the combat results table's codes"),
                )
                .help(if codes.is_empty() {
                    "the system has no `combat_results` table".to_string()
                } else {
                    format!("result codes: {}", codes.join(", "))
                }),
            );
        }
    }

    // Elevations of the line of sight.
    if let Some(los) = &rules.line_of_sight {
        let ids: Vec<&str> = los.elevations.iter().map(|e| e.id.as_str()).collect();
        let mut refs: Vec<(Place, String)> = Vec::new();
        for (i, b) in los.blocking.iter().enumerate() {
            let base = Place::rules()
                .field("line_of_sight")
                .field("blocking")
                .index(i);
            refs.extend(list(base.field("firer_at"), &b.firer_at));
            refs.extend(list(base.field("unless_next_to"), &b.unless_next_to));
        }
        for (i, o) in los.occupied_blocks.iter().enumerate() {
            let base = Place::rules()
                .field("line_of_sight")
                .field("occupied_blocks")
                .index(i);
            refs.push((base.field("firer_at"), o.firer_at.clone()));
            refs.extend(list(base.field("blocked_by"), &o.blocked_by));
            if let Some(a) = &o.unless_through_adjacent {
                refs.push((base.field("unless_through_adjacent"), a.clone()));
            }
        }
        for (place, id) in refs {
            if !ids.contains(&id.as_str()) {
                out.push(
                    Finding::new(place, format!("unknown elevation `{id}`")).help(
                        did_you_mean(&id, ids.iter().copied()).unwrap_or_else(|| {
                            if ids.is_empty() {
                                "give the elevations in `line_of_sight: (elevations: [...])`"
                                    .to_string()
                            } else {
                                format!("elevations: {}", ids.join(", "))
                            }
                        }),
                    ),
                );
            }
        }
    }

    // Phases of the sequence of play.
    if let Some(r) = rules.panic.as_ref().and_then(|p| p.rally.as_ref()) {
        let phases: Vec<&str> = rules
            .sequence
            .as_ref()
            .map(|s| s.phases().iter().map(|(_, _, p)| p.id.as_str()).collect())
            .unwrap_or_default();
        if !phases.contains(&r.after_phase.as_str()) {
            out.push(
                Finding::new(
                    Place::rules()
                        .field("panic")
                        .field("rally")
                        .field("after_phase"),
                    format!("unknown phase `{}`", r.after_phase),
                )
                .help(
                    did_you_mean(&r.after_phase, phases.iter().copied()).unwrap_or_else(|| {
                        if phases.is_empty() {
                            "the system has no `sequence` of play".to_string()
                        } else {
                            format!("phases: {}", phases.join(", "))
                        }
                    }),
                ),
            );
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Bands
// ---------------------------------------------------------------------------------------

fn show(v: Option<i16>) -> String {
    v.map_or("no bound".to_string(), |v| v.to_string())
}

/// Gaps, overlaps and backward bands in a result table.
fn table_band_problems(t: usize, table: &ResultTable) -> Vec<Finding> {
    let base = Place::rules().field("result_tables").index(t);
    let mut out = Vec::new();
    if table.bands.is_empty() {
        out.push(
            Finding::new(
                base.field("bands"),
                format!("result table `{}` has no bands", table.id),
            )
            .help("give the bands from the lowest value up"),
        );
        return out;
    }
    for (b, band) in table.bands.iter().enumerate() {
        if let (Some(from), Some(to)) = (band.from, band.to)
            && from > to
        {
            out.push(
                Finding::new(
                    base.field("bands").index(b).field("to"),
                    format!("band {from} to {to} of table `{}` runs backwards", table.id),
                )
                .help("give the lower value in `from` and the higher in `to`"),
            );
        }
    }
    let first = &table.bands[0];
    match (table.by, first.from) {
        (ResultIndex::Difference, Some(from)) => out.push(
            Finding::new(
                base.field("bands").index(0).field("from"),
                format!(
                    "table `{}` gives no result for a difference below {from}",
                    table.id
                ),
            )
            .help("a difference can be any number: leave `from` out of the first band"),
        ),
        (ResultIndex::Margin, from) if from != Some(0) => out.push(
            Finding::new(
                base.field("bands").index(0),
                format!(
                    "table `{}` is read by margin, which starts at 0 (a tie), but its first band starts at {}",
                    table.id,
                    show(from)
                ),
            )
            .help("start the first band at `from: Some(0)`"),
        ),
        _ => {}
    }
    for (b, pair) in table.bands.windows(2).enumerate() {
        let (prev, next): (&ResultBand, &ResultBand) = (&pair[0], &pair[1]);
        let at = base.field("bands").index(b + 1).field("from");
        let prev_at = base.field("bands").index(b);
        match (prev.to, next.from) {
            (None, _) => out.push(
                Finding::new(
                    base.field("bands").index(b + 1),
                    format!("band {} of table `{}` overlaps the band before it, which has no upper bound", b + 2, table.id),
                )
                .label(prev_at, "no upper bound")
                .help("give the earlier band a `to`, or remove this one"),
            ),
            (Some(_), None) => out.push(
                Finding::new(
                    base.field("bands").index(b + 1),
                    format!("band {} of table `{}` has no lower bound, so it overlaps the bands before it", b + 2, table.id),
                )
                .help("only the first band may leave out `from`"),
            ),
            (Some(to), Some(from)) if i32::from(from) > i32::from(to) + 1 => out.push(
                Finding::new(
                    at,
                    format!(
                        "table `{}` gives no result for {}",
                        table.id,
                        if i32::from(from) == i32::from(to) + 2 {
                            format!("a value of {}", i32::from(to) + 1)
                        } else {
                            format!("values {} to {}", i32::from(to) + 1, i32::from(from) - 1)
                        }
                    ),
                )
                .label(prev_at.field("to"), "the band before ends here")
                .help(format!("start this band at {}", i32::from(to) + 1)),
            ),
            (Some(to), Some(from)) if from <= to => out.push(
                Finding::new(
                    at,
                    format!(
                        "table `{}` gives two results for {}",
                        table.id,
                        if from == to {
                            format!("a value of {from}")
                        } else {
                            format!("values {from} to {to}")
                        }
                    ),
                )
                .label(prev_at.field("to"), "the band before ends here")
                .help(format!("start this band at {}", i32::from(to) + 1)),
            ),
            _ => {}
        }
    }
    let last = table.bands.len() - 1;
    if let Some(to) = table.bands[last].to {
        out.push(
            Finding::new(
                base.field("bands").index(last).field("to"),
                format!(
                    "table `{}` gives no result for a value above {to}",
                    table.id
                ),
            )
            .help("leave `to` out of the last band so that it runs to any higher value"),
        );
    }
    out
}

/// Gaps and overlaps in the force ratios: together they must cover every ratio from 1
/// (equal counts) up, each once.
fn ratio_problems(ratios: &[ForceRatio]) -> Vec<Finding> {
    let base = Place::rules().field("force_ratios");
    let mut out = Vec::new();
    let Some(first) = ratios.first() else {
        return out;
    };
    for (i, r) in ratios.iter().enumerate() {
        if let Some(to) = r.to
            && (to < r.from || (to == r.from && (r.from_exclusive || !r.to_inclusive)))
        {
            out.push(
                Finding::new(
                    base.index(i).field("to"),
                    format!(
                        "force ratio `{}` holds no ratio: it runs from {} to {to}",
                        r.name, r.from
                    ),
                )
                .help("give the lower ratio in `from` and the higher in `to`"),
            );
        }
    }
    if first.from != 1.0 || first.from_exclusive {
        out.push(
            Finding::new(
                base.index(0).field("from"),
                format!(
                    "no force ratio covers equal numbers (1 to 1): the first, `{}`, starts {} {}",
                    first.name,
                    if first.from_exclusive { "above" } else { "at" },
                    first.from
                ),
            )
            .help("start the first ratio at `from: 1.0`"),
        );
    }
    for (i, pair) in ratios.windows(2).enumerate() {
        let (prev, next) = (&pair[0], &pair[1]);
        let at = base.index(i + 1).field("from");
        let Some(to) = prev.to else {
            out.push(
                Finding::new(
                    base.index(i + 1),
                    format!(
                        "force ratio `{}` overlaps `{}`, which has no upper bound",
                        next.name, prev.name
                    ),
                )
                .label(base.index(i), "no upper bound"),
            );
            continue;
        };
        let boundary_in_prev = prev.to_inclusive;
        let boundary_in_next = !next.from_exclusive;
        if next.from > to || (next.from == to && !boundary_in_prev && !boundary_in_next) {
            out.push(
                Finding::new(
                    at,
                    format!(
                        "no force ratio covers {} between `{}` and `{}`",
                        if next.from > to {
                            format!("ratios from {to} to {}", next.from)
                        } else {
                            format!("a ratio of exactly {to}")
                        },
                        prev.name,
                        next.name
                    ),
                )
                .label(base.index(i).field("to"), "the ratio before ends here")
                .help("make each band start where the one before ends, the boundary in exactly one of them"),
            );
        } else if next.from < to || (boundary_in_prev && boundary_in_next) {
            out.push(
                Finding::new(
                    at,
                    format!(
                        "force ratios `{}` and `{}` both cover {}",
                        prev.name,
                        next.name,
                        if next.from < to {
                            format!("ratios from {} to {to}", next.from)
                        } else {
                            format!("a ratio of exactly {to}")
                        }
                    ),
                )
                .label(base.index(i).field("to"), "the ratio before ends here")
                .help("make each band start where the one before ends, the boundary in exactly one of them"),
            );
        }
    }
    if let Some(last) = ratios.last()
        && let Some(to) = last.to
    {
        out.push(
            Finding::new(
                base.index(ratios.len() - 1).field("to"),
                format!("no force ratio covers ratios above {to}"),
            )
            .help("leave `to` out of the last ratio"),
        );
    }
    out
}

/// Result bands and force ratios that leave a gap, overlap or run backwards, and ranges
/// of men that run backwards.
pub fn band_problems(system: &RulesSystem) -> Vec<Finding> {
    let rules = &system.rules;
    let mut out: Vec<Finding> = rules
        .result_tables
        .iter()
        .enumerate()
        .flat_map(|(t, table)| table_band_problems(t, table))
        .collect();
    out.extend(ratio_problems(&rules.force_ratios));
    if let Some(r) = &rules.representation {
        for (field, range) in [("mounted", r.mounted), ("foot", r.foot)] {
            if range.min > range.max {
                out.push(
                    Finding::new(
                        Place::rules()
                            .field("representation")
                            .field(field)
                            .field("max"),
                        format!(
                            "a {field} base stands for {} to {} men: the range runs backwards",
                            range.min, range.max
                        ),
                    )
                    .help("give the fewest men in `min` and the most in `max`"),
                );
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Sequence of play
// ---------------------------------------------------------------------------------------

/// Phases that name nobody, name the phasing player outside a player-turn, or share an
/// id; a sequence with no phase.
pub fn phase_problems(rules: &Rules) -> Vec<Finding> {
    let Some(seq) = &rules.sequence else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let base = Place::rules().field("sequence");
    let mut seen: BTreeMap<&str, Place> = BTreeMap::new();
    let mut any = false;
    for (part, i, phase) in seq.phases() {
        any = true;
        let at = base.field(part.field()).index(i);
        if phase.acts.is_empty() {
            out.push(
                Finding::new(
                    at.field("acts"),
                    format!("phase `{}` names nobody to act in it", phase.id),
                )
                .help("name `Phasing`, `NonPhasing` or `Both`"),
            );
        }
        if part != TurnPart::PlayerTurn {
            for (k, a) in phase.acts.iter().enumerate() {
                if matches!(a, Actor::Phasing | Actor::NonPhasing) {
                    out.push(
                        Finding::new(
                            at.field("acts").index(k),
                            format!(
                                "phase `{}` comes {} the player-turns, where there is no phasing player",
                                phase.id,
                                if part == TurnPart::StartOfTurn { "before" } else { "after" }
                            ),
                        )
                        .help("write `Both`, or move the phase into `player_turn`"),
                    );
                }
            }
        }
        match seen.get(phase.id.as_str()) {
            Some(first) => out.push(
                Finding::new(
                    at.field("id"),
                    format!("phase id `{}` is given twice", phase.id),
                )
                .label(first.field("id"), "first given here")
                .help("give each phase an id of its own"),
            ),
            None => {
                seen.insert(&phase.id, at);
            }
        }
    }
    if !any {
        out.push(
            Finding::new(base, "the sequence of play has no phase")
                .help("list the phases in `player_turn` (and `start_of_turn` or `end_of_turn`)"),
        );
    }
    out
}

// ---------------------------------------------------------------------------------------
// Status ladder
// ---------------------------------------------------------------------------------------

/// The most levels any band of a table costs, and whether a band sends the unit to a
/// level that removes it.
fn table_reach(table: &ResultTable, ladder: Option<&StatusLadder>) -> (u8, bool) {
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

/// A ladder that results skip: too few or repeated levels, losses that run past the
/// floor with nothing beyond it, levels nothing reaches, recoveries of impossible
/// size, and a charge stop that no result of its table can cause.
pub fn ladder_problems(rules: &Rules) -> Vec<Finding> {
    let mut out = Vec::new();
    if let Some(ladder) = &rules.status {
        let base = Place::rules().field("status");
        if ladder.levels.len() < 2 {
            out.push(
                Finding::new(
                    base.field("levels"),
                    "a status ladder needs at least two levels",
                )
                .help("list the levels from best to worst"),
            );
        }
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, l) in ladder.levels.iter().enumerate() {
            if let Some(first) = seen.get(l.id.as_str()) {
                out.push(
                    Finding::new(
                        base.field("levels").index(i).field("id"),
                        format!("status level `{}` is given twice", l.id),
                    )
                    .label(
                        base.field("levels").index(*first).field("id"),
                        "first given here",
                    ),
                );
            } else {
                seen.insert(&l.id, i);
            }
        }
        if let Some(floor) = ladder.floor_index() {
            let floor_level = &ladder.levels[floor];
            if ladder.beyond_floor.is_some() && floor_level.removes {
                out.push(
                    Finding::new(
                        base.field("beyond_floor"),
                        format!(
                            "levels lost beyond the floor cost {}, but the floor `{}` already removes the unit",
                            match ladder.beyond_floor {
                                Some(BeyondFloor::LoseBase) => "a base",
                                None => "nothing",
                            },
                            floor_level.id
                        ),
                    )
                    .help("set `floor` to the last level a unit keeps playing at"),
                );
            }
            // Levels below the floor are reached only by name.
            for (i, l) in ladder.levels.iter().enumerate().skip(floor + 1) {
                let named = rules.result_tables.iter().any(|t| {
                    t.bands
                        .iter()
                        .any(|b| matches!(&b.result, BandResult::ToLevel(x) if x == &l.id))
                });
                let by_share = l.removes && ladder.removed_at_share_lost.is_some();
                if !named && !by_share {
                    out.push(
                        Finding::new(
                            base.field("levels").index(i),
                            format!(
                                "status level `{}` is never reached: losses stop at the floor `{}` and no result names it",
                                l.id, floor_level.id
                            ),
                        )
                        .help("name it in a result (`ToLevel`), or give `removed_at_share_lost` if it removes the unit"),
                    );
                }
            }
            // Losses that run past the floor with nothing beyond it.
            if ladder.beyond_floor.is_none() && !floor_level.removes {
                for (t, table) in rules.result_tables.iter().enumerate() {
                    for (b, band) in table.bands.iter().enumerate() {
                        if let Some(n) = band.result.levels_lost()
                            && usize::from(n) > floor
                        {
                            let variant = match band.result {
                                BandResult::BothLoseLevels(_) => "BothLoseLevels",
                                _ => "LoseLevels",
                            };
                            out.push(
                                Finding::new(
                                    Place::rules().field("result_tables").index(t).field("bands").index(b).field("result").variant(variant),
                                    format!(
                                        "a result of {n} levels runs past the status ladder, whose floor `{}` is {floor} levels down and has nothing beyond it",
                                        floor_level.id
                                    ),
                                )
                                .help("give the ladder a `beyond_floor`, or a level that removes the unit"),
                            );
                        }
                    }
                }
            }
        }
        let top = ladder.levels.len().saturating_sub(1);
        for (i, r) in ladder.recovery.iter().enumerate() {
            if r.levels.is_empty() {
                out.push(
                    Finding::new(
                        base.field("recovery").index(i).field("levels"),
                        format!("recovery by `{}` restores no level", r.by),
                    )
                    .help("give the levels one success restores (`[1, 2]`)"),
                );
            }
            for (k, n) in r.levels.iter().enumerate() {
                if *n == 0 || usize::from(*n) > top {
                    out.push(
                        Finding::new(
                            base.field("recovery").index(i).field("levels").index(k),
                            format!(
                                "recovery by `{}` restores {n} levels, but the ladder has {top} levels above its worst",
                                r.by
                            ),
                        )
                        .help(format!("restore 1 to {top} levels")),
                    );
                }
            }
        }
    }
    if let Some(stop) = &rules.charge_stop
        && let Some(table) = rules.result_tables.iter().find(|t| t.id == stop.table)
    {
        let (most, removes) = table_reach(table, rules.status.as_ref());
        if most < stop.levels_at_least && !removes {
            out.push(
                Finding::new(
                    Place::rules().field("charge_stop").field("levels_at_least"),
                    format!(
                        "no result of table `{}` costs {} levels (at most {most}): the charge is never stopped",
                        table.id, stop.levels_at_least
                    ),
                )
                .help(format!("stop the charge at {most} levels or fewer")),
            );
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Permissions
// ---------------------------------------------------------------------------------------

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
        .filter(|(_, p)| p.action == action && p.condition.is_none())
        .filter(|(_, p)| p.status.is_none() || p.status.as_deref() == status)
        .filter_map(|(i, p)| {
            let s = covers(system, &p.troops, &p.except, kind)?;
            Some(((s, p.status.is_some()), i, p))
        })
        .max_by_key(|(key, i, _)| (*key, std::cmp::Reverse(*i)))
        .map(|(_, i, p)| (i, p))
}

fn allowance_words(a: Allowance) -> &'static str {
    match a {
        Allowance::Must => "must",
        Allowance::May => "may",
        Allowance::Never => "may never",
    }
}

/// Entries that contradict each other: the same troop name, action and status without
/// a condition but different allowances; a name both covered and excepted; a troop
/// type bound or allowed to counter-charge that may never charge.
pub fn permission_conflicts(system: &RulesSystem) -> Vec<Finding> {
    let perms = &system.rules.permissions;
    let mut out = Vec::new();
    for (i, p) in perms.iter().enumerate() {
        for (k, e) in p.except.iter().enumerate() {
            if p.troops.contains(e) {
                out.push(
                    Finding::new(
                        Place::rules()
                            .field("permissions")
                            .index(i)
                            .field("except")
                            .index(k),
                        format!("`{e}` is both covered and excepted by the same entry"),
                    )
                    .help(format!("remove `{e}` from `troops` or from `except`")),
                );
            }
        }
    }
    for (j, b) in perms.iter().enumerate() {
        if b.condition.is_some() {
            continue;
        }
        for (i, a) in perms.iter().enumerate().take(j) {
            if a.condition.is_some()
                || a.action != b.action
                || a.status != b.status
                || a.allowed == b.allowed
            {
                continue;
            }
            if let Some((k, name)) = b.troops.iter().enumerate().find(|(_, t)| {
                a.troops.contains(t) && !a.except.contains(t) && !b.except.contains(t)
            }) {
                out.push(
                    Finding::new(
                        Place::rules()
                            .field("permissions")
                            .index(j)
                            .field("troops")
                            .index(k),
                        format!(
                            "`{name}` {} {}, but an earlier entry says it {} {}",
                            allowance_words(b.allowed),
                            b.action.words(),
                            allowance_words(a.allowed),
                            a.action.words()
                        ),
                    )
                    .label(
                        Place::rules()
                            .field("permissions")
                            .index(i)
                            .field("allowed"),
                        "the earlier entry",
                    )
                    .help(
                        "keep one of the two, or give the narrower one a `condition` or `status`",
                    ),
                );
            }
        }
    }
    for kind in &system.unit_kinds {
        let Some((ci, counter)) = permission_for(system, &kind.id, Action::CounterCharge, None)
        else {
            continue;
        };
        if counter.allowed == Allowance::Never {
            continue;
        }
        if let Some((chi, charge)) = permission_for(system, &kind.id, Action::Charge, None)
            && charge.allowed == Allowance::Never
        {
            out.push(
                Finding::new(
                    Place::rules()
                        .field("permissions")
                        .index(ci)
                        .field("allowed"),
                    format!(
                        "`{}` {} counter-charge, but may never charge",
                        kind.id,
                        allowance_words(counter.allowed)
                    ),
                )
                .label(
                    Place::rules()
                        .field("permissions")
                        .index(chi)
                        .field("allowed"),
                    "may never charge",
                )
                .help(
                    "a counter-charge is a charge: allow the charge, or forbid the counter-charge",
                ),
            );
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Terrain exceptions
// ---------------------------------------------------------------------------------------

/// What the terrain itself says, for the exception checks.
struct TerrainFacts {
    crossing_cost: bool,
    cover: Option<bool>,
    /// Whether it keeps out a troop name (by id or class).
    keeps_out: Vec<String>,
}

fn terrain_facts(system: &RulesSystem, id: &str) -> Option<TerrainFacts> {
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

/// Exceptions that contradict the terrain they name: a crossing cost waived where there
/// is none, "only by road" for troops the terrain admits anyway, an effect for troops
/// that may not be there at all, fire limited by cover where there is no cover.
pub fn terrain_exception_conflicts(system: &RulesSystem) -> Vec<Finding> {
    let rules = &system.rules;
    let mut out = Vec::new();
    let road_only = |terrain: &str, troop: &str| {
        rules.terrain_exceptions.iter().any(|e| {
            e.effect == TerrainEffect::RoadOnly
                && e.terrain.iter().any(|t| t == terrain)
                && e.troops.iter().any(|t| t == troop)
        })
    };
    for (i, e) in rules.terrain_exceptions.iter().enumerate() {
        let base = Place::rules().field("terrain_exceptions").index(i);
        for (k, id) in e.terrain.iter().enumerate() {
            let Some(facts) = terrain_facts(system, id) else {
                continue; // rules::unknown-name
            };
            let at = base.field("terrain").index(k);
            match &e.effect {
                TerrainEffect::NoCrossingCost | TerrainEffect::WholeMove
                    if !facts.crossing_cost =>
                {
                    out.push(
                        Finding::new(
                            at.clone(),
                            format!("`{id}` has no crossing cost for this exception to change"),
                        )
                        .label(base.field("effect"), "about the crossing cost")
                        .help(format!(
                            "give `{id}` a `crossing_cost`, or remove it from this exception"
                        )),
                    );
                }
                TerrainEffect::TargetsOnlyWithin(_) if facts.cover == Some(false) => {
                    out.push(
                        Finding::new(at.clone(), format!("`{id}` gives no cover, yet fire at targets there is limited as for cover"))
                            .label(base.field("effect"), "a limit for targets in cover")
                            .help(format!("set `cover: true` on `{id}`, or remove it from this exception")),
                    );
                }
                _ => {}
            }
            for (t, troop) in e.troops.iter().enumerate() {
                let kept_out = facts.keeps_out.iter().any(|x| x == troop || x == "*");
                if e.effect == TerrainEffect::RoadOnly {
                    if !facts.keeps_out.iter().any(|x| x == troop) {
                        out.push(
                            Finding::new(
                                base.field("troops").index(t),
                                format!("`{troop}` may enter `{id}` anyway, so \"only along a road\" contradicts the terrain"),
                            )
                            .help(format!("add `{troop}` to the `prohibited` list of `{id}`, which this exception then relaxes")),
                        );
                    }
                } else if kept_out && !road_only(id, troop) {
                    out.push(
                        Finding::new(
                            base.field("troops").index(t),
                            format!("`{troop}` may not enter `{id}` at all, so an exception for it there never applies"),
                        )
                        .help(format!("remove `{troop}`, or let it enter `{id}` (a `RoadOnly` exception, or the terrain's lists)")),
                    );
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Morale
// ---------------------------------------------------------------------------------------

/// Triggers that contradict themselves or the troops that never test, and distances
/// at which nothing can happen.
pub fn trigger_conflicts(system: &RulesSystem) -> Vec<Finding> {
    let Some(m) = &system.rules.morale else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let never = |troop: &str| {
        m.never_test
            .iter()
            .position(|n| n == troop || class_of(system, troop) == Some(n.as_str()))
    };
    for (i, t) in m.triggers.iter().enumerate() {
        let base = Place::rules().field("morale").field("triggers").index(i);
        for (k, e) in t.exempt.iter().enumerate() {
            if t.troops.contains(e) {
                out.push(
                    Finding::new(
                        base.field("exempt").index(k),
                        format!("`{e}` both tests and is exempt on {}", t.event.words()),
                    )
                    .help(format!("remove `{e}` from `troops` or from `exempt`")),
                );
            }
        }
        for (k, troop) in t.troops.iter().enumerate() {
            if let Some(n) = never(troop) {
                out.push(
                    Finding::new(
                        base.field("troops").index(k),
                        format!("`{troop}` never tests its morale, yet this trigger makes it test on {}", t.event.words()),
                    )
                    .label(Place::rules().field("morale").field("never_test").index(n), "never tests")
                    .help("remove it from one of the two"),
                );
            }
        }
        if let MoraleEvent::FriendRoutingWithin(d) | MoraleEvent::EnemyInFrontWithin(d) = &t.event
            && *d <= 0.0
        {
            let variant = match t.event {
                MoraleEvent::FriendRoutingWithin(_) => "FriendRoutingWithin",
                _ => "EnemyInFrontWithin",
            };
            out.push(
                Finding::new(
                    base.field("event").variant(variant),
                    format!("a distance of {d} inches: the test is never triggered"),
                )
                .help("give the distance in inches, above 0"),
            );
        }
    }
    for (i, md) in m.modifiers.iter().enumerate() {
        let base = Place::rules().field("morale").field("modifiers").index(i);
        if md.value == 0 {
            out.push(
                Finding::new(
                    base.field("value"),
                    "a morale modifier of 0 changes nothing",
                )
                .help("give the points added to the morale value, or remove the modifier"),
            );
        }
        for (k, troop) in md.to.iter().enumerate() {
            if let Some(n) = never(troop) {
                out.push(
                    Finding::new(
                        base.field("to").index(k),
                        format!(
                            "`{troop}` never tests its morale, yet a morale modifier is given to it"
                        ),
                    )
                    .label(
                        Place::rules().field("morale").field("never_test").index(n),
                        "never tests",
                    )
                    .help("remove it from `to` or from `never_test`"),
                );
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Immunities
// ---------------------------------------------------------------------------------------

/// Immunities to nothing, and unconditional immunities to a result code that a morale
/// trigger on the same code names the same troop type for.
pub fn immunity_conflicts(system: &RulesSystem) -> Vec<Finding> {
    let rules = &system.rules;
    let mut out = Vec::new();
    for (i, im) in rules.immunities.iter().enumerate() {
        let base = Place::rules().field("immunities").index(i);
        if im.results.is_empty() {
            out.push(
                Finding::new(base.field("results"), "an immunity to no result")
                    .help("list the result codes these troops ignore"),
            );
        }
        if im.condition.is_some() {
            continue;
        }
        let Some(m) = &rules.morale else { continue };
        for (t, trigger) in m.triggers.iter().enumerate() {
            let MoraleEvent::CombatResult(code) = &trigger.event else {
                continue;
            };
            let Some(r) = im.results.iter().position(|c| c == code) else {
                continue;
            };
            for (k, troop) in trigger.troops.iter().enumerate() {
                if troop != "*" && im.troops.contains(troop) && !trigger.exempt.contains(troop) {
                    out.push(
                        Finding::new(
                            Place::rules().field("morale").field("triggers").index(t).field("troops").index(k),
                            format!("`{troop}` is immune to `{code}`, yet this trigger makes it test on it"),
                        )
                        .label(base.field("results").index(r), "immune")
                        .help(format!("remove `{troop}` from the trigger or `{code}` from the immunity")),
                    );
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Fixed defences, eliminations together, following up
// ---------------------------------------------------------------------------------------

/// The unit kinds a troop name covers.
fn kinds_named<'a>(system: &'a RulesSystem, name: &str) -> Vec<&'a UnitKind> {
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

/// Two values for one troop name against the same attacks (entries without a
/// condition), and defences against attacks the troops never suffer: fire at troops
/// never fired on, melee at troops never attacked in melee.
pub fn defence_conflicts(system: &RulesSystem) -> Vec<Finding> {
    let list = &system.rules.fixed_defences;
    let mut out = Vec::new();
    for (j, b) in list.iter().enumerate() {
        let base = Place::rules().field("fixed_defences").index(j);
        if b.condition.is_none() {
            for (i, a) in list.iter().enumerate().take(j) {
                if a.condition.is_some() || a.value == b.value || !a.against.overlaps(b.against) {
                    continue;
                }
                if let Some((k, name)) = b
                    .troops
                    .iter()
                    .enumerate()
                    .find(|(_, t)| a.troops.contains(t))
                {
                    out.push(
                        Finding::new(
                            base.field("troops").index(k),
                            format!(
                                "`{name}` defends at {} {}, but an earlier entry says {} {}",
                                b.value,
                                b.against.words(),
                                a.value,
                                a.against.words()
                            ),
                        )
                        .label(
                            Place::rules()
                                .field("fixed_defences")
                                .index(i)
                                .field("value"),
                            "the earlier entry",
                        )
                        .help("keep one value, or give the narrower entry a `condition`"),
                    );
                }
            }
        }
        let action = match b.against {
            AttackKind::Fire => Action::BeFiredOn,
            AttackKind::Melee => Action::BeAttackedInMelee,
            AttackKind::Any => continue,
        };
        for (k, name) in b.troops.iter().enumerate() {
            let kinds = kinds_named(system, name);
            let never: Vec<usize> = kinds
                .iter()
                .filter_map(
                    |kind| match permission_for(system, &kind.id, action, None) {
                        Some((p, perm)) if perm.allowed == Allowance::Never => Some(p),
                        _ => None,
                    },
                )
                .collect();
            if !kinds.is_empty() && never.len() == kinds.len() {
                out.push(
                    Finding::new(
                        base.field("troops").index(k),
                        format!(
                            "`{name}` may never {}, so a defence {} never applies",
                            action.words(),
                            b.against.words()
                        ),
                    )
                    .label(Place::rules().field("permissions").index(never[0]).field("allowed"), "never")
                    .help("remove the defence, or let the attack be made (`against: Any` covers every attack)"),
                );
            }
        }
    }
    out
}

/// Whether units of two kinds may ever share a hex under the system's stacking rules
/// (the numbers a scenario sets aside).
fn may_share_hex(system: &RulesSystem, a: &UnitKind, b: &UnitKind) -> bool {
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

/// Troops eliminated with nobody or with themselves, and troops eliminated with the
/// units they are stacked with that the stacking rules never let them stack with.
pub fn elimination_conflicts(system: &RulesSystem) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, e) in system.rules.eliminated_with.iter().enumerate() {
        let base = Place::rules().field("eliminated_with").index(i);
        if e.with.is_empty() {
            out.push(
                Finding::new(base.field("with"), "eliminated with nobody")
                    .help("list the units whose elimination takes these troops"),
            );
        }
        for (k, w) in e.with.iter().enumerate() {
            if e.troops.contains(w) {
                out.push(
                    Finding::new(
                        base.field("with").index(k),
                        format!("`{w}` is eliminated with itself"),
                    )
                    .help(format!(
                        "name in `with` the units `{w}` stands with, not `{w}` itself"
                    )),
                );
            }
        }
        if e.reach != Proximity::Stacked {
            continue;
        }
        let theirs: Vec<&UnitKind> = e.with.iter().flat_map(|w| kinds_named(system, w)).collect();
        for (k, t) in e.troops.iter().enumerate() {
            let mine = kinds_named(system, t);
            if mine.is_empty() || theirs.is_empty() {
                continue; // rules::unknown-name
            }
            if !mine
                .iter()
                .any(|m| theirs.iter().any(|o| may_share_hex(system, m, o)))
            {
                out.push(
                    Finding::new(
                        base.field("troops").index(k),
                        format!(
                            "`{t}` never shares a hex with {}, so it is never eliminated with them",
                            e.with
                                .iter()
                                .map(|w| format!("`{w}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    )
                    .label(Place::top("stacking"), "the stacking rules")
                    .help("let the stacking rules put them together, or name units it does stack with"),
                );
            }
        }
    }
    out
}

/// Troop names in a message: `"*"` is all troops, the others in backticks.
fn troop_list(troops: &[String]) -> String {
    troops
        .iter()
        .map(|t| {
            if t == "*" {
                "all troops".to_string()
            } else {
                format!("`{t}`")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A push-back of no distance, troops bound or allowed to follow a loser that no rule
/// pushes back, and troops that may never follow a loser who stays locked in the melee.
pub fn follow_up_conflicts(system: &RulesSystem) -> Vec<Finding> {
    let rules = &system.rules;
    let push = rules.melee.as_ref().and_then(|m| m.push_back.as_ref());
    let mut out = Vec::new();
    if let Some(p) = push
        && p.distance.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)
    {
        out.push(
            Finding::new(
                Place::rules()
                    .field("melee")
                    .field("push_back")
                    .field("distance"),
                format!("a push-back of {} inches moves nobody", p.distance),
            )
            .help("give the distance in inches, above 0, or remove `push_back`"),
        );
    }
    for (i, p) in rules.permissions.iter().enumerate() {
        if p.action != Action::FollowUp {
            continue;
        }
        let at = Place::rules()
            .field("permissions")
            .index(i)
            .field("allowed");
        match (p.allowed, push) {
            (Allowance::Must | Allowance::May, None) => out.push(
                Finding::new(
                    at,
                    format!(
                        "{} {} follow up a pushed-back loser, but no rule pushes a loser back",
                        troop_list(&p.troops),
                        allowance_words(p.allowed)
                    ),
                )
                .help("give `melee: Some((push_back: Some((distance: ..., stays_locked: ...))))`, or remove this entry"),
            ),
            (Allowance::Never, Some(pb)) if pb.stays_locked && p.condition.is_none() => out.push(
                Finding::new(
                    at,
                    format!(
                        "{} may never follow up, yet a pushed-back loser stays locked in the melee: the two would be locked without contact",
                        troop_list(&p.troops)
                    ),
                )
                .label(Place::rules().field("melee").field("push_back").field("stays_locked"), "stays locked")
                .help("let them follow up, or set `stays_locked: false`"),
            ),
            _ => {}
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Line of sight
// ---------------------------------------------------------------------------------------

/// Elevations that overlap or repeat, occupied-hex rules given twice for one elevation
/// or where units block nothing, and two ways of saying which lower units block.
pub fn sight_conflicts(system: &RulesSystem) -> Vec<Finding> {
    let Some(los) = &system.rules.line_of_sight else {
        return Vec::new();
    };
    let base = Place::rules().field("line_of_sight");
    let mut out = Vec::new();
    let mut catch_all: Option<usize> = None;
    let mut placed: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, e) in los.elevations.iter().enumerate() {
        if let Some(j) = los.elevations[..i].iter().position(|x| x.id == e.id) {
            out.push(
                Finding::new(
                    base.field("elevations").index(i).field("id"),
                    format!("elevation `{}` is listed twice", e.id),
                )
                .label(base.field("elevations").index(j).field("id"), "first here")
                .help("give each elevation once"),
            );
        }
        if e.terrain.is_empty() {
            if let Some(j) = catch_all {
                out.push(
                    Finding::new(
                        base.field("elevations").index(i),
                        format!(
                            "elevations `{}` and `{}` both take every terrain not listed",
                            los.elevations[j].id, e.id
                        ),
                    )
                    .label(base.field("elevations").index(j), "also takes the rest")
                    .help("list the terrain of all but one elevation"),
                );
            }
            catch_all = Some(i);
        }
        for (k, t) in e.terrain.iter().enumerate() {
            if let Some(j) = placed.insert(t.as_str(), i)
                && j != i
            {
                out.push(
                    Finding::new(
                        base.field("elevations").index(i).field("terrain").index(k),
                        format!(
                            "terrain `{t}` is at two elevations, `{}` and `{}`",
                            los.elevations[j].id, e.id
                        ),
                    )
                    .label(base.field("elevations").index(j), "also here")
                    .help("give each terrain one elevation"),
                );
            }
        }
    }
    for (i, o) in los.occupied_blocks.iter().enumerate() {
        if let Some(j) = los.occupied_blocks[..i]
            .iter()
            .position(|x| x.firer_at == o.firer_at)
        {
            out.push(
                Finding::new(
                    base.field("occupied_blocks").index(i).field("firer_at"),
                    format!("two rules for firers at `{}`", o.firer_at),
                )
                .label(
                    base.field("occupied_blocks").index(j).field("firer_at"),
                    "first rule",
                )
                .help("merge them into one entry"),
            );
        }
    }
    if !los.occupied_blocks.is_empty() {
        if !los.units_block {
            out.push(
                Finding::new(
                    base.field("units_block"),
                    "units never block line of sight, yet `occupied_blocks` says which occupied hexes do",
                )
                .label(base.field("occupied_blocks"), "occupied hexes that block")
                .help("set `units_block: true` or remove `occupied_blocks`"),
            );
        }
        if los.lower_units_block_within.is_some() {
            out.push(
                Finding::new(
                    base.field("lower_units_block_within"),
                    "lower units are ruled twice: by `lower_units_block_within` and by `occupied_blocks`",
                )
                .label(base.field("occupied_blocks"), "also decides lower units")
                .help("keep one of the two"),
            );
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Movement
// ---------------------------------------------------------------------------------------

/// A minimum move for a level that removes the unit, or that disagrees with the hexes
/// leaders' control says a unit may always move.
pub fn movement_conflicts(rules: &Rules) -> Vec<Finding> {
    let Some(m) = rules
        .movement
        .as_ref()
        .and_then(|m| m.minimum_move.as_ref())
    else {
        return Vec::new();
    };
    let base = Place::rules().field("movement").field("minimum_move");
    let mut out = Vec::new();
    if let Some(ladder) = &rules.status {
        for (k, id) in m.status.iter().enumerate() {
            if ladder.levels.iter().any(|l| &l.id == id && l.removes) {
                out.push(
                    Finding::new(
                        base.field("status").index(k),
                        format!("status level `{id}` removes the unit, which never moves again"),
                    )
                    .help("name the levels at which a unit still moves"),
                );
            }
        }
    }
    if let Some(always) = rules.leader_control.as_ref().and_then(|c| c.always_hexes)
        && always != m.hexes
    {
        out.push(
            Finding::new(
                base.field("hexes"),
                format!(
                    "a unit may always move {} hex{}, yet under leaders' control it may always move {always}",
                    m.hexes,
                    if m.hexes == 1 { "" } else { "es" }
                ),
            )
            .label(Place::rules().field("leader_control").field("always_hexes"), "under leaders' control")
            .help("give both the same number of hexes"),
        );
    }
    out
}

// ---------------------------------------------------------------------------------------
// Status effects and panic
// ---------------------------------------------------------------------------------------

/// The variant name of an effect, for places and duplicates.
fn effect_variant(e: &StateEffect) -> &'static str {
    match e {
        StateEffect::Never(_) => "Never",
        StateEffect::MovementShare(_) => "MovementShare",
        StateEffect::MeleeDefenceShare(_) => "MeleeDefenceShare",
        StateEffect::EliminatedBy(_) => "EliminatedBy",
        StateEffect::FleeFromEnemy => "FleeFromEnemy",
    }
}

/// Shares outside (0, 1] and one kind of share given twice in a list of effects.
fn effect_list_problems(base: &Place, effects: &[StateEffect]) -> Vec<Finding> {
    let mut out = Vec::new();
    for (k, e) in effects.iter().enumerate() {
        if let StateEffect::MovementShare(f) | StateEffect::MeleeDefenceShare(f) = e {
            if !(*f > 0.0 && *f <= 1.0) {
                out.push(
                    Finding::new(
                        base.index(k).variant(effect_variant(e)),
                        format!("a share of {f}: a share is above 0 and at most 1"),
                    )
                    .help("give the share kept, as 0.5 for half"),
                );
            }
            if let Some(j) = effects[..k]
                .iter()
                .position(|x| effect_variant(x) == effect_variant(e))
            {
                out.push(
                    Finding::new(
                        base.index(k),
                        format!("`{}` is given twice", effect_variant(e)),
                    )
                    .label(base.index(j), "first here")
                    .help("give each share once"),
                );
            }
        } else if let Some(j) = effects[..k].iter().position(|x| x == e) {
            out.push(
                Finding::new(
                    base.index(k),
                    format!("`{}` is given twice", effect_variant(e)),
                )
                .label(base.index(j), "first here")
                .help("give each effect once"),
            );
        }
    }
    out
}

/// Effects of a status level that removes the unit anyway, shares outside (0, 1],
/// effects given twice, and a `Never` effect against a permission that binds the same
/// troop name to the action at that level.
pub fn state_effect_conflicts(system: &RulesSystem) -> Vec<Finding> {
    let rules = &system.rules;
    let mut out = Vec::new();
    for (i, se) in rules.status_effects.iter().enumerate() {
        let base = Place::rules().field("status_effects").index(i);
        if let Some(ladder) = &rules.status
            && ladder.levels.iter().any(|l| l.id == se.status && l.removes)
        {
            out.push(
                Finding::new(
                    base.field("status"),
                    format!(
                        "status level `{}` removes the unit: its effects never apply",
                        se.status
                    ),
                )
                .help("name a level at which the unit is still in play"),
            );
        }
        out.extend(effect_list_problems(&base.field("effects"), &se.effects));
        for (k, e) in se.effects.iter().enumerate() {
            let StateEffect::Never(action) = e else {
                continue;
            };
            for (p, perm) in rules.permissions.iter().enumerate() {
                if perm.action == *action
                    && perm.allowed == Allowance::Must
                    && perm.condition.is_none()
                    && perm.status.as_deref() == Some(se.status.as_str())
                    && perm.troops.iter().any(|t| se.troops.contains(t))
                {
                    out.push(
                        Finding::new(
                            base.field("effects").index(k).variant("Never"),
                            format!(
                                "troops at `{}` may never {}, yet a permission says they must",
                                se.status,
                                action.words()
                            ),
                        )
                        .label(
                            Place::rules()
                                .field("permissions")
                                .index(p)
                                .field("allowed"),
                            "must",
                        )
                        .help("remove one of the two"),
                    );
                }
            }
        }
    }
    if let Some(p) = &rules.panic {
        out.extend(effect_list_problems(
            &Place::rules().field("panic").field("effects"),
            &p.effects,
        ));
    }
    out
}

/// Panic spared or rallied by troops that are not leaders, and a tie on reaching the
/// level exactly broken by "further past".
pub fn panic_conflicts(system: &RulesSystem) -> Vec<Finding> {
    let Some(p) = &system.rules.panic else {
        return Vec::new();
    };
    let base = Place::rules().field("panic");
    let mut out = Vec::new();
    let mut near: Vec<(Place, &String)> = Vec::new();
    for (i, n) in p.spared_near.iter().enumerate() {
        for (k, l) in n.leaders.iter().enumerate() {
            near.push((
                base.field("spared_near").index(i).field("leaders").index(k),
                l,
            ));
        }
    }
    if let Some(r) = &p.rally {
        for (i, n) in r.by.iter().enumerate() {
            for (k, l) in n.leaders.iter().enumerate() {
                near.push((
                    base.field("rally")
                        .field("by")
                        .index(i)
                        .field("leaders")
                        .index(k),
                    l,
                ));
            }
        }
    }
    for (place, name) in near {
        let others: Vec<&str> = system
            .unit_kinds
            .iter()
            .filter(|k| specificity(system, name, &k.id).is_some() && k.role != UnitRole::Commander)
            .map(|k| k.id.as_str())
            .collect();
        if !others.is_empty() {
            out.push(
                Finding::new(
                    place,
                    format!(
                        "`{name}` names troops that are not leaders: {}",
                        others.join(", ")
                    ),
                )
                .help("only leaders (role `Commander`) spare units from panic or rally them"),
            );
        }
    }
    if p.both_reach == Some(muster_model::rules::PanicTieBreak::FurtherPast) {
        out.push(
            Finding::new(
                base.field("both_reach"),
                "when both sides reach their panic level exactly, neither is further past it",
            )
            .help("break the tie by `Defender` or `Attacker`"),
        );
    }
    out
}

// ---------------------------------------------------------------------------------------
// Victory, exit, rolls
// ---------------------------------------------------------------------------------------

/// Victory levels that are not in an order where "higher" means something.
pub fn victory_order_problems(system: &RulesSystem) -> Vec<Finding> {
    let Some(order) = system.rules.victory_order else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if system.victory_levels.is_empty() {
        out.push(
            Finding::new(
                Place::rules().field("victory_order"),
                "a victory order, but the system has no `victory_levels` to order",
            )
            .help("list the victory levels, lowest first, or remove the order"),
        );
        return out;
    }
    if order == VictoryOrder::HigherSatisfiesLower {
        for (i, pair) in system.victory_levels.windows(2).enumerate() {
            let (lower, higher) = (&pair[0], &pair[1]);
            let above = higher.ratio > lower.ratio
                || (higher.ratio == lower.ratio && higher.exclusive && !lower.exclusive);
            if !above {
                out.push(
                    Finding::new(
                        Place::top("victory_levels").index(i + 1).field("ratio"),
                        format!(
                            "`{}` is listed above `{}` but needs no higher a ratio ({} against {}), so a higher level cannot be told from a lower",
                            higher.name, lower.name, higher.ratio, lower.ratio
                        ),
                    )
                    .label(Place::top("victory_levels").index(i).field("ratio"), "the level below")
                    .help("list the levels lowest first, each needing a higher ratio than the one before"),
                );
            }
        }
    }
    out
}

/// The movement allowances printed for the system's unit kinds.
fn movements(system: &RulesSystem) -> Vec<f64> {
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

/// An exit cost no unit can pay.
pub fn exit_problems(system: &RulesSystem) -> Vec<Finding> {
    let Some(exit) = &system.rules.exit else {
        return Vec::new();
    };
    let moves = movements(system);
    let Some(most) = moves.iter().copied().reduce(f64::max) else {
        return Vec::new();
    };
    if exit.cost > most {
        return vec![
            Finding::new(
                Place::rules().field("exit").field("cost"),
                format!("leaving costs {} movement points, more than any unit kind has (at most {most}): no unit can ever leave", exit.cost),
            )
            .help("give the movement points a unit must still have to leave"),
        ];
    }
    Vec::new()
}

/// Rolls that cannot come up.
pub fn impossible_rolls(rules: &Rules) -> Vec<Finding> {
    let Some(l) = &rules.leader_loss else {
        return Vec::new();
    };
    let base = Place::rules().field("leader_loss");
    let mut out = Vec::new();
    match (l.escape_only_from, l.escape_roll) {
        (Some(_), None) => out.push(
            Finding::new(
                base.field("escape_only_from"),
                "an escape threshold without the roll that escapes",
            )
            .help("give `escape_roll`"),
        ),
        (None, Some(_)) => out.push(
            Finding::new(
                base.field("escape_roll"),
                "an escape roll without the number of levels from which it applies",
            )
            .help("give `escape_only_from`"),
        ),
        _ => {}
    }
    if let Some(r) = l.escape_roll
        && (r == 0 || r > l.die)
    {
        out.push(
            Finding::new(
                base.field("escape_roll"),
                format!("a roll of {r} never comes up on a {}-sided die", l.die),
            )
            .label(base.field("die"), "the die")
            .help(format!("give a roll from 1 to {}", l.die)),
        );
    }
    out
}

// ---------------------------------------------------------------------------------------
// Words and scenario figures
// ---------------------------------------------------------------------------------------

fn range_words(band: &ResultBand) -> String {
    match (band.from, band.to) {
        (None, None) => "any".to_string(),
        (None, Some(t)) => format!("{t} or less"),
        (Some(f), None) => format!("{f}+"),
        (Some(f), Some(t)) if f == t => f.to_string(),
        (Some(f), Some(t)) => format!("{f}-{t}"),
    }
}

fn level_name<'a>(ladder: Option<&'a StatusLadder>, id: &'a str) -> &'a str {
    ladder
        .and_then(|l| l.levels.iter().find(|x| x.id == id))
        .map_or(id, |x| x.name.as_str())
}

fn result_words(r: &BandResult, ladder: Option<&StatusLadder>) -> String {
    let levels = |n: u8| {
        if n == 1 {
            "1 level".to_string()
        } else {
            format!("{n} levels")
        }
    };
    match r {
        BandResult::NoEffect => "no effect".to_string(),
        BandResult::LoseLevels(n) => levels(*n),
        BandResult::BothLoseLevels(n) => format!("both lose {}", levels(*n)),
        BandResult::ToLevel(l) => level_name(ladder, l).to_lowercase(),
        BandResult::Code(c) => format!("`{c}`"),
    }
}

/// A result table in words: `fire (difference): 0 or less no effect; 1-3 1 level; ...`.
pub fn table_words(table: &ResultTable, ladder: Option<&StatusLadder>) -> String {
    format!(
        "{} (by {}): {}",
        table.name,
        match table.by {
            ResultIndex::Difference => "difference",
            ResultIndex::Margin => "margin",
        },
        table
            .bands
            .iter()
            .map(|b| format!("{} {}", range_words(b), result_words(&b.result, ladder)))
            .collect::<Vec<_>>()
            .join("; ")
    )
}

/// The status ladder in words.
pub fn ladder_words(ladder: &StatusLadder) -> String {
    let mut text = ladder
        .levels
        .iter()
        .map(|l| l.name.as_str())
        .collect::<Vec<_>>()
        .join(" > ");
    if let (Some(f), Some(BeyondFloor::LoseBase)) = (&ladder.floor, ladder.beyond_floor) {
        text += &format!(
            "; each level lost at {} costs a base",
            level_name(Some(ladder), f)
        );
    }
    if let Some(share) = ladder.removed_at_share_lost {
        text += &format!(
            "; removed at {}% of its bases lost",
            (share * 100.0).round()
        );
    }
    for r in &ladder.recovery {
        text += &format!(
            "; {} restores {}",
            r.by,
            r.levels
                .iter()
                .map(|n| format!("+{n}"))
                .collect::<Vec<_>>()
                .join(" or ")
        );
    }
    text
}

/// The sequence of play in words.
pub fn sequence_words(rules: &Rules) -> Option<String> {
    let seq = rules.sequence.as_ref()?;
    let phases = |list: &[muster_model::rules::Phase]| {
        list.iter()
            .map(|p| {
                let who = p
                    .acts
                    .iter()
                    .map(|a| match a {
                        Actor::Phasing => "phasing",
                        Actor::NonPhasing => "non-phasing",
                        Actor::Both => "both",
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                format!("{} ({who})", p.name)
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    if !seq.start_of_turn.is_empty() {
        parts.push(phases(&seq.start_of_turn));
    }
    if !seq.player_turn.is_empty() {
        parts.push(format!("each player-turn: {}", phases(&seq.player_turn)));
    }
    if !seq.end_of_turn.is_empty() {
        parts.push(format!("then {}", phases(&seq.end_of_turn)));
    }
    Some(parts.join("; "))
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

/// How a side moves under leaders' movement control when it has no leader at all.
#[derive(Debug, Clone, PartialEq)]
pub struct UnledSide {
    pub side: usize,
    /// Unit kinds that begin every movement phase out of control: they move at the
    /// reduced rate all game.
    pub reduced: Vec<String>,
    /// Unit kinds exempt by the scenario's leadership note or always in control.
    pub exempt: Vec<String>,
    pub factor: f64,
    /// The leadership note that exempts (`Mt. Ex.`), if the side has it.
    pub note: Option<String>,
}

/// The sides of a zoned scenario that have no leader, under the system's leader
/// control: which kinds move at the reduced rate all game (PRESTAGS 10.23; El Mansura's
/// Arabs, `Mt. Ex.` and no leader, move their foot at half rate).
pub fn unled_sides(cx: &ScenarioCx) -> Vec<UnledSide> {
    let Some(system) = cx.system else {
        return Vec::new();
    };
    let Some(control) = &system.rules.leader_control else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for side in cx.zoned_sides() {
        let kinds: Vec<&str> = side.forces.units.iter().map(|u| u.kind.as_str()).collect();
        let has_leader = kinds.iter().any(|k| {
            cx.unit_kind(k)
                .is_some_and(|u| u.role == UnitRole::Commander)
        });
        if has_leader {
            continue;
        }
        let exemption = control
            .exemption
            .as_ref()
            .filter(|e| side.forces.leadership.as_deref() == Some(e.note.as_str()));
        let (exempt, reduced): (Vec<&str>, Vec<&str>) = kinds.iter().partition(|k| {
            exemption.is_some_and(|e| covers(system, &e.troops, &[], k).is_some())
                || covers(system, &control.always_in_control, &[], k).is_some()
        });
        out.push(UnledSide {
            side: side.index,
            reduced: reduced.into_iter().map(str::to_string).collect(),
            exempt: exempt.into_iter().map(str::to_string).collect(),
            factor: control.beyond_radius_factor,
            note: exemption.map(|e| e.note.clone()),
        });
    }
    out
}

/// The men a table side's units of bases stand for, fewest to most (leaders and
/// transport not counted), by the system's representation.
pub fn men_represented(cx: &ScenarioCx, index: usize) -> Option<(u32, u32)> {
    let system = cx.system?;
    let r = system.rules.representation.as_ref()?;
    let Forces::Table(forces) = &cx.scenario.sides.get(index)?.forces else {
        return None;
    };
    if forces.units.is_empty() {
        return None;
    }
    let (mut min, mut max) = (0u32, 0u32);
    for u in &forces.units {
        let Some(kind) = cx.unit_kind(&u.troop) else {
            continue;
        };
        if kind.role != UnitRole::Combat {
            continue;
        }
        let range = if kind.mounted { r.mounted } else { r.foot };
        min = min.saturating_add(range.min.saturating_mul(u32::from(u.bases)));
        max = max.saturating_add(range.max.saturating_mul(u32::from(u.bases)));
    }
    Some((min, max))
}
