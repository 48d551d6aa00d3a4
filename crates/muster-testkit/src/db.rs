//! The bundled project as a loaded [`Db`], for tests that read the semantic model.

use std::path::Path;

use muster_db::Db;
use muster_db::project::{data_files_under, project_files};

use crate::repo;

/// Every file of the bundled project, loaded, named by its path relative to the
/// repository.
pub fn bundled() -> Db {
    let display = |p: &Path| {
        p.strip_prefix(repo())
            .map(|r| r.display().to_string())
            .unwrap_or_else(|_| p.display().to_string())
    };
    Db::load(&repo(), &project_files(&repo()), &display)
}

/// The index in `db` of the file at `rel` (relative to the repository).
pub fn index(db: &Db, rel: &str) -> usize {
    db.index_of(&repo().join(rel))
        .unwrap_or_else(|| panic!("{rel} is not loaded"))
}

/// The data files under `root`'s `scenarios/` and `maps/`, loaded, named by their full
/// paths: a temporary project a test wrote.
pub fn load(root: &Path) -> Db {
    let display = |p: &Path| p.display().to_string();
    let mut files = data_files_under(&root.join("scenarios"));
    files.extend(data_files_under(&root.join("maps")));
    Db::load(root, &files, &display)
}
