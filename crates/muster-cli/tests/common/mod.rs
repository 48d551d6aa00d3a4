//! Helpers shared by the CLI test binaries: the binary with colour off, a committed
//! schema, a file read with `ron`; the repository, temporary copies of the bundled
//! project and the check fixtures' project come from `muster-testkit`.

#![allow(dead_code, unused_imports)]

use assert_cmd::Command;

pub use muster_testkit::{
    FIXTURE_SCENARIO, FIXTURES, add_fixture_project, copy_dir, copy_project, fixture_project, repo,
};

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

/// Read with `ron` itself (implicit `Some`, as muster's files are written), from a path
/// in the repository.
pub fn read_ron<T: serde::de::DeserializeOwned>(path: &str) -> T {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(&std::fs::read_to_string(repo().join(path)).unwrap())
        .unwrap()
}
