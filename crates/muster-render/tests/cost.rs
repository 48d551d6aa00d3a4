//! What drawing a large scenario costs, measured by the work done rather than by the
//! clock.

use std::path::Path;

use muster_db::project::{Db, Overlay, data_files_under};

/// Diagnostics are placed on the counters they name through an index of the counters'
/// spans: a sample deployment on hundreds of hexes, with a diagnostic on most of its
/// units, compared every diagnostic with every counter (seconds on a few megabytes).
#[test]
fn diagnostics_find_their_counters_without_a_scan_per_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let copy = |rel: &str, edit: &dyn Fn(String) -> String| {
        muster_testkit::copy_edited(dir.path(), rel, edit)
    };
    copy("scenarios/prestags/prestags.system.ron", &|t| t);
    copy("maps/prestags/mapsheet.map.ron", &|t| t);
    let rel = "scenarios/prestags/4-4-paris.scenario.ron";
    copy(rel, &|t| {
        let mut entries = String::new();
        for column in 1..=30 {
            for row in 1..=30 {
                entries.push_str(&format!(
                    "(hex: \"{column:02}{row:02}\", units: [(kind: \"AX\", count: 3), (kind: \"VF\", count: 1)]), "
                ));
            }
        }
        t.replacen("sample: [", &format!("sample: [{entries}"), 1)
    });
    let display = |p: &Path| p.display().to_string();
    let root = dir.path();
    let files = data_files_under(&root.join("scenarios"))
        .into_iter()
        .chain(data_files_under(&root.join("maps")))
        .filter(|p| !p.to_string_lossy().ends_with(".scenario.ron"))
        .collect::<Vec<_>>();
    let mut db = Db::load(root, &files, &display);
    db.with_leaves(&[root.join(rel)], &display, &Overlay::new(), |db, at| {
        let config = muster_check::Config::default();
        let diagnostics = muster_check::validate(db, at, &config);
        let before = muster_render::spans_examined();
        let drawn = muster_render::render(db, at[0], &diagnostics, &Default::default());
        let examined = muster_render::spans_examined() - before;
        let pieces = drawn.board.as_ref().unwrap().pieces.len();
        let on_counters = drawn
            .marks
            .iter()
            .filter(|m| matches!(m.target, muster_render::MarkTarget::Counter(_)))
            .count();
        assert!(pieces > 1800, "{pieces} counters");
        assert!(
            on_counters > 500,
            "{on_counters} of {} diagnostics on counters",
            diagnostics.len()
        );
        assert!(
            examined <= 4 * (pieces + diagnostics.len()),
            "{examined} spans compared for {} diagnostics on {pieces} counters",
            diagnostics.len()
        );
    });
}
