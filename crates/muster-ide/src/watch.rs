//! What to re-check after files change: a pure function of the changes and the
//! project's dependency graph, so watch mode's logic is unit-tested without a watcher.
//!
//! A scenario depends on its system, counter sheet and map; a map and a counter sheet
//! depend on their system. A change re-checks the changed file and everything that
//! depends on it, directly or not, and nothing else. Files with a reference that did not
//! resolve are re-checked whenever a data file appears or changes, since it may be the
//! one they were missing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use muster_db::project::{Db, Resolution, normalize, references_of};

/// A file-system change, as the watcher reports it (after debouncing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FsChange {
    /// Created or modified (a rename over a file arrives as this).
    Written(PathBuf),
    Removed(PathBuf),
    /// A new folder: its files may have been written before it was watched.
    FolderCreated(PathBuf),
}

/// The dependency graph of a loaded project.
#[derive(Debug, Clone, Default)]
pub struct DepGraph {
    /// File -> files it depends on.
    deps: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
    /// Files with at least one reference that did not resolve.
    dangling: BTreeSet<PathBuf>,
    /// The project root: what lies above it (a project kept inside a `target` folder)
    /// says nothing about whether a file is data.
    root: PathBuf,
}

impl DepGraph {
    pub fn from_db(db: &Db) -> Self {
        let mut graph = DepGraph {
            root: db.root.clone(),
            ..DepGraph::default()
        };
        for (i, loaded) in db.files.iter().enumerate() {
            let path = normalize(&loaded.file.path);
            let mut deps = BTreeSet::new();
            for (reference, kind) in references_of(loaded) {
                match db.resolve(i, &reference, kind) {
                    Resolution::Found(j) => {
                        deps.insert(normalize(&db.files[j].file.path));
                    }
                    _ => {
                        graph.dangling.insert(path.clone());
                    }
                }
            }
            graph.deps.insert(path, deps);
        }
        graph
    }

    /// Builds a graph from explicit edges (tests, tools).
    pub fn from_edges(edges: &[(&str, &str)], dangling: &[&str]) -> Self {
        let mut graph = DepGraph::default();
        for (from, to) in edges {
            graph
                .deps
                .entry(PathBuf::from(from))
                .or_default()
                .insert(PathBuf::from(to));
            graph.deps.entry(PathBuf::from(to)).or_default();
        }
        graph.dangling = dangling.iter().map(PathBuf::from).collect();
        graph
    }

    /// Files that depend on any of `changed`, directly or through other files.
    pub fn dependents(&self, changed: &BTreeSet<PathBuf>) -> BTreeSet<PathBuf> {
        let mut out = BTreeSet::new();
        let mut frontier: Vec<PathBuf> = changed.iter().cloned().collect();
        while let Some(next) = frontier.pop() {
            for (file, deps) in &self.deps {
                if deps.contains(&next) && out.insert(file.clone()) {
                    frontier.push(file.clone());
                }
            }
        }
        out
    }

    pub fn knows(&self, path: &Path) -> bool {
        self.deps.contains_key(path)
    }

    /// The known files inside folder `dir` (a folder that was deleted or moved away).
    pub fn files_under(&self, dir: &Path) -> Vec<PathBuf> {
        self.deps
            .keys()
            .filter(|f| f.starts_with(dir) && f.as_path() != dir)
            .cloned()
            .collect()
    }
}

/// What a batch of changes requires.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recheck {
    /// Files to validate again (existing ones; removed files are dropped from the report).
    pub files: BTreeSet<PathBuf>,
    /// Files that were removed.
    pub removed: BTreeSet<PathBuf>,
    /// The project's file list must be read again (new files or folders).
    pub rescan: bool,
    /// `muster.toml` changed: settings must be read again and everything re-checked.
    pub config_changed: bool,
}

impl Recheck {
    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.removed.is_empty() && !self.rescan && !self.config_changed
    }
}

/// Editor droppings that are never data: swap and backup files, vim's `4913` probe,
/// emacs lock files, hidden files, and anything in `target/`.
pub fn is_relevant(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if path.components().any(|c| c.as_os_str() == "target") {
        return false;
    }
    if name == muster_check::config::CONFIG_FILE {
        return true;
    }
    let junk = name.starts_with('.')
        || name.starts_with('#')
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".tmp")
        || name == "4913";
    !junk && muster_db::project::is_data_file(path)
}

