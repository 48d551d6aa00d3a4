//! `muster explain` against the catalogue: every hook's page shows its example and its
//! parameters, every example validates, and the help text quotes only real codes. Pages
//! by code and short name, ambiguous and unknown names are cases in `tests/cmd/explain-*`.

mod common;

use common::{copy_project, muster};
use serde_json::Value;

fn stdout_of(args: &[&str]) -> (String, String, i32) {
    let out = muster().args(args).output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        out.status.code().unwrap(),
    )
}

#[test]
fn every_hook_page_shows_its_example_and_its_parameters() {
    for hook in muster_semantic::hooks::HOOKS {
        let (text, _, code) = stdout_of(&["explain", hook.id]);
        assert_eq!(code, 0, "{}", hook.id);
        assert!(text.contains(hook.example), "{}: {text}", hook.id);
        for p in hook.parameter_names() {
            assert!(
                text.contains(&format!("  - `{p}` (")),
                "{}: {text}",
                hook.id
            );
        }
    }
}

/// The bundled scenarios of a system, by the `system` field of each.
fn scenarios_of(dir: &std::path::Path, system: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in walk(&dir.join("scenarios")) {
        if !entry.to_string_lossy().ends_with(".scenario.ron") {
            continue;
        }
        let text = std::fs::read_to_string(&entry).unwrap();
        if text.contains(&format!("system: \"{system}\"")) {
            out.push(entry);
        }
    }
    out.sort();
    out
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.path().is_dir() {
            out.extend(walk(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out
}

/// Inserts a special rule into a scenario's text (creating `special_rules` if needed).
fn with_rule(text: &str, rule: &str) -> String {
    if let Some(at) = text.find("special_rules: [") {
        let at = at + "special_rules: [".len();
        format!("{}\n        {rule},{}", &text[..at], &text[at..])
    } else {
        let at = text.rfind("    victory:").expect("a victory field");
        format!(
            "{}    special_rules: [\n        {rule},\n    ],\n{}",
            &text[..at],
            &text[at..]
        )
    }
}

fn diagnostics(dir: &std::path::Path, file: &std::path::Path) -> Vec<Value> {
    let out = muster()
        .current_dir(dir)
        .args(["validate", "--format", "json"])
        .arg(file)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Every hook's example is a rule that works: inserted into a copy of one of the
/// bundled scenarios of its system, the scenario stays free of diagnostics.
#[test]
fn every_hook_example_validates_in_a_scenario_of_its_system() {
    let dir = copy_project();
    for hook in muster_semantic::hooks::HOOKS {
        let mut tried = Vec::new();
        let mut clean = false;
        for system in hook.systems {
            for path in scenarios_of(dir.path(), system) {
                let original = std::fs::read_to_string(&path).unwrap();
                std::fs::write(&path, with_rule(&original, hook.example)).unwrap();
                let found = diagnostics(dir.path(), &path);
                std::fs::write(&path, &original).unwrap();
                if found.is_empty() {
                    clean = true;
                    break;
                }
                tried.push(format!(
                    "{}: {:?}",
                    path.display(),
                    found.iter().map(|d| d["code"].clone()).collect::<Vec<_>>()
                ));
            }
            if clean {
                break;
            }
        }
        assert!(
            clean,
            "example of `{}` gives diagnostics everywhere:\n{}",
            hook.id,
            tried.join("\n")
        );
    }
}

/// A hook of another game in a scenario is reported directly.
#[test]
fn a_hook_of_another_system_is_reported() {
    let dir = copy_project();
    let path = dir.path().join("scenarios/lrf/jengland.scenario.ron");
    let original = std::fs::read_to_string(&path).unwrap();
    let rule = muster_semantic::hooks::find("stacking-override")
        .unwrap()
        .example;
    std::fs::write(&path, with_rule(&original, rule)).unwrap();
    let found = diagnostics(dir.path(), &path);
    assert!(
        found.iter().any(|d| d["code"] == "references::wrong-system"
            && d["message"].as_str().unwrap().contains("`prestags`")),
        "{found:?}"
    );
    // And an LRF scenario that names PRESTAGS as its system: direct diagnostics.
    std::fs::write(
        &path,
        original.replacen("system: \"lrf\"", "system: \"prestags\"", 1),
    )
    .unwrap();
    let found = diagnostics(dir.path(), &path);
    let direct: Vec<_> = found
        .iter()
        .filter(|d| d["code"] == "references::wrong-system")
        .collect();
    assert_eq!(
        direct.len(),
        2 + 2,
        "map, counter sheet and two LRF hooks: {found:?}"
    );
}

/// Every code the help text of `explain` quotes exists.
#[test]
fn the_help_of_explain_quotes_real_codes() {
    let (text, _, code) = stdout_of(&["explain", "--help"]);
    assert_eq!(code, 0);
    // The command's own text: its description and its argument (the options after it
    // are global).
    let own = text.split("Options:").next().unwrap();
    let quoted: Vec<&str> = own.split('`').skip(1).step_by(2).collect();
    assert!(!quoted.is_empty(), "{text}");
    let codes: Vec<&str> = muster_check::registry::REGISTRY
        .iter()
        .map(|c| c.meta.code)
        .collect();
    for q in quoted {
        let known = codes.contains(&q)
            || codes
                .iter()
                .filter(|c| c.rsplit("::").next() == Some(q))
                .count()
                == 1
            || muster_semantic::hooks::find(q).is_some()
            || q == "hooks";
        assert!(
            known,
            "`muster explain --help` quotes `{q}`, which is no check or hook"
        );
    }
}

/// `muster checks` lists every registered code (its whole output is the case
/// `tests/cmd/checks`; this catches a check registered but left out of the list).
#[test]
fn checks_lists_every_registered_code() {
    let (text, _, code) = stdout_of(&["checks"]);
    assert_eq!(code, 0);
    for c in muster_check::registry::REGISTRY {
        assert!(
            text.contains(c.meta.code),
            "{} missing from `muster checks`",
            c.meta.code
        );
    }
}

/// Every code `muster import tiled` reports is explained by `muster explain`, with the
/// sections of a check's page.
#[test]
fn explain_knows_every_tiled_import_code() {
    assert!(!muster_tiled::codes::CHECKS.is_empty());
    for c in muster_tiled::codes::CHECKS {
        let (text, _, code) = stdout_of(&["explain", c.code]);
        assert_eq!(code, 0, "{}", c.code);
        assert!(
            text.starts_with(&format!("# {} ({})", c.code, c.severity)),
            "{text}"
        );
        for section in [
            "## What it does",
            "## Why is this bad?",
            "## Example",
            "Use instead:",
        ] {
            assert!(text.contains(section), "`{}` lacks `{section}`", c.code);
        }
    }
}
