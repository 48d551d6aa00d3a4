//! What the server knows: the open buffers, and per project root the systems, counter
//! sheets and maps loaded once (`base`, with every open buffer in place of its file)
//! on top of which scenarios are loaded as leaves, checked and dropped, as
//! `muster validate` does.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use lsp_types::Uri;
use muster_check::{Config, config};
use muster_db::Diagnostic;
use muster_db::project::{self, Db, Overlay, ParseCache};
use muster_db::source::SourceFile;

thread_local! {
    static LOADED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many times this thread loaded scenarios into a project, to publish diagnostics
/// or to answer requests (one buffer, or every scenario of a project for references):
/// a work counter for tests. Loading reads and checks the whole text, so a request
/// about an unchanged buffer must not load it again, nor one that follows the
/// publishing of its diagnostics.
pub fn leaves_loaded() -> usize {
    LOADED.with(|l| l.get())
}

fn count_load() {
    LOADED.with(|l| l.set(l.get() + 1));
}

/// An open buffer.
pub struct Doc {
    pub uri: Uri,
    /// Normalised path.
    pub path: PathBuf,
    text: String,
    pub version: i32,
    /// The top-level `id` of the text, read once per change: every request asks for the
    /// ids of the open scenarios, and reading one means lexing the whole buffer.
    id: Option<String>,
    /// The text as a source file, its tree parsed on first use and kept until the next
    /// change (outline, folding and the analysis share it).
    source: std::sync::Arc<SourceFile>,
}

impl Doc {
    pub fn new(uri: Uri, path: PathBuf, text: String, version: i32) -> Self {
        let id = scenario_id(&path, &text);
        let source = Self::source_of(&path, &text);
        Self {
            uri,
            path,
            text,
            version,
            id,
            source,
        }
    }

    /// The buffer as its project's loader names it, so that the databases loaded from
    /// the overlay share this source file and its tree ([`Workspace::overlay`]).
    fn source_of(path: &Path, text: &str) -> std::sync::Arc<SourceFile> {
        let root = project_root(path);
        let name = display(&root)(path);
        std::sync::Arc::new(SourceFile::new(path, name, text.to_string()))
    }

    /// The buffer as a source file, parsed once per change.
    pub fn source(&self) -> &std::sync::Arc<SourceFile> {
        &self.source
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Applies an editor's changes and takes their version.
    pub fn edit(&mut self, changes: Vec<lsp_types::TextDocumentContentChangeEvent>, version: i32) {
        crate::pos::apply_changes(&mut self.text, changes);
        self.version = version;
        self.id = scenario_id(&self.path, &self.text);
        self.source = Self::source_of(&self.path, &self.text);
    }
}

/// The stamp of one file: what tells that it changed on disk.
type Stamp = (PathBuf, Option<SystemTime>, u64);

/// One project: its root, its settings and the non-scenario files loaded once.
pub struct Project {
    pub config: Config,
    pub base: Db,
    cache: ParseCache,
    /// The project's files on disk (and `muster.toml`) when `base` was loaded.
    stamps: Vec<Stamp>,
    /// The texts of the open non-scenario buffers `base` was loaded with.
    base_texts: HashMap<PathBuf, String>,
    /// Scenario ids on disk: path -> id.
    disk_ids: HashMap<PathBuf, String>,
    /// Scenario ids of the open buffers at the last round.
    open_ids: HashMap<PathBuf, String>,
}

/// The nearest folder upwards from `file` holding `muster.toml`, `scenarios/` or
/// `maps/` (the rule of `muster validate`), else the file's folder.
pub fn project_root(file: &Path) -> PathBuf {
    let start = file.parent().unwrap_or(Path::new("/"));
    start
        .ancestors()
        .find(|dir| {
            dir.join(config::CONFIG_FILE).is_file()
                || project::DATA_DIRS.iter().any(|d| dir.join(d).is_dir())
        })
        .unwrap_or(start)
        .to_path_buf()
}

/// Whether a file is a scenario by its name: a leaf nothing refers to.
pub fn is_leaf(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(".scenario.ron") || n.ends_with(".scenario.json"))
}

/// Whether the server handles a file: the four kinds, in RON or JSON.
pub fn is_served(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    ["system", "counters", "map", "scenario"]
        .iter()
        .any(|kind| {
            name.ends_with(&format!(".{kind}.ron")) || name.ends_with(&format!(".{kind}.json"))
        })
}

/// How diagnostics and messages name a file: relative to the project root.
pub fn display(root: &Path) -> impl Fn(&Path) -> String + Sync + '_ {
    move |p: &Path| {
        p.strip_prefix(root)
            .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
    }
}

