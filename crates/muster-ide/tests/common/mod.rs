//! Helpers shared by the muster-ide test binaries: the repository and temporary
//! copies of the bundled project.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A temporary copy of the bundled project (`scenarios/` and `maps/`).
pub fn copy_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["scenarios", "maps"] {
        copy_dir(&repo().join(sub), &dir.path().join(sub));
    }
    dir
}