/// The plan for one debounced batch of changes.
pub fn plan(changes: &[FsChange], graph: &DepGraph) -> Recheck {
    let mut recheck = Recheck::default();
    let mut touched = BTreeSet::new();
    for change in changes {
        match change {
            FsChange::FolderCreated(_) => recheck.rescan = true,
            FsChange::Written(path) | FsChange::Removed(path) => {
                if path
                    .file_name()
                    .is_some_and(|n| n == muster_check::config::CONFIG_FILE)
                {
                    recheck.config_changed = true;
                    continue;
                }
                if !is_relevant(path.strip_prefix(&graph.root).unwrap_or(path)) {
                    // A folder deleted or moved away (`rm -rf`, a rename): the files it
                    // held are gone, whatever events arrived for them.
                    if matches!(change, FsChange::Removed(_)) {
                        for file in graph.files_under(path) {
                            touched.insert(file.clone());
                            recheck.removed.insert(file);
                        }
                    }
                    continue;
                }
                touched.insert(path.clone());
                match change {
                    FsChange::Removed(_) => {
                        recheck.removed.insert(path.clone());
                    }
                    _ => {
                        recheck.removed.remove(path);
                        if !graph.knows(path) {
                            recheck.rescan = true;
                        }
                        recheck.files.insert(path.clone());
                    }
                }
            }
        }
    }
    let written_or_new = recheck.rescan || !recheck.files.is_empty();
    recheck.files.extend(graph.dependents(&touched));
    if written_or_new {
        recheck.files.extend(graph.dangling.iter().cloned());
    }
    for removed in &recheck.removed {
        recheck.files.remove(removed);
    }
    recheck
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_project_inside_a_target_folder_is_watched() {
        let mut g = DepGraph::from_edges(
            &[(
                "/home/a/target/p/scenarios/a.scenario.ron",
                "/home/a/target/p/maps/a.map.ron",
            )],
            &[],
        );
        g.root = PathBuf::from("/home/a/target/p");
        let r = plan(
            &[FsChange::Written(PathBuf::from(
                "/home/a/target/p/maps/a.map.ron",
            ))],
            &g,
        );
        assert!(
            r.files
                .contains(Path::new("/home/a/target/p/scenarios/a.scenario.ron"))
        );
        // Inside the project, `target/` is still build output.
        let r = plan(
            &[FsChange::Written(PathBuf::from(
                "/home/a/target/p/target/x.map.ron",
            ))],
            &g,
        );
        assert!(r.is_empty());
    }

    #[test]
    fn a_deleted_folder_removes_its_files_and_rechecks_their_dependents() {
        let g = graph();
        let r = plan(&[FsChange::Removed(PathBuf::from("/p/maps"))], &g);
        assert_eq!(
            r.removed,
            BTreeSet::from([
                PathBuf::from("/p/maps/a.map.ron"),
                PathBuf::from("/p/maps/b.map.ron")
            ])
        );
        assert!(r.files.contains(Path::new("/p/scenarios/a.scenario.ron")));
        assert!(r.files.contains(Path::new("/p/scenarios/b.scenario.ron")));
        assert!(!r.is_empty());
    }

    fn graph() -> DepGraph {
        DepGraph::from_edges(
            &[
                ("/p/scenarios/a.scenario.ron", "/p/scenarios/lrf.system.ron"),
                ("/p/scenarios/a.scenario.ron", "/p/maps/a.map.ron"),
                ("/p/scenarios/b.scenario.ron", "/p/scenarios/lrf.system.ron"),
                ("/p/scenarios/b.scenario.ron", "/p/maps/b.map.ron"),
                ("/p/maps/a.map.ron", "/p/scenarios/lrf.system.ron"),
                ("/p/maps/b.map.ron", "/p/scenarios/lrf.system.ron"),
            ],
            &[],
        )
    }

    fn set(items: &[&str]) -> BTreeSet<PathBuf> {
        items.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn a_map_change_rechecks_its_scenarios_only() {
        let plan = plan(&[FsChange::Written("/p/maps/a.map.ron".into())], &graph());
        assert_eq!(
            plan.files,
            set(&["/p/maps/a.map.ron", "/p/scenarios/a.scenario.ron"])
        );
        assert!(!plan.rescan);
    }

    #[test]
    fn a_system_change_rechecks_everything_that_uses_it() {
        let plan = plan(
            &[FsChange::Written("/p/scenarios/lrf.system.ron".into())],
            &graph(),
        );
        assert_eq!(plan.files.len(), 5);
    }

    #[test]
    fn a_deleted_map_rechecks_its_scenarios() {
        let plan = plan(&[FsChange::Removed("/p/maps/b.map.ron".into())], &graph());
        assert_eq!(plan.files, set(&["/p/scenarios/b.scenario.ron"]));
        assert_eq!(plan.removed, set(&["/p/maps/b.map.ron"]));
    }

    #[test]
    fn delete_then_recreate_in_one_batch_is_a_write() {
        let changes = [
            FsChange::Removed("/p/maps/b.map.ron".into()),
            FsChange::Written("/p/maps/b.map.ron".into()),
        ];
        let plan = plan(&changes, &graph());
        assert!(plan.removed.is_empty());
        assert!(plan.files.contains(Path::new("/p/maps/b.map.ron")));
    }

    #[test]
    fn new_files_and_folders_rescan() {
        let plan1 = plan(
            &[FsChange::Written("/p/scenarios/new.scenario.ron".into())],
            &graph(),
        );
        assert!(plan1.rescan);
        let plan2 = plan(
            &[FsChange::FolderCreated("/p/scenarios/more".into())],
            &graph(),
        );
        assert!(plan2.rescan && plan2.files.is_empty());
    }

    #[test]
    fn editor_droppings_are_ignored() {
        for junk in [
            "/p/maps/.a.map.ron.swp",
            "/p/maps/a.map.ron~",
            "/p/maps/4913",
            "/p/maps/#a.map.ron#",
            "/p/target/x.ron",
            "/p/notes.txt",
        ] {
            let plan = plan(&[FsChange::Written(junk.into())], &graph());
            assert!(plan.is_empty(), "{junk}");
        }
    }

    #[test]
    fn config_changes_are_flagged() {
        let plan = plan(&[FsChange::Written("/p/muster.toml".into())], &graph());
        assert!(plan.config_changed);
    }

    #[test]
    fn dangling_references_are_retried_when_files_appear() {
        let g = DepGraph::from_edges(
            &[("/p/s.scenario.ron", "/p/x.system.ron")],
            &["/p/s.scenario.ron"],
        );
        let plan = plan(&[FsChange::Written("/p/maps/new.map.ron".into())], &g);
        assert!(plan.files.contains(Path::new("/p/s.scenario.ron")));
    }
}
