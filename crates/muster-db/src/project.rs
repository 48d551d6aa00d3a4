//! A project: the root folder that references may not leave, the files loaded from it,
//! the index of ids, and the compiled maps scenarios are checked against.

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};

use muster_map::TerrainMap;
use muster_model::FileKind;
use muster_model::system::RulesSystem;
use muster_model::table::TableTerrain;
use rayon::prelude::*;
use walkdir::WalkDir;

use crate::FastMap;
use crate::load::{Document, Loaded, load_bytes, load_overlay, load_path_known, read_path};
use crate::source::SourceFile;

/// The folders of a project that hold data files.
pub const DATA_DIRS: [&str; 2] = ["scenarios", "maps"];

/// Absolute, lexically normalised path (`a/./b/../c` -> `a/c`), without touching disk.
pub fn normalize(path: &Path) -> PathBuf {
    normalized(path).into_owned()
}

/// [`normalize`] the long way: made absolute, then rebuilt one step at a time.
fn step_by_step(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for part in abs.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Whether `path` is already what [`normalize`] makes of it: absolute, with no `.` or
/// `..` step, no doubled or trailing separator (most paths muster handles are: they
/// come from walking the absolute root).
fn is_normal(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    cfg!(unix)
        && bytes.len() > 1
        && bytes[0] == b'/'
        && bytes[1..]
            .split(|b| *b == b'/')
            .all(|step| !matches!(step, b"" | b"." | b".."))
}

/// [`normalize`], borrowing `path` when it is already normal.
pub fn normalized(path: &Path) -> std::borrow::Cow<'_, Path> {
    if is_normal(path) {
        std::borrow::Cow::Borrowed(path)
    } else {
        std::borrow::Cow::Owned(step_by_step(path))
    }
}

/// Whether a file name looks like muster data (`.ron` or `.json`).
pub fn is_data_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("ron" | "json")
    )
}

/// Every data file under `dir`, sorted, skipping hidden folders and `target`.
///
/// Nothing is skipped without a word: entries with a data file name that are not regular
/// files (symlinks, FIFOs, devices) are listed so that the loader reads or refuses them
/// with a diagnostic, and so is every folder that cannot be read. Symlinked folders are
/// not followed, so the walk never leaves `dir`.
pub fn data_files_under(dir: &Path) -> Vec<PathBuf> {
    // Each folder's entries are read in name order and its subfolders' lists are joined
    // in that order, so the paths come out sorted and the sort below only confirms it
    // (one comparison per path).
    let mut out = folder_files(dir);
    out.sort();
    out.dedup();
    out
}

/// The data files of one folder and, walked in parallel, of its subfolders, in name
/// order ([`data_files_under`]). A project of thousands of scenarios keeps them in
/// many folders, and listing them is the one step before checking that no core can
/// share otherwise.
fn folder_files(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<walkdir::Result<walkdir::DirEntry>> = WalkDir::new(dir)
        .follow_links(false)
        .max_depth(1)
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            e.depth() == 0 || !(name.starts_with('.') || name == "target")
        })
        .collect();
    // In name order: the entries of one folder share its path up to their names, so
    // their paths' bytes sort as their names do (walkdir's own sort by name takes each
    // name apart from its path again at every comparison).
    fn bytes(entry: &walkdir::Result<walkdir::DirEntry>) -> &[u8] {
        let path = match entry {
            Ok(e) => e.path(),
            Err(err) => err.path().unwrap_or(Path::new("")),
        };
        path.as_os_str().as_encoded_bytes()
    }
    entries.sort_unstable_by(|a, b| bytes(a).cmp(bytes(b)));
    entries
        .into_par_iter()
        .flat_map_iter(|entry| match entry {
            // `dir` itself: a file given as a folder is listed if it is data.
            Ok(e) if e.depth() == 0 => (!e.file_type().is_dir() && is_data_file(e.path()))
                .then(|| e.into_path())
                .into_iter()
                .collect(),
            Ok(e) if e.file_type().is_dir() => folder_files(e.path()),
            Ok(e) => {
                let linked_folder = e.file_type().is_symlink() && e.path().is_dir();
                (is_data_file(e.path()) || linked_folder)
                    .then(|| e.into_path())
                    .into_iter()
                    .collect::<Vec<_>>()
            }
            // A folder (or the entry of one) that cannot be read: the loader says why.
            Err(err) => err.path().map(Path::to_path_buf).into_iter().collect(),
        })
        .collect()
}

/// The project's own data files: everything under `scenarios/` and `maps/`.
pub fn project_files(root: &Path) -> Vec<PathBuf> {
    DATA_DIRS
        .iter()
        .map(|d| root.join(d))
        .filter(|d| d.is_dir())
        .flat_map(|d| data_files_under(&d))
        .collect()
}

