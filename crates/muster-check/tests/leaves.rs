//! Scenarios checked as leaves, a batch at a time, give exactly the diagnostics of
//! checking the whole project at once, duplicate ids across batches included.

use muster_testkit::{copy_project, repo};

use std::path::Path;

use muster_check::Config;
use muster_db::Diagnostic;

fn key(d: &Diagnostic) -> (String, usize, usize, &'static str, String) {
    (
        d.file.name.clone(),
        d.span.start,
        d.span.end,
        d.code,
        d.message.clone(),
    )
}

#[test]
fn leaves_in_batches_give_the_diagnostics_of_one_pass() {
    let dir = copy_project();
    let jengland =
        std::fs::read_to_string(repo().join("scenarios/lrf/jengland.scenario.ron")).unwrap();
    let copies = dir.path().join("scenarios/copies");
    std::fs::create_dir_all(&copies).unwrap();
    // 300 copies: more than two batches. Copies 0, 200 and 299 share an id (copy 200
    // allows it, so its suppression is used and nothing is reported there); copy 150 has
    // a hex off the map.
    for n in 0..300 {
        let id = if n == 299 || n == 200 { 0 } else { n };
        let mut text = jengland.replacen("id: \"jengland\"", &format!("id: \"copy-{id}\""), 1);
        if n == 200 {
            text = text.replacen(
                "id: \"copy-0\",",
                "id: \"copy-0\", // muster: allow(references::duplicate-id) reason: a variant",
                1,
            );
        }
        if n == 150 {
            text = text.replacen("\"1004\"", "\"1704\"", 1);
        }
        std::fs::write(copies.join(format!("copy-{n:03}.scenario.ron")), text).unwrap();
    }
    let display = |p: &Path| {
        p.strip_prefix(dir.path())
            .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
    };
    let config = Config::default();
    let (checked, streamed) = muster_check::validate_project(dir.path(), &[], &config, &display);
    let (_, indexes, whole) = muster_check::validate_paths(dir.path(), &[], &config, &display);
    assert_eq!(checked, indexes.len());
    let mut a: Vec<_> = streamed.iter().map(key).collect();
    let mut b: Vec<_> = whole.iter().map(key).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    let codes: Vec<(&str, &str)> = streamed
        .iter()
        .map(|d| (d.file.name.as_str(), d.code))
        .collect();
    for file in ["copy-000", "copy-299"] {
        assert!(
            codes
                .iter()
                .any(|(f, c)| f.contains(file) && *c == "references::duplicate-id"),
            "{codes:?}"
        );
    }
    assert!(
        codes
            .iter()
            .any(|(f, c)| f.contains("copy-150") && *c == "geometry::off-map"),
        "{codes:?}"
    );
    assert!(
        !codes.iter().any(|(f, _)| f.contains("copy-200")),
        "{codes:?}"
    );
    // Only a scenario named on the command line is read in full; the others' ids count.
    let target = copies.join("copy-299.scenario.ron");
    let (checked, one) = muster_check::validate_project(dir.path(), &[target], &config, &display);
    assert_eq!(checked, 1);
    assert!(
        one.iter()
            .any(|d| d.code == "references::duplicate-id" && d.message.contains("copy-000")),
        "{:?}",
        one.iter().map(key).collect::<Vec<_>>()
    );
}
