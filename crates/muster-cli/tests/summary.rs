//! `muster summary` on edited copies of the project: an error in a file the scenario
//! uses is counted, and unit names sort by their numbers. The summaries of the bundled
//! scenarios (victory conditions, special rules, setups by counter id, notes, assumed
//! values) and of a scenario with errors are whole-output cases in `tests/cmd/summary-*`.

mod common;

use std::path::Path;

use common::{copy_project, muster};
use serde_json::Value;

/// Human summary, JSON summary and stderr of `muster summary` run in `dir`.
fn summary_in(dir: &Path, rel: &str) -> (String, Value, String) {
    let human = muster()
        .current_dir(dir)
        .args(["summary", rel])
        .output()
        .unwrap();
    assert!(human.status.success(), "{rel}");
    let json = muster()
        .current_dir(dir)
        .args(["summary", rel, "--format", "json"])
        .output()
        .unwrap();
    assert!(json.status.success(), "{rel}");
    let value: Value = serde_json::from_slice(&json.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&json.stdout)));
    (
        String::from_utf8(human.stdout).unwrap(),
        value,
        String::from_utf8(json.stderr).unwrap(),
    )
}

/// Replaces the first `from` in a file.
fn mutate(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "`{from}` not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn an_error_in_the_map_a_scenario_uses_counts_too() {
    let dir = copy_project();
    mutate(
        &dir.path().join("maps/lrf/jengland.map.ron"),
        "Label(hex: \"0105\"",
        "Label(hex: \"1705\"",
    );
    let (text, json, _) = summary_in(dir.path(), "scenarios/lrf/jengland.scenario.ron");
    assert!(
        text.starts_with(
            "warning: this scenario and the files it uses have 1 error; figures below may be wrong (run `muster validate maps/lrf/jengland.map.ron`)\n"
        ),
        "{text}"
    );
    assert_eq!(json["errors"], 1);
}

/// Unit names with numbers sort by the numbers' values, in the text and the JSON.
#[test]
fn unit_names_sort_naturally() {
    let dir = copy_project();
    let counters = dir.path().join("scenarios/lrf/lrf.counters.ron");
    mutate(&counters, "name: \"Saxe\",", "name: \"10 Army\",");
    mutate(&counters, "name: \"Ecuyers\",", "name: \"3 Army\",");
    mutate(
        &counters,
        "id: \"jengland-cavalry-3\",\n                    name: \"Cavalry\",",
        "id: \"jengland-cavalry-3\",\n                    name: \"5 Army\",",
    );
    let rel = "scenarios/lrf/jengland.scenario.ron";
    let (text, json, _) = summary_in(dir.path(), rel);
    let names: Vec<String> = json["sides"][0]["by_unit"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["name"].as_str().unwrap().to_string())
        .filter(|n| n.ends_with(" Army"))
        .collect();
    assert_eq!(names, ["3 Army", "5 Army", "10 Army"]);
    let at = |name: &str| {
        text.find(&format!(" x {name} ("))
            .unwrap_or_else(|| panic!("{name} in\n{text}"))
    };
    assert!(
        at("3 Army") < at("5 Army") && at("5 Army") < at("10 Army"),
        "{text}"
    );
}

/// `[optional-rules]` in `muster.toml` switches a system's optional rule on for every
/// scenario of it: the summary says so; a misspelt rule or system is reported in
/// `muster.toml`, with did-you-mean.
#[test]
fn muster_toml_switches_optional_rules_on() {
    let dir = copy_project();
    let toml = dir.path().join("muster.toml");
    let rel = "scenarios/prestags/4-2-tours.scenario.ron";
    let (before, _, _) = summary_in(dir.path(), rel);
    assert!(!before.contains("optional rule"), "{before}");
    std::fs::write(&toml, "[optional-rules]\nprestags = [\"elevation\"]\n").unwrap();
    let (after, _, _) = summary_in(dir.path(), rel);
    assert!(
        after.contains("optional rule Melee Combat and Elevation (muster.toml): uphill:"),
        "{after}"
    );
    let clean = muster()
        .current_dir(dir.path())
        .args(["validate", "--format", "short"])
        .output()
        .unwrap();
    assert!(
        clean.status.success(),
        "{}",
        String::from_utf8_lossy(&clean.stdout)
    );
    std::fs::write(
        &toml,
        "[optional-rules]\nprestags = [\"elevaton\"]\nprestag = [\"elevation\"]\n",
    )
    .unwrap();
    let out = muster()
        .current_dir(dir.path())
        .args(["validate", "--format", "short"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("config::unknown-optional-rule"))
        .collect();
    assert_eq!(
        lines,
        [
            "muster.toml:2:13: error[config::unknown-optional-rule]: system `prestags` has no optional rule `elevaton`",
            "muster.toml:3:1: error[config::unknown-optional-rule]: no rules system `prestag` in the project",
        ],
        "{text}"
    );
}
