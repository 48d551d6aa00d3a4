//! `docs/vassal.md` runs (with the tutorial runner `docs/first-battle.md` uses), and the
//! module it ends with holds what it promises: two set-ups, the erratum's hex in the
//! Jengland set-up as VASSAL's grid names it, and the copy updated `--into` the same as
//! the module written fresh.

mod common;

use common::{apply_edit, repo, run_tutorial, tutorial_blocks};
use muster_vassal::BATTLEFIELD;

#[test]
fn the_vassal_tutorial_runs() {
    let markdown = std::fs::read_to_string(repo().join("docs/vassal.md")).unwrap();
    let blocks = tutorial_blocks(&markdown);
    assert!(
        blocks
            .iter()
            .filter(|b| matches!(b, common::Block::Sh(_)))
            .count()
            >= 4,
        "{blocks:?}"
    );
    let temp = tempfile::tempdir().unwrap();
    let work = run_tutorial(&blocks, temp.path(), &apply_edit);
    let build = work.join("my-module/build");
    let bytes = std::fs::read(build.join("lrf.vmod")).unwrap();
    let module = muster_vassal::read::module(&bytes).unwrap();
    let names: Vec<&str> = module.setups.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Brissarthe", "Jengland"]);
    let jengland = &module.setups[1];
    let (_, board) = jengland
        .boards
        .iter()
        .find(|(map, _)| map == BATTLEFIELD)
        .unwrap();
    let grid = module.board(BATTLEFIELD, board).unwrap().grid.unwrap();
    let mut bowmen: Vec<String> = jengland
        .pieces
        .iter()
        .filter(|p| p.get("Counter") == "jengland-bowmen")
        .map(|p| grid.location_name(p.at))
        .collect();
    bowmen.sort();
    assert_eq!(
        bowmen,
        ["0502", "1002", "1402"],
        "the erratum is in the set-up"
    );
    // Updating a copy in place gives the module written fresh.
    let updated = std::fs::read(build.join("my-lrf.vmod")).unwrap();
    assert!(
        updated == bytes,
        "--into a copy of muster's own module changes nothing"
    );
}
