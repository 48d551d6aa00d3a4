//! `muster watch`: validate once, then again after every save. The decision of what to
//! re-check is `muster_ide::watch::plan` (pure, unit-tested); this module is the thin
//! loop around notify's debouncer, the screen and Ctrl-C. With `--serve`, each round is
//! also published to the live preview (`serve/`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use muster_check::config;
use muster_db::load::Document;
use muster_db::project::{self, Db, ParseCache, normalize};
use muster_db::{Diagnostic, Severity};
use muster_ide::watch::{DepGraph, FsChange, Recheck, plan};
use notify::RecursiveMode;
use notify::event::{CreateKind, EventKind};
use notify_debouncer_full::new_debouncer;

use crate::io::{errln, out, outln};
use crate::project::{Project, display_name, expand, write_table};
use crate::render;
use crate::serve::{Preview, Published};

/// How `muster watch` runs (its command-line options).
pub struct Options {
    /// Clear the screen before each round.
    pub clear: bool,
    /// Recompile changed maps into this folder.
    pub compile_dir: Option<PathBuf>,
    pub debounce_ms: u64,
    /// Serve the live preview on this address.
    pub serve: Option<String>,
}

struct State<'a> {
    cwd: &'a Path,
    project: Project,
    explicit: Vec<PathBuf>,
    /// Current diagnostics of every watched file (the project file under its own path).
    report: BTreeMap<PathBuf, Vec<Diagnostic>>,
    graph: DepGraph,
    /// Parses reused while files are unchanged.
    cache: ParseCache,
    clear: bool,
    compile_dir: Option<PathBuf>,
    /// Where each round is published for the preview server, and its address.
    preview: Option<(Arc<Published>, String)>,
    /// Folders of files referenced by path from outside the data folders: watched too.
    referenced_dirs: Vec<PathBuf>,
}