fn stamps(root: &Path) -> Vec<Stamp> {
    let mut files = project::project_files(root);
    files.push(root.join(config::CONFIG_FILE));
    files
        .into_iter()
        .map(|p| {
            let meta = std::fs::metadata(&p).ok();
            let modified = meta.as_ref().and_then(|m| m.modified().ok());
            let len = meta.map_or(0, |m| m.len());
            (p, modified, len)
        })
        .collect()
}

/// A scenario's id, read by lexing its text.
fn scenario_id(path: &Path, text: &str) -> Option<String> {
    let dialect = muster_syntax::Dialect::from_file_name(&path.to_string_lossy());
    muster_syntax::top_level_string(text, dialect, "id")
}

/// What a round publishes: per open buffer, its diagnostics.
pub struct Published {
    pub uri: Uri,
    pub version: i32,
    pub path: PathBuf,
    pub diagnostics: Vec<Diagnostic>,
    /// Free hexes next to each over-stacked hex of the file, by the diagnostic's span.
    pub free_hexes: HashMap<std::ops::Range<usize>, Vec<(String, String)>>,
}

/// One open buffer analysed for requests: its project with it loaded (a scenario as a
/// leaf of a [fork](Db::fork) of the project), its syntax tree and the hook parameters
/// that name things. Kept while nothing it was made from changed
/// ([`Workspace::generation`]), so that requests about an unchanged buffer share one
/// load of it.
pub struct Analysis {
    path: PathBuf,
    generation: u64,
    pub db: Db,
    pub index: Option<usize>,
    pub text: String,
    /// The buffer's source: the database's own when it holds the same text, so that its
    /// tree is parsed once, not again for the requests.
    source: std::sync::Arc<SourceFile>,
    pub kind: Option<muster_model::FileKind>,
    pub hooks: std::sync::Arc<crate::cursor::HookRefs>,
}

impl Analysis {
    /// The analysis of the open buffer `doc` at `path`, from a project `db` with it
    /// loaded (at `index`, when it loaded).
    fn of(path: &Path, generation: u64, db: Db, index: Option<usize>, doc: &Doc) -> Self {
        let (text, own) = (doc.text().to_string(), std::sync::Arc::clone(doc.source()));
        let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let source = match index.map(|i| &db.files[i].file) {
            Some(file) if *file.text == text => std::sync::Arc::clone(file),
            _ => own,
        };
        let kind = crate::cursor::kind_of(source.tree(), file_name);
        let hooks = match index {
            Some(i) => crate::cursor::hook_refs_of(&db.files[i]),
            None => std::sync::Arc::default(),
        };
        Analysis {
            path: path.to_path_buf(),
            generation,
            db,
            index,
            text,
            source,
            kind,
            hooks,
        }
    }

    /// The buffer's syntax tree.
    pub fn tree(&self) -> &muster_syntax::Tree {
        self.source.tree()
    }
}

/// Every scenario of one project (disk and open buffers) loaded as leaves, for
/// references; kept as [`Analysis`] is.
struct Scenarios {
    root: PathBuf,
    generation: u64,
    db: Db,
    leaves: Vec<usize>,
}

/// The open buffers and the projects they belong to.
#[derive(Default)]
pub struct Workspace {
    pub docs: HashMap<PathBuf, Doc>,
    pub projects: HashMap<PathBuf, Project>,
    /// Buffers changed since the last round.
    pub dirty: BTreeSet<PathBuf>,
    /// Counts what can change an analysis: every notification (a buffer opened, edited,
    /// saved or closed), a project loaded again, a scenario id changed.
    pub generation: u64,
    analysis: Option<Analysis>,
    scenarios: Option<Scenarios>,
}

