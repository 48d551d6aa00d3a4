use muster_db::declare_check;
use muster_db::place::Place;
use muster_db::report::{Report, Sink};
use muster_db::suggest::did_you_mean;
use muster_semantic::rules::names::resolves;
use muster_semantic::rules::vocab::{ScenarioName, scenario_walk, system_walk};
use muster_semantic::{ScenarioCx, missing_label};

use super::unknown_name::unknown;

declare_check! {
    /// ## What it does
    /// Checks the names a scenario gives the rules vocabulary: in its own special
    /// rules' `when` and `then`, `Side(...)` must name one of its sides, `Counter(...)` a
    /// counter of its counter sheet, and every other
    /// name (troop type, status, weather, terrain, hexside feature, phase, movement
    /// mode, result code) one of its system's; its turn record's weather must be a
    /// weather kind of the system, each side's `faction` a faction of the system, each
    /// supply source's `side` one of its sides; and every map label named by its rules
    /// or by its system's rules (`Controls("...")`) or by a supply source must be on its
    /// map. A system label missing from the map is reported at the scenario's `map`.
    ///
    /// ## Why is this bad?
    /// A rule naming what does not exist applies to nobody, a turn of unknown weather
    /// has no rules, and a supply source at an unknown label is nowhere.
    ///
    /// ## Example
    /// ```ron
    /// turn_record: [(turn: 1, weather: "clear"), (turn: 2, weather: "mudd"), (turn: 3, weather: "mud")],
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// turn_record: [(turn: 1, weather: "clear"), (turn: 2, weather: "mud"), (turn: 3, weather: "mud")],
    /// ```
    pub META = ("rules::unknown-scenario-name", Error, "a scenario's rules, turn record or supply name what its system, sides or map lack");
}

pub fn run(cx: &ScenarioCx, sink: &mut Sink) {
    let Some(system) = cx.system else { return };
    let walk = scenario_walk(cx.scenario);
    let sides: Vec<&str> = cx.scenario.sides.iter().map(|s| s.id.as_str()).collect();
    let counters: Vec<&str> = cx
        .counters
        .iter()
        .flat_map(|sheet| &sheet.armies)
        .flat_map(|a| a.counters.iter().map(|c| c.id.as_str()))
        .collect();
    for (kind, name) in &walk.names {
        match kind {
            ScenarioName::Side if !sides.contains(&name.name) => {
                let help = did_you_mean(name.name, sides.iter().copied())
                    .unwrap_or_else(|| format!("sides: {}", sides.join(", ")));
                sink.push(
                    Report::new(
                        &META,
                        name.at.clone(),
                        format!("unknown side `{}`", name.name),
                    )
                    .help(help),
                );
            }
            ScenarioName::System(_) if !resolves(system, name) => {
                sink.push(unknown(&META, system, name));
            }
            ScenarioName::Counter if !counters.contains(&name.name) => {
                let help = did_you_mean(name.name, counters.iter().copied()).unwrap_or_else(|| {
                    match cx.counters {
                        Some(sheet) => format!("counter sheet `{}` has no such counter", sheet.id),
                        None => "the scenario names no counter sheet".to_string(),
                    }
                });
                sink.push(
                    Report::new(
                        &META,
                        name.at.clone(),
                        format!("unknown counter `{}`", name.name),
                    )
                    .help(help),
                );
            }
            ScenarioName::Side | ScenarioName::System(_) | ScenarioName::Counter => {}
        }
    }
    let Some(map) = cx.map else { return };
    for (place, label) in walk.labels {
        if let Some(report) = missing_label(&META, map, place, label) {
            sink.push(report);
        }
    }
    for (_, label) in system_walk(system).labels {
        if let Some(report) = missing_label(&META, map, Place::top("map"), label) {
            sink.push(report.help(format!(
                "a rule of system `{}` names label `{label}`: label a hex `{label}` on the map, or correct the rule",
                system.id
            )));
        }
    }
}
