//! `docs/first-battle.md` runs: every ```sh block, in order, in one temporary folder with
//! the built `muster` first on `PATH`; a ```text block right after a ```sh block lists
//! lines its output must contain; a ```ron file=PATH block is the edit the reader makes
//! to PATH, applied here line by line (a setup line replaces the line of the same
//! counter, any other line the line with the same key).

mod common;

use common::{Block, apply_edit, repo, run_tutorial, tutorial_blocks};

#[test]
fn the_first_battle_tutorial_runs() {
    let markdown = std::fs::read_to_string(repo().join("docs/first-battle.md")).unwrap();
    let blocks = tutorial_blocks(&markdown);
    assert!(
        blocks.iter().filter(|b| matches!(b, Block::Sh(_))).count() >= 6,
        "{blocks:?}"
    );
    let temp = tempfile::tempdir().unwrap();
    let work = run_tutorial(&blocks, temp.path(), &apply_edit);
    // What the tutorial promises at the end: a clean battle, a compiled table, a
    // workflow that uploads SARIF.
    let project = work.join("my-games");
    assert!(project.join("build/tables/jengland.json").is_file());
    let svg = std::fs::read_to_string(project.join("build/jengland.svg")).unwrap();
    assert_eq!(svg.matches("class=\"hex\"").count(), 180, "the drawn board");
    assert_eq!(
        svg.matches("class=\"counter\"").count(),
        29,
        "every counter"
    );
    let page = std::fs::read_to_string(project.join("build/jengland.html")).unwrap();
    assert!(page.contains("Order of battle") && page.contains("No problems found."));
    let workflow = std::fs::read_to_string(project.join(".github/workflows/muster.yml")).unwrap();
    assert!(workflow.contains("upload-sarif"), "{workflow}");
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(project.join("muster.sarif")).unwrap())
            .unwrap();
    assert_eq!(
        sarif["runs"][0]["results"].as_array().map(Vec::len),
        Some(0)
    );
}
