//! `muster new`: a scenario, a map, a rules system, a counter sheet or a project from the templates of
//! `muster_ide::template`. Files are written atomically (a temporary file in the
//! target folder, then a link or rename) and never over an existing file without
//! `--force`. A new scenario, map, system or counter sheet is validated at once and the
//! result printed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use muster_db::Severity;
use muster_ide::catalog::Catalog;
use muster_ide::template::{self, ScenarioRequest};
use muster_model::FileKind;

use crate::cli::NewWhat;
use crate::io::{out, outln};
use crate::list::load_project;
use crate::project::display_name;
use crate::render;

pub fn run(cwd: &Path, root: Option<PathBuf>, what: NewWhat) -> Result<ExitCode, String> {
    match what {
        NewWhat::Scenario {
            name,
            system,
            map,
            armies,
            force,
        } => scenario(cwd, root, name, system, map, armies, force),
        NewWhat::Map {
            name,
            system,
            columns,
            rows,
            force,
        } => map(cwd, root, &name, &system, columns, rows, force),
        NewWhat::System { name, force } => system(cwd, root, &name, force),
        NewWhat::Counters {
            name,
            system,
            force,
        } => counters(cwd, root, &name, &system, force),
        NewWhat::Project { dir, force } => project(cwd, &dir, force),
    }
}

fn system(cwd: &Path, root: Option<PathBuf>, name: &str, force: bool) -> Result<ExitCode, String> {
    let (project, db) = load_project(cwd, root)?;
    let text = template::system(name)?;
    let path = project
        .root
        .join("scenarios")
        .join(name)
        .join(format!("{name}.system.ron"));
    refuse_taken_id(&db, FileKind::System, name, &path)?;
    drop(db);
    write_new(&path, text.as_bytes(), force)?;
    let placeholders = count_marks(&text);
    outln!(
        "wrote {}: the required sections with {placeholders} guessed lines, the optional ones as examples",
        display_name(cwd)(&path)
    );
    let code = validate_new(cwd, &project, &path)?;
    outln!(
        "next: put the rulebook's unit kinds, terrain and stacking on the lines marked `// muster: placeholder` and delete the comment; uncomment (`//~ `) the sections the rules have; then `muster new counters SHEET --system {name}`"
    );
    Ok(code)
}

fn counters(
    cwd: &Path,
    root: Option<PathBuf>,
    name: &str,
    system: &str,
    force: bool,
) -> Result<ExitCode, String> {
    let (project, db) = load_project(cwd, root)?;
    let catalog = Catalog::new(&db);
    catalog.check_system(Some(system))?;
    let rules = catalog
        .system(system)
        .ok_or_else(|| format!("no system `{system}`"))?;
    let text = template::counters(name, rules)?;
    let path = project
        .root
        .join("scenarios")
        .join(system)
        .join(format!("{name}.counters.ron"));
    refuse_taken_id(&db, FileKind::Counters, name, &path)?;
    drop(db);
    write_new(&path, text.as_bytes(), force)?;
    outln!(
        "wrote {}: armies `{name}-red` and `{name}-blue`, {} lines of guessed values",
        display_name(cwd)(&path),
        count_marks(&text)
    );
    let code = validate_new(cwd, &project, &path)?;
    outln!(
        "next: put the values printed on the counters on the lines marked `// muster: placeholder` and delete the comment, then `muster new map MAP --system {system}`"
    );
    Ok(code)
}

/// The lines of a template that carry the placeholder mark outside an example.
fn count_marks(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            !l.trim_start().starts_with(template::EXAMPLE_MARK)
                && l.trim_end()
                    .ends_with(&format!("// {}", template::PLACEHOLDER_MARK))
        })
        .count()
}

fn scenario(
    cwd: &Path,
    root: Option<PathBuf>,
    name: String,
    system: String,
    map: String,
    armies: Option<Vec<String>>,
    force: bool,
) -> Result<ExitCode, String> {
    let (project, db) = load_project(cwd, root)?;
    let path = project
        .root
        .join("scenarios")
        .join(&system)
        .join(format!("{name}.scenario.ron"));
    refuse_taken_id(&db, FileKind::Scenario, &name, &path)?;
    let request = ScenarioRequest {
        id: name,
        system,
        map,
        armies,
    };
    let made = template::scenario(&db, &request)?;
    drop(db);
    write_new(&path, made.text.as_bytes(), force)?;
    let show = display_name(cwd);
    outln!(
        "wrote {}: sides `{}` and `{}`, {} setup lines at placeholder hexes",
        show(&path),
        made.sides[0],
        made.sides[1],
        made.placeholders
    );
    let code = validate_new(cwd, &project, &path)?;
    outln!(
        "next: on each line marked `// muster: placeholder`, put the rulebook's hexes, turns, first players and victory conditions and delete the comment (`muster list edges {}` shows the edges), then `muster validate`",
        request.map
    );
    Ok(code)
}

