//! `muster validate` on a whole project in bounded memory: systems, counter sheets and
//! maps are loaded once, scenarios are leaves checked [`LEAF_BATCH`] at a time on one
//! [`Db::fork`] per core, and a scenario's id is read by lexing the top of its file
//! ([`ID_PREFIX`], [`SHORT_PREFIX`]) rather than by loading it.

use std::path::{Path, PathBuf};

use muster_db::{Db, Diagnostic, load, project, source};
use rayon::prelude::*;

use crate::Config;
use crate::drive::{targets_of, validate};

/// Whether a file is a scenario by its name: scenarios are leaves (nothing refers to
/// them), so they can be checked a batch at a time and dropped.
fn is_leaf(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".scenario.ron") || n.ends_with(".scenario.json"))
}

/// Scenarios checked together before they are dropped again. Few enough that a batch's
/// trees and models are still in the processor's cache when its checks read them (128
/// cost 14% more CPU on 10,000 scenarios than 16, and twice the memory), enough that the
/// work done once per batch stays small.
const LEAF_BATCH: usize = 16;

/// Bytes read from the top of each scenario to find its id.
const ID_PREFIX: usize = 4096;

/// The part of [`ID_PREFIX`] lexed first.
const SHORT_PREFIX: usize = 512;

/// The scenario id of every file in `paths`, read by lexing up to the id alone (files
/// that are not regular, readable and within the size limit are left to the loader,
/// which reports them). id -> the names of the files that use it.
fn scenario_ids(
    paths: &[PathBuf],
    display: &(dyn Fn(&Path) -> String + Sync),
) -> std::collections::HashMap<String, Vec<String>> {
    let mut found: Vec<(String, usize)> = paths
        .par_iter()
        .enumerate()
        .filter_map(|(i, p)| Some((top_field(p, "id")?, i)))
        .collect();
    // Only ids used more than once are kept: the rest have nothing to report.
    found.sort_unstable();
    let mut out: std::collections::HashMap<String, Vec<String>> = Default::default();
    for group in found.chunk_by(|a, b| a.0 == b.0) {
        if group.len() > 1 {
            out.insert(
                group[0].0.clone(),
                group.iter().map(|(_, i)| display(&paths[*i])).collect(),
            );
        }
    }
    out
}

/// The id a loaded scenario declares, as [`scenario_ids`] reads it: from the tokens of
/// its tree, or from the file itself when it is not UTF-8 text (its tree is of the
/// text with the bad bytes replaced).
fn leaf_id(db: &Db, index: usize) -> Option<String> {
    let loaded = &db.files[index];
    let not_text = loaded
        .diagnostics
        .iter()
        .any(|d| d.code == load::structure::NOT_TEXT.code);
    if not_text {
        top_field(&loaded.file.path, "id")
    } else {
        loaded.file.tree().top_level_string("id")
    }
}

fn hash_of(id: &str) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(id)
}

/// After a whole project's scenarios were checked a batch at a time, checks again those
/// whose id another scenario also uses, now that every id is known, and puts their
/// diagnostics in place of the first ones. `ids` holds (hash of the id, position in
/// `leaves`); files are read again only when their hash is shared.
fn recheck_shared_ids(
    db: &mut Db,
    leaves: &[PathBuf],
    mut ids: Vec<(u64, usize)>,
    display: &(dyn Fn(&Path) -> String + Sync),
    config: &Config,
    diagnostics: &mut Vec<Diagnostic>,
) {
    ids.sort_unstable();
    let candidates: Vec<PathBuf> = ids
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|group| group.len() > 1)
        .flatten()
        .map(|(_, i)| leaves[*i].clone())
        .collect();
    if candidates.is_empty() {
        return;
    }
    drop(ids);
    // The real ids of the candidates (a shared hash may be two ids).
    let shared = scenario_ids(&candidates, display);
    if shared.is_empty() {
        return;
    }
    db.set_leaf_ids(shared.clone());
    let names: std::collections::HashSet<&String> = shared.values().flatten().collect();
    let again: Vec<PathBuf> = candidates
        .into_iter()
        .filter(|p| names.contains(&display(p)))
        .collect();
    diagnostics.retain(|d| !names.contains(&d.file.name));
    for batch in again.chunks(LEAF_BATCH) {
        let found = db.with_leaves(batch, display, &project::Overlay::new(), |db, targets| {
            validate(db, targets, config)
        });
        diagnostics.extend(found);
    }
}