impl Workspace {
    /// The overlay of every open buffer: their shared source files, not copies.
    pub fn overlay(&self) -> Overlay {
        self.docs
            .iter()
            .map(|(p, d)| (p.clone(), std::sync::Arc::clone(d.source())))
            .collect()
    }

    fn open_in(&self, root: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = self
            .docs
            .keys()
            .filter(|p| project_root(p) == root)
            .cloned()
            .collect();
        out.sort();
        out
    }

    /// The project of `root`, loaded or reloaded when a file changed on disk or an open
    /// non-scenario buffer changed. `true` when it was (re)loaded.
    fn refresh(&mut self, root: &Path) -> bool {
        let now = stamps(root);
        let open_texts: HashMap<PathBuf, String> = self
            .open_in(root)
            .into_iter()
            .filter(|p| !is_leaf(p))
            .filter_map(|p| self.docs.get(&p).map(|d| (p, d.text().to_string())))
            .collect();
        if let Some(p) = self.projects.get(root)
            && p.stamps == now
            && p.base_texts == open_texts
        {
            return false;
        }
        self.generation += 1;
        let name = display(root);
        let config = config::load(root, &name);
        let all = project::project_files(root);
        let (leaves, mut files): (Vec<PathBuf>, Vec<PathBuf>) =
            all.into_iter().partition(|p| is_leaf(p));
        files.extend(open_texts.keys().cloned());
        let cache = self
            .projects
            .remove(root)
            .map(|p| p.cache)
            .unwrap_or_default();
        let overlay = self.overlay();
        let base = Db::load_with(root, &files, &name, Some(&cache), &overlay);
        cache.retain(&files);
        let disk_ids = leaves
            .iter()
            .filter_map(|p| {
                let text = std::fs::read_to_string(p).ok()?;
                Some((project::normalize(p), scenario_id(p, &text)?))
            })
            .collect();
        self.projects.insert(
            root.to_path_buf(),
            Project {
                config,
                base,
                cache,
                stamps: now,
                base_texts: open_texts,
                disk_ids,
                open_ids: HashMap::new(),
            },
        );
        true
    }

    /// Makes the scenario ids of the project (disk, with open buffers in place) known
    /// to its `base`, for `references::duplicate-id`. `true` when an open scenario's id
    /// changed since the last round.
    fn set_ids(&mut self, root: &Path) -> bool {
        let open: HashMap<PathBuf, String> = self
            .open_in(root)
            .into_iter()
            .filter(|p| is_leaf(p))
            .filter_map(|p| {
                let id = self.docs.get(&p)?.id.clone()?;
                Some((p, id))
            })
            .collect();
        let Some(project) = self.projects.get_mut(root) else {
            return false;
        };
        let mut by_id: HashMap<String, Vec<String>> = HashMap::new();
        let name = display(root);
        let mut paths: BTreeSet<&PathBuf> = project.disk_ids.keys().collect();
        paths.extend(open.keys());
        for p in paths {
            if let Some(id) = open.get(p).or_else(|| project.disk_ids.get(p)) {
                by_id.entry(id.clone()).or_default().push(name(p));
            }
        }
        by_id.retain(|_, names| names.len() > 1);
        project.base.set_leaf_ids(by_id);
        let changed = project.open_ids != open;
        project.open_ids = open;
        if changed {
            self.generation += 1;
        }
        changed
    }

