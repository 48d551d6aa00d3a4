//! Files outside any project. The project root of a command comes from `--root` or from
//! the first path given (the nearest folder upwards with `muster.toml`, `scenarios/` or
//! `maps/`). A file saved elsewhere gets its own folder as the root, and every id it
//! names then fails as `no system ... in the project`. This says which root was used
//! and how to give the right one.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use muster_check::config;
use muster_db::project;

use crate::io::errln;

/// The nearest folder from `start` upwards that is a project root.
fn project_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| {
            dir.join(config::CONFIG_FILE).is_file()
                || project::DATA_DIRS.iter().any(|d| dir.join(d).is_dir())
        })
        .map(Path::to_path_buf)
}

/// What to tell the author when the first path lies outside any project and no
/// `--root` was given: the root used and how to set it. `None` otherwise.
pub fn hint(cwd: &Path, root: Option<&Path>, paths: &[PathBuf]) -> Option<String> {
    if root.is_some() {
        return None;
    }
    let first = paths.first()?;
    if !first.exists() {
        return None;
    }
    let first = project::normalize(first);
    let start = if first.is_dir() {
        first.clone()
    } else {
        first.parent()?.to_path_buf()
    };
    if project_root(&start).is_some() {
        return None;
    }
    let name = crate::project::display_name(cwd);
    let show = |p: &Path| match name(p) {
        s if s.is_empty() => ".".to_string(),
        s => s,
    };
    let suggestion = match project_root(cwd) {
        Some(here) => format!(
            "give it: `muster --root {} ...`, or move the file into that project's `scenarios/`",
            show(&here)
        ),
        None => "give it with `muster --root PROJECT ...` (the folder holding `scenarios/` and `maps/`), or move the file into the project".to_string(),
    };
    let root_shown = show(&start);
    Some(format!(
        "`{}` lies outside any project: no folder from `{root_shown}` upwards has `muster.toml`, `scenarios/` or `maps/`, so `{root_shown}` was used as the project root and the ids the file names were looked up there; if the file belongs to a project, {suggestion}",
        show(&first),
    ))
}

/// Prints the hint when the command found errors (unknown references among them).
pub fn report(hint: Option<String>, code: ExitCode) {
    if let Some(hint) = hint
        && code != ExitCode::SUCCESS
    {
        errln!("muster: {hint}");
    }
}
