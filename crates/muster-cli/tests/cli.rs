//! End-to-end tests of the `muster` binary that a whole-output case cannot make: the
//! report against its schema, bad input of every shape (binary, truncated, 50 MB),
//! compile's tables, source files left untouched, colour when piped, SARIF read as code
//! scanning reads it, exit codes, `muster.toml`, suppressions, JSON twins, closed pipes
//! and a full disk. Each output format on a project with mistakes, and the usage errors,
//! are cases in `tests/cmd/` (run by `tests/cmd.rs`).

mod common;

use common::{copy_project, muster, repo, schema};
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// Replaces the first `from` in a file and returns the 1-based line of the change.
fn mutate(path: &Path, from: &str, to: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let at = text
        .find(from)
        .unwrap_or_else(|| panic!("`{from}` not in {}", path.display()));
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
    text[..at].matches('\n').count() + 1
}

/// Number of data files of the bundled project (every system, counter sheet, map and
/// scenario under `scenarios/` and `maps/`).
fn data_files() -> usize {
    muster_db::project::project_files(&repo()).len()
}

fn json_report(dir: &Path) -> (Value, i32) {
    let out = muster()
        .current_dir(dir)
        .args(["validate", "--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)));
    (report, out.status.code().unwrap())
}

#[test]
fn json_report_has_the_documented_shape() {
    let dir = copy_project();
    mutate(
        &dir.path().join("scenarios/lrf/jengland.scenario.ron"),
        "\"1004\"",
        "\"1704\"",
    );
    let (report, _) = json_report(dir.path());
    assert_eq!(report["errors"], 1);
    assert_eq!(report["files_checked"], data_files());
    let d = &report["diagnostics"][0];
    for key in [
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
        "offset",
        "end_offset",
        "code",
        "severity",
        "message",
        "help",
    ] {
        assert!(!d[key].is_null(), "missing `{key}` in {d:#}");
    }
    assert!(schema("report.schema.json").is_valid(&report));
}

#[test]
fn odd_input_gives_diagnostics_not_panics() {
    let dir = copy_project();
    let bad = dir.path().join("scenarios/bad");
    std::fs::create_dir_all(&bad).unwrap();
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(bad.join("garbage.scenario.ron"), &garbage).unwrap();
    let jengland =
        std::fs::read_to_string(repo().join("scenarios/lrf/jengland.scenario.ron")).unwrap();
    std::fs::write(
        bad.join("truncated.scenario.ron"),
        &jengland[..jengland.len() / 2],
    )
    .unwrap();
    std::fs::write(bad.join("what.ron"), "(id: \"x\")").unwrap();
    std::fs::write(bad.join("deep.scenario.ron"), "[".repeat(100_000)).unwrap();
    let big = std::fs::File::create(bad.join("huge.scenario.ron")).unwrap();
    big.set_len(50 * 1024 * 1024).unwrap();
    let (report, status) = json_report(dir.path());
    assert_eq!(status, 1);
    let codes: Vec<(&str, &str)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["file"].as_str().unwrap(), d["code"].as_str().unwrap()))
        .collect();
    let has = |file: &str, code: &str| codes.iter().any(|(f, c)| f.ends_with(file) && *c == code);
    assert!(
        has("garbage.scenario.ron", "structure::not-text"),
        "{codes:?}"
    );
    assert!(
        has("truncated.scenario.ron", "structure::syntax"),
        "{codes:?}"
    );
    assert!(has("what.ron", "structure::unknown-kind"), "{codes:?}");
    assert!(has("deep.scenario.ron", "structure::syntax"), "{codes:?}");
    assert!(
        codes
            .iter()
            .filter(|(f, _)| f.ends_with("deep.scenario.ron"))
            .count()
            <= 2,
        "nesting too deep and the open brackets are one report each: {codes:?}"
    );
    assert_eq!(
        codes
            .iter()
            .filter(|(f, _)| f.ends_with("truncated.scenario.ron"))
            .count(),
        1,
        "a truncated file is one report: {codes:?}"
    );
    assert!(
        has("huge.scenario.ron", "structure::too-large"),
        "{codes:?}"
    );
}