/// How a reference in a file resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    Found(usize),
    /// Nothing of that kind with that id or at that path; `candidates` are the ids known.
    Missing {
        candidates: Vec<String>,
    },
    /// The reference is a path that leaves the project root.
    OutsideRoot,
    /// The path names a file of another kind.
    WrongKind(FileKind),
}

/// Maps compiled with terrain modifications, by map file and modifications.
type ModifiedMaps = Arc<Mutex<HashMap<(PathBuf, String), Arc<TerrainMap>>>>;

/// All files loaded for one validation, with their ids and compiled maps.
pub struct Db {
    pub root: PathBuf,
    pub files: Vec<Arc<Loaded>>,
    by_path: FastMap<PathBuf, usize>,
    by_id: FastMap<(FileKind, String), Vec<usize>>,
    maps: FastMap<usize, TerrainMap>,
    tables: FastMap<usize, TableTerrain>,
    /// Maps recompiled with a scenario's terrain modifications, by scenario index.
    scenario_maps: FastMap<usize, Arc<TerrainMap>>,
    /// Maps compiled with terrain modifications, by map file and modifications; kept
    /// while scenarios come and go as leaves, and shared with the project's forks.
    modified: ModifiedMaps,
    /// Scenario ids of the whole project when scenarios are checked as leaves.
    leaf_ids: Option<HashMap<String, Vec<String>>>,
    /// The root with every symlink resolved: what a file's canonical path must start with.
    canonical_root: PathBuf,
    /// Paths inside the root (lexically) whose canonical path leaves it: a symlink to a
    /// file elsewhere. They are never read, and references to them are `outside-root`.
    escaping: HashSet<PathBuf>,
    /// The project's resource limits (`[limits]` in `muster.toml`).
    pub limits: crate::limits::Limits,
    /// The optional rules the project switches on for every scenario of a system
    /// (`[optional-rules]` in `muster.toml`), by system id.
    pub optional_rules: Arc<std::collections::BTreeMap<String, Vec<String>>>,
    /// Canonical paths of the folders files were loaded from.
    folders: Mutex<HashMap<PathBuf, PathBuf>>,
}

/// Where a path inside the root by name really leads ([`Db::escapes`]).
enum Reach {
    /// Inside the root (or not a question: outside it by name, or unreadable); the
    /// metadata of a regular path that is not a symlink, when it was read.
    Inside(Option<std::fs::Metadata>),
    /// Through a symlink, to this canonical path outside the root.
    Outside(PathBuf),
}

/// A reference is a path when it has a folder separator or a data file extension;
/// otherwise it is an id.
pub fn is_path_reference(reference: &str) -> bool {
    reference.contains('/')
        || reference.contains('\\')
        || reference.ends_with(".ron")
        || reference.ends_with(".json")
}

/// Texts that replace what is on disk, by normalised path ([`normalize`]): an editor's
/// unsaved buffers. A path in the overlay is read from there, never from disk, and
/// need not exist on disk. Each buffer is a shared source file, so that every database
/// loaded from it shares one syntax tree (named as `display` names the path, or the
/// loader makes its own copy).
pub type Overlay = HashMap<PathBuf, Arc<SourceFile>>;

impl Db {
    /// Loads `files` (in parallel), then any file they reference by path inside the root,
    /// then compiles every map whose system resolves.
    pub fn load(root: &Path, files: &[PathBuf], display: &(dyn Fn(&Path) -> String + Sync)) -> Db {
        Self::load_cached(root, files, display, None)
    }

    /// `load`, reusing the parse of every file whose size and modification time are
    /// unchanged since it was put in `cache` (watch mode keeps one across rounds).
    pub fn load_cached(
        root: &Path,
        files: &[PathBuf],
        display: &(dyn Fn(&Path) -> String + Sync),
        cache: Option<&ParseCache>,
    ) -> Db {
        Self::load_with(root, files, display, cache, &Overlay::new())
    }

    /// `load_cached`, with the texts of `overlay` in place of the files on disk (the
    /// language server's open buffers). Overlaid files bypass the cache.
    pub fn load_with(
        root: &Path,
        files: &[PathBuf],
        display: &(dyn Fn(&Path) -> String + Sync),
        cache: Option<&ParseCache>,
        overlay: &Overlay,
    ) -> Db {
        let root = normalize(root);
        let mut db = Db {
            canonical_root: std::fs::canonicalize(&root).unwrap_or_else(|_| root.clone()),
            escaping: HashSet::new(),
            folders: Mutex::new(HashMap::new()),
            limits: crate::limits::load_limits(&root),
            optional_rules: Arc::new(crate::limits::load_optional_rules(&root)),
            root,
            files: Vec::new(),
            by_path: FastMap::default(),
            by_id: FastMap::default(),
            maps: FastMap::default(),
            tables: FastMap::default(),
            scenario_maps: FastMap::default(),
            modified: Default::default(),
            leaf_ids: None,
        };
        db.add_files(files, display, cache, overlay);
        db.compile_from(0);
        db
    }