impl State<'_> {
    /// The files being watched for diagnostics.
    fn targets(&self) -> Vec<PathBuf> {
        let files = if !self.explicit.is_empty() {
            expand(&self.explicit)
        } else if !self.project.config.check_paths.is_empty() {
            expand(&self.project.config.check_paths)
        } else {
            project::project_files(&self.project.root)
        };
        files.iter().map(|p| normalize(p)).collect()
    }

    /// One round: reload, re-check `only` (all targets when `None`), print.
    fn round(&mut self, only: Option<&Recheck>) {
        let started = Instant::now();
        let name = display_name(self.cwd);
        if only.is_none_or(|r| r.config_changed) {
            self.project.config = config::load(&self.project.root, &name);
        }
        let targets = self.targets();
        let mut files = project::project_files(&self.project.root);
        files.extend(targets.iter().cloned());
        let db = Arc::new(Db::load_cached(
            &self.project.root,
            &files,
            &name,
            Some(&self.cache),
        ));
        // Files deleted or renamed since the last round leave the cache.
        let loaded: Vec<PathBuf> = db.files.iter().map(|l| l.file.path.clone()).collect();
        self.cache.retain(&loaded);
        // Files referenced by path from elsewhere in the root are checked as targets.
        let referenced: Vec<PathBuf> = db
            .referenced_only()
            .into_iter()
            .map(|i| normalize(&db.files[i].file.path))
            .filter(|p| !targets.contains(p))
            .collect();
        self.referenced_dirs = referenced
            .iter()
            .filter_map(|p| p.parent().map(Path::to_path_buf))
            .collect();
        let mut targets = targets;
        targets.extend(referenced);
        let recheck: Vec<PathBuf> = match only {
            Some(r) if !r.config_changed => {
                let mut list: Vec<PathBuf> = r
                    .files
                    .iter()
                    .filter(|p| targets.contains(p))
                    .cloned()
                    .collect();
                // Files that appeared since the last round.
                list.extend(
                    targets
                        .iter()
                        .filter(|t| !self.report.contains_key(*t))
                        .cloned(),
                );
                list.sort();
                list.dedup();
                list
            }
            _ => targets.clone(),
        };
        self.report.retain(|path, _| {
            targets.contains(path) || self.project.config.file.as_deref() == Some(path)
        });
        let indexes: Vec<usize> = recheck.iter().filter_map(|p| db.index_of(p)).collect();
        for path in &recheck {
            self.report.insert(path.clone(), Vec::new());
        }
        for d in muster_check::validate(&db, &indexes, &self.project.config) {
            self.report
                .entry(normalize(&d.file.path))
                .or_default()
                .push(d);
        }
        if let Some(file) = &self.project.config.file {
            self.report
                .insert(file.clone(), self.project.config.diagnostics.clone());
        }
        self.graph = DepGraph::from_db(&db);
        let compiled = self.compile_maps(&db, &indexes);
        if let Some((published, _)) = &self.preview {
            published.publish(db, &self.report);
        }
        self.print(&recheck, started.elapsed(), &compiled);
    }

    /// Recompiles the terrain tables of re-checked maps that have no error.
    fn compile_maps(&self, db: &Db, indexes: &[usize]) -> Vec<String> {
        let Some(dir) = &self.compile_dir else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for &i in indexes {
            let Some(Document::Map(map)) = db.doc(i) else {
                continue;
            };
            let path = normalize(&db.files[i].file.path);
            let clean = self
                .report
                .get(&path)
                .is_none_or(|d| d.iter().all(|d| d.severity != Severity::Error));
            if let (true, Some(table)) = (clean, db.terrain_map(i)) {
                let target = dir.join(format!("{}.json", map.id));
                match write_table(table, &target) {
                    Ok(()) => out.push(format!("compiled {}", muster_db::text::path(&target))),
                    Err(e) => out.push(format!("muster: {e}")),
                }
            }
        }
        out
    }

    fn print(&self, rechecked: &[PathBuf], took: Duration, compiled: &[String]) {
        let mut out = String::new();
        if self.clear {
            out.push_str("\x1b[2J\x1b[H");
        }
        let handler = render::handler(render::use_colour());
        let all: Vec<&Diagnostic> = self.report.values().flatten().collect();
        out.push_str(&render::human(&handler, &all));
        for line in compiled {
            out.push_str(line);
            out.push('\n');
        }
        let name = display_name(self.cwd);
        let list: Vec<String> = rechecked.iter().map(|p| name(p)).collect();
        out.push_str(&format!(
            "re-checked: {}\n",
            if list.is_empty() {
                "nothing".to_string()
            } else {
                list.join(", ")
            }
        ));
        let errors = all.iter().filter(|d| d.severity == Severity::Error).count();
        let warnings = all.len() - errors;
        out.push_str(&format!(
            "[watch] checked {} file{}: {} error{}, {} warning{} in {} ms\n",
            rechecked.len(),
            if rechecked.len() == 1 { "" } else { "s" },
            errors,
            if errors == 1 { "" } else { "s" },
            warnings,
            if warnings == 1 { "" } else { "s" },
            took.as_millis()
        ));
        // The screen was cleared: say again where the preview is.
        if let (true, Some((_, url))) = (self.clear, &self.preview) {
            out.push_str(&format!("[watch] preview at {url}\n"));
        }
        out!("{out}");
    }
}

/// Maps notify events to file-system changes. Access events are dropped; a path that
/// exists after the batch was written, one that does not was removed.
fn changes(events: &[notify_debouncer_full::DebouncedEvent]) -> Vec<FsChange> {
    let mut out = Vec::new();
    for event in events {
        if matches!(event.kind, EventKind::Access(_)) {
            continue;
        }
        for path in &event.paths {
            let path = normalize(path);
            if path.is_dir() {
                if matches!(
                    event.kind,
                    EventKind::Create(CreateKind::Folder)
                        | EventKind::Create(_)
                        | EventKind::Modify(_)
                ) {
                    out.push(FsChange::FolderCreated(path));
                }
            } else if path.exists() {
                out.push(FsChange::Written(path));
            } else {
                out.push(FsChange::Removed(path));
            }
        }
    }
    out
}

