//! `muster summary`: the scenario's balance sheet as text or JSON, with a warning when
//! the scenario or a file it uses has errors.

use muster_db::load::Document;
use muster_db::project::{Db, Resolution};
use muster_db::{Diagnostic, Severity};
use muster_ide::summary::{
    ReinforcementLine, ScenarioSummary, SetupLine, SideSummary, TableSummary, ZonedSummary,
};
use muster_model::FileKind;
use serde::Serialize;

/// The JSON of `muster summary --format json`: the summary with the number of errors
/// found in the scenario and the files it uses.
#[derive(Serialize)]
pub struct JsonSummary<'a> {
    pub errors: usize,
    #[serde(flatten)]
    pub summary: &'a ScenarioSummary,
}

/// File `index` first, then every file it uses (system, counter sheet, map) and the
/// files those use, each once.
pub fn dependencies(db: &Db, index: usize) -> Vec<usize> {
    let mut out = vec![index];
    let mut i = 0;
    while i < out.len() {
        let at = out[i];
        i += 1;
        let refs: Vec<(&str, FileKind)> = match db.doc(at) {
            Some(Document::Scenario(s)) => {
                let mut refs = vec![
                    (s.system.as_str(), FileKind::System),
                    (s.map.as_str(), FileKind::Map),
                ];
                if let Some(c) = &s.counters {
                    refs.push((c.as_str(), FileKind::Counters));
                }
                refs
            }
            Some(Document::Map(m)) => vec![(m.system.as_str(), FileKind::System)],
            Some(Document::Counters(c)) => vec![(c.system.as_str(), FileKind::System)],
            Some(Document::System(_)) | None => Vec::new(),
        };
        for (reference, kind) in refs {
            if let Resolution::Found(found) = db.resolve(at, reference, kind)
                && !out.contains(&found)
            {
                out.push(found);
            }
        }
    }
    out
}

/// The errors that make a summary doubtful: error-severity diagnostics in the files at
/// `indexes` (the scenario first, then the files it uses).
pub struct Errors {
    pub count: usize,
    /// Whether some are in the files the scenario uses rather than in the scenario.
    pub in_dependencies: bool,
    /// The names of the files that have them, the scenario's first.
    pub files: Vec<String>,
}

pub fn errors_in(db: &Db, indexes: &[usize], diagnostics: &[Diagnostic]) -> Errors {
    let mut errors = Errors {
        count: 0,
        in_dependencies: false,
        files: Vec::new(),
    };
    for (k, loaded) in indexes.iter().filter_map(|&i| db.files.get(i)).enumerate() {
        let found = diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error && d.file.path == loaded.file.path)
            .count();
        if found > 0 {
            errors.count += found;
            errors.in_dependencies |= k > 0;
            errors.files.push(loaded.file.name.clone());
        }
    }
    errors
}

/// The warning printed above a summary (or on stderr beside its JSON).
pub fn warning(errors: &Errors, above: bool) -> String {
    format!(
        "warning: this scenario {} {} error{}; {} may be wrong (run `muster validate {}`)",
        if errors.in_dependencies {
            "and the files it uses have"
        } else {
            "has"
        },
        errors.count,
        if errors.count == 1 { "" } else { "s" },
        if above {
            "figures below"
        } else {
            "its figures"
        },
        errors.files.join(" ")
    )
}

/// Text from the data, as the terminal may show it: control, bidi and non-characters
/// escaped (`muster_db::text`), so a name cannot start a line of its own.
fn e(text: &str) -> std::borrow::Cow<'_, str> {
    muster_db::text::escape(text)
}

fn join<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
    items.iter().map(f).collect::<Vec<_>>().join(", ")
}

/// Lines of one setup group, in order of the groups.
fn by_group(lines: &[SetupLine]) -> Vec<&[SetupLine]> {
    lines.chunk_by(|a, b| a.group == b.group).collect()
}

/// A counter of a placed setup line: `2 x saxe "Saxons"`.
fn counter_text(l: &SetupLine) -> String {
    let count = if l.count > 1 {
        format!("{} x ", l.count)
    } else {
        String::new()
    };
    let status = l
        .status
        .as_ref()
        .map_or(String::new(), |s| format!(" (starts {})", e(s)));
    format!("{count}{} \"{}\"{status}", e(&l.counter), e(&l.name))
}

/// Placed setup: one line per setup group, its counters by id and name, then where.
fn placed_setup(lines: &[SetupLine], indent: &str) -> String {
    let mut out = String::new();
    for group in by_group(lines) {
        out += &format!(
            "{indent}{}: {}\n",
            join(group, counter_text),
            e(&group[0].placement)
        );
    }
    out
}

