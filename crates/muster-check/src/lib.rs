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
pub mod config;
pub mod diagnostic;
pub mod docs;
pub mod hooks;
pub mod load;
pub mod output;
pub mod project;
pub mod registry;
pub mod report;
pub mod schema;
pub mod semantic;
pub mod source;
pub mod suggest;
pub mod summary;
pub mod suppress;
pub mod watch;

use std::path::Path;

pub use config::Config;
pub use diagnostic::{Diagnostic, Label, Severity};
pub use project::Db;
pub use registry::CheckMeta;

use checks::{REGISTRY, Runner};
use rayon::prelude::*;
use report::Sink;
use semantic::{FileCx, ScenarioCx};

/// Diagnostics for the files at `indexes` of `db`, sorted by file and position, after
/// in-file suppressions and the project's check levels.
pub fn validate(db: &Db, indexes: &[usize], config: &Config) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = indexes
        .par_iter()
        .flat_map_iter(|&i| check_file(db, i, config))
        .collect();
    out.sort_by_key(Diagnostic::sort_key);
    out
}

/// Loader diagnostics plus every registered check that applies to file `index`, with
/// suppressions and configured levels applied.
pub fn check_file(db: &Db, index: usize, config: &Config) -> Vec<Diagnostic> {
    let loaded = &db.files[index];
    let mut out = loaded.diagnostics.clone();
    let mut sink = Sink::new(&loaded.file);
    if let Some(file_cx) = FileCx::new(db, index) {
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
    }
    out.extend(sink.finish());
    let mut sink = Sink::new(&loaded.file);
    suppress::apply(&loaded.file, &mut out, &mut sink);
    out.extend(sink.finish());
    config.apply(&mut out);
    out
}

/// Loads the project at `root` plus `targets` and validates `targets` (all project
/// files when `targets` is empty). The project file's own diagnostics come first.
pub fn validate_paths(
    root: &Path,
    targets: &[std::path::PathBuf],
    config: &Config,
    display: &(dyn Fn(&Path) -> String + Sync),
) -> (Db, Vec<usize>, Vec<Diagnostic>) {
    let mut files = project::project_files(root);
    let targets: Vec<std::path::PathBuf> = if targets.is_empty() {
        if config.check_paths.is_empty() {
            files.clone()
        } else {
            config
                .check_paths
                .iter()
                .flat_map(|p| {
                    if p.is_dir() {
                        project::data_files_under(p)
                    } else {
                        vec![p.clone()]
                    }
                })
                .collect()
        }
    } else {
        targets.to_vec()
    };
    files.extend(targets.iter().cloned());
    let db = Db::load(root, &files, display);
    let indexes: Vec<usize> = targets.iter().filter_map(|t| db.index_of(t)).collect();
    let mut diagnostics = config.diagnostics.clone();
    diagnostics.extend(validate(&db, &indexes, config));
    (db, indexes, diagnostics)
}

/// The JSON Schema of `muster validate --format json` output.
pub fn report_schema() -> serde_json::Value {
    schemars::schema_for!(output::JsonReport).to_value()
}
