//! `muster list` and `muster new`: the listings (human and JSON, from any folder of the
//! project and with `--root`), the scenario skeleton (warnings only, clean once its
//! placeholders are replaced), maps, projects, and files never overwritten.

mod common;

use std::path::Path;

use common::{copy_project, muster, repo};
use serde_json::Value;

fn json(dir: &Path, args: &[&str]) -> Value {
    let out = muster().current_dir(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn stdout(dir: &Path, args: &[&str]) -> String {
    let out = muster().current_dir(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn list_counters_gives_the_copies_on_the_sheet_in_json_from_anywhere() {
    // From a folder inside the project, and from outside it with `--root`.
    let inside = repo().join("scenarios/lrf");
    let outside = tempfile::tempdir().unwrap();
    let root = repo().display().to_string();
    for (dir, args) in [
        (
            inside.as_path(),
            vec![
                "list",
                "counters",
                "--army",
                "jengland-franks",
                "--format",
                "json",
            ],
        ),
        (
            outside.path(),
            vec![
                "--root",
                &root,
                "list",
                "counters",
                "--army",
                "jengland-franks",
                "--format",
                "json",
            ],
        ),
    ] {
        let v = json(dir, &args);
        let counters = v["counters"].as_array().unwrap();
        assert_eq!(counters.len(), 8);
        let saxe = counters.iter().find(|c| c["id"] == "saxe").unwrap();
        assert_eq!(saxe["copies"], 2);
        assert_eq!(saxe["kind"], "infantry");
        assert_eq!(saxe["strength"], 3);
        assert_eq!(saxe["army"], "jengland-franks");
        let total: u64 = counters.iter().map(|c| c["copies"].as_u64().unwrap()).sum();
        assert_eq!(total, 16);
    }
}

#[test]
fn list_human_output_is_aligned_columns() {
    let out = stdout(&repo(), &["list", "counters", "--army", "jengland-franks"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("id "), "{out}");
    let kind_at = lines[0].find("kind").unwrap();
    for line in &lines[1..9] {
        assert_eq!(line.chars().nth(kind_at - 1), Some(' '), "{out}");
        assert_ne!(line.chars().nth(kind_at), Some(' '), "{out}");
    }
    assert!(out.contains("8 designs, 16 counters"), "{out}");
}

#[test]
fn list_systems_armies_maps_hooks_terrain() {
    let dir = repo();
    let systems = json(&dir, &["list", "systems", "--format", "json"]);
    let lrf = systems["systems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == "lrf")
        .unwrap();
    assert_eq!(lrf["counter_sheets"], serde_json::json!(["lrf-counters"]));
    assert_eq!(lrf["scenarios"], 4);
    let armies = json(
        &dir,
        &["list", "armies", "--system", "lrf", "--format", "json"],
    );
    assert!(
        armies["armies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["id"] == "jengland-bretons")
    );
    let maps = json(
        &dir,
        &["list", "maps", "--system", "prestags", "--format", "json"],
    );
    assert_eq!(maps["maps"][0]["id"], "mapsheet");
    assert_eq!(maps["maps"][0]["size"], "36 x 56 hexes");
    let hooks = json(
        &dir,
        &["list", "hooks", "--system", "lrf", "--format", "json"],
    );
    let ids: Vec<&str> = hooks["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"evasion"), "{ids:?}");
    assert!(
        hooks["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|h| h["systems"].as_array().unwrap().contains(&"lrf".into()))
    );
    let terrain = json(
        &dir,
        &["list", "terrain", "--system", "lrf", "--format", "json"],
    );
    let river = terrain["terrain"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "river" && t["of"] == "hex")
        .unwrap();
    assert_eq!(river["movement"], "impassable");
    assert_eq!(river["effects"], serde_json::json!(["no retreat"]));
    let out = muster()
        .current_dir(&dir)
        .args(["list", "armies", "--system", "lfr"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("no system `lfr` in the project (known: cdg, lrf"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn list_edges_gives_edge_hexes_labels_and_entries() {
    let v = json(&repo(), &["list", "edges", "jengland", "--format", "json"]);
    let west = v["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["edge"] == "West")
        .unwrap();
    // Column 01 is the Vilaine: only the bridge can be entered.
    assert_eq!(west["hexes"], serde_json::json!(["0109"]));
    assert_eq!(west["impassable"].as_array().unwrap().len(), 11);
    assert!(
        v["labels"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["text"] == "Vilaine" && l["edges"] == serde_json::json!(["West"]))
    );
    // Fontenoy's reinforcements enter on its map.
    let m = json(&repo(), &["list", "edges", "fontenoy", "--format", "json"]);
    let entries = m["entries"].as_array().unwrap();
    assert!(!entries.is_empty(), "{m}");
    assert!(entries.iter().all(|e| e["scenario"] == "fontenoy"));
    let human = stdout(&repo(), &["list", "edges", "jengland"]);
    assert!(human.contains("west   0109"), "{human}");
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

fn codes(report: &Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
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
    assert!(out.contains("sides `franks` and `bretons`"), "{out}");
    let file = root.join("scenarios/lrf/my-battle.scenario.ron");
    let text = std::fs::read_to_string(&file).unwrap();
    let (report, code) = validate_json(root, &file);
    assert_eq!(code, 0);
    let found = codes(&report);
    let marks = text
        .lines()
        .filter(|l| l.ends_with(" // muster: placeholder"))
        .count();
    assert_eq!(marks, 16, "one line per counter design of the two armies");
    assert_eq!(found.len(), marks, "{report}");
    assert!(found.iter().all(|c| c == "setup::placeholder"), "{found:?}");
    // Every copy on the sheet is placed: 16 Franks, 13 Bretons.
    assert!(text.contains(r#"(counter: "jengland-breton-cavalry-3", count: 4)"#));

    // The author's job, done by program: every placeholder replaced by distinct real
    // hexes (the Franks in rows 03-04, the Bretons in rows 09-10, off the river in
    // column 01), and the marks deleted.
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
    assert!(codes(&report).is_empty(), "{report}");
}

#[test]
fn new_never_writes_over_a_file_without_force() {
    let dir = copy_project();
    let root = dir.path();
    let args = [
        "new", "scenario", "b", "--system", "lrf", "--map", "jengland",
    ];
    stdout(root, &args);
    let file = root.join("scenarios/lrf/b.scenario.ron");
    std::fs::write(&file, "my work").unwrap();
    let out = muster().current_dir(root).args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "my work");
    let mut forced = args.to_vec();
    forced.push("--force");
    stdout(root, &forced);
    assert!(
        std::fs::read_to_string(&file)
            .unwrap()
            .contains("Scenario(")
    );
    // A bundled scenario is not replaced either.
    let out = muster()
        .current_dir(root)
        .args([
            "new", "scenario", "jengland", "--system", "lrf", "--map", "jengland",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("exists"));
}

#[test]
fn new_scenario_explains_what_it_cannot_do() {
    for (args, expected) in [
        (
            vec!["--system", "lrf", "--map", "mapsheet"],
            "map `mapsheet` belongs to system `prestags`",
        ),
        (
            vec!["--system", "prestags", "--map", "mapsheet"],
            "has no counter sheet",
        ),
        (
            vec![
                "--system",
                "lrf",
                "--map",
                "jengland",
                "--armies",
                "saxe,jengland-bretons",
            ],
            "no army of `lrf` `saxe`",
        ),
    ] {
        let out = muster()
            .current_dir(repo())
            .args(["new", "scenario", "x"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{stderr}");
    }
    assert!(!repo().join("scenarios/lrf/x.scenario.ron").exists());
}

#[test]
fn new_map_validates_clean() {
    let dir = copy_project();
    let out = stdout(
        dir.path(),
        &[
            "new",
            "map",
            "plain",
            "--system",
            "lrf",
            "--columns",
            "10",
            "--rows",
            "8",
        ],
    );
    assert!(out.contains("0 errors, 0 warnings"), "{out}");
    let text = std::fs::read_to_string(dir.path().join("maps/lrf/plain.map.ron")).unwrap();
    assert!(text.contains("grid: Hex(columns: 10, rows: 8, layout: EvenColumnsDown)"));
}

#[test]
fn new_project_writes_config_folders_ci_and_pre_commit() {
    let temp = tempfile::tempdir().unwrap();
    stdout(temp.path(), &["new", "project", "games"]);
    let p = temp.path().join("games");
    for f in [
        "muster.toml",
        "README.md",
        ".github/workflows/muster.yml",
        ".pre-commit-config.yaml",
    ] {
        assert!(p.join(f).is_file(), "{f}");
    }
    assert!(p.join("scenarios").is_dir() && p.join("maps").is_dir());
    let workflow = std::fs::read_to_string(p.join(".github/workflows/muster.yml")).unwrap();
    assert!(workflow.contains("--format sarif") && workflow.contains("upload-sarif"));
    let hook = std::fs::read_to_string(p.join(".pre-commit-config.yaml")).unwrap();
    assert!(hook.contains("entry: muster validate"));
    // The project validates as it is, and its config is muster's own.
    let out = stdout(&p, &["validate"]);
    assert!(out.contains("0 errors, 0 warnings"), "{out}");
    // A second time, nothing is overwritten.
    let out = muster()
        .current_dir(temp.path())
        .args(["new", "project", "games"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
