//! `muster query`: the rules engine's answers about a scenario's board at a turn or a
//! position file, in words or as the engine's typed JSON.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use muster_db::load::Document;
use muster_db::project::Db;
use muster_engine::{Engine, Position, QueryError, from_scenario};
use muster_map::TerrainMap;
use muster_model::FileKind;
use muster_model::system::RulesSystem;
use muster_semantic::{FileCx, ScenarioCx};

use crate::cli::{ListFormat, QueryWhat};
use crate::io::out;

/// The system, the map and the position a question is asked of.
pub(crate) struct Asked<'a> {
    pub(crate) system: &'a RulesSystem,
    pub(crate) map: &'a TerrainMap,
    pub(crate) position: Position,
    /// Counter ids of the scenario's sheet, to tell a unit not on the map from a typo.
    counters: Vec<String>,
}

pub fn run(
    cwd: &Path,
    root: Option<PathBuf>,
    what: QueryWhat,
    format: ListFormat,
    turn: u8,
) -> Result<ExitCode, String> {
    let (_, db) = crate::list::load_project(cwd, root)?;
    let input = match &what {
        QueryWhat::Reach { input, .. }
        | QueryWhat::Combat { input, .. }
        | QueryWhat::Sight { input, .. }
        | QueryWhat::Supply { input, .. }
        | QueryWhat::Control { input }
        | QueryWhat::Result { input, .. }
        | QueryWhat::May { input, .. }
        | QueryWhat::States { input, .. } => input.clone(),
    };
    let asked = asked(&db, &cwd.join(&input), &input, turn)?;
    let engine = Engine::new(asked.system, asked.map, &asked.position);
    let explain = |e: QueryError| explain(e, &asked, turn);
    let json = format == ListFormat::Json;
    let text = match what {
        QueryWhat::Reach {
            unit, unloading, ..
        } => {
            let reach = if unloading {
                engine.reach_unloading(&unit)
            } else {
                engine.reach(&unit)
            }
            .map_err(explain)?;
            if json {
                to_json(&reach)?
            } else {
                words::reach(&reach)
            }
        }
        QueryWhat::Combat {
            attackers,
            defender,
            paths,
            ..
        } => {
            let mut by_unit = BTreeMap::new();
            for p in &paths {
                let (unit, hexes) = p.split_once('=').ok_or_else(|| {
                    format!("`--path {p}`: give the unit, `=`, then its hexes (`aquitaine-cavalry=0710,0709`)")
                })?;
                by_unit.insert(
                    unit.to_string(),
                    hexes.split(',').map(|h| h.trim().to_string()).collect(),
                );
            }
            let attackers: Vec<&str> = attackers.iter().map(String::as_str).collect();
            let combat = engine
                .combat(&attackers, &defender, &by_unit)
                .map_err(explain)?;
            if json {
                to_json(&combat)?
            } else {
                words::combat(&combat)
            }
        }
        QueryWhat::Sight { from, to, .. } => {
            let sight = engine.sight(&from, &to).map_err(explain)?;
            if json {
                to_json(&sight)?
            } else {
                words::sight(&sight)
            }
        }
        QueryWhat::Supply { hex, side, .. } => {
            let supply = engine.supply(&hex, &side).map_err(explain)?;
            if json {
                to_json(&supply)?
            } else {
                words::supply(&supply)
            }
        }
        QueryWhat::Control { .. } => {
            let control = engine.control();
            if json {
                to_json(&control)?
            } else {
                words::control(&control)
            }
        }
        QueryWhat::Result {
            unit,
            result,
            attacker,
            ..
        } => {
            let outcome = engine.outcome(&unit, &result, attacker).map_err(explain)?;
            if json {
                to_json(&outcome)?
            } else {
                words::outcome(&outcome)
            }
        }
        QueryWhat::May { unit, act, .. } => {
            let act = muster_engine::act_named(&act).map_err(explain)?;
            let may = engine.may(&unit, act).map_err(explain)?;
            if json {
                to_json(&may)?
            } else {
                words::may(&may)
            }
        }
        QueryWhat::States {
            act, units, result, ..
        } => {
            let act = muster_engine::act_named(&act).map_err(explain)?;
            let units: Vec<&str> = units.iter().map(String::as_str).collect();
            let changes = engine.states_after(act, &units, &result).map_err(explain)?;
            if json {
                to_json(&changes)?
            } else {
                words::states(&changes)
            }
        }
    };
    out!("{text}");
    Ok(ExitCode::SUCCESS)
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string_pretty(value)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| format!("cannot write the answer as JSON: {e}"))
}