#[test]
fn compile_writes_an_identical_schema_valid_table_each_time() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    for out in [&a, &b] {
        muster()
            .current_dir(repo())
            .args(["compile", "maps/lrf/jengland.map.ron", "-o"])
            .arg(out)
            .assert()
            .success();
    }
    let first = std::fs::read(&a).unwrap();
    assert_eq!(first, std::fs::read(&b).unwrap());
    let table: Value = serde_json::from_slice(&first).unwrap();
    assert!(schema("terrain-table.schema.json").is_valid(&table));
    // The bridge is reached only from 0208: its other land hexside blocks movement.
    let blocked = table["hexsides"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["a"] == "0109" && s["b"] == "0209" && s["blocks_movement"] == true);
    assert!(blocked, "{:#}", table["hexsides"]);
    // A scenario compiles its map.
    let c = dir.path().join("c.json");
    muster()
        .current_dir(repo())
        .args(["compile", "scenarios/lrf/jengland.scenario.ron", "-o"])
        .arg(&c)
        .assert()
        .success();
    assert_eq!(first, std::fs::read(&c).unwrap());
}

/// What `compile --position --rules` writes for an engine outside Rust is what its
/// documented schemas describe: the position of the set-up, every unit on a hex, and
/// the rules system whole.
#[test]
fn compile_writes_a_position_and_rules_their_schemas_describe() {
    let dir = tempfile::tempdir().unwrap();
    let (table, position, rules) = (
        dir.path().join("fontenoy.json"),
        dir.path().join("fontenoy.position.json"),
        dir.path().join("lrf.rules.json"),
    );
    muster()
        .current_dir(repo())
        .args(["compile", "scenarios/lrf/fontenoy.scenario.ron", "-o"])
        .arg(&table)
        .arg("--position")
        .arg(&position)
        .arg("--rules")
        .arg(&rules)
        .assert()
        .success();
    let read = |p: &Path| -> Value { serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap() };
    let (position, rules) = (read(&position), read(&rules));
    let problems = |validator: jsonschema::Validator, value: &Value| -> Vec<String> {
        validator
            .iter_errors(value)
            .map(|e| e.to_string())
            .collect()
    };
    assert_eq!(
        problems(schema("position.schema.json"), &position),
        Vec::<String>::new()
    );
    assert_eq!(
        problems(schema("system.schema.json"), &rules),
        Vec::<String>::new()
    );
    assert_eq!(position["scenario"], "fontenoy");
    assert_eq!(position["turn"], 1);
    let units = position["units"].as_array().unwrap();
    assert_eq!(units.len(), 25);
    assert!(
        units
            .iter()
            .all(|u| u["hex"].as_str().is_some_and(|h| h.len() == 4))
    );
    assert_eq!(rules["id"], "lrf");
    // The charge rule an engine judges paths by (9.2) is there.
    assert_eq!(rules["rules"]["charge"]["section"], "9.2");
}

#[test]
fn compile_refuses_a_map_with_errors() {
    let dir = copy_project();
    mutate(
        &dir.path().join("maps/lrf/jengland.map.ron"),
        "\"0811\"",
        "\"1911\"",
    );
    let out = dir.path().join("out.json");
    muster()
        .current_dir(dir.path())
        .args(["compile", "maps/lrf/jengland.map.ron", "-o"])
        .arg(&out)
        .assert()
        .code(1);
    assert!(!out.exists());
}

#[test]
fn nothing_writes_to_source_files() {
    let dir = copy_project();
    let snapshot = |root: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        let mut files: Vec<_> = muster_db::project::data_files_under(root)
            .into_iter()
            .map(|p| {
                let bytes = std::fs::read(&p).unwrap();
                (p, bytes)
            })
            .collect();
        files.sort();
        files
    };
    let before = snapshot(dir.path());
    muster()
        .current_dir(dir.path())
        .arg("validate")
        .assert()
        .success();
    muster()
        .current_dir(dir.path())
        .args(["summary", "scenarios/lrf/fontenoy.scenario.ron"])
        .assert()
        .success();
    muster()
        .current_dir(dir.path())
        .args([
            "compile",
            "maps/lrf/fontenoy.map.ron",
            "-o",
            "fontenoy.table.json",
        ])
        .assert()
        .success();
    std::fs::remove_file(dir.path().join("fontenoy.table.json")).unwrap();
    assert_eq!(before, snapshot(dir.path()));
}

#[test]
fn human_output_has_no_colour_when_piped() {
    let dir = copy_project();
    mutate(
        &dir.path().join("scenarios/lrf/jengland.scenario.ron"),
        "\"1004\"",
        "\"1704\"",
    );
    let out = Command::cargo_bin("muster")
        .unwrap()
        .current_dir(dir.path())
        .arg("validate")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("geometry::off-map"), "{text}");
    assert!(!text.contains('\u{1b}'), "escape codes in piped output");
}