    /// Loads `files` (in parallel) and any file they reference by path inside the root.
    fn add_files(
        &mut self,
        files: &[PathBuf],
        display: &(dyn Fn(&Path) -> String + Sync),
        cache: Option<&ParseCache>,
        overlay: &Overlay,
    ) {
        let mut pending: Vec<PathBuf> = files.iter().map(|p| normalize(p)).collect();
        while !pending.is_empty() {
            pending.sort();
            pending.dedup();
            pending.retain(|p| !self.by_path.contains_key(p));
            let loaded: Vec<(Arc<Loaded>, bool)> = pending
                .par_iter()
                .map(|p| match self.escapes(p) {
                    Reach::Outside(target) => {
                        (Arc::new(escaping_file(p, &display(p), &target)), true)
                    }
                    Reach::Inside(_) if let Some(buffer) = overlay.get(p) => {
                        (Arc::new(load_overlay(p, &display(p), buffer)), false)
                    }
                    Reach::Inside(meta) => match cache {
                        Some(cache) => (cache.get_or_load_known(p, display, meta), false),
                        None => (Arc::new(load_path_known(p, &display(p), meta)), false),
                    },
                })
                .collect();
            for (l, escaping) in &loaded {
                if *escaping {
                    self.escaping.insert(normalize(&l.file.path));
                }
            }
            pending.clear();
            for (l, _) in loaded {
                for (reference, _) in references_of(&l) {
                    if is_path_reference(&reference) {
                        let target = normalize(&l.file.dir().join(&reference));
                        if target.starts_with(&self.root)
                            && (target.is_file() || overlay.contains_key(&target))
                        {
                            pending.push(target);
                        }
                    }
                }
                self.insert(l);
            }
        }
    }