/// An engine error in words, telling a counter that is not on the map at this turn
/// from a name the scenario does not have.
pub(crate) fn explain(e: QueryError, asked: &Asked, turn: u8) -> String {
    match &e {
        QueryError::UnknownUnit { id, .. } if asked.counters.iter().any(|c| c == id) => {
            format!(
                "counter `{}` has no unit on the map on turn {turn}: it is a reinforcement still to come, or not in this set-up (try `--turn`)",
                muster_db::text::escape(id)
            )
        }
        _ => muster_db::text::escape(&e.to_string()).into_owned(),
    }
}

/// What `input` names: a scenario of the project (its board at `turn`) or a position
/// file whose `scenario`, or else `system` and `map`, are in the project.
fn asked<'a>(db: &'a Db, path: &Path, shown: &Path, turn: u8) -> Result<Asked<'a>, String> {
    let name = muster_db::text::path(shown);
    if let Some(index) = db.index_of(path) {
        let Some(Document::Scenario(_)) = db.doc(index) else {
            return Err(format!(
                "`{name}` is not a scenario; give a scenario or a position file (JSON)"
            ));
        };
        return of_scenario(db, index, &name, turn);
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{name}`: {e}"))?;
    let position: Position = serde_json::from_str(&text).map_err(|e| {
        format!(
            "`{name}`:{}:{}: not a position: {e} (see `muster schema position`)",
            e.line(),
            e.column()
        )
    })?;
    let by_id = |kind: FileKind, id: &str| db.same_id(kind, id).first().copied();
    let system = by_id(FileKind::System, &position.system).and_then(|i| match db.doc(i) {
        Some(Document::System(s)) => Some(s),
        _ => None,
    });
    let system = system.ok_or_else(|| {
        format!(
            "`{name}`: the project has no system `{}`",
            muster_db::text::escape(&position.system)
        )
    })?;
    let map = by_id(FileKind::Map, &position.map)
        .and_then(|i| db.terrain_map(i))
        .ok_or_else(|| {
            format!(
                "`{name}`: the project has no map `{}` that compiles",
                muster_db::text::escape(&position.map)
            )
        })?;
    Ok(Asked {
        system,
        map,
        position,
        counters: Vec::new(),
    })
}

/// The board of the scenario at `index` at the start of `turn`, with its system and map;
/// `name` is how the scenario is named in errors.
pub(crate) fn of_scenario<'a>(
    db: &'a Db,
    index: usize,
    name: &str,
    turn: u8,
) -> Result<Asked<'a>, String> {
    let cx = FileCx::new(db, index)
        .and_then(ScenarioCx::new)
        .ok_or_else(|| format!("`{name}` could not be resolved; run `muster validate` on it"))?;
    let (system, map) = cx.system.zip(cx.map).ok_or_else(|| {
        format!("`{name}`: its system or map could not be loaded; run `muster validate` on it")
    })?;
    let counters = cx
        .counters
        .map(|s| {
            s.armies
                .iter()
                .flat_map(|a| a.counters.iter().map(|c| c.id.clone()))
                .collect()
        })
        .unwrap_or_default();
    Ok(Asked {
        system,
        map,
        position: from_scenario(&cx, turn),
        counters,
    })
}

/// The answers in words.
mod words {
    use std::fmt::Write;

    use muster_db::text::escape;
    use muster_engine::{
        Combat, Control, HeldBy, May, Modifier, Outcome, Reach, RuleRef, Sight, StateChange, Supply,
    };

    fn rules(out: &mut String, rules: &[RuleRef]) {
        if rules.is_empty() {
            return;
        }
        let list: Vec<String> = rules
            .iter()
            .map(|r| match &r.section {
                Some(s) => format!("{} ({s})", escape(&r.rule)),
                None => escape(&r.rule).into_owned(),
            })
            .collect();
        let _ = writeln!(out, "rules: {}", list.join("; "));
    }

    /// A face read at its modified roll: `3 as 4 D1`, or `3 as 4 no row` past the
    /// table's rows.
    fn modified_roll(r: &muster_engine::ModifiedRoll) -> String {
        let result = r.result.as_deref().map_or("no row".into(), escape);
        if i32::from(r.die) == r.roll {
            format!("{} {result}", r.die)
        } else {
            format!("{} as {} {result}", r.die, r.roll)
        }
    }

    fn signed(m: &Modifier) -> String {
        let section = m
            .section
            .as_deref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        format!("{:+} {}{section}", m.value, escape(&m.what))
    }

    /// One hex of a reach: the MP left, a path, and notes on how it is reached.
    fn reach_line(out: &mut String, h: &muster_engine::ReachHex) {
        let mut notes = Vec::new();
        if let Some(m) = &h.mode {
            notes.push(format!("by {}", escape(m)));
        }
        if h.minimum_move {
            notes.push("minimum move".to_string());
        }
        if h.enemy_zoc {
            notes.push("enemy zone".to_string());
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!("  ({})", notes.join(", "))
        };
        let _ = writeln!(
            out,
            "  {}  {:>4} MP left  {}{notes}",
            h.hex,
            h.mp_left,
            h.path.join(" ")
        );
    }

    pub fn reach(r: &Reach) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "`{}` from {} with {} MP: {} hexes",
            escape(&r.unit),
            r.from,
            r.movement,
            r.hexes.len()
        );
        for h in &r.hexes {
            reach_line(&mut out, h);
        }
        if let Some(m) = r.moor_cost {
            let _ = writeln!(out, "mooring costs {m} MP more");
        }
        if !r.exits.is_empty() {
            let _ = writeln!(out, "may leave the map from {} hexes:", r.exits.len());
        }
        for h in &r.exits {
            reach_line(&mut out, h);
        }
        rules(&mut out, &r.rules);
        out
    }

    pub fn combat(c: &Combat) -> String {
        let mut out = String::new();
        for (title, side) in [("attack", &c.attackers), ("defence", &c.defenders)] {
            let _ = writeln!(out, "{title}:");
            for s in side {
                let mods: Vec<String> = s.modifiers.iter().map(signed).collect();
                let range = if s.at_range { " from range" } else { "" };
                let mods = if mods.is_empty() {
                    String::new()
                } else {
                    format!(" {}", mods.join(" "))
                };
                let _ = writeln!(
                    out,
                    "  {:<28} {}{range}  {}{mods} = {}",
                    escape(&s.unit),
                    s.hex,
                    s.base,
                    s.total
                );
            }
        }
        if let Some(p) = &c.protection {
            let section = p
                .section
                .as_deref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "against fire the hex defends at {}: {}{section}",
                p.value,
                escape(&p.what)
            );
        }
        let _ = writeln!(
            out,
            "{} against {}: {} {}",
            c.attack, c.defence, c.index, c.ratio
        );
        match (&c.column, &c.not_allowed) {
            (_, Some(why)) => {
                let _ = writeln!(out, "not allowed: {}", escape(why));
            }
            (Some(col), None) => {
                let before = c.column_before_shifts.as_deref().unwrap_or(col);
                let shifts: Vec<String> = c.shifts.iter().map(signed).collect();
                let shifts = if shifts.is_empty() {
                    String::new()
                } else {
                    format!(", shifted {}", shifts.join(", "))
                };
                let _ = writeln!(out, "column {} (rounded to {before}{shifts})", escape(col));
            }
            (None, None) => {
                let _ = writeln!(out, "the system has no combat results table");
            }
        }
        if !c.die_modifiers.is_empty() {
            let dice: Vec<String> = c.die_modifiers.iter().map(signed).collect();
            let _ = writeln!(out, "die modifiers: {}", dice.join(", "));
        }
        if !c.results.is_empty() {
            let results: Vec<String> = c
                .results
                .iter()
                .map(|r| format!("{} {}", r.die, escape(&r.result)))
                .collect();
            let _ = writeln!(out, "results by die: {}", results.join(", "));
        }
        if !c.modified.is_empty() {
            let results: Vec<String> = c.modified.iter().map(modified_roll).collect();
            let _ = writeln!(out, "after die modifiers: {}", results.join(", "));
        }
        if !c.may_retreat.is_empty() {
            let ids: Vec<String> = c
                .may_retreat
                .iter()
                .map(|u| escape(u).into_owned())
                .collect();
            let _ = writeln!(out, "may retreat before combat: {}", ids.join(", "));
        }
        for j in &c.charges {
            let verdict = match (&j.charge, &j.reason) {
                (true, _) => "a charge".to_string(),
                (false, Some(why)) => format!("no charge: {}", escape(why)),
                (false, None) => "no charge".to_string(),
            };
            let _ = writeln!(
                out,
                "path of `{}` {}: {verdict}",
                escape(&j.unit),
                j.path.join(" ")
            );
        }
        rules(&mut out, &c.rules);
        out
    }

    pub fn sight(s: &Sight) -> String {
        let mut out = String::new();
        let verdict = match &s.blocked_by {
            None => "clear".to_string(),
            Some(b) => match &b.beside {
                Some(other) => format!("blocked by {} in {} and {other}", escape(&b.what), b.hex),
                None => format!("blocked by {} in {}", escape(&b.what), b.hex),
            },
        };
        let _ = writeln!(
            out,
            "{} to {} ({} hexes): {verdict}",
            s.from, s.to, s.distance
        );
        let line: Vec<String> = s.line.iter().map(|step| step.join("/")).collect();
        if !line.is_empty() {
            let _ = writeln!(out, "through {}", line.join(" "));
        }
        rules(&mut out, &s.rules);
        out
    }

    pub fn outcome(o: &Outcome) -> String {
        let mut out = String::new();
        let part = if o.attacking { "attacker" } else { "defender" };
        let _ = writeln!(
            out,
            "`{}` as the {part}, result {}:",
            escape(&o.unit),
            escape(&o.result)
        );
        let codes = |list: &[String]| {
            list.iter()
                .map(|c| escape(c).into_owned())
                .collect::<Vec<_>>()
                .join(" ")
        };
        if o.codes.is_empty() && o.ignored.is_empty() {
            let _ = writeln!(out, "nothing befalls it");
        }
        if !o.codes.is_empty() {
            let meaning: Vec<String> = o.effects.iter().map(|e| format!("{e:?}")).collect();
            let _ = writeln!(
                out,
                "takes {}{}",
                codes(&o.codes),
                if meaning.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", meaning.join(", "))
                }
            );
        }
        if !o.ignored.is_empty() {
            let _ = writeln!(out, "ignores {}", codes(&o.ignored));
        }
        if let Some(s) = &o.status {
            let _ = writeln!(out, "goes to status `{}`", escape(s));
        }
        if let Some(k) = &o.becomes {
            let _ = writeln!(out, "becomes a `{}`", escape(k));
        }
        rules(&mut out, &o.rules);
        out
    }

    pub fn may(m: &May) -> String {
        let mut out = String::new();
        let act = escape(&format!("{:?}", m.act)).into_owned();
        let unit = escape(&m.unit).into_owned();
        let _ = match (&m.reason, m.allowed) {
            (Some(why), _) => writeln!(out, "`{unit}` may not `{act}`: {}", escape(why)),
            (None, true) => writeln!(out, "`{unit}` may `{act}`"),
            (None, false) => writeln!(out, "`{unit}` may not `{act}`"),
        };
        if let Some(c) = m.cost {
            let _ = writeln!(out, "it costs {c} MP");
        }
        rules(&mut out, &m.rules);
        out
    }

    pub fn states(changes: &[StateChange]) -> String {
        let mut out = String::new();
        if changes.is_empty() {
            let _ = writeln!(out, "no kept state changes");
        }
        for c in changes {
            let how = if c.enters { "enters" } else { "leaves" };
            let section = c
                .rule
                .section
                .as_deref()
                .map_or(String::new(), |s| format!(" ({s})"));
            let _ = writeln!(
                out,
                "`{}` {how} `{}`{}",
                escape(&c.unit),
                escape(&c.state),
                escape(&section)
            );
        }
        out
    }

    pub fn control(c: &Control) -> String {
        let mut out = String::new();
        if c.hexes.is_empty() {
            out.push_str("the map has no labelled hexes\n");
        }
        for h in &c.hexes {
            let side = h.side.as_deref().map(escape).unwrap_or_default();
            let why = match h.by {
                HeldBy::Occupied => format!("held by `{side}`, whose units stand in it"),
                HeldBy::Contested => "held by nobody: units of both sides stand in it".into(),
                HeldBy::HeldLast => format!("held by `{side}`, whose units stood in it last"),
                HeldBy::Nobody => "held by nobody".into(),
                HeldBy::Recorded if h.side.is_some() => {
                    format!("held by `{side}`, as the position records")
                }
                HeldBy::Recorded => "held by nobody, as the position records".into(),
            };
            let _ = writeln!(out, "{} `{}`: {why}", h.hex, escape(&h.label));
        }
        rules(&mut out, &c.rules);
        out
    }

    pub fn supply(s: &Supply) -> String {
        let mut out = String::new();
        match (&s.in_supply, &s.reason) {
            (true, _) => {
                let _ = writeln!(
                    out,
                    "{} is in supply for `{}`: {}",
                    s.hex,
                    escape(&s.side),
                    s.trace.join(" ")
                );
            }
            (false, reason) => {
                let why = reason.as_deref().map(escape).unwrap_or_default();
                let _ = writeln!(
                    out,
                    "{} is out of supply for `{}`: {why}",
                    s.hex,
                    escape(&s.side)
                );
            }
        }
        rules(&mut out, &s.rules);
        out
    }
}
