//! `muster new` beyond its output: the scenario skeleton is clean once its placeholders
//! are replaced, and a refused skeleton writes nothing. The listings, the skeletons and
//! projects written, and the refusal to write over a file are cases in `tests/cmd/`
//! (`list-*`, `new-*`).

mod common;

use std::path::Path;

use common::{copy_project, muster, report_codes};
use serde_json::Value;

fn stdout(dir: &Path, args: &[&str]) -> String {
    let out = muster().current_dir(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn validate_json(dir: &Path, file: &Path) -> (Value, i32) {
    let out = muster()
        .current_dir(dir)
        .args(["validate", "--format", "json"])
        .arg(file)
        .output()
        .unwrap();
    (
        serde_json::from_slice(&out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

#[test]
fn a_new_scenario_validates_with_placeholder_warnings_then_clean() {
    let dir = copy_project();
    let root = dir.path();
    let out = stdout(
        root,
        &[
            "new",
            "scenario",
            "my-battle",
            "--system",
            "lrf",
            "--map",
            "jengland",
        ],
    );
    assert!(out.starts_with("wrote "), "{out}");
    let file = root.join("scenarios/lrf/my-battle.scenario.ron");
    let text = std::fs::read_to_string(&file).unwrap();
    let (report, code) = validate_json(root, &file);
    assert_eq!(code, 0);
    let found = report_codes(&report);
    let marks = text
        .lines()
        .filter(|l| l.ends_with(" // muster: placeholder"))
        .count();
    assert_eq!(
        marks, 20,
        "one line per counter design of the two armies, and the turns, the first players and the victory condition"
    );
    assert_eq!(found.len(), marks, "{report}");
    let setup = found.iter().filter(|c| *c == "setup::placeholder").count();
    assert_eq!(setup, 16, "{found:?}");
    let guessed = found
        .iter()
        .filter(|c| *c == "template::placeholder")
        .count();
    assert_eq!(guessed, 4, "{found:?}");

    // The author's job, done by program: every placeholder replaced by distinct real
    // hexes (the Franks in rows 03-04, the Bretons in rows 09-10, off the river in
    // column 01), the guessed defaults kept as the rulebook's, and the marks deleted.
    let mut free: [Vec<String>; 2] = [3u16, 9].map(|row| {
        (2u16..=15)
            .flat_map(|c| [row, row + 1].map(move |r| format!("{c:02}{r:02}")))
            .collect()
    });
    let mut side = 0;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.contains("id: \"bretons\"") {
            side = 1;
        }
        if let Some(data) = line.strip_suffix(" // muster: placeholder") {
            if !data.contains("Hexes([") {
                lines.push(data.to_string());
                continue;
            }
            let start = data.find("Hexes([").unwrap() + "Hexes([".len();
            let end = data.rfind("])").unwrap();
            let n = data[start..end].split(',').count();
            let hexes: Vec<String> = free[side].drain(..n).map(|h| format!("\"{h}\"")).collect();
            lines.push(format!(
                "{}{}{}",
                &data[..start],
                hexes.join(", "),
                &data[end..]
            ));
        } else {
            lines.push(line.to_string());
        }
    }
    std::fs::write(&file, lines.join("\n")).unwrap();
    let (report, code) = validate_json(root, &file);
    assert_eq!(code, 0);
    assert!(report_codes(&report).is_empty(), "{report}");
}

/// What `new scenario` refuses (tests/cmd/new-scenario-* show the messages) it refuses
/// before writing anything.
#[test]
fn a_refused_new_scenario_writes_nothing() {
    for args in [
        &["--system", "lrf", "--map", "mapsheet"][..],
        &["--system", "prestags", "--map", "mapsheet"],
        &[
            "--system",
            "lrf",
            "--map",
            "jengland",
            "--armies",
            "saxe,jengland-bretons",
        ],
    ] {
        let dir = copy_project();
        let out = muster()
            .current_dir(dir.path())
            .args(["new", "scenario", "x"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
        for system in ["lrf", "prestags"] {
            let file = dir
                .path()
                .join(format!("scenarios/{system}/x.scenario.ron"));
            assert!(!file.exists(), "{args:?}: {}", file.display());
        }
    }
}

/// A system's rule for hexes with several terrains is said in words by `list rules`
/// and by the summary of its scenarios; a terrain kept from being a feature says so in
/// `list terrain`.
#[test]
fn the_terrain_combine_rule_is_listed_and_summarised_in_words() {
    let project = copy_project();
    let root = project.path();
    muster_testkit::replace(
        &root.join("scenarios/lrf/lrf.system.ron"),
        "    rules: (\n",
        "    rules: (\n        terrain_combine: (cost: Cumulative, combat: Base),\n",
    );
    let words = "a hex with added terrain features: entering costs all their costs added up; only the own terrain's die modifier and column shift count";
    let listed = stdout(root, &["list", "rules", "--system", "lrf"]);
    let line = listed
        .lines()
        .find(|l| l.starts_with("terrain combine"))
        .unwrap_or_else(|| panic!("{listed}"));
    assert!(line.ends_with(words), "{line}");
    let summary = stdout(root, &["summary", "scenarios/lrf/jengland.scenario.ron"]);
    assert!(summary.contains(words), "{summary}");
    // A bundled system states none.
    let plain = stdout(&common::repo(), &["list", "rules", "--system", "lrf"]);
    assert!(!plain.contains("terrain combine"), "{plain}");
    // A terrain that is never a feature says so in the chart.
    muster_testkit::replace(
        &root.join("scenarios/lrf/lrf.system.ron"),
        "movement: Impassable, combat: [NoRetreat]",
        "movement: Impassable, combat: [NoRetreat], base_only: true",
    );
    let chart = stdout(root, &["list", "terrain", "--system", "lrf"]);
    let river = chart.lines().find(|l| l.starts_with("river ")).unwrap();
    assert!(
        river.ends_with("no retreat, never an added feature"),
        "{river}"
    );
    let woods = chart.lines().find(|l| l.starts_with("woods ")).unwrap();
    assert!(!woods.contains("never an added feature"), "{woods}");
}
