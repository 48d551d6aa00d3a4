//! The drivers: what runs the catalogue over files. [`check_file`] is one file's
//! loader diagnostics, schema constraints, checks, suppressions and levels;
//! [`validate`] runs it over many files in parallel; [`validate_paths`] loads a project
//! and validates it whole, for the language server and tests. The bounded-memory run
//! of `muster validate` is [`crate::batch`].

use std::path::{Path, PathBuf};

use muster_db::report::Sink;
use muster_db::{Db, Diagnostic, load, project};
use muster_semantic::{FileCx, ScenarioCx};
use rayon::prelude::*;

use crate::{Config, suppress};
use crate::{checks::Runner, registry::REGISTRY};

thread_local! {
    static RUN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The checks [`check_file`] has run on this thread so far (one per check and file), for
/// tests that count work rather than time.
pub fn checks_run() -> u64 {
    RUN.with(std::cell::Cell::get)
}

fn count_run() {
    RUN.with(|r| r.set(r.get() + 1));
}

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

/// Loader diagnostics, the schema's constraints and every registered check that applies
/// to file `index`, with suppressions and configured levels applied. Checks the project
/// turns `off` are not run.
pub fn check_file(db: &Db, index: usize, config: &Config) -> Vec<Diagnostic> {
    let loaded = &db.files[index];
    let mut out = loaded.diagnostics.clone();
    let mut sink = Sink::new(&loaded.file);
    // The schema's constraints (counts of at least one, turns from 1): checked here,
    // not while loading, so that files loaded only as context build no validator; and
    // only for files whose numbers may break them.
    if let Some(doc) = &loaded.doc
        && load::schema::may_break(doc.kind(), loaded.file.tree())
    {
        load::schema::check_document(&doc.to_json(), doc.kind(), &mut sink);
    }
    if let Some(file_cx) = FileCx::new(db, index) {
        for check in REGISTRY {
            if let Runner::File(run) = check.runner
                && !config.is_off(check.meta.code)
            {
                count_run();
                run(&file_cx, &mut sink);
            }
        }
        if let Some(scenario_cx) = ScenarioCx::new(file_cx) {
            for check in REGISTRY {
                if let Runner::Scenario(run) = check.runner
                    && !config.is_off(check.meta.code)
                {
                    count_run();
                    run(&scenario_cx, &mut sink);
                }
            }
        }
    }
    out.extend(sink.finish());
    let mut sink = Sink::new(&loaded.file);
    suppress::apply(&loaded.file, &mut out, &mut sink, &|code| {
        config.is_off(code)
    });
    out.extend(sink.finish());
    config.apply(&mut out);
    out
}

/// Validates scenario files as leaves: loads them (and what they reference by path) on
/// top of `db`, checks them, and drops them again, keeping only their diagnostics.
/// Nothing refers to a scenario, so the project is the same after.
pub fn check_leaves(
    db: &mut Db,
    paths: &[PathBuf],
    display: &(dyn Fn(&Path) -> String + Sync),
    config: &Config,
) -> (usize, Vec<Diagnostic>) {
    db.with_leaves(paths, display, &project::Overlay::new(), |db, targets| {
        (targets.len(), validate(db, targets, config))
    })
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
    let targets = targets_of(&files, targets, config);
    files.extend(targets.iter().cloned());
    let db = Db::load(root, &files, display);
    let indexes: Vec<usize> = targets.iter().filter_map(|t| db.index_of(t)).collect();
    let mut checked = indexes.clone();
    checked.extend(
        db.referenced_only()
            .into_iter()
            .filter(|i| !indexes.contains(i)),
    );
    let mut diagnostics = config.diagnostics.clone();
    diagnostics.extend(config.optional_rule_diagnostics(&db));
    diagnostics.extend(validate(&db, &checked, config));
    (db, indexes, diagnostics)
}

/// The files a validation checks: those given, else the configured `check` paths, else
/// every project file.
pub(crate) fn targets_of(all: &[PathBuf], targets: &[PathBuf], config: &Config) -> Vec<PathBuf> {
    if !targets.is_empty() {
        return targets.to_vec();
    }
    if config.check_paths.is_empty() {
        return all.to_vec();
    }
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
