//! Resource limits and the project root, on projects built in temporary folders: a map
//! beyond `[limits]` is refused at its size and never compiled, non-finite table sizes
//! are reported at the value, and a symlink out of the root is never read.

use std::path::Path;

use muster_check::Config;
use muster_db::Diagnostic;
use muster_db::project::{Db, data_files_under};

/// The fixtures' rules systems: hexes (`test`) and an open table (`tsys`).
const SYSTEM: &str = include_str!("fixtures/_base/test.system.ron");
const TABLE_SYSTEM: &str = include_str!("fixtures/_base/table.system.ron");

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn validate(root: &Path) -> (Db, Vec<Diagnostic>) {
    let display = |p: &Path| {
        p.strip_prefix(root)
            .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
    };
    let files = data_files_under(&root.join("maps"));
    let db = Db::load(root, &files, &display);
    let all: Vec<usize> = (0..db.files.len()).collect();
    let config = muster_check::config::load(root, &display);
    let mut out = config.diagnostics.clone();
    out.extend(muster_check::validate(&db, &all, &config));
    (db, out)
}

fn map(grid: &str) -> String {
    format!(
        "Map(id: \"m\", name: \"M\", system: \"s.system.ron\", grid: {grid}, base: \"clear\", overlays: [])"
    )
}

fn table(grid: &str) -> String {
    format!(
        "Map(id: \"t\", name: \"T\", system: \"t.system.ron\", grid: {grid}, base: \"open\", overlays: [])"
    )
}

#[test]
fn a_grid_above_the_projects_limit_is_refused_at_its_size() {
    let grid = "Hex(columns: 12, rows: 15)";
    let dir = project(&[
        ("muster.toml", "[limits]\nmax-hexes = 100\n"),
        ("maps/s.system.ron", SYSTEM),
        ("maps/m.map.ron", &map(grid)),
    ]);
    let (db, found) = validate(dir.path());
    let d = found
        .iter()
        .find(|d| d.code == "maps::grid-too-large")
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert_eq!(&d.file.text[d.span.clone()], "Hex(columns: 12, rows: 15)");
    assert!(d.message.contains("180 hexes") && d.message.contains("limit of 100"));
    // Not compiled.
    let index = db.index_of(&dir.path().join("maps/m.map.ron")).unwrap();
    assert!(db.terrain_map(index).is_none());
    // Within the default limit it compiles.
    std::fs::remove_file(dir.path().join("muster.toml")).unwrap();
    let (db, found) = validate(dir.path());
    assert!(found.is_empty(), "{found:#?}");
    assert!(db.terrain_map(index).is_some());
}

#[test]
fn limits_out_of_range_are_config_errors_at_the_value() {
    let dir = project(&[
        ("muster.toml", "[limits]\nmax-hexes = 20000\n"),
        ("maps/s.system.ron", SYSTEM),
        ("maps/m.map.ron", &map("Hex(columns: 12, rows: 15)")),
    ]);
    let (db, found) = validate(dir.path());
    assert_eq!(db.limits, muster_check::config::Limits::DEFAULT);
    let d = &found[0];
    assert_eq!(d.code, "config::invalid");
    assert_eq!(&d.file.text[d.span.clone()], "20000");
}

#[test]
fn non_finite_table_sizes_are_reported_at_the_value() {
    let dir = project(&[
        ("maps/t.system.ron", TABLE_SYSTEM),
        (
            "maps/t.map.ron",
            &table("Table(width: 48.0, depth: 36.0, raster: NaN)"),
        ),
    ]);
    let (_, found) = validate(dir.path());
    let d = found
        .iter()
        .find(|d| d.code == "maps::table-size-not-positive")
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert_eq!(&d.file.text[d.span.clone()], "NaN");
    assert!(d.message.contains("`raster` is not a number"));
}

#[cfg(unix)]
#[test]
fn a_symlinked_file_out_of_the_root_is_reported_and_never_read() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.map.ron");
    std::fs::write(
        &secret,
        map("Hex(columns: 2, rows: 2)").replace("\"M\"", "\"SECRET\""),
    )
    .unwrap();
    let dir = project(&[("maps/s.system.ron", SYSTEM)]);
    std::os::unix::fs::symlink(&secret, dir.path().join("maps/linked.map.ron")).unwrap();
    let (db, found) = validate(dir.path());
    let d = found
        .iter()
        .find(|d| d.code == "references::outside-root")
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert!(d.message.contains("linked.map.ron"), "{}", d.message);
    for file in &db.files {
        assert!(!file.file.text.contains("SECRET"), "the target was read");
    }
}

#[test]
fn no_config_and_no_diagnostics_for_a_sound_project() {
    let dir = project(&[
        ("maps/s.system.ron", SYSTEM),
        ("maps/m.map.ron", &map("Hex(columns: 99, rows: 99)")),
    ]);
    let (_, found) = validate(dir.path());
    assert!(found.is_empty(), "{found:#?}");
    let _ = Config::default();
}
