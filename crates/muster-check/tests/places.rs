//! Every place a diagnostic names resolves exactly: over the bundled data and every
//! fixture, no pointer a check builds falls back to an enclosing value.
//!
//! This is its own test binary because it reads a process-wide counter.

use muster_testkit::repo;

use std::path::Path;
use std::sync::atomic::Ordering;

use muster_db::project::{Db, data_files_under, project_files};
use muster_db::report::INEXACT_PLACES;

#[test]
fn every_place_over_the_bundled_data_and_fixtures_resolves_exactly() {
    let display = |p: &Path| p.display().to_string();
    let config = muster_check::Config::default();
    let mut diagnostics = 0;
    // The bundled project.
    let files = project_files(&repo());
    let db = Db::load(&repo(), &files, &display);
    let all: Vec<usize> = (0..db.files.len()).collect();
    diagnostics += muster_check::validate(&db, &all, &config).len();
    // Every fixture, each against the shared base files, as the fixture test runs them.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let base = data_files_under(&root.join("_base"));
    for file in data_files_under(&root) {
        if file.starts_with(root.join("_base")) {
            continue;
        }
        let mut files = base.clone();
        files.push(file.clone());
        let db = Db::load(&root, &files, &display);
        let Some(index) = db.index_of(&file) else {
            continue;
        };
        diagnostics += muster_check::validate(&db, &[index], &config).len();
    }
    assert!(diagnostics > 100, "the fixtures report: {diagnostics}");
    assert_eq!(
        INEXACT_PLACES.load(Ordering::Relaxed),
        0,
        "places that fell back to an enclosing value"
    );
}
