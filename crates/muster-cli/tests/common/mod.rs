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