/// The SARIF fields GitHub code scanning reads, checked structurally. The official
/// schema check runs in `cargo xtask ci` when `MUSTER_SARIF_SCHEMA` names the schema
/// file (the repository does not carry a copy of it).
#[test]
fn sarif_output_has_what_code_scanning_reads() {
    let dir = copy_project();
    mutate(
        &dir.path().join("scenarios/lrf/jengland.scenario.ron"),
        "\"1004\"",
        "\"1704\"",
    );
    mutate(
        &dir.path().join("scenarios/lrf/jengland.scenario.ron"),
        "\"0504\"",
        "\"0403\"",
    );
    let out = muster()
        .current_dir(dir.path())
        .args(["validate", "--format", "sarif"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(log["version"], "2.1.0");
    assert!(log["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "muster");
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), muster_check::registry::REGISTRY.len());
    for rule in rules {
        assert!(!rule["id"].as_str().unwrap().is_empty());
        assert!(
            !rule["shortDescription"]["text"]
                .as_str()
                .unwrap()
                .is_empty()
        );
        assert!(!rule["help"]["text"].as_str().unwrap().is_empty());
        let level = rule["defaultConfiguration"]["level"].as_str().unwrap();
        assert!(["error", "warning", "note"].contains(&level), "{level}");
    }
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for result in results {
        let id = result["ruleId"].as_str().unwrap();
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], id, "ruleIndex points at the rule");
        assert!(["error", "warning", "note"].contains(&result["level"].as_str().unwrap()));
        assert!(!result["message"]["text"].as_str().unwrap().is_empty());
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(
            location["artifactLocation"]["uri"],
            "scenarios/lrf/jengland.scenario.ron"
        );
        let region = &location["region"];
        let (start_line, start_column) = (
            region["startLine"].as_u64().unwrap(),
            region["startColumn"].as_u64().unwrap(),
        );
        let (end_line, end_column) = (
            region["endLine"].as_u64().unwrap(),
            region["endColumn"].as_u64().unwrap(),
        );
        assert!(start_line > 1 && start_column >= 1);
        assert!((end_line, end_column) > (start_line, start_column));
    }
    let off_map = results
        .iter()
        .find(|r| r["ruleId"] == "geometry::off-map")
        .unwrap();
    assert_eq!(off_map["level"], "error");
    let text =
        std::fs::read_to_string(dir.path().join("scenarios/lrf/jengland.scenario.ron")).unwrap();
    let region = &off_map["locations"][0]["physicalLocation"]["region"];
    let line = text
        .lines()
        .nth(region["startLine"].as_u64().unwrap() as usize - 1)
        .unwrap();
    let column = region["startColumn"].as_u64().unwrap() as usize;
    let marked: String = line.chars().skip(column - 1).take(6).collect();
    assert_eq!(marked, "\"1704\"", "the region marks the hex");
    let stacked = results
        .iter()
        .find(|r| r["ruleId"] == "stacking::over-stacked")
        .unwrap();
    assert_eq!(stacked["level"], "error");
    assert!(
        !stacked["relatedLocations"].as_array().unwrap().is_empty(),
        "the first unit is a related location"
    );
}

#[test]
fn deny_warnings_fails_on_warnings() {
    let dir = copy_project();
    mutate(
        &dir.path().join("scenarios/lrf/jengland.scenario.ron"),
        "Fixed(18)",
        "Fixed(80)",
    );
    let run = |args: &[&str]| {
        muster()
            .current_dir(dir.path())
            .args(args)
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(run(&["validate"]), Some(0));
    assert_eq!(run(&["validate", "--deny-warnings"]), Some(1));
}

#[test]
fn project_file_sets_levels_paths_and_output() {
    let dir = copy_project();
    mutate(
        &dir.path().join("scenarios/lrf/jengland.scenario.ron"),
        "Fixed(18)",
        "Fixed(80)",
    );
    std::fs::write(
        dir.path().join("muster.toml"),
        "[paths]\ncheck = [\"scenarios/lrf/jengland.scenario.ron\"]\n\n[checks]\n\"morale::threshold-unreachable\" = \"error\"\n\n[compile]\nout = \"build\"\n",
    )
    .unwrap();
    let (report, status) = json_report(dir.path());
    assert_eq!(status, 1);
    assert_eq!(
        report["files_checked"], 1,
        "the scenario; muster.toml is not a data file"
    );
    assert_eq!(
        report["diagnostics"][0]["code"],
        "morale::threshold-unreachable"
    );
    assert_eq!(report["diagnostics"][0]["severity"], "error");
    muster()
        .current_dir(dir.path())
        .args(["compile", "maps/lrf/jengland.map.ron"])
        .assert()
        .success();
    assert!(dir.path().join("build/jengland.json").is_file());
    // Its own mistakes are diagnostics with spans: tests/cmd/validate-config-mistakes.
}

#[test]
fn suppressions_silence_one_finding_with_a_reason() {
    let dir = copy_project();
    let file = dir.path().join("scenarios/lrf/jengland.scenario.ron");
    mutate(
        &file,
        "Some(Fixed(18)),",
        "Some(Fixed(80)), // muster: allow(morale::threshold-unreachable) reason: testing",
    );
    let (report, status) = json_report(dir.path());
    assert_eq!(
        (status, report["warnings"].as_u64()),
        (0, Some(0)),
        "{report:#}"
    );
    let dir = copy_project();
    let file = dir.path().join("scenarios/lrf/jengland.scenario.ron");
    mutate(
        &file,
        "Some(Fixed(18)),",
        "Some(Fixed(80)), // muster: allow(morale::threshold-unreachable)",
    );
    let (report, _) = json_report(dir.path());
    let codes: Vec<&str> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        [
            "morale::threshold-unreachable",
            "suppression::missing-reason"
        ]
    );
}

