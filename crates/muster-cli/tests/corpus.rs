//! The bundled PRESTAGS and miniatures corpus: every printed figure agrees with the
//! rules, and a copy with one mistake gives the right error at the line of the mistake.

mod common;

use common::{copy_project, muster, repo, schema};
use std::path::{Path, PathBuf};

use serde_json::Value;

fn files(folder: &str, suffix: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(repo().join(folder))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    out.sort();
    out
}

fn report(dir: &Path, target: &Path) -> Value {
    let out = muster()
        .current_dir(dir)
        .args(["validate", "--format", "json"])
        .arg(target)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Applies `edit` to the first line of `path` matching `find` and returns its number.
fn edit_line(
    path: &Path,
    find: impl Fn(&str) -> bool,
    edit: impl Fn(&str) -> String,
) -> Option<usize> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let index = lines
        .iter()
        .position(|l| !l.trim_start().starts_with("//") && find(l))?;
    let changed = edit(&lines[index]);
    assert_ne!(
        changed,
        lines[index],
        "edit changed nothing in {}",
        path.display()
    );
    lines[index] = changed;
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
    Some(index + 1)
}

/// Whether the report has an error of `code` whose primary span or a label is on `line`.
fn error_at(report: &Value, code: &str, line: usize) -> bool {
    report["diagnostics"].as_array().unwrap().iter().any(|d| {
        d["code"] == code
            && d["severity"] == "error"
            && (d["line"] == line
                || d["labels"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|l| l["line"] == line))
    })
}

