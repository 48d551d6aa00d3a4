//! What a designer writing a game of their own meets: a project's files that fail to
//! load, layouts that disagree, and the other places where the validator must speak in
//! the designer's terms (each a regression test of a report from a new designer).

mod common;

use common::copy_project;

use std::path::Path;

use muster_check::{Config, Diagnostic};

fn validate(root: &Path, targets: &[&str]) -> Vec<Diagnostic> {
    let display = |p: &Path| {
        p.strip_prefix(root)
            .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
    };
    let targets: Vec<_> = targets.iter().map(|t| root.join(t)).collect();
    muster_check::validate_project(root, &targets, &Config::default(), &display).1
}

fn replace(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "`{from}` not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// A system file with one missing comma is reported where the comma is missing, and
/// every file that uses the system says that it failed to load and where it is, at the
/// reference, rather than that the project holds no system.
#[test]
fn a_system_that_fails_to_load_is_named_where_it_is_used() {
    let dir = copy_project();
    replace(
        &dir.path().join("scenarios/lrf/lrf.system.ron"),
        "name: \"Les Rois Francs\",",
        "name: \"Les Rois Francs\"",
    );
    for targets in [&[][..], &["scenarios/lrf/jengland.scenario.ron"][..]] {
        let found = validate(dir.path(), targets);
        let at_use: Vec<&Diagnostic> = found
            .iter()
            .filter(|d| {
                d.file.name == "scenarios/lrf/jengland.scenario.ron" && d.code != "checks::skipped"
            })
            .collect();
        let skipped = found
            .iter()
            .find(|d| {
                d.file.name == "scenarios/lrf/jengland.scenario.ron" && d.code == "checks::skipped"
            })
            .expect("the map checks say why they did not run");
        assert!(
            skipped.message.ends_with(
                "the rules system `lrf` of `maps/lrf/jengland.map.ron` failed to load (`scenarios/lrf/lrf.system.ron` has errors)"
            ),
            "{}",
            skipped.message
        );
        assert_eq!(at_use.len(), 1, "{targets:?}: {at_use:#?}");
        let d = at_use[0];
        assert_eq!(d.code, "references::unknown-file");
        assert_eq!(
            d.message,
            "system `lrf` failed to load: it is in `scenarios/lrf/lrf.system.ron`, which has errors"
        );
        let at = d.start();
        assert_eq!(
            (at.line, at.column),
            (8, 13),
            "the span is on the reference"
        );
        assert_eq!(&d.file.text[d.span.clone()], "\"lrf\"");
        assert!(d.help.as_deref().unwrap().contains("fix the errors in"));
        let note = d.note.as_deref().unwrap();
        assert!(
            note.starts_with("its first error: scenarios/lrf/lrf.system.ron:7:"),
            "{note}"
        );
        assert!(
            found
                .iter()
                .all(|d| !d.help.as_deref().unwrap_or("").contains("holds no"))
        );
    }
    // The whole project: the map and the counter sheet say so too, and the system its
    // own error, once.
    let found = validate(dir.path(), &[]);
    for file in [
        "maps/lrf/jengland.map.ron",
        "scenarios/lrf/lrf.counters.ron",
    ] {
        assert!(
            found.iter().any(
                |d| d.file.name == file && d.message.starts_with("system `lrf` failed to load")
            ),
            "{file}"
        );
    }
    let own: Vec<&Diagnostic> = found
        .iter()
        .filter(|d| d.file.name == "scenarios/lrf/lrf.system.ron")
        .collect();
    assert_eq!(own.len(), 1, "{own:#?}");
}
