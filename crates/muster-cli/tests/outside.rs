//! A file outside any project, named from inside the bundled project by its absolute
//! path: the message names the root that was used and says how to set `--root`, and
//! with `--root` the file's ids resolve. Run from the file's own folder, the same
//! advice is the case `tests/cmd/validate-outside-any-project`.

mod common;

use common::{muster, repo};

#[test]
fn a_file_outside_any_project_is_told_its_root_and_how_to_set_it() {
    let lone = tempfile::tempdir().unwrap();
    let file = lone.path().join("battle.scenario.ron");
    std::fs::copy(repo().join("scenarios/lrf/jengland.scenario.ron"), &file).unwrap();
    // From inside the bundled project: the project is named in the advice.
    let out = muster()
        .current_dir(repo())
        .arg("validate")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("no system `lrf` in the project"),
        "{stdout}"
    );
    let root = lone.path().canonicalize().unwrap();
    assert!(
        stderr.contains("lies outside any project")
            && stderr.contains(&format!(
                "so `{}` was used as the project root",
                root.display()
            ))
            && stderr.contains("`muster --root . ...`"),
        "{stderr}"
    );
    // With `--root`, the ids resolve and nothing more is said.
    let out = muster()
        .current_dir(repo())
        .args(["--root", "."])
        .arg("validate")
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("no system"), "{stdout}");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("outside any project"));
}
