//! The muster validator.
//!
//! Data flow: [`project::Db::load`] reads every file (in parallel) through
//! [`load`] (size limit, UTF-8, kind, typed parse with `ron`/`serde_json`, schema
//! constraints with `jsonschema`), resolves references by id or by path inside the
//! project root, and compiles each map with `muster-map`. [`validate`] then runs the
//! [`checks::REGISTRY`] over the requested files. Checks name places by JSON pointer;
//! [`report::Sink`] turns pointers into byte spans with the [`spans`] index.
//!
//! **Boundary:** nothing here prints, watches files or decides exit codes; that is the
//! CLI's job. Problems in user data are [`Diagnostic`]s, never `Err` and never panics.

pub mod checks;
pub mod diagnostic;
pub mod docs;
pub mod hooks;
pub mod load;
pub mod output;
pub mod project;
pub mod registry;
pub mod report;
pub mod schema;
pub mod source;
pub mod spans;
pub mod suggest;
pub mod summary;

use std::path::Path;

pub use diagnostic::{Diagnostic, Label, Severity};
pub use project::Db;
pub use registry::CheckMeta;

use checks::context::{FileCx, ScenarioCx};
use checks::{REGISTRY, Runner};
use rayon::prelude::*;
use report::Sink;

/// Diagnostics for the files at `indexes` of `db`, sorted by file and position.
pub fn validate(db: &Db, indexes: &[usize]) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = indexes
        .par_iter()
        .flat_map_iter(|&i| check_file(db, i))
        .collect();
    out.sort_by_key(Diagnostic::sort_key);
    out
}

/// Loader diagnostics plus every registered check that applies to file `index`.
pub fn check_file(db: &Db, index: usize) -> Vec<Diagnostic> {
    let loaded = &db.files[index];
    let mut out = loaded.diagnostics.clone();
    let Some(file_cx) = FileCx::new(db, index) else {
        return out;
    };
    let mut sink = Sink::new(loaded);
    for check in REGISTRY {
        if let Runner::File(run) = check.runner {
            run(&file_cx, &mut sink);
        }
    }
    if let Some(scenario_cx) = ScenarioCx::new(file_cx) {
        for check in REGISTRY {
            if let Runner::Scenario(run) = check.runner {
                run(&scenario_cx, &mut sink);
            }
        }
    }
    out.extend(sink.finish());
    out
}

/// Loads the project at `root` plus `targets` and validates `targets` (all project
/// files when `targets` is empty).
pub fn validate_paths(
    root: &Path,
    targets: &[std::path::PathBuf],
    display: &(dyn Fn(&Path) -> String + Sync),
) -> (Db, Vec<usize>, Vec<Diagnostic>) {
    let mut files = project::project_files(root);
    let targets: Vec<std::path::PathBuf> = if targets.is_empty() {
        files.clone()
    } else {
        targets.to_vec()
    };
    files.extend(targets.iter().cloned());
    let db = Db::load(root, &files, display);
    let indexes: Vec<usize> = targets.iter().filter_map(|t| db.index_of(t)).collect();
    let diagnostics = validate(&db, &indexes);
    (db, indexes, diagnostics)
}

/// The JSON Schema of `muster validate --format json` output.
pub fn report_schema() -> serde_json::Value {
    schemars::schema_for!(output::JsonReport).to_value()
}