/// Replaces the first number after `key: ` on a line.
fn bump(line: &str, key: &str, by: i64) -> String {
    let mut at = line.find(key).unwrap() + key.len();
    if line[at..].starts_with("Some(") {
        at += "Some(".len();
    }
    let digits: String = line[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let n: i64 = digits.parse().unwrap();
    format!("{}{}{}", &line[..at], n + by, &line[at + digits.len()..])
}

#[test]
fn all_19_prestags_scenarios_and_38_sides_match_their_printed_figures() {
    let scenarios = files("scenarios/prestags", ".scenario.ron");
    assert_eq!(scenarios.len(), 19);
    let mut sides = 0;
    for file in &scenarios {
        let out = muster()
            .current_dir(repo())
            .args(["summary", "--format", "json"])
            .arg(file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", file.display());
        let s: Value = serde_json::from_slice(&out.stdout).unwrap();
        for side in s["sides"].as_array().unwrap() {
            let z = &side["zoned"];
            assert_eq!(
                z["vp_computed"],
                z["vp_printed"],
                "{} {}",
                file.display(),
                side["id"]
            );
            assert!(z["panic_level"].as_u64() < z["vp_printed"].as_u64());
            sides += 1;
        }
    }
    assert_eq!(sides, 38);
}

/// Validates a copy of the project in which the first line of `rel` matching `find` was
/// changed by `edit`; returns the changed line and the JSON report.
fn one_mistake(
    rel: &Path,
    find: impl Fn(&str) -> bool,
    edit: impl Fn(&str) -> String,
) -> Option<(usize, Value)> {
    let dir = copy_project();
    let line = edit_line(&dir.path().join(rel), find, edit)?;
    Some((line, report(dir.path(), rel)))
}

#[test]
fn one_printed_vp_one_count_or_one_zone_label_changed_gives_an_error_at_that_line() {
    for file in files("scenarios/prestags", ".scenario.ron") {
        let rel = PathBuf::from("scenarios/prestags").join(file.file_name().unwrap());
        let (line, r) = one_mistake(
            &rel,
            |l| l.contains("victory_points: "),
            |l| bump(l, "victory_points: ", 1),
        )
        .unwrap();
        assert!(
            error_at(&r, "derived::vp-total-mismatch", line),
            "{}: VP {line}\n{r:#}",
            rel.display()
        );

        let (line, r) = one_mistake(
            &rel,
            |l| l.contains("units: [(kind: "),
            |l| bump(l, "count: ", 1),
        )
        .unwrap();
        assert!(
            error_at(&r, "derived::vp-total-mismatch", line),
            "{}: count {line}\n{r:#}",
            rel.display()
        );

        let label = |l: &str| {
            let at = l.find("Near(label: \"").unwrap() + "Near(label: \"".len();
            format!("{}K{}", &l[..at], &l[at + 1..])
        };
        if let Some((line, r)) = one_mistake(&rel, |l| l.contains("Near(label: \""), label) {
            assert!(
                error_at(&r, "zones::unknown-label", line),
                "{}: label {line}\n{r:#}",
                rel.display()
            );
        }
    }
}

/// Every scenario has a sample deployment filled to its stacking limit somewhere, so a
/// lower limit on at least one of its sides is an error pointing at that limit.
#[test]
fn a_lower_stacking_limit_breaks_the_sample_deployments() {
    for file in files("scenarios/prestags", ".scenario.ron") {
        let rel = PathBuf::from("scenarios/prestags").join(file.file_name().unwrap());
        let text = std::fs::read_to_string(&file).unwrap();
        let limits: Vec<usize> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains("stacking_limit: "))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(limits.len(), 2, "{}", rel.display());
        let detected = limits.iter().filter(|&&index| {
            let dir = copy_project();
            let path = dir.path().join(&rel);
            let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
            lines[index] = bump(&lines[index], "stacking_limit: ", -1);
            std::fs::write(&path, lines.join("\n") + "\n").unwrap();
            error_at(&report(dir.path(), &rel), "sample::over-stacked", index + 1)
        });
        assert!(
            detected.count() >= 1,
            "{}: no lowered stacking limit is detected",
            rel.display()
        );
    }
}

#[test]
fn miniatures_one_mistake_per_check() {
    type Case = (&'static str, &'static str, fn(&str) -> String, &'static str);
    let cases: [Case; 6] = [
        (
            "scenarios/cdg/courtrai.scenario.ron",
            ", bases: ",
            |l| bump(l, ", bases: ", 20),
            "table::unit-size",
        ),
        (
            "scenarios/cdg/courtrai.scenario.ron",
            "printed: ",
            |l| bump(l, "printed: ", 1),
            "derived::break-point-mismatch",
        ),
        (
            "scenarios/cdg/arsuf.scenario.ron",
            "at: (",
            |l| l.replacen("at: (", "at: (9", 1),
            "table::off-table",
        ),
        (
            "scenarios/cdg/arsuf.scenario.ron",
            "printed: ",
            |l| bump(l, "printed: ", -1),
            "derived::break-point-mismatch",
        ),
        (
            "scenarios/raid/raid-example.scenario.ron",
            "victory_points: ",
            |l| bump(l, "victory_points: ", 1),
            "derived::vp-total-mismatch",
        ),
        (
            "scenarios/raid/raid-example.scenario.ron",
            "figures: ",
            |l| bump(l, "figures: ", 1),
            "derived::morale-figures-mismatch",
        ),
    ];
    for (rel, find, edit, code) in cases {
        let dir = copy_project();
        let path = dir.path().join(rel);
        let line = edit_line(
            &path,
            |l| l.contains(find) && (find != "figures: " || l.contains("loss_percent")),
            edit,
        )
        .unwrap();
        let r = report(dir.path(), Path::new(rel));
        assert!(error_at(&r, code, line), "{rel}: {code} at {line}\n{r:#}");
    }
}

/// Terrain modifications produce the scenario's own table: Cerami ignores woods.
#[test]
fn a_scenario_compiles_with_its_terrain_modifications() {
    let dir = tempfile::tempdir().unwrap();
    let (map, scenario) = (dir.path().join("map.json"), dir.path().join("cerami.json"));
    muster()
        .current_dir(repo())
        .args(["compile", "maps/prestags/mapsheet.map.ron", "-o"])
        .arg(&map)
        .assert()
        .success();
    muster()
        .current_dir(repo())
        .args([
            "compile",
            "scenarios/prestags/5-5-cerami.scenario.ron",
            "-o",
        ])
        .arg(&scenario)
        .assert()
        .success();
    let count = |path: &Path, terrain: &str| -> usize {
        let t: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        t["hexes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|h| h["terrain"] == terrain)
            .count()
    };
    assert!(count(&map, "woods") > 0);
    assert_eq!(count(&scenario, "woods"), 0);
    assert!(count(&scenario, "slope") > 0, "other terrain is kept");
    let t: Value = serde_json::from_slice(&std::fs::read(&scenario).unwrap()).unwrap();
    assert_eq!(t["scenario"], "cerami");
    assert!(schema("terrain-table.schema.json").is_valid(&t));
}

/// Open tables compile to features with their movement factor and cover, plus a raster.
#[test]
fn an_open_table_compiles() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("courtrai.json");
    muster()
        .current_dir(repo())
        .args(["compile", "maps/cdg/courtrai.map.ron", "-o"])
        .arg(&out)
        .assert()
        .success();
    let first = std::fs::read(&out).unwrap();
    let t: Value = serde_json::from_slice(&first).unwrap();
    assert!(schema("table-terrain.schema.json").is_valid(&t));
    assert!(!t["features"].as_array().unwrap().is_empty());
    let raster = &t["raster"];
    let cells = raster["cells"].as_array().unwrap();
    assert_eq!(
        cells.len() as u64,
        raster["columns"].as_u64().unwrap() * raster["rows"].as_u64().unwrap()
    );
    assert!(
        cells.iter().any(|c| !c.is_null()),
        "some cell lies on a feature"
    );
    muster()
        .current_dir(repo())
        .args(["compile", "maps/cdg/courtrai.map.ron", "-o"])
        .arg(&out)
        .assert()
        .success();
    assert_eq!(first, std::fs::read(&out).unwrap(), "byte-identical");
}

/// Whether the report has a diagnostic of `code` (any severity) on `line`.
fn finding_at(report: &Value, code: &str, line: usize) -> bool {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["code"] == code && d["line"] == line)
}

/// The 1-based number of the last line before `line` that contains `text`.
fn line_before(path: &Path, line: usize, text: &str) -> usize {
    let content = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = content.lines().collect();
    (0..line)
        .rev()
        .find(|i| lines[*i].contains(text))
        .map(|i| i + 1)
        .unwrap()
}

#[test]
fn miniatures_more_checks_one_mistake_each() {
    struct Case {
        file: &'static str,
        find: &'static str,
        edit: fn(&str) -> String,
        code: &'static str,
        /// Where the finding belongs, from the edited line: `None` = that line, or the
        /// last line before it containing this text.
        at: Option<&'static str>,
    }
    let cases = [
        Case {
            file: "scenarios/cdg/courtrai.scenario.ron",
            find: "leader: Some((name: \"William of Jülich\"",
            edit: |_| String::new(),
            code: "battles::no-leader",
            at: Some("id: \"bruges\""),
        },
        Case {
            file: "scenarios/cdg/courtrai.scenario.ron",
            find: "units: [\"fl-bruges-1\"",
            edit: |l| l.replacen("fl-bruges-1", "fr-nesle-1", 1),
            code: "battles::foreign-unit",
            at: None,
        },
        Case {
            file: "scenarios/cdg/courtrai.scenario.ron",
            find: "role: ArmyCommander",
            edit: |l| l.replacen("ArmyCommander", "BattleCommander", 1),
            code: "battles::army-commander",
            at: Some("battles: ["),
        },
        Case {
            file: "scenarios/cdg/courtrai.scenario.ron",
            find: "id: \"fr-nesle-1\"",
            edit: |l| {
                let end = l.rfind("),").unwrap();
                format!("{}, missiles: true{}", &l[..end], &l[end..])
            },
            code: "table::missiles-without-weapon",
            at: None,
        },
        Case {
            file: "scenarios/cdg/courtrai.scenario.ron",
            find: "id: \"fr-nesle-2\"",
            edit: |l| l.replacen("at: (20.5, 39.5)", "at: (9.5, 39.5)", 1),
            code: "table::overlap",
            at: None,
        },
        Case {
            file: "scenarios/cdg/arsuf.scenario.ron",
            find: "id: \"cr-hosp-xbow\"",
            edit: |l| l.replacen("at: (24.0, 11.75)", "at: (2.0, 50.0)", 1),
            code: "table::impassable-terrain",
            at: None,
        },
        Case {
            file: "scenarios/raid/raid-example.scenario.ron",
            find: "entry: AtEdge(edge: \"ship\")",
            edit: |l| l.replacen("\"ship\"", "\"shp\"", 1),
            code: "table::unknown-edge",
            at: None,
        },
        Case {
            file: "scenarios/cdg/courtrai.scenario.ron",
            find: "note: Some(\"pits before the first Bruges body\")",
            edit: |l| l.replacen("y: 20.75", "y: 30.75", 1),
            code: "traps::not-before-foot",
            at: None,
        },
    ];
    for case in cases {
        let dir = copy_project();
        let path = dir.path().join(case.file);
        let edited = edit_line(&path, |l| l.contains(case.find), case.edit).unwrap();
        let line = case
            .at
            .map_or(edited, |text| line_before(&path, edited, text));
        let r = report(dir.path(), Path::new(case.file));
        assert!(
            finding_at(&r, case.code, line),
            "{}: {} at {line}\n{r:#}",
            case.file,
            case.code
        );
    }
}
