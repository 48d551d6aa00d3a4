//! The project a command works in, how paths are shown, and how compiled tables are
//! written. Shared by the one-shot commands and the watch loop.

use std::path::{Path, PathBuf};

use muster_check::{Config, config, project};

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
                return Err(format!("`{}` does not exist", p.display()));
            }
        }
        let root = match explicit {
            Some(root) if root.is_dir() => project::normalize(&root),
            Some(root) => return Err(format!("project root `{}` is not a folder", root.display())),
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

pub fn display_name(cwd: &Path) -> impl Fn(&Path) -> String + Sync + '_ {
    move |p: &Path| {
        let p = project::normalize(p);
        p.strip_prefix(cwd)
            .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
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
            .map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    }
    muster_map::write_atomic(output, bytes)
        .map_err(|e| format!("cannot write `{}`: {e}", output.display()))
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
