//! A file outside any project: the message says which root was used and how to set
//! `--root`, and with `--root` the file's ids resolve.

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
    // The diagnostic itself carries the way out, for every output format.
    assert!(
        stdout.contains("this project holds no system at all")
            && stdout.contains("`muster --root DIR`"),
        "{stdout}"
    );
    let json = muster()
        .current_dir(repo())
        .args(["validate", "--format", "json"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&json.stdout).contains("muster --root DIR"));
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
    // From the file's own folder: no project there to name.
    let out = muster()
        .current_dir(lone.path())
        .args(["validate", "battle.scenario.ron"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("so `.` was used as the project root"),
        "{stderr}"
    );
    assert!(stderr.contains("muster --root PROJECT"), "{stderr}");
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