pub fn run(
    cwd: &Path,
    project: Project,
    paths: &[PathBuf],
    options: Options,
) -> Result<ExitCode, String> {
    let compile_dir = options
        .compile_dir
        .or_else(|| project.config.compile_out.clone());
    let root = project.root.clone();
    if let Some(dir) = &compile_dir {
        outside_data(dir, &root)?;
    }
    // Bind before anything else: a busy port is an error before watching starts.
    let preview = match &options.serve {
        Some(addr) => {
            let preview = Preview::start(addr, normalize(&root))?;
            outln!("[watch] preview at {}", preview.url);
            Some(preview)
        }
        None => None,
    };
    let mut state = State {
        cwd,
        project,
        explicit: paths.to_vec(),
        report: BTreeMap::new(),
        graph: DepGraph::default(),
        cache: ParseCache::default(),
        clear: options.clear,
        compile_dir,
        referenced_dirs: Vec::new(),
        preview: preview
            .as_ref()
            .map(|p| (p.published.clone(), p.url.clone())),
    };

    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
        .map_err(|e| format!("cannot handle Ctrl-C: {e}"))?;

    let (tx, rx) = channel();
    let mut debouncer = new_debouncer(Duration::from_millis(options.debounce_ms), None, tx)
        .map_err(|e| format!("cannot watch files: {e}"))?;
    let mut watched = watch_folders(&mut debouncer, &root, paths)?;

    state.round(None);
    watch_referenced(&state, &mut debouncer, &mut watched);
    while !stop.load(Ordering::SeqCst) {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(Ok(events)) => {
                let batch = changes(&events);
                // A data folder created at the root after start is watched from now on.
                for change in &batch {
                    if let FsChange::FolderCreated(dir) = change
                        && dir.parent() == Some(root.as_path())
                    {
                        let _ = debouncer.watch(dir, RecursiveMode::Recursive);
                    }
                }
                let recheck = plan(&batch, &state.graph);
                if !recheck.is_empty() {
                    state.round(Some(&recheck));
                    watch_referenced(&state, &mut debouncer, &mut watched);
                }
            }
            Ok(Err(errors)) => {
                for e in errors {
                    errln!("muster: watcher: {e}");
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    if let Some(preview) = preview {
        preview.stop();
    }
    outln!("[watch] stopped");
    Ok(ExitCode::SUCCESS)
}

/// Compiled tables never go where muster reads data, as with `compile -o`.
fn outside_data(dir: &Path, root: &Path) -> Result<(), String> {
    let target = crate::project::real_path(dir);
    for data in project::DATA_DIRS {
        if target.starts_with(crate::project::real_path(&root.join(data))) {
            return Err(format!(
                "refusing to compile into `{}`: it is under `{data}/`, where muster reads data; give `--compile` a folder outside `scenarios/` and `maps/`, such as `target/muster`",
                dir.display()
            ));
        }
    }
    Ok(())
}

/// Watches the root, the data folders and the folders of the paths given (folders, not
/// files: editors replace files by renaming over them), and returns the folders
/// watched recursively.
fn watch_folders<W: notify::Watcher, C: notify_debouncer_full::FileIdCache>(
    debouncer: &mut notify_debouncer_full::Debouncer<W, C>,
    root: &Path,
    paths: &[PathBuf],
) -> Result<Vec<PathBuf>, String> {
    debouncer
        .watch(root, RecursiveMode::NonRecursive)
        .map_err(|e| format!("cannot watch `{}`: {e}", root.display()))?;
    let mut watched: Vec<PathBuf> = project::DATA_DIRS.iter().map(|d| root.join(d)).collect();
    for p in paths {
        let p = normalize(p);
        watched.push(if p.is_dir() {
            p
        } else {
            p.parent().map_or(root.to_path_buf(), Path::to_path_buf)
        });
    }
    for dir in watched.iter().filter(|d| d.is_dir()) {
        debouncer
            .watch(dir, RecursiveMode::Recursive)
            .map_err(|e| format!("cannot watch `{}`: {e}", dir.display()))?;
    }
    Ok(watched)
}

/// Watches the folders of files referenced by path from outside the data folders, so
/// that editing one re-checks it and the files that use it.
fn watch_referenced<W: notify::Watcher, C: notify_debouncer_full::FileIdCache>(
    state: &State<'_>,
    debouncer: &mut notify_debouncer_full::Debouncer<W, C>,
    watched: &mut Vec<PathBuf>,
) {
    for dir in &state.referenced_dirs {
        if !watched.iter().any(|w| dir.starts_with(w)) {
            let _ = debouncer.watch(dir, RecursiveMode::Recursive);
            watched.push(dir.clone());
        }
    }
}