/// A string field of a file's top-level struct (`id`, `system`, `map`), read by lexing
/// the first few kilobytes (the whole file only when the field is not there). Files
/// that are not regular, readable and within the size limit give `None`, unopened: a
/// FIFO would block the read; the loader reports them.
fn top_field(path: &Path, field: &str) -> Option<String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > source::MAX_FILE_BYTES {
        return None;
    }
    let dialect = muster_syntax::Dialect::from_file_name(&path.to_string_lossy());
    let mut head = Vec::with_capacity(ID_PREFIX);
    std::fs::File::open(path)
        .ok()?
        .take(ID_PREFIX as u64)
        .read_to_end(&mut head)
        .ok()?;
    let valid = match std::str::from_utf8(&head) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).ok()?,
    };
    // Files name their id, system and map in their first lines: a short head is lexed
    // first. What it finds is what the whole text gives, since the tokens before a cut
    // do not depend on what follows it (a value cut short reads as `None`).
    let mut short = SHORT_PREFIX.min(valid.len());
    while !valid.is_char_boundary(short) {
        short -= 1;
    }
    if short < valid.len()
        && let Some(found) = muster_syntax::top_level_string(&valid[..short], dialect, field)
    {
        return Some(found);
    }
    match muster_syntax::top_level_string(valid, dialect, field) {
        Some(found) => Some(found),
        None if head.len() == ID_PREFIX => {
            let text = std::fs::read_to_string(path).ok()?;
            muster_syntax::top_level_string(&text, dialect, field)
        }
        None => None,
    }
}

/// The project files that `scenarios` need: the system, counter sheet and map each
/// names by id, and the systems those name. `None` when a name is a path, or does not
/// lead to exactly one file of its kind: then every file is loaded, so that a wrong
/// reference gets its list of candidates.
fn needed_by(scenarios: &[PathBuf], candidates: &[PathBuf]) -> Option<Vec<PathBuf>> {
    use muster_model::FileKind;
    use std::collections::HashMap;
    let ids: Vec<Option<(FileKind, String, &PathBuf)>> = candidates
        .par_iter()
        .map(|path| {
            let kind = FileKind::from_file_name(path.file_name()?.to_str()?)?;
            Some((kind, top_field(path, "id")?, path))
        })
        .collect();
    let mut index: HashMap<(FileKind, String), Vec<&PathBuf>> = HashMap::new();
    for found in ids {
        let (kind, id, path) = found?;
        index.entry((kind, id)).or_default().push(path);
    }
    let mut wanted: Vec<(FileKind, String)> = Vec::new();
    for scenario in scenarios {
        wanted.push((FileKind::System, top_field(scenario, "system")?));
        wanted.push((FileKind::Map, top_field(scenario, "map")?));
        if let Some(counters) = top_field(scenario, "counters") {
            wanted.push((FileKind::Counters, counters));
        }
    }
    let mut out: Vec<PathBuf> = Vec::new();
    let mut i = 0;
    while i < wanted.len() {
        let (kind, id) = wanted[i].clone();
        i += 1;
        if project::is_path_reference(&id) {
            return None;
        }
        let [file] = index.get(&(kind, id))?.as_slice() else {
            return None;
        };
        if out.contains(file) {
            continue;
        }
        out.push((*file).clone());
        if kind != FileKind::System {
            wanted.push((FileKind::System, top_field(file, "system")?));
        }
    }
    Some(out)
}