    /// Re-checks the buffers changed since the last round and the open buffers that
    /// depend on them (every open buffer of a project whose other files changed).
    pub fn round(&mut self) -> Vec<Published> {
        let dirty = std::mem::take(&mut self.dirty);
        let mut roots: Vec<PathBuf> = dirty.iter().map(|p| project_root(p)).collect();
        // Files saved or changed by other programs: any project with open buffers.
        roots.extend(self.docs.keys().map(|p| project_root(p)));
        roots.sort();
        roots.dedup();
        let mut out = Vec::new();
        for root in roots {
            let reloaded = self.refresh(&root);
            let ids_changed = self.set_ids(&root);
            let open = self.open_in(&root);
            let changed: BTreeSet<PathBuf> =
                dirty.iter().filter(|p| open.contains(p)).cloned().collect();
            if changed.is_empty() && !reloaded && !ids_changed {
                continue;
            }
            let leaves: Vec<PathBuf> = open
                .iter()
                .filter(|p| is_leaf(p) && (reloaded || ids_changed || changed.contains(*p)))
                .cloned()
                .collect();
            let overlay = self.overlay();
            let Some(project) = self.projects.get_mut(&root) else {
                continue;
            };
            let config = &project.config;
            let name = display(&root);
            let docs = &self.docs;
            // The leaves are loaded on a fork of the project, so that when one buffer
            // was loaded the requests that follow can use this load of it (see
            // `analysis`) instead of loading it again.
            let mut db = project.base.fork();
            count_load();
            db.add_leaves(&leaves, &name, &overlay);
            let graph = muster_ide::watch::DepGraph::from_db(&db);
            let mut targets = changed.clone();
            targets.extend(graph.dependents(&changed));
            if reloaded || ids_changed {
                targets.extend(open.iter().cloned());
            }
            let published: Vec<Published> = targets
                .iter()
                .filter_map(|p| {
                    let doc = docs.get(p)?;
                    let index = db.index_of(p)?;
                    let diagnostics = muster_check::validate(&db, &[index], config);
                    let free_hexes = crate::actions::free_hexes(&db, index, &diagnostics);
                    Some(Published {
                        uri: doc.uri.clone(),
                        version: doc.version,
                        path: p.clone(),
                        diagnostics,
                        free_hexes,
                    })
                })
                .collect();
            if let [leaf] = leaves.as_slice()
                && let Some(doc) = self.docs.get(leaf)
            {
                let index = db.index_of(leaf);
                self.analysis = Some(Analysis::of(leaf, self.generation, db, index, doc));
            }
            out.extend(published);
        }
        out
    }

    /// Makes every analysis stale and drops it.
    pub fn forget_analyses(&mut self) {
        self.generation += 1;
        self.analysis = None;
        self.scenarios = None;
    }

    /// The analysis of an open buffer, loaded when the buffer or its project changed
    /// since the last one (`None` for a buffer that is not open).
    pub fn analysis(&mut self, path: &Path) -> Option<&Analysis> {
        let root = project_root(path);
        self.refresh(&root);
        self.set_ids(&root);
        let fresh = self
            .analysis
            .as_ref()
            .is_some_and(|a| a.path == path && a.generation == self.generation);
        if !fresh {
            let doc = self.docs.get(path)?;
            let overlay = self.overlay();
            let project = self.projects.get_mut(&root)?;
            let name = display(&root);
            let mut db = project.base.fork();
            let index = if is_leaf(path) {
                count_load();
                db.add_leaves(&[path.to_path_buf()], &name, &overlay)
                    .first()
                    .copied()
            } else {
                db.index_of(path)
            };
            self.analysis = Some(Analysis::of(path, self.generation, db, index, doc));
        }
        self.analysis.as_ref()
    }

    /// Every scenario of the project of `path` (disk and open buffers), loaded as
    /// leaves, and their indexes; loaded again only when something changed.
    pub fn all_scenarios(&mut self, path: &Path) -> Option<(&Db, &[usize])> {
        let root = project_root(path);
        self.refresh(&root);
        self.set_ids(&root);
        let fresh = self
            .scenarios
            .as_ref()
            .is_some_and(|s| s.root == root && s.generation == self.generation);
        if !fresh {
            let overlay = self.overlay();
            let mut leaves: Vec<PathBuf> = project::project_files(&root)
                .into_iter()
                .filter(|p| is_leaf(p))
                .map(|p| project::normalize(&p))
                .collect();
            leaves.extend(self.open_in(&root).into_iter().filter(|p| is_leaf(p)));
            leaves.sort();
            leaves.dedup();
            let project = self.projects.get(&root)?;
            let name = display(&root);
            let mut db = project.base.fork();
            count_load();
            let leaves = db.add_leaves(&leaves, &name, &overlay);
            self.scenarios = Some(Scenarios {
                root: root.clone(),
                generation: self.generation,
                db,
                leaves,
            });
        }
        self.scenarios
            .as_ref()
            .map(|s| (&s.db, s.leaves.as_slice()))
    }
}