pub fn human(s: &ScenarioSummary, errors: &Errors, list_assumed: bool) -> String {
    let mut out = String::new();
    if errors.count > 0 {
        out += &warning(errors, true);
        out += "\n\n";
    }
    out += &heading(s);
    for side in &s.sides {
        out += &format!("\n{} [{}]\n", e(&side.name), e(&side.id));
        if side.zoned.is_none() && side.table.is_none() {
            out += &forces(side);
        }
        for r in &side.reinforcements {
            out += &reinforcement(r);
        }
        if let Some(t) = &side.morale_threshold {
            out += &format!("  morale threshold: {}\n", e(&t.to_string()));
        }
        if let Some(z) = &side.zoned {
            out += &zoned(side, z);
        }
        if let Some(t) = &side.table {
            out += &table(side, t);
        }
        if let Some(l) = side.could_lose {
            out += &format!("  could lose in all: {l}\n");
        }
    }
    out += &scenario_rules(s);
    out += &format!(
        "\nassumed values (not printed in the rulebook): {}\n",
        s.assumed.len()
    );
    if list_assumed {
        for a in &s.assumed {
            out += &format!("  {} `{}`: {}\n", e(&a.item), e(&a.field), e(&a.reason));
        }
    }
    out
}

/// The scenario's name, map and turns.
fn heading(s: &ScenarioSummary) -> String {
    let mut out = format!("{} ({})\n", e(&s.name), e(&s.id));
    if let Some(m) = &s.map {
        out += &format!("map: {} ({})\n", e(&m.id), e(&m.size));
    }
    out += &format!("turns: {}", s.turns);
    if s.extra_turns > 0 {
        out += &format!(" (+{} optional)", s.extra_turns);
    }
    let setup = match (&s.deploys_first, s.simultaneous_setup) {
        (_, true) => "both sides set up at once".to_string(),
        (Some(side), false) => format!("deploys first: {}", e(side)),
        (None, false) => "deploys first: not given".to_string(),
    };
    out += &format!("; {setup}; plays first: {}\n", e(&s.plays_first));
    out
}

/// A side of a counters-on-hexes game: commanders, units by kind and by design, setup.
fn forces(side: &SideSummary) -> String {
    let mut out = format!(
        "  commanders: {}\n",
        if side.commanders.is_empty() {
            "none".to_string()
        } else {
            join(&side.commanders, |c| e(c).into_owned())
        }
    );
    out += &format!(
        "  combat units: {} (total strength {})\n",
        side.combat_units, side.combat_strength
    );
    if side.baggage > 0 {
        out += &format!("  baggage: {}\n", side.baggage);
    }
    out += "  by kind: ";
    out += &join(&side.by_kind, |k| format!("{} {}", k.count, e(&k.name)));
    out += "\n  units:\n";
    for u in &side.by_unit {
        let status = u
            .status
            .as_ref()
            .map_or(String::new(), |s| format!(", starts {}", e(s)));
        out += &format!(
            "    {} x {} ({}, strength {}{status})\n",
            u.count,
            e(&u.name),
            e(&u.kind),
            u.strength
        );
    }
    for b in &side.boxes {
        out += &format!(
            "  {}: {}\n",
            e(&b.name),
            join(&b.units, |u| {
                let count = if u.count > 1 {
                    format!("{} x ", u.count)
                } else {
                    String::new()
                };
                format!("{count}{} \"{}\"", e(&u.counter), e(&u.name))
            })
        );
    }
    if side.hidden {
        out += "  hidden setup: placed out of the other player's sight\n";
    }
    if !side.setup.is_empty() {
        out += "  setup (counter id \"name\": where):\n";
        out += &placed_setup(&side.setup, "    ");
    }
    out
}

/// Units that enter on a turn, and where.
fn reinforcement(r: &ReinforcementLine) -> String {
    format!(
        "  reinforcements turn {}: {} entering at {}\n",
        r.turn,
        join(&r.units, |u| {
            let count = if u.count > 1 {
                format!("{} x ", u.count)
            } else {
                String::new()
            };
            format!("{count}{} \"{}\"", e(&u.counter), e(&u.name))
        }),
        r.entry.iter().map(|x| e(x)).collect::<Vec<_>>().join(" / ")
    )
}