fn map(
    cwd: &Path,
    root: Option<PathBuf>,
    name: &str,
    system: &str,
    columns: u16,
    rows: u16,
    force: bool,
) -> Result<ExitCode, String> {
    let (project, db) = load_project(cwd, root)?;
    let catalog = Catalog::new(&db);
    catalog.check_system(Some(system))?;
    let rules = catalog
        .system(system)
        .ok_or_else(|| format!("no system `{system}`"))?;
    let text = template::map(name, rules, columns, rows)?;
    let path = project
        .root
        .join("maps")
        .join(system)
        .join(format!("{name}.map.ron"));
    refuse_taken_id(&db, FileKind::Map, name, &path)?;
    drop(db);
    write_new(&path, text.as_bytes(), force)?;
    outln!(
        "wrote {}: {columns} x {rows} hexes of `{system}`",
        display_name(cwd)(&path)
    );
    validate_new(cwd, &project, &path)
}

fn project(cwd: &Path, dir: &Path, force: bool) -> Result<ExitCode, String> {
    let files = template::project();
    if !force {
        let taken: Vec<String> = files
            .iter()
            .map(|(p, _)| dir.join(p))
            .filter(|p| p.exists() && !p.ends_with(".gitkeep"))
            .map(|p| p.display().to_string())
            .collect();
        if !taken.is_empty() {
            return Err(format!(
                "not writing over {} (give `--force` to replace them)",
                taken.join(", ")
            ));
        }
    }
    let show = display_name(cwd);
    for (relative, text) in &files {
        let path = dir.join(relative);
        if path.ends_with(".gitkeep") && path.exists() {
            continue;
        }
        write_new(&path, text.as_bytes(), force)?;
        if !path.ends_with(".gitkeep") {
            outln!("wrote {}", show(&path));
        }
    }
    outln!(
        "created the project {}: `scenarios/` and `maps/` are empty; add a rules system to `scenarios/<system>/` (see {})",
        show(dir),
        show(&dir.join("README.md"))
    );
    Ok(ExitCode::SUCCESS)
}

/// Refuses an id that another file of the same kind already uses.
pub(crate) fn refuse_taken_id(
    db: &muster_db::Db,
    kind: FileKind,
    id: &str,
    path: &Path,
) -> Result<(), String> {
    let target = muster_db::project::normalize(path);
    let others: Vec<String> = db
        .same_id(kind, id)
        .iter()
        .filter(|&&i| muster_db::project::normalize(&db.files[i].file.path) != target)
        .map(|&i| db.files[i].file.name.clone())
        .collect();
    if others.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} id `{id}` is already used by {}; choose another name",
            kind.name(),
            others.join(", ")
        ))
    }
}

/// Validates the new file in its project and prints the findings and the count.
pub(crate) fn validate_new(
    cwd: &Path,
    project: &crate::project::Project,
    path: &Path,
) -> Result<ExitCode, String> {
    let name = display_name(cwd);
    let (checked, diagnostics) = muster_check::validate_project(
        &project.root,
        &[path.to_path_buf()],
        &project.config,
        &name,
    );
    let errors: Vec<_> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if !errors.is_empty() {
        let handler = render::handler(render::use_colour());
        out!("{}", render::human(&handler, &errors));
    }
    outln!("{}", render::summary_line(checked, &diagnostics));
    Ok(if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Writes `bytes` to `path` atomically, creating its folder. Without `force` an existing
/// file is never replaced, even one created meanwhile: the temporary file is linked to
/// the name, which fails if the name exists.
pub(crate) fn write_new(path: &Path, bytes: &[u8], force: bool) -> Result<(), String> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    if force {
        return muster_map::write_atomic(path, bytes)
            .map_err(|e| format!("cannot write `{}`: {e}", path.display()));
    }
    if path.exists() {
        return Err(format!(
            "`{}` exists; not writing over it (give `--force` to replace it)",
            path.display()
        ));
    }
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let temp = dir.join(format!(".{file_name}.muster-new-{}", std::process::id()));
    let result = (|| {
        muster_map::write_atomic(&temp, bytes)?;
        match std::fs::hard_link(&temp, path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(e),
            // File systems without hard links: create the name exclusively.
            Err(_) => {
                use std::io::Write;
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path)?;
                f.write_all(bytes)?;
                f.sync_all()
            }
        }
    })();
    let _ = std::fs::remove_file(&temp);
    result.map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => format!(
            "`{}` exists; not writing over it (give `--force` to replace it)",
            path.display()
        ),
        _ => format!("cannot write `{}`: {e}", path.display()),
    })
}