    /// Where `path` really leads when it lies inside the root by name but, through a
    /// symlink, outside it by its canonical path ([`Reach::Outside`]). Paths outside the
    /// root by name (files named on the command line with `--root` elsewhere) are left
    /// alone. A path that is not a symlink comes back with its metadata, which the
    /// loader then need not ask the system for again.
    fn escapes(&self, path: &Path) -> Reach {
        if !path.starts_with(&self.root) {
            return Reach::Inside(None);
        }
        // The folder's canonical path is resolved once per folder (a project holds many
        // files per folder); only a file that is itself a symlink is resolved alone.
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            return Reach::Inside(None);
        };
        let is_link = meta.file_type().is_symlink();
        let real = match (is_link, path.parent(), path.file_name()) {
            (false, Some(dir), Some(name)) => {
                let mut folders = self.folders.lock().unwrap_or_else(|p| p.into_inner());
                let dir = match folders.get(dir) {
                    Some(real) => real.clone(),
                    None => match std::fs::canonicalize(dir) {
                        Ok(real) => {
                            folders.insert(dir.to_path_buf(), real.clone());
                            real
                        }
                        Err(_) => return Reach::Inside(None),
                    },
                };
                dir.join(name)
            }
            _ => match std::fs::canonicalize(path) {
                Ok(real) => real,
                Err(_) => return Reach::Inside(None),
            },
        };
        if !real.starts_with(&self.canonical_root) {
            Reach::Outside(real)
        } else {
            Reach::Inside((!is_link).then_some(meta))
        }
    }

    /// Compiles the maps, open tables and scenario maps of the files from `from` on.
    /// Scenarios that make the same terrain modifications to the same map share one
    /// compiled map, compiled once for the first of them.
    fn compile_from(&mut self, from: usize) {
        let new = from..self.files.len();
        let compiled: Vec<(usize, TerrainMap)> = new
            .clone()
            .into_par_iter()
            .filter_map(|i| self.compile_map(i).map(|m| (i, m)))
            .collect();
        self.maps.extend(compiled);
        let tables: Vec<(usize, TableTerrain)> = new
            .clone()
            .into_par_iter()
            .filter_map(|i| self.compile_table(i).map(|t| (i, t)))
            .collect();
        self.tables.extend(tables);
        let keyed: Vec<(usize, (PathBuf, String))> = new
            .filter_map(|i| self.modification_key(i).map(|k| (i, k)))
            .collect();
        let mut firsts: HashMap<(PathBuf, String), usize> = HashMap::new();
        {
            let done = self.modified.lock().unwrap_or_else(|p| p.into_inner());
            for (i, key) in &keyed {
                if !done.contains_key(key) {
                    firsts.entry(key.clone()).or_insert(*i);
                }
            }
        }
        let compiled: Vec<((PathBuf, String), Arc<TerrainMap>)> = firsts
            .into_par_iter()
            .filter_map(|(key, i)| self.compile_scenario(i).map(|m| (key, Arc::new(m))))
            .collect();
        let mut done = self.modified.lock().unwrap_or_else(|p| p.into_inner());
        done.extend(compiled);
        for (i, key) in keyed {
            if let Some(map) = done.get(&key) {
                self.scenario_maps.insert(i, Arc::clone(map));
            }
        }
    }

    /// The loaded files inside the root but outside `scenarios/` and `maps/`: files
    /// referenced by path from elsewhere (or named on the command line). Those that are
    /// not targets are checked with the files that use them, so that a broken one is
    /// never passed over in silence.
    pub fn referenced_only(&self) -> Vec<usize> {
        self.referenced_from(0)
    }

    /// [`Db::referenced_only`] among the files from `from` on (those a batch of leaves
    /// brought in).
    pub fn referenced_from(&self, from: usize) -> Vec<usize> {
        let data: Vec<PathBuf> = DATA_DIRS.iter().map(|d| self.root.join(d)).collect();
        (from..self.files.len())
            .filter(|&i| {
                let path = normalized(&self.files[i].file.path);
                path.starts_with(&self.root)
                    && !data.iter().any(|d| path.starts_with(d))
                    && !self.escaping.contains(path.as_ref())
            })
            .collect()
    }

    /// Loads scenario files as leaves on top of this project (with the texts of
    /// `overlay` in place of the disk's), hands the project and their indexes to `f`,
    /// and drops them again. Nothing refers to a scenario, so the project is the same
    /// after.
    pub fn with_leaves<R>(
        &mut self,
        paths: &[PathBuf],
        display: &(dyn Fn(&Path) -> String + Sync),
        overlay: &Overlay,
        f: impl FnOnce(&Db, &[usize]) -> R,
    ) -> R {
        let from = self.files.len();
        let targets = self.add_leaves(paths, display, overlay);
        let out = f(self, &targets);
        self.truncate(from);
        out
    }

    /// Loads scenario files as leaves on top of this project, as [`Db::with_leaves`]
    /// does, and keeps them: their indexes. The language server keeps a
    /// [fork](Db::fork) with a buffer loaded this way while the buffer is unchanged.
    pub fn add_leaves(
        &mut self,
        paths: &[PathBuf],
        display: &(dyn Fn(&Path) -> String + Sync),
        overlay: &Overlay,
    ) -> Vec<usize> {
        let from = self.files.len();
        self.add_files(paths, display, None, overlay);
        self.compile_from(from);
        paths.iter().filter_map(|p| self.index_of(p)).collect()
    }

    /// Forgets every file from `from` on.
    fn truncate(&mut self, from: usize) {
        self.files.truncate(from);
        self.by_path.retain(|_, i| *i < from);
        self.by_id.retain(|_, v| {
            v.retain(|i| *i < from);
            !v.is_empty()
        });
        self.maps.retain(|i, _| *i < from);
        self.tables.retain(|i, _| *i < from);
        self.scenario_maps.retain(|i, _| *i < from);
    }

    /// A copy of the project to check leaves on beside this one (on another thread):
    /// the files and the maps compiled with terrain modifications are shared, the
    /// indexes and the other compiled maps copied.
    pub fn fork(&self) -> Db {
        fn copy<T: Clone>(m: &Mutex<T>) -> Mutex<T> {
            Mutex::new(m.lock().unwrap_or_else(|p| p.into_inner()).clone())
        }
        Db {
            root: self.root.clone(),
            files: self.files.clone(),
            by_path: self.by_path.clone(),
            by_id: self.by_id.clone(),
            maps: self.maps.clone(),
            tables: self.tables.clone(),
            scenario_maps: self.scenario_maps.clone(),
            modified: Arc::clone(&self.modified),
            leaf_ids: self.leaf_ids.clone(),
            canonical_root: self.canonical_root.clone(),
            escaping: self.escaping.clone(),
            limits: self.limits,
            optional_rules: Arc::clone(&self.optional_rules),
            folders: copy(&self.folders),
        }
    }

    /// Makes the scenario ids of the whole project known before its scenarios are
    /// checked as leaves (id -> names of the files that use it; ids used once may be
    /// left out, since they have nothing to report).
    pub fn set_leaf_ids(&mut self, ids: HashMap<String, Vec<String>>) {
        self.leaf_ids = Some(ids);
    }

    /// Names of the files of `kind` that use `id`, this project's and, for scenarios
    /// checked as leaves, those known from [`Db::set_leaf_ids`].
    pub fn files_with_id(&self, kind: FileKind, id: &str) -> Vec<String> {
        let mut names: Vec<String> = self
            .same_id(kind, id)
            .iter()
            .map(|&i| self.files[i].file.name.clone())
            .collect();
        if kind == FileKind::Scenario
            && let Some(ids) = &self.leaf_ids
        {
            for name in ids.get(id).into_iter().flatten() {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        names
    }

    /// A scenario with terrain modifications, and the index of its map file.
    fn modified_scenario(
        &self,
        index: usize,
    ) -> Option<(&muster_model::scenario::Scenario, usize)> {
        let Some(Document::Scenario(s)) = self.doc(index) else {
            return None;
        };
        if s.terrain_modifications.is_empty() {
            return None;
        }
        match self.resolve(index, &s.map, FileKind::Map) {
            Resolution::Found(m) => Some((s, m)),
            _ => None,
        }
    }

    /// What makes a scenario's own compiled map: its map file and its terrain
    /// modifications. `None` for a scenario without modifications.
    fn modification_key(&self, index: usize) -> Option<(PathBuf, String)> {
        let (s, m) = self.modified_scenario(index)?;
        Some((
            normalize(&self.files[m].file.path),
            serde_json::to_string(&s.terrain_modifications).ok()?,
        ))
    }

    fn insert(&mut self, loaded: Arc<Loaded>) {
        let index = self.files.len();
        self.by_path.insert(normalize(&loaded.file.path), index);
        if let Some(doc) = &loaded.doc {
            self.by_id
                .entry((doc.kind(), doc.id().to_string()))
                .or_default()
                .push(index);
        }
        self.files.push(loaded);
    }

    pub fn index_of(&self, path: &Path) -> Option<usize> {
        self.by_path.get(normalized(path).as_ref()).copied()
    }

    /// Files of `kind` that share `id` with file `index` (duplicates).
    pub fn same_id(&self, kind: FileKind, id: &str) -> &[usize] {
        self.by_id
            .get(&(kind, id.to_string()))
            .map_or(&[], Vec::as_slice)
    }

    pub fn doc(&self, index: usize) -> Option<&Document> {
        self.files.get(index).and_then(|l| l.doc.as_ref())
    }

    /// Resolves a reference written in file `from` to a file of `kind`.
    pub fn resolve(&self, from: usize, reference: &str, kind: FileKind) -> Resolution {
        let candidates = || {
            let mut ids: Vec<String> = self
                .by_id
                .keys()
                .filter(|(k, _)| *k == kind)
                .map(|(_, id)| id.clone())
                .collect();
            ids.sort();
            Resolution::Missing { candidates: ids }
        };
        if is_path_reference(reference) {
            let target = normalize(&self.files[from].file.dir().join(reference));
            if !target.starts_with(&self.root) || self.escaping.contains(&target) {
                return Resolution::OutsideRoot;
            }
            return match self.by_path.get(&target) {
                Some(&i) => match self.doc(i).map(Document::kind) {
                    Some(k) if k != kind => Resolution::WrongKind(k),
                    _ => Resolution::Found(i),
                },
                // Not loaded: a symlink out of the root is still `outside-root`.
                None if target.exists()
                    && std::fs::canonicalize(&target)
                        .is_ok_and(|real| !real.starts_with(&self.canonical_root)) =>
                {
                    Resolution::OutsideRoot
                }
                None => candidates(),
            };
        }
        match self.by_id.get(&(kind, reference.to_string())) {
            Some(found) => Resolution::Found(found[0]),
            None => candidates(),
        }
    }

    /// A file of `kind` that would answer the id `reference` but did not load: its
    /// typed document could not be read (a syntax error, a missing field), so it has no
    /// id in the project. Found by the id at the top of its text, read from its tokens,
    /// or else by its name (`x.system.ron` for `x`). Asked only when a reference found
    /// nothing, so that the reference can say where the file is rather than that there
    /// is none.
    pub fn unloaded(&self, kind: FileKind, reference: &str) -> Option<usize> {
        let by_name = |l: &Loaded| {
            let name = l.file.file_name();
            name.strip_prefix(reference)
                .is_some_and(|rest| rest.starts_with(&format!(".{}.", kind.name())))
        };
        let candidates = || {
            self.files
                .iter()
                .enumerate()
                .filter(|(_, l)| l.doc.is_none() && l.kind == Some(kind))
        };
        candidates()
            .find(|(_, l)| l.file.tree().top_level_string("id").as_deref() == Some(reference))
            .or_else(|| candidates().find(|(_, l)| by_name(l)))
            .map(|(i, _)| i)
    }

    /// The compiled map of a map file.
    pub fn terrain_map(&self, index: usize) -> Option<&TerrainMap> {
        self.maps.get(&index)
    }

    /// The compiled open table of a table map file.
    pub fn table(&self, index: usize) -> Option<&TableTerrain> {
        self.tables.get(&index)
    }

    /// The terrain a scenario is played on: its map with the scenario's terrain
    /// modifications applied, or the map itself.
    pub fn scenario_map(&self, scenario: usize) -> Option<&TerrainMap> {
        if let Some(m) = self.scenario_maps.get(&scenario) {
            return Some(m.as_ref());
        }
        let Some(Document::Scenario(s)) = self.doc(scenario) else {
            return None;
        };
        match self.resolve(scenario, &s.map, FileKind::Map) {
            Resolution::Found(i) => self.terrain_map(i),
            _ => None,
        }
    }

    fn system_of(&self, index: usize, reference: &str) -> Option<&RulesSystem> {
        match self.resolve(index, reference, FileKind::System) {
            Resolution::Found(i) => match self.doc(i) {
                Some(Document::System(s)) => Some(s),
                _ => None,
            },
            _ => None,
        }
    }

    /// The scenario's map compiled with its terrain modifications applied (for
    /// `compile`: the table names this scenario). `None` without modifications.
    pub fn compile_scenario(&self, index: usize) -> Option<TerrainMap> {
        let (s, m) = self.modified_scenario(index)?;
        let Some(Document::Map(map)) = self.doc(m) else {
            return None;
        };
        muster_map::grid_within(map, &self.limits)?;
        let system = self.system_of(m, &map.system)?;
        let hash = muster_map::source_hash(self.files[m].file.text.as_bytes());
        TerrainMap::new(muster_map::compile_for(
            map,
            system,
            &hash,
            Some((&s.id, &s.terrain_modifications)),
        ))
        .ok()
    }

    fn compile_table(&self, index: usize) -> Option<TableTerrain> {
        let Some(Document::Map(map)) = self.doc(index) else {
            return None;
        };
        let system = self.system_of(index, &map.system)?;
        let hash = muster_map::source_hash(self.files[index].file.text.as_bytes());
        muster_map::compile_table_within(map, system, &hash, &self.limits)
    }

    fn compile_map(&self, index: usize) -> Option<TerrainMap> {
        let Some(Document::Map(map)) = self.doc(index) else {
            return None;
        };
        muster_map::grid_within(map, &self.limits)?;
        let Resolution::Found(sys) = self.resolve(index, &map.system, FileKind::System) else {
            return None;
        };
        let Some(Document::System(system)) = self.doc(sys) else {
            return None;
        };
        let hash = muster_map::source_hash(self.files[index].file.text.as_bytes());
        TerrainMap::new(muster_map::compile(map, system, &hash)).ok()
    }
}

crate::declare_check! {
    /// ## What it does
    /// Refuses file references whose path leaves the project root (the folder holding
    /// `scenarios/` and `maps/`). Such files are never read.
    ///
    /// ## Why is this bad?
    /// A scenario shared with others must be self-contained, and a validator must not be
    /// tricked into reading files elsewhere on the machine (`../../etc/passwd`).
    ///
    /// ## Example
    /// ```ron
    /// system: "../../../../outside.system.ron",
    /// ```
    ///
    /// Use instead:
    /// ```ron
    /// system: "test",
    /// ```
    pub OUTSIDE_ROOT = ("references::outside-root", Error, "a file reference leaves the project root");
}

/// A file inside the project by name that leads outside it through a symlink: refused
/// unread, so that nothing of the target's content can reach any output.
fn escaping_file(path: &Path, name: &str, target: &Path) -> Loaded {
    use crate::report::{Loc, Report, Sink};
    let mut loaded = Loaded::plain(crate::source::SourceFile::new(path, name, String::new()));
    let mut sink = Sink::new(&loaded.file);
    sink.push(
        Report::new(
            &OUTSIDE_ROOT,
            Loc::Span(0..0),
            format!(
                "`{name}` is a symlink to `{}`, outside the project root",
                target.display()
            ),
        )
        .help("copy the file into the project instead of linking to it")
        .note("muster reads no file outside the project root, whatever path leads to it"),
    );
    loaded.diagnostics = sink.finish();
    loaded
}

/// The file references a document makes, with the kind each must name.
pub fn references_of(loaded: &Loaded) -> Vec<(String, FileKind)> {
    match &loaded.doc {
        Some(Document::Scenario(s)) => {
            let mut refs = vec![
                (s.system.clone(), FileKind::System),
                (s.map.clone(), FileKind::Map),
            ];
            refs.extend(s.counters.clone().map(|c| (c, FileKind::Counters)));
            refs
        }
        Some(Document::Map(m)) => vec![(m.system.clone(), FileKind::System)],
        Some(Document::Counters(c)) => vec![(c.system.clone(), FileKind::System)],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_without_disk() {
        let p = normalize(Path::new("/a/b/../c/./d.ron"));
        assert_eq!(p, PathBuf::from("/a/c/d.ron"));
        assert!(!normalize(Path::new("/proj/scenarios/../../etc/passwd")).starts_with("/proj"));
    }

    #[test]
    fn paths_taken_as_normal_are_what_normalising_gives() {
        let slow = step_by_step;
        let cases = [
            "/a/b.ron", "/a/b/", "/a//b", "/a/./b", "/a/../b", "/a/.", "/a/..", "/", "a/b",
            "/a/.b", "/a/..b", "/a/b..", "/a/b.", "/.", "//a",
        ];
        let mut normal = 0;
        for case in cases {
            let p = Path::new(case);
            if is_normal(p) {
                normal += 1;
                assert_eq!(slow(p), p, "{case}");
            }
            assert_eq!(normalize(p), slow(p), "{case}");
        }
        assert_eq!(normal, if cfg!(unix) { 5 } else { 0 });
    }

    #[test]
    fn the_parse_cache_forgets_files_that_are_gone() {
        let dir = std::env::temp_dir().join(format!("muster-evict-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cache = ParseCache::default();
        let display = |p: &Path| p.display().to_string();
        let files: Vec<PathBuf> = (0..20)
            .map(|i| {
                let p = dir.join(format!("f{i}.scenario.ron"));
                std::fs::write(&p, "Scenario()").unwrap();
                cache.get_or_load(&p, &display);
                p
            })
            .collect();
        assert_eq!(cache.len(), 20);
        cache.retain(&files[..5]);
        assert_eq!(cache.len(), 5);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_parse_cache_reuses_unchanged_files_only() {
        let dir = std::env::temp_dir().join(format!("muster-cache-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.system.ron");
        std::fs::write(&path, "System(id: \"a\")").unwrap();
        let cache = ParseCache::default();
        let name = |p: &Path| p.display().to_string();
        let first = cache.get_or_load(&path, &name);
        assert!(Arc::ptr_eq(&first, &cache.get_or_load(&path, &name)));
        std::fs::write(&path, "System(id: \"abc\")").unwrap();
        let second = cache.get_or_load(&path, &name);
        assert!(!Arc::ptr_eq(&first, &second));
        assert!(second.file.text.contains("abc"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `cp -p`, `rsync -a`, `tar x` and `touch -r` put the old modification time back on
    /// a file whose bytes changed: the cache must still see the change.
    #[test]
    fn the_parse_cache_sees_a_same_size_edit_with_its_time_put_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.system.ron");
        std::fs::write(&path, "System(id: \"aaa\")").unwrap();
        let stamp = std::fs::metadata(&path).unwrap().modified().unwrap();
        let cache = ParseCache::default();
        let name = |p: &Path| p.display().to_string();
        let first = cache.get_or_load(&path, &name);
        assert!(first.file.text.contains("aaa"));
        std::fs::write(&path, "System(id: \"bbb\")").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(stamp)
            .unwrap();
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!((meta.len(), meta.modified().unwrap()), (17, stamp));
        let second = cache.get_or_load(&path, &name);
        assert!(second.file.text.contains("bbb"), "{}", second.file.text);
        // Unchanged bytes reuse the parse.
        assert!(Arc::ptr_eq(&second, &cache.get_or_load(&path, &name)));
    }

    /// A file that can no longer be read is refused on the next load, not served from
    /// the cache. (As root, `chmod 000` does not stop reading, so the test replaces the
    /// file with a folder, which every user is refused.)
    #[test]
    fn the_parse_cache_refuses_a_file_that_became_unreadable() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.system.ron");
        std::fs::write(&path, "System(id: \"aaa\")").unwrap();
        let cache = ParseCache::default();
        let name = |p: &Path| p.display().to_string();
        let refused = |l: &Loaded| {
            l.diagnostics
                .iter()
                .any(|d| d.code == "structure::unreadable")
        };
        assert!(!refused(&cache.get_or_load(&path, &name)));
        std::fs::remove_file(&path).unwrap();
        let gone = cache.get_or_load(&path, &name);
        assert_eq!(gone.diagnostics[0].code, "structure::unreadable");
        assert!(cache.is_empty());
        std::fs::create_dir(&path).unwrap();
        let folder = cache.get_or_load(&path, &name);
        assert_eq!(folder.diagnostics[0].code, "structure::unreadable");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::remove_dir(&path).unwrap();
            std::fs::write(&path, "System(id: \"aaa\")").unwrap();
            assert!(!refused(&cache.get_or_load(&path, &name)));
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
            // Only a user the mode applies to is refused (not root).
            if std::fs::read(&path).is_err() {
                let locked = cache.get_or_load(&path, &name);
                assert_eq!(locked.diagnostics[0].code, "structure::unreadable");
                assert!(locked.diagnostics[0].message.contains("permission denied"));
            }
        }
    }

    #[test]
    fn overlay_texts_replace_the_disk_and_need_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let on_disk = dir.path().join("a.system.ron");
        std::fs::write(&on_disk, "System(id: \"disk\")").unwrap();
        let unsaved = normalize(&dir.path().join("b.map.ron"));
        let name = |p: &Path| p.display().to_string();
        let buffer = |p: &Path, text: &str| Arc::new(SourceFile::new(p, name(p), text.into()));
        let mut overlay = Overlay::new();
        let system = normalize(&on_disk);
        overlay.insert(system.clone(), buffer(&system, "System(id: \"buffer\")"));
        // Named otherwise than the loader names it: loaded from a copy of its text.
        let map = Arc::new(SourceFile::new(
            &unsaved,
            "b.map.ron",
            "Map(id: \"m\")".into(),
        ));
        overlay.insert(unsaved.clone(), Arc::clone(&map));
        let db = Db::load_with(
            dir.path(),
            &[on_disk.clone(), unsaved.clone()],
            &name,
            None,
            &overlay,
        );
        let a = db.index_of(&on_disk).unwrap();
        assert!(db.files[a].file.text.contains("buffer"));
        // The buffer's source file itself, so its tree is parsed once for every load.
        assert!(Arc::ptr_eq(&db.files[a].file, &overlay[&system]));
        let b = db.index_of(&unsaved).unwrap();
        assert!(!Arc::ptr_eq(&db.files[b].file, &map));
        assert_eq!(db.files[b].file.name, name(&unsaved));
        assert_eq!(db.files[b].file.text, map.text);
        // Leaves come and go; the project is the same after.
        let mut db = db;
        let leaf = normalize(&dir.path().join("s.scenario.ron"));
        overlay.insert(leaf.clone(), buffer(&leaf, "Scenario(id: \"s\")"));
        let before = db.files.len();
        let seen = db.with_leaves(std::slice::from_ref(&leaf), &name, &overlay, |db, ix| {
            ix.iter()
                .map(|&i| db.files[i].file.text.to_string())
                .collect::<Vec<_>>()
        });
        assert_eq!(seen, vec!["Scenario(id: \"s\")".to_string()]);
        assert_eq!(db.files.len(), before);
    }

    #[test]
    fn tells_paths_from_ids() {
        assert!(is_path_reference("../maps/x.map.ron"));
        assert!(is_path_reference("x.ron"));
        assert!(!is_path_reference("jengland"));
    }
}

/// Parsed files kept between loads, keyed by path. A file is read afresh on every load
/// and its parse reused only when its bytes are the ones parsed before: a same-size edit
/// whose modification time was put back (`cp -p`, `rsync -a`, `tar x`, `touch -r`) is
/// seen, and so is a file that can no longer be read (then it is refused as the loader
/// refuses it, `structure::unreadable`). Reading is cheap beside parsing and checking;
/// what the cache saves is the parse.
#[derive(Default)]
pub struct ParseCache {
    entries: Mutex<HashMap<PathBuf, Arc<Loaded>>>,
}

impl ParseCache {
    /// The cached parse of `path` if the file's bytes are unchanged, else a fresh one
    /// (cached). A file that cannot be read is refused and leaves the cache.
    pub fn get_or_load(
        &self,
        path: &Path,
        display: &(dyn Fn(&Path) -> String + Sync),
    ) -> Arc<Loaded> {
        self.get_or_load_known(path, display, None)
    }

    /// [`get_or_load`](Self::get_or_load), with the path's metadata when the caller
    /// already has it.
    pub fn get_or_load_known(
        &self,
        path: &Path,
        display: &(dyn Fn(&Path) -> String + Sync),
        meta: Option<std::fs::Metadata>,
    ) -> Arc<Loaded> {
        let name = display(path);
        let bytes = match read_path(path, &name, meta) {
            Ok(bytes) => bytes,
            Err(refused) => {
                if let Ok(mut entries) = self.entries.lock() {
                    entries.remove(path);
                }
                return Arc::new(*refused);
            }
        };
        if let Ok(entries) = self.entries.lock()
            && let Some(cached) = entries.get(path)
            && cached.file.name == name
            // A text read lossily (not UTF-8) never equals the bytes it was read from.
            && cached.file.text.as_bytes() == bytes.as_slice()
        {
            return cached.clone();
        }
        let loaded = Arc::new(load_bytes(path, &name, bytes));
        if let Ok(mut entries) = self.entries.lock() {
            entries.insert(path.to_path_buf(), loaded.clone());
        }
        loaded
    }

    /// Forgets every parse but those of `keep` (the files of the last load): deleted
    /// and renamed files leave the cache, so watch mode's memory follows the project,
    /// not its history.
    pub fn retain(&self, keep: &[PathBuf]) {
        let keep: std::collections::HashSet<PathBuf> = keep.iter().map(|p| normalize(p)).collect();
        if let Ok(mut entries) = self.entries.lock() {
            entries.retain(|path, _| keep.contains(path));
        }
    }

    pub fn len(&self) -> usize {
        self.entries.lock().map_or(0, |e| e.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