/// A side deployed in zones: its units, leaders, victory points and levels, zones and a
/// sample deployment.
fn zoned(side: &SideSummary, z: &ZonedSummary) -> String {
    let mut out = format!(
        "  units: {}\n  leaders: {}\n  victory points: {} computed, {} printed\n  panic level: {} ({}% of VP)\n  stacking limit: {}\n",
        join(&z.units, |u| format!("{} {}", u.count, e(&u.name))),
        if z.leaders.is_empty() {
            "none".to_string()
        } else {
            join(&z.leaders, |u| format!("{} {}", u.count, e(&u.name)))
        },
        z.vp_computed.map_or("?".to_string(), |v| v.to_string()),
        z.vp_printed,
        z.panic_level,
        z.panic_percent,
        z.stacking_limit
    );
    out += "  deployment:\n";
    for (k, zone) in z.zones.iter().enumerate() {
        let units: Vec<&SetupLine> = side.setup.iter().filter(|l| l.group == k + 1).collect();
        out += &format!(
            "    {}{}: {}; {}\n",
            e(&zone.group),
            zone.hexes
                .map_or(String::new(), |h| format!(" [{h} hexes]")),
            if units.is_empty() {
                "no units".to_string()
            } else {
                join(&units, |u| format!("{} {}", u.count, e(&u.counter)))
            },
            e(&zone.placement)
        );
    }
    if !z.sample.is_empty() {
        out += "  sample deployment:\n";
        for st in &z.sample {
            out += &format!(
                "    {}: {}",
                e(&st.hex),
                join(&st.units, |u| format!("{} {}", u.count, e(&u.name)))
            );
            if !st.aboard.is_empty() {
                out += &format!(
                    " carrying {}",
                    join(&st.aboard, |u| format!("{} {}", u.count, e(&u.name)))
                );
            }
            out += "\n";
        }
    }
    out
}

/// A side of a tabletop game: troops and bases, figures, leaders, break point, victory
/// points, morale, zones and setup.
fn table(side: &SideSummary, t: &TableSummary) -> String {
    let mut out = String::new();
    for troop in &t.troops {
        out += &format!(
            "  {} x {} ({} bases)\n",
            troop.units,
            e(&troop.troop),
            troop.bases
        );
    }
    if !t.figures.is_empty() {
        out += &format!(
            "  figures: {}\n",
            join(&t.figures, |f| format!("{} {}", f.count, e(&f.name)))
        );
    }
    if !t.leaders.is_empty() {
        out += &format!("  leaders: {}\n", join(&t.leaders, |l| e(l).into_owned()));
    }
    if t.break_point_printed.is_some() || t.break_point_computed.is_some() {
        out += &format!(
            "  break point: {} computed, {} printed\n",
            t.break_point_computed
                .map_or("?".to_string(), |v| v.to_string()),
            t.break_point_printed
                .map_or("-".to_string(), |v| v.to_string())
        );
    }
    if t.vp_printed.is_some() || t.vp_computed.is_some() {
        out += &format!(
            "  victory points: {} computed, {} printed\n",
            t.vp_computed.map_or("?".to_string(), |v| v.to_string()),
            t.vp_printed.map_or("-".to_string(), |v| v.to_string())
        );
    }
    if let Some(m) = &t.morale {
        out += &format!("  army morale: {}\n", e(&m.to_string()));
    }
    for (id, area) in &t.zones {
        out += &format!("  zone {}: {area:.0} square inches\n", e(&id.to_string()));
    }
    if !side.setup.is_empty() {
        out += "  setup (id \"name\": where):\n";
        for l in &side.setup {
            let figures = if l.at.is_none() {
                format!(" ({} figures)", l.count)
            } else {
                String::new()
            };
            out += &format!(
                "    {} \"{}\"{figures}: {}\n",
                e(&l.counter),
                e(&l.name),
                e(&l.placement)
            );
        }
    }
    out
}

/// What the scenario adds to the game: neutral units, victory, special rules, the rules
/// in play and the system's notes.
fn scenario_rules(s: &ScenarioSummary) -> String {
    let mut out = String::new();
    if !s.neutral_setup.is_empty() {
        out += "\nneutral units (counter id \"name\": where):\n";
        out += &placed_setup(&s.neutral_setup, "  ");
    }
    if !s.victory.is_empty() {
        out += "\nvictory:\n";
        for v in &s.victory {
            out += &format!("  - {}\n", e(&v.text));
        }
    }
    if !s.special_rules.is_empty() {
        out += "\nspecial rules:\n";
        for r in &s.special_rules {
            if r.params_text.is_empty() {
                out += &format!("  {}\n", e(&r.hook));
            } else {
                out += &format!("  {} ({})\n", e(&r.hook), e(&r.params_text));
            }
            out += &format!("    {}\n", e(&r.text));
            for rule in &r.rules {
                out += &format!("    as a rule: {}\n", e(rule));
            }
        }
    }
    if !s.rules.is_empty() {
        out += "\nrules in play:\n";
        for r in &s.rules {
            out += &format!("  {}: {}\n", e(&r.topic), e(&r.text));
        }
    }
    if !s.notes.is_empty() {
        out += "\nsystem notes:\n";
        for note in &s.notes {
            out += &format!("  - {}\n", e(note));
        }
    }
    out
}
