//! `muster export vassal`: the scenarios of each rules system as a VASSAL module (one
//! module per system, `NAME-<system>.vmod` or `DIR/<system>.vmod` when there are
//! several), checked first (refused with their diagnostics when they have errors,
//! unless asked).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use muster_db::load::Document;
use muster_db::{Diagnostic, Severity};

use crate::io::{err, errln, outln};
use crate::project::{display_name, write_bytes};
use crate::render;

fn is_system_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    name.ends_with(".system.ron") || name.ends_with(".system.json")
}

pub fn run(
    cwd: &Path,
    root: Option<PathBuf>,
    inputs: &[PathBuf],
    output: Option<PathBuf>,
    into: Option<PathBuf>,
    allow_errors: bool,
) -> Result<ExitCode, String> {
    let Some(output) = output.or_else(|| into.clone()) else {
        return Err(
            "give the module to write with `-o GAME.vmod` (or `--into EXISTING.vmod`)".to_string(),
        );
    };
    let project = crate::project::Project::open(cwd, root, inputs)?;
    // A system stands for every scenario of the project: load them all, keep its own.
    let whole = inputs.is_empty() || inputs.iter().any(|p| is_system_file(p));
    let mut files: Vec<PathBuf> = inputs.to_vec();
    if whole {
        files.extend(muster_db::project::project_files(&project.root));
    }
    let name = display_name(cwd);
    let (db, indexes, _) =
        muster_check::validate_paths(&project.root, &files, &project.config, &name);
    let systems: Vec<String> = inputs
        .iter()
        .filter(|p| is_system_file(p))
        .filter_map(|p| {
            let index = indexes
                .iter()
                .copied()
                .find(|&i| db.files[i].file.path == cwd.join(p) || db.files[i].file.path == *p)
                .or_else(|| db.index_of(&cwd.join(p)))?;
            match db.doc(index) {
                Some(Document::System(s)) => Some(s.id.clone()),
                _ => None,
            }
        })
        .collect();
    let mut scenarios: Vec<usize> = Vec::new();
    for &i in &indexes {
        let Some(Document::Scenario(s)) = db.doc(i) else {
            continue;
        };
        let given = !whole || inputs.iter().any(|p| db.index_of(&cwd.join(p)) == Some(i));
        if (given || inputs.is_empty() || systems.contains(&s.system)) && !scenarios.contains(&i) {
            scenarios.push(i);
        }
    }
    if inputs.iter().any(|p| is_system_file(p)) && systems.is_empty() {
        return Err(
            "the rules system given could not be read; run `muster validate` on it".to_string(),
        );
    }
    if scenarios.is_empty() {
        return Err("no scenario to export: give a `*.system.ron` or `*.scenario.ron`".to_string());
    }
    // One module per rules system, in the order of their ids.
    let mut by_system: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    for &i in &scenarios {
        if let Some(Document::Scenario(s)) = db.doc(i) {
            by_system.entry(s.system.clone()).or_default().push(i);
        }
    }
    if by_system.len() > 1 && into.is_some() {
        return Err(format!(
            "these scenarios belong to {} rules systems ({}): `--into` updates one module; give one system's scenarios",
            by_system.len(),
            by_system.keys().cloned().collect::<Vec<_>>().join(", ")
        ));
    }
    // The scenarios and every file they read: their problems are the module's.
    let mut checked = scenarios.clone();
    for &i in &scenarios {
        for (reference, kind) in muster_db::project::references_of(&db.files[i]) {
            if let muster_db::project::Resolution::Found(r) = db.resolve(i, &reference, kind)
                && !checked.contains(&r)
            {
                checked.push(r);
            }
        }
    }
    let mut diagnostics = muster_check::validate(&db, &checked, &project.config);
    diagnostics.sort_by_key(Diagnostic::sort_key);
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors > 0 {
        let handler = render::handler(render::use_colour());
        err!("{}", render::each(&handler, &diagnostics));
        errln!("{}", render::summary_line(checked.len(), &diagnostics));
        if !allow_errors {
            errln!(
                "muster: not exported: the scenarios have {errors} error(s); fix them, or give `--allow-errors` to export anyway"
            );
            return Ok(ExitCode::from(1));
        }
        errln!(
            "muster: warning: exporting despite {errors} error(s) (`--allow-errors`): a counter the errors concern may be missing or misplaced"
        );
    }
    write_modules(
        &project.root,
        &db,
        &by_system,
        &output,
        into.as_deref(),
        &name,
    )?;
    Ok(if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes the module of each system of `by_system` (its scenarios, indexes into `db`),
/// into the module at `into` when given.
fn write_modules(
    root: &Path,
    db: &muster_db::project::Db,
    by_system: &std::collections::BTreeMap<String, Vec<usize>>,
    output: &Path,
    into: Option<&Path>,
    name: &dyn Fn(&Path) -> String,
) -> Result<(), String> {
    let old = match into {
        Some(path) => Some(
            std::fs::read(path)
                .map_err(|e| format!("cannot read `{}`: {e}", muster_db::text::path(path)))?,
        ),
        None => None,
    };
    let several = by_system.len() > 1;
    let mut written = 0;
    for (system, scenarios) in by_system {
        let path = module_path(output, system, several);
        if let Some(why) = scenarios.first().and_then(|&i| {
            crate::project::overwrites_input(root, db, &db.files[i].file.path, &path)
        }) {
            return Err(why);
        }
        let module = match muster_vassal::export(db, scenarios, old.as_deref()) {
            Ok(module) => module,
            // With several systems, one without a hex map does not stop the others.
            Err(e) if several => {
                errln!(
                    "muster: no module for `{system}`: {}",
                    muster_db::text::escape(&e)
                );
                continue;
            }
            Err(e) => {
                return Err(match into {
                    Some(path) => format!("cannot update `{}`: {e}", muster_db::text::path(path)),
                    None => e,
                });
            }
        };
        write_bytes(&module.bytes, &path)?;
        written += 1;
        for why in &module.skipped {
            errln!("muster: no set-up for {}", muster_db::text::escape(why));
        }
        for what in &module.left_out {
            errln!("muster: warning: {}", muster_db::text::escape(what));
        }
        outln!(
            "wrote {} ({}): {} set-up(s): {}",
            name(&path),
            muster_db::text::escape(&module.system),
            module.setups.len(),
            muster_db::text::escape(&module.setups.join(", "))
        );
    }
    if written == 0 {
        return Err(
            "no module written: no rules system given has a scenario on a hex map".to_string(),
        );
    }
    Ok(())
}

/// Where the module of `system` goes: into `output` when it is a folder
/// (`DIR/<system>.vmod`), else `output` itself for one system, or `NAME-<system>.vmod`
/// beside it when the scenarios are of several systems.
fn module_path(output: &Path, system: &str, several: bool) -> PathBuf {
    let slug: String = system
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    if output.is_dir() || output.as_os_str().to_string_lossy().ends_with(['/', '\\']) {
        return output.join(format!("{slug}.vmod"));
    }
    if !several {
        return output.to_path_buf();
    }
    let stem = output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "module".to_string());
    let ext = output
        .extension()
        .map_or_else(|| "vmod".to_string(), |e| e.to_string_lossy().into_owned());
    output.with_file_name(format!("{stem}-{slug}.{ext}"))
}
