//! A short soak in the test suite: `muster watch` under 25 random changes (edits into an
//! error and back, atomic saves, deletes and rewrites, folders of copies created, moved
//! and deleted, bursts), its shown state compared with a fresh `muster validate` after
//! every round. The same code as `cargo xtask soak`, which runs 10,000 events.

#[path = "../../../xtask/src/soak.rs"]
mod soak;

mod common;

use std::path::Path;

/// What `soak.rs` copies the project with (`crate::copy_dir`, as in xtask).
use muster_testkit::try_copy_dir as copy_dir;

#[test]
fn a_short_soak_keeps_the_watch_equal_to_a_fresh_validate() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    let args: Vec<String> = [
        "--events",
        "25",
        "--seed",
        "11",
        "--dir",
        project.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec();
    soak::run(
        &common::repo(),
        Path::new(env!("CARGO_BIN_EXE_muster")),
        &args,
    )
    .unwrap();
}