/// JSON files of the same model are accepted, with the same checks and exact lines.
#[test]
fn json_scenarios_are_checked_like_ron() {
    let dir = copy_project();
    let ron_path = dir.path().join("scenarios/lrf/jengland.scenario.ron");
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let mut scenario: muster_model::scenario::Scenario = options
        .from_str(&std::fs::read_to_string(&ron_path).unwrap())
        .unwrap();
    scenario.id = "jengland-json".to_string();
    let json = serde_json::to_string_pretty(&scenario).unwrap();
    let json_path = dir.path().join("scenarios/lrf/jengland.scenario.json");
    std::fs::write(&json_path, &json).unwrap();
    let (report, status) = json_report(dir.path());
    assert_eq!(status, 0, "{report:#}");
    std::fs::write(&json_path, json.replacen("\"1004\"", "\"1704\"", 1)).unwrap();
    let line = json[..json.find("\"1004\"").unwrap()].matches('\n').count() + 1;
    let (report, status) = json_report(dir.path());
    assert_eq!(status, 1);
    let d = &report["diagnostics"][0];
    assert_eq!(
        (d["code"].as_str(), d["line"].as_u64()),
        (Some("geometry::off-map"), Some(line as u64)),
        "{report:#}"
    );
    assert!(
        d["file"]
            .as_str()
            .unwrap()
            .ends_with("jengland.scenario.json")
    );
}

/// Runs muster in `dir` with its stdout read end already closed, as `| head -0` would
/// leave it.
fn with_closed_stdout(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("muster"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_pipe_ends_muster_quietly_with_its_usual_exit_code() {
    for args in [
        &["validate", "--format", "sarif"][..],
        &["validate"],
        &[
            "summary",
            "scenarios/lrf/jengland.scenario.ron",
            "--format",
            "json",
        ],
        &["checks"],
        &["explain", "geometry::off-map"],
    ] {
        let out = with_closed_stdout(&repo(), args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

#[test]
fn a_closed_pipe_keeps_the_error_exit_code() {
    let dir = copy_project();
    mutate(
        &dir.path().join("scenarios/lrf/jengland.scenario.ron"),
        "\"1004\"",
        "\"1704\"",
    );
    let out = with_closed_stdout(dir.path(), &["validate", "--format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_reported_once_with_exit_2() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("Linux provides /dev/full");
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("muster"))
        .args(["validate", "--format", "json"])
        .current_dir(repo())
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(
        stderr.matches("muster: cannot write the output").count(),
        1,
        "{stderr}"
    );
}

/// `muster summary` words the set-up state: a unit starting reduced (its line and its
/// strength), a holding box, a group the owner picks from and a hidden side.
#[test]
fn the_summary_words_the_set_up_state() {
    let dir = copy_project();
    let path = dir.path().join("scenarios/lrf/jengland.scenario.ron");
    for (from, to) in muster_testkit::JENGLAND_SET_UP_STATE {
        mutate(&path, from, to);
    }
    let out = muster()
        .current_dir(dir.path())
        .args(["summary", "scenarios/lrf/jengland.scenario.ron"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "  combat units: 8 (total strength 16)",
        "    2 x Saxe (infantry, strength 2, starts Reduced)",
        "  reserves box: jengland-bowmen \"Bowmen\"",
        "    2 x saxe \"Saxe\" (starts Reduced): hexes 0903, 1004",
        "    3 x jengland-infantry-3 \"Infantry\", 3 x jengland-infantry-2 \"Infantry\": the owner picks 5 of these 6: hexes 0403, 0504, 0603, 1304, 1403",
        "    jengland-bowmen \"Bowmen\": in the reserves box",
        "  hidden setup: placed out of the other player's sight",
    ] {
        assert!(text.lines().any(|l| l == line), "no `{line}` in:\n{text}");
    }
    assert_eq!(out.status.code(), Some(0), "{text}");
}
