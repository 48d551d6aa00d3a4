//! Authoring a game from nothing with `muster new`: a project, a rules system, a counter
//! sheet, a map and a scenario validate with placeholder warnings only; with every
//! placeholder replaced they validate clean; and every example of every template
//! (`//~ ` lines, `#~ ` in `muster.toml`) validates once uncommented. The outputs and
//! refusals are cases in `tests/cmd/` (`new-game.md`, `new-system-*`, `new-counters-*`).

mod common;

use std::path::Path;

use common::{copy_project, muster};
use muster_ide::template::{EXAMPLE_MARK, PLACEHOLDER_MARK, TOML_EXAMPLE_MARK, uncomment_examples};
use serde_json::Value;

fn run(dir: &Path, args: &[&str]) -> String {
    let out = muster().current_dir(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// `muster validate` of the whole project: (code, severity) of every diagnostic.
fn validate(dir: &Path) -> Vec<(String, String)> {
    let out = muster()
        .current_dir(dir)
        .args(["validate", "--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                format!(
                    "{} {}: {}",
                    d["file"],
                    d["line"],
                    d["code"].as_str().unwrap()
                ),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The new game's files, as `muster new` names them.
const FILES: [&str; 4] = [
    "scenarios/my-rules/my-rules.system.ron",
    "scenarios/my-rules/my-counters.counters.ron",
    "maps/my-rules/my-map.map.ron",
    "scenarios/my-rules/my-battle.scenario.ron",
];

/// Writes a whole game with `muster new` into `dir/game`; returns the project folder.
/// `between` runs on each file after it is written and before the next is made from it.
fn new_game(dir: &Path, between: impl Fn(&Path)) -> std::path::PathBuf {
    run(dir, &["new", "project", "game"]);
    let root = dir.join("game");
    let steps: [&[&str]; 4] = [
        &["new", "system", "my-rules"],
        &["new", "counters", "my-counters", "--system", "my-rules"],
        &[
            "new",
            "map",
            "my-map",
            "--system",
            "my-rules",
            "--columns",
            "10",
            "--rows",
            "8",
        ],
        &[
            "new",
            "scenario",
            "my-battle",
            "--system",
            "my-rules",
            "--map",
            "my-map",
            "--armies",
            "my-counters-red,my-counters-blue",
        ],
    ];
    for (args, file) in steps.iter().zip(FILES) {
        let out = run(&root, args);
        assert!(out.starts_with("wrote "), "{out}");
        assert!(out.contains("0 errors"), "{out}");
        between(&root.join(file));
    }
    root
}

fn edit(path: &Path, change: impl Fn(&str) -> String) {
    let text = std::fs::read_to_string(path).unwrap();
    std::fs::write(path, change(&text)).unwrap();
}

/// The author's work, done by program: every line marked as a placeholder gets a real
/// value and loses its mark. Setup lines move to hexes of the side's own rows (the red
/// army in rows 02-03, the blue in rows 06-07); the turns become 10; the counters'
/// strengths go up by one; the names and the other guesses are kept as the rulebook's.
fn fill_in(text: &str) -> String {
    let mark = format!(" // {PLACEHOLDER_MARK}");
    let mut free: [Vec<String>; 2] = [2u16, 6].map(|row| {
        (2u16..=9)
            .flat_map(|c| [row, row + 1].map(move |r| format!("\"{c:02}{r:02}\"")))
            .collect()
    });
    let mut side = 0;
    let mut out = String::new();
    for line in text.lines() {
        if line.contains("army: \"my-counters-blue\"") {
            side = 1;
        }
        let Some(data) = line.strip_suffix(mark.as_str()) else {
            out += line;
            out += "\n";
            continue;
        };
        let real = if let Some(start) = data.find("Hexes([") {
            let start = start + "Hexes([".len();
            let end = data.rfind("])").unwrap();
            let n = data[start..end].split(',').count();
            let hexes: Vec<String> = free[side].drain(..n).collect();
            format!("{}{}{}", &data[..start], hexes.join(", "), &data[end..])
        } else if let Some(at) = data.find("strength: ") {
            let rest = &data[at + "strength: ".len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let value: u8 = digits.parse().unwrap();
            format!(
                "{}strength: {}{}",
                &data[..at],
                value + 1,
                &rest[digits.len()..]
            )
        } else {
            data.replace("turns: 8", "turns: 10")
                .replace("after_turn: 8", "after_turn: 10")
        };
        out += &real;
        out += "\n";
    }
    out
}

#[test]
fn a_new_game_validates_with_placeholder_warnings_then_clean() {
    let dir = tempfile::tempdir().unwrap();
    let root = new_game(dir.path(), |_| {});
    let found = validate(&root);
    assert!(!found.is_empty());
    for (what, severity) in &found {
        assert_eq!(severity, "warning", "{what}");
        assert!(what.ends_with("::placeholder"), "{what}");
    }
    // Every marked line of every file is reported, and nothing else.
    let marked: usize = FILES
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(root.join(f)).unwrap();
            text.lines()
                .filter(|l| {
                    l.ends_with(&format!(" // {PLACEHOLDER_MARK}"))
                        && !l.trim_start().starts_with(EXAMPLE_MARK)
                })
                .count()
        })
        .sum();
    assert_eq!(found.len(), marked, "{found:?}");
    for file in ["system", "counters", "scenario"] {
        assert!(
            found
                .iter()
                .any(|(w, _)| w.contains(&format!(".{file}.ron"))),
            "no placeholder in the {file}: {found:?}"
        );
    }

    for file in FILES {
        edit(&root.join(file), fill_in);
    }
    assert_eq!(validate(&root), Vec::new());
}

/// Every example of every template, uncommented, validates without errors, in the
/// files of a new game (each file made from the one before with its examples in) and in
/// a map and a scenario of a bundled system whose rules use the sections the new system
/// leaves out (army morale, hexside features).
#[test]
fn every_template_example_validates_uncommented() {
    let dir = tempfile::tempdir().unwrap();
    let root = new_game(dir.path(), |file| edit(file, uncomment_examples));
    let toml = root.join("muster.toml");
    assert!(std::fs::read_to_string(&toml).unwrap().contains("\n#~ "));
    edit(&toml, uncomment_examples);
    for file in FILES.iter().map(|f| root.join(f)).chain([toml]) {
        let text = std::fs::read_to_string(&file).unwrap();
        let left = text
            .lines()
            .map(str::trim_start)
            .find(|l| l.starts_with(EXAMPLE_MARK) || l.starts_with(TOML_EXAMPLE_MARK));
        assert_eq!(left, None, "{}", file.display());
    }
    let errors: Vec<_> = validate(&root)
        .into_iter()
        .filter(|(_, severity)| severity == "error")
        .collect();
    assert_eq!(errors, Vec::new());

    let bundled = copy_project();
    let root = bundled.path();
    run(
        root,
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
    run(
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
    let files = [
        "maps/lrf/plain.map.ron",
        "scenarios/lrf/my-battle.scenario.ron",
    ];
    for file in files {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let examples = text
            .lines()
            .filter(|l| l.trim_start().starts_with(EXAMPLE_MARK));
        assert!(examples.count() >= 2, "{file} has no examples");
        edit(&path, uncomment_examples);
    }
    let out = muster()
        .current_dir(root)
        .args(["validate", "--format", "short"])
        .args(files)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains(": error["), "{stdout}");
    assert_eq!(out.status.code(), Some(0), "{stdout}");
}
