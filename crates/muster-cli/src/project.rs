//! The project a command works in, how paths are shown, and how compiled tables are
//! written. Shared by the one-shot commands and the watch loop.

use std::path::{Path, PathBuf};

use muster_check::{Config, config};
use muster_db::project::Db;
use muster_db::{Diagnostic, project};

/// The project a command works in: its root and settings.
pub struct Project {
    pub root: PathBuf,
    pub config: Config,
}

impl Project {
    /// `--root`, else the nearest folder upwards from the first path given (or the current
    /// folder) holding `muster.toml`, `scenarios/` or `maps/`, else that folder.
    pub fn open(
        cwd: &Path,
        explicit: Option<PathBuf>,
        paths: &[PathBuf],
    ) -> Result<Project, String> {
        for p in paths {
            if !p.exists() {
                return Err(format!("`{}` does not exist", muster_db::text::path(p)));
            }
        }
        let root = match explicit {
            Some(root) if root.is_dir() => project::normalize(&root),
            Some(root) => {
                return Err(format!(
                    "project root `{}` is not a folder",
                    muster_db::text::path(&root)
                ));
            }
            None => {
                let start = match paths.first() {
                    Some(first) if first.is_dir() => project::normalize(first),
                    Some(first) => project::normalize(first)
                        .parent()
                        .map_or(cwd.to_path_buf(), Path::to_path_buf),
                    None => cwd.to_path_buf(),
                };
                let found = start.ancestors().find(|dir| {
                    dir.join(config::CONFIG_FILE).is_file()
                        || project::DATA_DIRS.iter().any(|d| dir.join(d).is_dir())
                });
                found.unwrap_or(&start).to_path_buf()
            }
        };
        let config = config::load(&root, &display_name(cwd));
        Ok(Project { root, config })
    }
}

/// How output names a file: relative to the current folder where it can be, and in
/// its shown form (`muster_db::text::path`: hidden characters escaped, bytes that
/// are not UTF-8 as `\xNN`), so the name printed is the one on disk.
pub fn display_name(cwd: &Path) -> impl Fn(&Path) -> String + Sync + '_ {
    move |p: &Path| {
        let p = project::normalized(p);
        muster_db::text::path(p.strip_prefix(cwd).unwrap_or(&p))
    }
}

/// Expands the paths given on the command line into data files.
pub fn expand(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            out.extend(project::data_files_under(p));
        } else {
            out.push(p.clone());
        }
    }
    out
}

pub fn write_table(map: &muster_map::TerrainMap, output: &Path) -> Result<(), String> {
    write_json(&muster_map::to_json(map.table()), output)
}

/// Writes compiled JSON atomically, creating the folder if needed.
pub fn write_json(json: &str, output: &Path) -> Result<(), String> {
    write_bytes(json.as_bytes(), output)
}

/// Writes a file atomically, creating the folder if needed.
pub fn write_bytes(bytes: &[u8], output: &Path) -> Result<(), String> {
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create `{}`: {e}", muster_db::text::path(dir)))?;
    }
    muster_map::write_atomic(output, bytes)
        .map_err(|e| format!("cannot write `{}`: {e}", muster_db::text::path(output)))
}

/// An id made safe as a file name (anything but letters, digits, `-`, `_` and `.`
/// becomes `_`, leading dots are dropped), or `fallback` when nothing is left.
pub fn file_safe(id: &str, fallback: &str) -> String {
    let name: String = id
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match name.trim_start_matches('.') {
        "" => fallback.to_string(),
        name => name.to_string(),
    }
}

/// The project of a command, refused when there is nothing to check in it.
pub(crate) fn open_project(
    cwd: &Path,
    root: Option<PathBuf>,
    targets: &[PathBuf],
) -> Result<Project, String> {
    let project = Project::open(cwd, root, targets)?;
    if targets.is_empty()
        && project.config.check_paths.is_empty()
        && project::project_files(&project.root).is_empty()
    {
        return Err(format!(
            "no `scenarios/` or `maps/` data under `{}`; give files or folders to check",
            muster_db::text::path(&project.root)
        ));
    }
    Ok(project)
}

pub(crate) fn load(
    cwd: &Path,
    root: Option<PathBuf>,
    targets: &[PathBuf],
) -> Result<(Project, Db, Vec<usize>, Vec<Diagnostic>), String> {
    let project = open_project(cwd, root, targets)?;
    let files = expand(targets);
    let name = display_name(cwd);
    let (db, indexes, diagnostics) =
        muster_check::validate_paths(&project.root, &files, &project.config, &name);
    Ok((project, db, indexes, diagnostics))
}

/// Why `output` must not be written: it is a file muster reads (the file compiled, any
/// file loaded with it, `muster.toml`), or it lies under the project's `scenarios/` or
/// `maps/`. Paths are compared by where they really lead, through any symlink.
pub(crate) fn overwrites_input(
    root: &Path,
    db: &Db,
    input: &Path,
    output: &Path,
) -> Option<String> {
    let target = real_path(output);
    let shown = muster_db::text::path(output);
    let inputs = db.files.iter().map(|l| l.file.path.clone()).chain([
        input.to_path_buf(),
        root.join(muster_check::config::CONFIG_FILE),
    ]);
    for path in inputs {
        if path.exists() && real_path(&path) == target {
            return Some(format!(
                "refusing to write `{shown}`: muster reads it as input; give `-o` a path outside `scenarios/` and `maps/`, such as `target/muster/out.json`"
            ));
        }
    }
    for dir in project::DATA_DIRS {
        let data = real_path(&root.join(dir));
        if target.starts_with(&data) {
            return Some(format!(
                "refusing to write `{shown}`: it is under `{dir}/`, where muster reads data; give `-o` a path outside `scenarios/` and `maps/`, such as `target/muster/out.json`"
            ));
        }
    }
    None
}

/// The canonical path of `path`, or of its nearest existing folder joined with the rest
/// when it does not exist yet.
pub(crate) fn real_path(path: &Path) -> PathBuf {
    let path = project::normalize(path);
    let mut rest = Vec::new();
    let mut at = path.as_path();
    loop {
        if let Ok(real) = std::fs::canonicalize(at) {
            return rest
                .iter()
                .rev()
                .fold(real, |p: PathBuf, part| p.join(part));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return path,
        }
    }
}
