//! Helpers shared by muster's test binaries (and by `xtask`, which runs the same soak and
//! fuzz projects): where the repository is, and temporary copies of its bundled project
//! and of the check fixtures' project.
//!
//! This crate is never published and is only ever a dev-dependency of the workspace's
//! crates (a plain dependency of `xtask`, itself a dev-only tool). Without its `db`
//! feature it depends on no muster crate, so any crate's tests can use it without a
//! cycle; with it, [`db`] loads the bundled project for the crates above `muster-db`.
//! [`vassal`] finds the real VASSAL engine and runs muster's Java harness in it.
//!
//! ```no_run
//! let project = muster_testkit::copy_project();
//! assert!(project.path().join("scenarios/lrf/jengland.scenario.ron").is_file());
//! ```

use std::path::{Path, PathBuf};

#[cfg(feature = "db")]
pub mod db;
pub mod vassal;

/// The repository root (the workspace folder holding `scenarios/`, `maps/` and
/// `schema/`), canonical, so that paths built from it compare equal to paths the tools
/// canonicalise.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root exists")
}

/// Copies the folder `from` into `to` (created if missing), recursively: folders are
/// recreated, every other entry is copied as a file (symlinks are followed).
pub fn try_copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    let mut entries: Vec<_> = std::fs::read_dir(from)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            try_copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// [`try_copy_dir`], panicking with both paths on failure (for tests).
pub fn copy_dir(from: &Path, to: &Path) {
    try_copy_dir(from, to).unwrap_or_else(|e| {
        panic!("copying {} to {}: {e}", from.display(), to.display());
    });
}

/// A temporary copy of the bundled project (`scenarios/` and `maps/`), removed when the
/// returned guard drops.
pub fn copy_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for sub in ["scenarios", "maps"] {
        copy_dir(&repo().join(sub), &dir.path().join(sub));
    }
    dir
}

/// Where the check fixtures keep their base project and their valid scenario.
pub const FIXTURES: &str = "crates/muster-check/tests/fixtures";

/// The scenario of [`fixture_project`], relative to its root.
pub const FIXTURE_SCENARIO: &str = "scenarios/fixture/valid.scenario.ron";

/// A temporary project of the check fixtures' base system, counters and map with their
/// valid scenario, which keeps what no bundled scenario has (a turn record, supply
/// sources of every kind).
pub fn fixture_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    add_fixture_project(dir.path());
    dir
}

/// Copies the files of [`fixture_project`] into the project at `root`, under
/// `scenarios/fixture/`.
pub fn add_fixture_project(root: &Path) {
    let to = root.join("scenarios/fixture");
    std::fs::create_dir_all(&to).expect("a fixture folder");
    let from = repo().join(FIXTURES);
    for file in [
        "_base/test.system.ron",
        "_base/test.counters.ron",
        "_base/test.map.ron",
        "_valid/valid.scenario.ron",
    ] {
        let name = Path::new(file).file_name().expect("a file name");
        std::fs::copy(from.join(file), to.join(name)).expect("a fixture file");
    }
}

/// Replaces the first `from` in the file at `path` with `to`, failing the test when the
/// file does not hold `from` (so that an edit meant to break a file cannot silently miss).
pub fn replace(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "`{from}` not in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// Edits that give Jengland every kind of set-up state: the two Saxe counters start
/// reduced, one bowman waits in the reserves box, the owner picks 5 of the 6 infantry
/// and the Bretons set up hidden. Apply each with [`replace`].
pub const JENGLAND_SET_UP_STATE: &[(&str, &str)] = &[
    (
        r#"(counter: "saxe", count: 2)"#,
        r#"(counter: "saxe", count: 2, status: "reduced")"#,
    ),
    (
        r#"(units: [(counter: "jengland-bowmen", count: 3)], at: Hexes(["0502", "1002", "1502"])),"#,
        r#"(units: [(counter: "jengland-bowmen", count: 2)], at: Hexes(["0502", "1002"])),
                (units: [(counter: "jengland-bowmen")], at: Box(Reserves)),"#,
    ),
    (
        r#"at: Hexes(["0403", "0504", "0603", "1304", "1403", "1504"]),"#,
        r#"at: Hexes(["0403", "0504", "0603", "1304", "1403"]),
                    choose: 5,"#,
    ),
    (
        "            morale_threshold: Some(Fixed(20)),\n            forces: Placed(",
        "            morale_threshold: Some(Fixed(20)),\n            forces: Placed(hidden: true, ",
    ),
];

/// Copies the repository file `rel` to the same place under `dir`, through `edit`: a
/// temporary project made of a few bundled files, some of them changed.
pub fn copy_edited(dir: &Path, rel: &str, edit: &dyn Fn(String) -> String) {
    let text = std::fs::read_to_string(repo().join(rel)).unwrap();
    let to = dir.join(rel);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::write(to, edit(text)).unwrap();
}

/// A temporary project of the repository files `files` as they are and `rel` through
/// `edit`: one bundled scenario changed, with what it needs.
pub fn edited_project(
    files: &[&str],
    rel: &str,
    edit: &dyn Fn(String) -> String,
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for file in files {
        copy_edited(dir.path(), file, &|t| t);
    }
    copy_edited(dir.path(), rel, edit);
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_holds_every_bundled_file_byte_for_byte() {
        let copy = copy_project();
        let mut seen = 0;
        let mut stack = vec![repo().join("scenarios"), repo().join("maps")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let rel = path.strip_prefix(repo()).unwrap();
                assert_eq!(
                    std::fs::read(&path).unwrap(),
                    std::fs::read(copy.path().join(rel)).unwrap(),
                    "{}",
                    rel.display()
                );
                seen += 1;
            }
        }
        assert!(seen > 10, "the bundled project has its files: {seen}");
    }

    #[test]
    fn a_missing_source_is_an_error_not_an_empty_copy() {
        let dir = tempfile::tempdir().unwrap();
        assert!(try_copy_dir(&dir.path().join("absent"), &dir.path().join("to")).is_err());
    }
}
