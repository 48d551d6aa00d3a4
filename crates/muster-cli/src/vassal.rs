//! `muster export vassal`: the scenarios of one rules system as a VASSAL module, checked
//! first (refused with their diagnostics when they have errors, unless asked).

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
    let mut ids: Vec<&str> = scenarios
        .iter()
        .filter_map(|&i| match db.doc(i) {
            Some(Document::Scenario(s)) => Some(s.system.as_str()),
            _ => None,
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    if ids.len() > 1 {
        return Err(format!(
            "these scenarios belong to {} rules systems ({}): a module holds one; give one system's scenarios",
            ids.len(),
            ids.join(", ")
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
    }
    let old = match &into {
        Some(path) => Some(
            std::fs::read(path)
                .map_err(|e| format!("cannot read `{}`: {e}", muster_db::text::path(path)))?,
        ),
        None => None,
    };
    if let Some(why) = scenarios.first().and_then(|&i| {
        crate::project::overwrites_input(&project.root, &db, &db.files[i].file.path, &output)
    }) {
        return Err(why);
    }
    let module =
        muster_vassal::export(&db, &scenarios, old.as_deref()).map_err(|e| match &into {
            Some(path) => format!("cannot update `{}`: {e}", muster_db::text::path(path)),
            None => e,
        })?;
    write_bytes(&module.bytes, &output)?;
    for why in &module.skipped {
        errln!("muster: no set-up for {}", muster_db::text::escape(why));
    }
    outln!(
        "wrote {} ({}): {} set-up(s): {}",
        name(&output),
        muster_db::text::escape(&module.system),
        module.setups.len(),
        muster_db::text::escape(&module.setups.join(", "))
    );
    Ok(if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