/// What `muster validate` checks: the project at `root` (or `targets` in it), with the
/// same diagnostics as [`validate_paths`] but in bounded memory. Systems, counter sheets
/// and maps are loaded once; scenarios are leaves, loaded, checked and dropped
/// [`LEAF_BATCH`] at a time (each core its own batches, on its own [`Db::fork`]), and
/// only scenarios among the targets are read in full. For `references::duplicate-id`,
/// a whole project notes each scenario's id as it is checked and checks again those
/// that share one; otherwise every other scenario's id is read by lexing the top of its
/// file. When only scenarios are named, only the files they reference are loaded.
/// Returns the number of files checked and the diagnostics, sorted, the project file's
/// first.
pub fn validate_project(
    root: &Path,
    targets: &[PathBuf],
    config: &Config,
    display: &(dyn Fn(&Path) -> String + Sync),
) -> (usize, Vec<Diagnostic>) {
    let all = project::project_files(root);
    let (leaves, rest): (Vec<PathBuf>, Vec<PathBuf>) = all.into_iter().partition(|p| is_leaf(p));
    // The whole project: the scenarios are the leaf targets themselves (no second list
    // of every path, so that memory does not grow with the project by more than needed).
    let whole = targets.is_empty() && config.check_paths.is_empty();
    let (leaf_targets, other_targets, leaves): (Vec<PathBuf>, Vec<PathBuf>, Vec<PathBuf>) = if whole
    {
        let mut leaves = leaves;
        for p in &mut leaves {
            *p = project::normalize(p);
        }
        (leaves, rest.clone(), Vec::new())
    } else {
        let everything: Vec<PathBuf> = leaves.iter().chain(&rest).cloned().collect();
        let (l, o) = targets_of(&everything, targets, config)
            .into_iter()
            .partition(|p| is_leaf(p));
        (l, o, leaves)
    };
    // Scenarios named alone need only what they reference.
    let narrowed = !whole && other_targets.is_empty() && leaf_targets.len() < leaves.len();
    let mut base = if narrowed {
        needed_by(&leaf_targets, &rest).unwrap_or(rest)
    } else {
        rest
    };
    base.extend(other_targets.iter().cloned());
    // Some scenarios: every other one's id is read from the top of its file, while the
    // files they need load. The whole project: each scenario's id is noted as it is
    // checked, and the few that share one are checked again once every id is known.
    let all_leaves: Option<Vec<PathBuf>> = (!whole).then(|| {
        let mut all: Vec<PathBuf> = leaves
            .into_iter()
            .chain(leaf_targets.iter().cloned())
            .map(|p| project::normalize(&p))
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    });
    let (mut db, leaf_ids) = rayon::join(
        || Db::load(root, &base, display),
        || all_leaves.map(|all| scenario_ids(&all, display)),
    );
    drop(base);
    // `[optional-rules]` names systems: judged only when every system is loaded.
    let optional = if !narrowed {
        config.optional_rule_diagnostics(&db)
    } else {
        Vec::new()
    };
    if let Some(ids) = leaf_ids {
        db.set_leaf_ids(ids);
    }
    let mut others: Vec<usize> = other_targets
        .iter()
        .filter_map(|t| db.index_of(t))
        .collect();
    // Files referenced by path from elsewhere in the root are checked once, with the
    // first files that use them.
    let mut referenced: std::collections::HashSet<PathBuf> = Default::default();
    for i in db.referenced_only() {
        if referenced.insert(project::normalize(&db.files[i].file.path)) && !others.contains(&i) {
            others.push(i);
        }
    }
    let mut checked = others.len();
    // Each core checks batches of its own on its own copy of the project, so that neither
    // waits while the other loads or drops a batch. Files referenced by path are checked
    // once, by whichever copy meets them first.
    let batches: Vec<(usize, &[PathBuf])> = leaf_targets.chunks(LEAF_BATCH).enumerate().collect();
    let forks = rayon::current_num_threads().min(batches.len()).max(1);
    let referenced = std::sync::Mutex::new(referenced);
    // The files of the project itself; a batch's own come after them.
    let base = db.files.len();
    let run = |db: &mut Db, fork: usize| {
        let mut checked = 0;
        let mut diagnostics = Vec::new();
        // (hash of the id, position in `leaf_targets`) of each scenario, for a whole project.
        let mut ids: Vec<(u64, usize)> = Vec::new();
        for &(b, batch) in batches.iter().skip(fork).step_by(forks) {
            let (count, found) =
                db.with_leaves(batch, display, &project::Overlay::new(), |db, targets| {
                    if whole {
                        for (k, path) in batch.iter().enumerate() {
                            if let Some(id) = db.index_of(path).and_then(|i| leaf_id(db, i)) {
                                ids.push((hash_of(&id), b * LEAF_BATCH + k));
                            }
                        }
                    }
                    let mut indexes = targets.to_vec();
                    for i in db.referenced_from(base) {
                        if !targets.contains(&i)
                            && referenced
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .insert(project::normalize(&db.files[i].file.path))
                        {
                            indexes.push(i);
                        }
                    }
                    (indexes.len(), validate(db, &indexes, config))
                });
            checked += count;
            diagnostics.extend(found);
        }
        (checked, diagnostics, ids)
    };
    // The project's own files are checked while the scenarios are: the first check of
    // a system file builds its schema's validator, which takes one core a while.
    let (mut diagnostics, results) = rayon::join(
        || validate(&db, &others, config),
        || -> Vec<_> {
            (0..forks)
                .into_par_iter()
                .map(|fork| run(&mut db.fork(), fork))
                .collect()
        },
    );
    let mut ids = Vec::new();
    for (count, found, fork_ids) in results {
        checked += count;
        diagnostics.extend(found);
        ids.extend(fork_ids);
    }
    if whole {
        recheck_shared_ids(
            &mut db,
            &leaf_targets,
            ids,
            display,
            config,
            &mut diagnostics,
        );
    }
    diagnostics.sort_by_key(Diagnostic::sort_key);
    let mut out = config.diagnostics.clone();
    out.extend(optional);
    out.extend(diagnostics);
    (checked, out)
}

#[cfg(test)]
mod head_fields {
    use super::{ID_PREFIX, top_field};

    #[test]
    fn fields_are_found_before_and_after_the_short_head() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.scenario.ron");
        let write = |padding: usize, tail: &str| {
            let comment = format!("// {}\n", "é".repeat(padding));
            std::fs::write(
                &path,
                format!("{comment}Scenario(\n    name: \"N\",\n    id: \"here\",{tail}\n)\n"),
            )
            .unwrap();
        };
        // Early, near the cut of the short head (a two-byte character may straddle it),
        // past it, and past the longer head.
        for padding in [0, 200, 240, 250, 255, 300, ID_PREFIX / 2 + 10] {
            write(padding, "");
            assert_eq!(top_field(&path, "id").as_deref(), Some("here"), "{padding}");
            assert_eq!(top_field(&path, "map"), None, "{padding}");
        }
        // A value cut by the short head is read from the longer one.
        for padding in 230..260 {
            write(padding, " map: \"a-long-map-name-that-runs-over\",");
            assert_eq!(
                top_field(&path, "map").as_deref(),
                Some("a-long-map-name-that-runs-over"),
                "{padding}"
            );
        }
    }
}
