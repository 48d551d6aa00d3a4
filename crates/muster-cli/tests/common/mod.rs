//! Helpers shared by the CLI test binaries: the binary with colour off; the repository
//! and temporary copies of the bundled project come from `muster-testkit`.

#![allow(dead_code, unused_imports)]

use assert_cmd::Command;

pub use muster_testkit::{copy_dir, copy_project, repo};

/// The `muster` binary with colour off.
pub fn muster() -> Command {
    let mut cmd = Command::cargo_bin("muster").unwrap();
    cmd.env("NO_COLOR", "1");
    cmd
}

/// The validator of a committed schema under `schema/`.
pub fn schema(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(repo().join("schema").join(name)).unwrap();
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

/// Where the check fixtures keep their base project and their valid scenario.
pub const FIXTURES: &str = "crates/muster-check/tests/fixtures";

/// The scenario of [`vocab_project`], relative to its root.
pub const VOCAB_SCENARIO: &str = "scenarios/fixture/valid.scenario.ron";

/// A temporary project of the check fixtures' base system, counters and map with their
/// valid scenario, which keeps a turn record and supply sources of every kind (no
/// bundled scenario has either).
pub fn vocab_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let to = dir.path().join("scenarios/fixture");
    std::fs::create_dir_all(&to).unwrap();
    let from = repo().join(FIXTURES);
    for file in [
        "_base/test.system.ron",
        "_base/test.counters.ron",
        "_base/test.map.ron",
        "_valid/valid.scenario.ron",
    ] {
        let name = std::path::Path::new(file).file_name().unwrap();
        std::fs::copy(from.join(file), to.join(name)).unwrap();
    }
    dir
}
