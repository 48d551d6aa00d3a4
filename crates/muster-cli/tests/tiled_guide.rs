//! `docs/tiled.md` runs: every ```sh block, in order, in one temporary folder with the
//! built `muster` first on `PATH`, each ```text block's lines in the output just before
//! it (the runner of `docs/first-battle.md`); at the end the painted map is a compact
//! map source that validates clean.

mod common;

use common::{Block, repo, run_tutorial, tutorial_blocks};

#[test]
fn the_tiled_guide_runs() {
    let markdown = std::fs::read_to_string(repo().join("docs/tiled.md")).unwrap();
    let blocks = tutorial_blocks(&markdown);
    assert!(
        blocks.iter().filter(|b| matches!(b, Block::Sh(_))).count() >= 6,
        "{blocks:?}"
    );
    let temp = tempfile::tempdir().unwrap();
    let work = run_tutorial(&blocks, temp.path(), &|path, _| {
        panic!("the guide edits no file, yet names {}", path.display())
    });
    let project = work.join("my-maps");
    let tmx = std::fs::read_to_string(project.join("tiled/valley.tmx")).unwrap();
    assert!(tmx.contains("orientation=\"hexagonal\""));
    let source: muster_model::map::MapSource =
        common::read_ron(project.join("maps/lrf/valley.map.ron").to_str().unwrap());
    assert_eq!(source.id, "valley");
    // Areas per terrain: fewer overlays than the 9 hexes painted off the base terrain.
    let terrain = source
        .overlays
        .iter()
        .filter(|o| matches!(o, muster_model::map::Overlay::Terrain { .. }))
        .count();
    assert!((1..9).contains(&terrain), "{terrain} terrain overlays");
    let out = common::muster()
        .current_dir(&project)
        .args(["validate", "--deny-warnings"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}
